"""`alphadip` and `dipblue`, registered through `actors/diplomacy/agents.py`.

    alphadip                                  PR+SO+FO+IO (thesis 5.1.1)
    alphadip:offices=so                       PR+SO;  offices=so+fo: PR+SO+FO
    alphadip:preset=betrayer                  honesty 0: breaks a deal whenever breaking pays
    alphadip:params.node_budget=2000          branch-and-bound nodes per search
    alphadip:params.keep_word=true            the PR checks its orders against its deals (president.py)
    dipblue                                   full DipBlue (advisers, trust ratio, peace/alliances)
    dipblue:archetype=naive                   negotiates, no trust reasoning; archetype=no_press
    dipblue:preset=betrayer                   accepts every deal, breaks it whenever breaking pays

Traits (`traits.honesty=0.8` ...) override the preset's. Honesty is the probability of keeping a
deal when breaking it pays; aggressiveness raises the goal value of others' centres (AlphaDip);
trust is the prior trust in strangers (AlphaDip: trust value 2 (1 - trait), 1 at 0.5).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from actors.actor import Actor
from actors.alpha.offices import office_set
from actors.alpha.traits import Traits
from actors.diplomacy.alphadip.offices import (
    AlphaDipForeignOffice,
    AlphaDipIntelligenceOffice,
    AlphaDipParams,
    AlphaDipStrategyOffice,
)
from actors.diplomacy.alphadip.president import DiplomacyPresident
from actors.diplomacy.dipblue import DipBlueForeignOffice, DipBlueIntelligenceOffice, DipBlueStrategyOffice
from actors.registry import AgentDef

GAMES = frozenset({"diplomacy"})
# Personality presets (issue 7 item 5). The thesis' PR keeps its deals: honesty 1 by default.
PRESETS: dict[str, dict[str, float]] = {
    "default": {"honesty": 1.0, "aggressiveness": 0.5, "trust": 0.5, "risk": 0.0},
    "betrayer": {"honesty": 0.0, "aggressiveness": 1.0, "trust": 0.5, "risk": 0.0},
}


def _offices(value: Any) -> str:
    parts = office_set(value, agent="alphadip")
    if "so" not in parts:
        raise ValueError("AlphaDip needs its Strategy Office (offices: so, so+fo, so+fo+io)")
    return "+".join(parts)


def _traits(preset: str, raw: dict[str, Any] | None) -> Traits:
    return Traits(**{**PRESETS[preset], **(raw or {})})


class AlphaDipOptions(BaseModel):
    """Options of `alphadip`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    offices: str = "fo+io+so"
    preset: Literal["default", "betrayer"] = "default"
    traits: dict[str, float] = Field(default_factory=dict)
    params: AlphaDipParams = Field(default_factory=AlphaDipParams)

    @field_validator("offices", mode="before")
    @classmethod
    def _canonical(cls, value: Any) -> Any:
        return _offices(value)


def build_alphadip(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list[Actor]:
    opts = AlphaDipOptions.model_validate(raw)
    pr = f"p{seat}"
    roles = opts.offices.split("+")
    offices = {r: f"{pr}/{r}" for r in roles}
    kinds = {"so": AlphaDipStrategyOffice, "fo": AlphaDipForeignOffice, "io": AlphaDipIntelligenceOffice}
    actors: list[Actor] = [DiplomacyPresident(pr, seed, seat, offices, _traits(opts.preset, opts.traits),
                                              keep_word=opts.params.keep_word)]
    actors += [kinds[r](offices[r], seed, opts.params) for r in roles]
    return actors


ARCHETYPES = {"no_press": ("so",), "naive": ("fo", "so"), "dipblue": ("fo", "io", "so")}


class DipBlueOptions(BaseModel):
    """Options of `dipblue`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    archetype: Literal["no_press", "naive", "dipblue"] = "dipblue"
    preset: Literal["default", "betrayer"] = "default"
    traits: dict[str, float] = Field(default_factory=dict)


def build_dipblue(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list[Actor]:
    opts = DipBlueOptions.model_validate(raw)
    pr = f"p{seat}"
    roles = ARCHETYPES[opts.archetype]
    offices = {r: f"{pr}/{r}" for r in roles}
    actors: list[Actor] = [DiplomacyPresident(pr, seed, seat, offices, _traits(opts.preset, opts.traits))]
    for r in roles:
        if r == "so":
            actors.append(DipBlueStrategyOffice(offices[r], seed, "map" if opts.archetype == "no_press" else "all"))
        elif r == "fo":
            actors.append(DipBlueForeignOffice(offices[r], seed, accept_all=opts.preset == "betrayer"))
        else:
            actors.append(DipBlueIntelligenceOffice(offices[r], seed))
    return actors


AGENTS: list[AgentDef] = [
    AgentDef("alphadip", GAMES, build_alphadip,
             "AlphaDip (Marinheiro 2016, 5.1.1): goal- and trust-weighted guaranteed-centre SO with a "
             "node-budget branch and bound, coalition FO, goal-predicting IO; offices=so|so+fo|so+fo+io",
             budget={"diplomacy": {"max_year": 1901}}),
    AgentDef("dipblue", GAMES, build_dipblue,
             "DipBlue (Ferreira et al. 2015): advisers SO, trust-ratio IO, peace/alliance FO; "
             "archetype=no_press|naive|dipblue, preset=betrayer",
             budget={"diplomacy": {"max_year": 1902}}),
]
