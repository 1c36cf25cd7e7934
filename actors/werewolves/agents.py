"""Werewolves agents: `alphawolf` (thesis 5.2), registered for specs and tournaments.

    alphawolf                                    full AlphaWolf (PR+SO+FO+IO) in every role
    alphawolf:offices=so+fo                      PR+SO+FO whatever the role
    alphawolf:village=so;wolves=so+fo+io         offices by dealt role: PR+SO on the village
                                                 side, full AlphaWolf as a werewolf
    alphawolf:village=random                     the random agent when on the village side

An office set is `so`, `fo`, `io` joined by `+` (the President is always there; `pr` may be
written and is ignored; empty means the President alone), or `random`: a President with the
random Strategy Office, exactly the `random` agent. `village` and `wolves` default to `offices`.
The role is read from the first observation, so every office either side may need is built.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from actors.actor import Actor
from actors.alpha.baseline import RandomStrategyOffice
from actors.alpha.offices import office_set
from actors.alpha.traits import Traits
from actors.registry import AgentDef
from actors.werewolves.foreign import WolfForeignOffice
from actors.werewolves.intelligence import WolfIntelligenceOffice
from actors.werewolves.params import WolfParams
from actors.werewolves.president import SIDES, WerewolvesPresident
from actors.werewolves.strategy import WolfStrategyOffice

_OFFICES = ("fo", "io", "so")
RANDOM = "random"


def parse_offices(value: Any) -> str:
    """Canonical office set: "random", or the sorted offices joined by "+" ("" for none)."""
    if isinstance(value, str) and value.strip().lower() == RANDOM:
        return RANDOM
    return "+".join(office_set(value, tuple(_OFFICES), "alphawolf (or 'random')"))


class AlphaWolfOptions(BaseModel):
    """Options of `alphawolf`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    offices: str = "so+fo+io"
    village: str | None = None  # office set on the village side (villager, seer, doctor)
    wolves: str | None = None  # office set as a werewolf
    # "thesis": algorithms 4, 5 and 6 as written (with the documented choices of params.py);
    # "improved": the seer claims and accuses, every IO reads claims (claims.py).
    variant: Literal["thesis", "improved"] = "improved"
    # The thesis' PR "will take the action it agreed to on the deal": honesty 1 by default.
    traits: Traits = Traits(honesty=1.0)
    params: WolfParams = Field(default_factory=WolfParams)

    @field_validator("offices", "village", "wolves", mode="before")
    @classmethod
    def _canonical(cls, value: Any) -> Any:
        return None if value is None else parse_offices(value)

    def side(self, side: str) -> str:
        chosen = self.village if side == "village" else self.wolves
        return self.offices if chosen is None else chosen


def build_alphawolf(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list[Actor]:
    opts = AlphaWolfOptions.model_validate(raw)
    pr = f"p{seat}"
    configs: dict[str, dict[str, str]] = {}
    views: dict[str, dict[str, tuple[str, ...]]] = {}
    wanted: set[str] = set()
    for side in SIDES:
        chosen = opts.side(side)
        if chosen == RANDOM:
            configs[side] = {"so": f"{pr}/rso"}
            views[side] = {"so": ()}  # the random office needs no KB: legal actions travel with the request
            wanted.add("rso")
        else:
            roles = [r for r in chosen.split("+") if r]
            configs[side] = {role: f"{pr}/{role}" for role in roles}
            wanted.update(roles)
    kinds = {"fo": WolfForeignOffice, "io": WolfIntelligenceOffice, "so": WolfStrategyOffice}
    actors: list[Actor] = [WerewolvesPresident(pr, seed, seat, configs, opts.traits, views, opts.params.choice_sharpness)]
    for name in sorted(wanted):
        if name == "rso":
            actors.append(RandomStrategyOffice(f"{pr}/rso", seed))
        else:
            actors.append(kinds[name](f"{pr}/{name}", seed, opts.params, opts.variant))
    return actors


AGENTS: list[AgentDef] = [
    AgentDef(
        "alphawolf",
        frozenset({"werewolves"}),
        build_alphawolf,
        "AlphaWolf (Marinheiro 2016, 5.2): threat-value SO, concession FO with sealed night bids, "
        "role-predicting IO; offices=so+fo+io, or village=/wolves= office sets by dealt role",
        budget={"werewolves": {"max_days": 10}},
    ),
]
