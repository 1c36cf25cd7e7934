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

from pydantic import Field, field_validator

from actors.alpha.baseline import RandomStrategyOffice
from actors.alpha.builder import AlphaAgent, office_from
from actors.alpha.options import AgentOptions
from actors.alpha.traits import Traits
from actors.registry import AgentDef
from actors.werewolves.foreign import WolfForeignOffice
from actors.werewolves.intelligence import WolfIntelligenceOffice
from actors.werewolves.params import WolfParams
from actors.werewolves.president import SIDES, WerewolvesPresident
from actors.werewolves.strategy import WolfStrategyOffice

# "random": the random agent's office set, its random Strategy Office (at pN/rso, so that a lineup
# with another office set on the other side keeps both Strategy Offices apart).
RANDOM = ("rso",)


class AlphaWolfOptions(AgentOptions):
    """Options of `alphawolf`."""

    agent = "alphawolf (or 'random')"
    offices: tuple[str, ...] = ("fo", "io", "so")
    village: tuple[str, ...] | None = None  # office set on the village side (villager, seer, doctor)
    wolves: tuple[str, ...] | None = None  # office set as a werewolf
    # "thesis": algorithms 4, 5 and 6 as written (with the documented choices of params.py);
    # "improved": the seer claims and accuses, every IO reads claims (claims.py).
    variant: Literal["thesis", "improved"] = "improved"
    # The thesis' PR "will take the action it agreed to on the deal": honesty 1 by default.
    traits: Traits = Traits(honesty=1.0)
    params: WolfParams = Field(default_factory=WolfParams)

    @field_validator("village", "wolves", mode="before")
    @classmethod
    def _sides(cls, value: Any) -> tuple[str, ...] | None:
        return None if value is None else cls.parse_offices(value)

    @classmethod
    def parse_offices(cls, value: Any) -> tuple[str, ...]:
        """`random` (or its canonical form `rso`), or offices joined by "+"."""
        text = "+".join(str(v) for v in value) if isinstance(value, (list, tuple)) else value
        if isinstance(text, str) and text.strip().lower() in ("random", *RANDOM):
            return RANDOM
        return super().parse_offices(value)

    def side(self, side: str) -> tuple[str, ...]:
        """The office set of `side` ("village" or "wolves")."""
        chosen = self.village if side == "village" else self.wolves
        return self.offices if chosen is None else chosen

    def office_names(self) -> tuple[str, ...]:
        """Every office either side may need: the role is dealt after the actors are built."""
        return tuple(sorted({name for side in SIDES for name in self.side(side)}))


def _president(address: str, seed: int, seat: int, offices: dict[str, str], opts: AlphaWolfOptions) -> WerewolvesPresident:
    """A President with one office set per side; `random` asks its random SO with no KB view."""
    configs: dict[str, dict[str, str]] = {}
    views: dict[str, dict[str, tuple[str, ...]]] = {}
    for side in SIDES:
        chosen = opts.side(side)
        if chosen == RANDOM:
            configs[side] = {"so": offices["rso"]}
            views[side] = {"so": ()}  # the random office needs no KB: legal actions travel with the request
        else:
            configs[side] = {role: offices[role] for role in chosen}
    return WerewolvesPresident(address, seed, seat, configs, opts.traits, views, opts.params.choice_sharpness,
                               bluffs=opts.params.bluffs and opts.variant == "improved" and "so" in opts.side("wolves"))


ALPHAWOLF = AlphaAgent(
    options=AlphaWolfOptions,
    president=_president,
    offices={
        "fo": office_from(WolfForeignOffice, "params", "variant"),
        "io": office_from(WolfIntelligenceOffice, "params", "variant"),
        "rso": office_from(RandomStrategyOffice),
        "so": office_from(WolfStrategyOffice, "params", "variant"),
    },
)


AGENTS: list[AgentDef] = [
    AgentDef(
        "alphawolf",
        frozenset({"werewolves"}),
        ALPHAWOLF.build,
        "AlphaWolf (Marinheiro 2016, 5.2): threat-value SO, concession FO with sealed night bids, "
        "role-predicting IO; offices=so+fo+io, or village=/wolves= office sets by dealt role",
        budget={"werewolves": {"max_days": 10}},
    ),
]
