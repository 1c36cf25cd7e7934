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

from pydantic import Field, model_validator

from actors.actor import Actor
from actors.alpha.builder import AlphaAgent, office_from, president_from
from actors.alpha.options import AgentOptions
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
# Personality presets. The thesis' PR keeps its deals: honesty 1 by default.
PRESETS: dict[str, dict[str, float]] = {
    "default": {"honesty": 1.0, "aggressiveness": 0.5, "trust": 0.5, "risk": 0.0},
    "betrayer": {"honesty": 0.0, "aggressiveness": 1.0, "trust": 0.5, "risk": 0.0},
}
ARCHETYPES = {"no_press": ("so",), "naive": ("fo", "so"), "dipblue": ("fo", "io", "so")}


class _PresetOptions(AgentOptions):
    """`preset` names the traits' defaults; the `traits.*` written override them."""

    preset: Literal["default", "betrayer"] = "default"
    traits: Traits = Traits(**PRESETS["default"])

    @model_validator(mode="before")
    @classmethod
    def _preset_traits(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("preset", "default") not in PRESETS:
            return data  # not options as written, or a bad preset: the field errors say so
        traits = data.get("traits")
        if traits is not None and not isinstance(traits, dict):
            return data
        return {**data, "traits": {**PRESETS[data.get("preset", "default")], **(traits or {})}}


class AlphaDipOptions(_PresetOptions):
    """Options of `alphadip`."""

    agent = "alphadip"
    offices: tuple[str, ...] = ("fo", "io", "so")
    params: AlphaDipParams = Field(default_factory=AlphaDipParams)

    @classmethod
    def parse_offices(cls, value: Any) -> tuple[str, ...]:
        """Any office set with the Strategy Office."""
        names = super().parse_offices(value)
        if "so" not in names:
            raise ValueError("AlphaDip needs its Strategy Office (offices: so, so+fo, so+fo+io)")
        return names


class DipBlueOptions(_PresetOptions):
    """Options of `dipblue`: the archetype chooses the offices."""

    agent = "dipblue"
    archetype: Literal["no_press", "naive", "dipblue"] = "dipblue"
    offices: tuple[str, ...] = ARCHETYPES["dipblue"]

    @model_validator(mode="before")
    @classmethod
    def _archetype_offices(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if "offices" in data:
            raise ValueError("dipblue: its offices follow from archetype=no_press|naive|dipblue")
        archetype = data.get("archetype", "dipblue")
        return {**data, "offices": ARCHETYPES[archetype]} if archetype in ARCHETYPES else data


ALPHADIP = AlphaAgent(
    options=AlphaDipOptions,
    president=president_from(DiplomacyPresident, "params.keep_word"),
    offices={
        "fo": office_from(AlphaDipForeignOffice, "params"),
        "io": office_from(AlphaDipIntelligenceOffice, "params"),
        "so": office_from(AlphaDipStrategyOffice, "params"),
    },
)


def _dipblue_so(address: str, seed: int, opts: DipBlueOptions) -> Actor:
    """Without press only the map adviser; otherwise every adviser."""
    return DipBlueStrategyOffice(address, seed, "map" if opts.archetype == "no_press" else "all")


def _dipblue_fo(address: str, seed: int, opts: DipBlueOptions) -> Actor:
    """The betrayer accepts every deal (and breaks it whenever breaking pays)."""
    return DipBlueForeignOffice(address, seed, accept_all=opts.preset == "betrayer")


DIPBLUE = AlphaAgent(
    options=DipBlueOptions,
    president=president_from(DiplomacyPresident),
    offices={"fo": _dipblue_fo, "io": office_from(DipBlueIntelligenceOffice), "so": _dipblue_so},
)


AGENTS: list[AgentDef] = [
    AgentDef("alphadip", GAMES, ALPHADIP.build,
             "AlphaDip (Marinheiro 2016, 5.1.1): goal- and trust-weighted guaranteed-centre SO with a "
             "node-budget branch and bound, coalition FO, goal-predicting IO; offices=so|so+fo|so+fo+io",
             budget={"diplomacy": {"max_year": 1901}}),
    AgentDef("dipblue", GAMES, DIPBLUE.build,
             "DipBlue (Ferreira et al. 2015): advisers SO, trust-ratio IO, peace/alliance FO; "
             "archetype=no_press|naive|dipblue, preset=betrayer",
             budget={"diplomacy": {"max_year": 1902}}),
]
