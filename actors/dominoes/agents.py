"""Partnership Dominoes agents, each a President with offices (DESIGN.md section 1).

| name | offices | what |
| --- | --- | --- |
| individualist | so | seed 3.3 "estrategia no cooperativa": heaviest double, else the tile whose other end repeats most |
| glutton-blocker | fo+io+so | seed 3.3-3.4: one partner sheds its heaviest tiles, the other blocks; roles by the seed's rules, from the partner signal (FO, game option `signal`) or from its own hand; swapped after the glutton's second pass |
| alpha-pair | io+so | ours: IO beliefs (passes, counting, the opening convention), SO scores tiles by the pair's chance to win the hand over sampled deals |

Seat them in pairs (seats 0 & 2, 1 & 3): `glutton-blocker,individualist,glutton-blocker,individualist`.
(The generic `random` agent plays Dominoes too.)
"""

from __future__ import annotations

from pydantic import Field

from actors.actor import Actor
from actors.alpha.builder import AlphaAgent, office_from, president_from
from actors.alpha.options import AgentOptions
from actors.alpha.traits import Traits
from actors.dominoes import search
from actors.dominoes.offices import (
    AlphaIntelligenceOffice,
    AlphaStrategyOffice,
    DominoesPresident,
    PairIntelligenceOffice,
    SeedStrategyOffice,
    SignalForeignOffice,
)
from actors.registry import AgentDef

GAMES = frozenset({"dominoes"})
VIEWS = {"so": ("beliefs", "observation", "seat"), "io": ("beliefs", "inbox", "observation", "seat"),
         "fo": ("observation", "seat", "talk")}
PRESIDENT = president_from(DominoesPresident, views=VIEWS)
BUDGET = {"dominoes": {"target": 30}}  # a short match for the conformance suite


class _Options(AgentOptions):
    roles = ("so",)
    traits: Traits = Traits(risk=0.0)  # risk 0: the President takes the best suggestion


class IndividualistOptions(_Options):
    """individualist: the President and its Strategy Office."""

    agent = "individualist"


class GluttonBlockerOptions(_Options):
    """glutton-blocker: the FO sends the partner signal (when the game opens the channel), the IO
    remembers passes, the signal and the roles. `offices=io+so` never signals; `so` forgets passes."""

    agent = "glutton-blocker"
    roles = ("fo", "io", "so")
    offices: tuple[str, ...] = ("fo", "io", "so")


class AlphaPairOptions(_Options):
    """alpha-pair: sampled deals per decision (`samples`), behind the IO's beliefs
    (`belief_samples`, 0: none logged), suggestions handed to the President (`width`), a won
    hand's utility per point of margin (`margin_weight`), the weight of a sampled deal that breaks
    the opening convention (`convention_miss`); search.py says more."""

    agent = "alpha-pair"
    roles = ("io", "so")
    offices: tuple[str, ...] = ("io", "so")
    samples: int = Field(search.SAMPLES, ge=1, le=1000)
    belief_samples: int = Field(search.BELIEF_SAMPLES, ge=0, le=1000)
    width: int = Field(3, ge=1)
    margin_weight: float = Field(search.MARGIN_WEIGHT, ge=0.0, le=0.1)  # a win's utility per point of margin
    convention_miss: float = Field(search.CONVENTION_MISS, ge=0.0, le=1.0)  # weight of a deal breaking the opening convention


def _seed_so(strategy: str):
    def make(address: str, seed: int, options: _Options) -> Actor:
        return SeedStrategyOffice(address, seed, strategy)

    return make


INDIVIDUALIST = AlphaAgent(options=IndividualistOptions, president=PRESIDENT,
                           offices={"so": _seed_so("individualist")})
GLUTTON_BLOCKER = AlphaAgent(options=GluttonBlockerOptions, president=PRESIDENT,
                             offices={"so": _seed_so("glutton-blocker"), "io": office_from(PairIntelligenceOffice),
                                      "fo": office_from(SignalForeignOffice)})
ALPHA_PAIR = AlphaAgent(options=AlphaPairOptions, president=PRESIDENT,
                        offices={"so": office_from(AlphaStrategyOffice, "samples", "width", "margin_weight",
                                                           "convention_miss"),
                                 "io": office_from(AlphaIntelligenceOffice, "belief_samples", "convention_miss")})

AGENTS: list[AgentDef] = [
    AgentDef("individualist", GAMES, INDIVIDUALIST.build,
             "Martinez & Munoz 2005 individualist: heaviest double, else the tile whose other end repeats most",
             budget=BUDGET),
    AgentDef("glutton-blocker", GAMES, GLUTTON_BLOCKER.build,
             "Martinez & Munoz 2005 cooperative pair: glutton sheds heavy tiles, blocker blocks; signal option",
             budget={"dominoes": {"target": 30, "signal": True}}),
    AgentDef("alpha-pair", GAMES, ALPHA_PAIR.build,
             "Alpha Dominoes pair: pass and counting beliefs, opening convention, sampled-deal tile scores",
             budget=BUDGET),
]
