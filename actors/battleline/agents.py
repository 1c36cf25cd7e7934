"""Battle Line agents, each a President with offices:

| name | offices | what |
| --- | --- | --- |
| naive | so | the troop that builds the strongest formation, on the flag where it counts most; no tactics |
| deep-barca | so (+io) | McCulloch et al. 2017 section 3: per-flag MFA / BSFA chances, the game-win chance, wishlists, the tactics rules of 3.6 |

`deep-barca:offices=so+io` adds our Intelligence Office (the opponent's hand inferred from its
plays instead of 3.4's even split); `deep-barca:params.mfa_weight=0.3` and the like change a
constant of params.py. (The generic `random` agent plays Battle Line too.)
"""

from __future__ import annotations

from pydantic import Field

from actors.alpha.builder import AlphaAgent, office_from, president_from
from actors.alpha.options import AgentOptions
from actors.alpha.traits import Traits
from actors.battleline.offices import (
    BattleLinePresident,
    DeepBarcaIntelligenceOffice,
    DeepBarcaStrategyOffice,
    NaiveStrategyOffice,
)
from actors.battleline.params import DeepBarcaParams
from actors.registry import AgentDef

GAMES = frozenset({"battleline"})
# The offices read the observation (and the IO's beliefs); nothing else of the KB.
PRESIDENT = president_from(BattleLinePresident, views={"so": ("beliefs", "observation"),
                                                       "io": ("beliefs", "observation")})
BUDGET = {"battleline": {}}  # one game with tactics: a few seconds through the whole stack


class NaiveOptions(AgentOptions):
    """Options of `naive`."""

    roles = ("so",)
    agent = "naive"
    traits: Traits = Traits(risk=0.0)  # the best suggestion, always
    width: int = Field(3, ge=1)  # suggestions handed to the President


class DeepBarcaOptions(AgentOptions):
    """Options of `deep-barca`: offices `so` (the paper's agent) or `so+io` (ours)."""

    roles = ("io", "so")
    agent = "deep-barca"
    traits: Traits = Traits(risk=0.0)  # 3.2: "chooses the option that maximizes this probability"
    params: DeepBarcaParams = Field(default_factory=DeepBarcaParams)


NAIVE = AlphaAgent(options=NaiveOptions, president=PRESIDENT,
                   offices={"so": office_from(NaiveStrategyOffice, "width")})
DEEP_BARCA = AlphaAgent(options=DeepBarcaOptions, president=PRESIDENT,
                        offices={"so": office_from(DeepBarcaStrategyOffice, "params"),
                                 "io": office_from(DeepBarcaIntelligenceOffice, "params")})

AGENTS: list[AgentDef] = [
    AgentDef("naive", GAMES, NAIVE.build,
             "strongest formation on the flag where it counts most; never a tactics card",
             budget=BUDGET, games_in_budget=1),
    AgentDef("deep-barca", GAMES, DEEP_BARCA.build,
             "McCulloch et al. 2017: MFA/BSFA flag chances, game-win chance, wishlists, 3.6 tactics (+io: ours)",
             budget=BUDGET, games_in_budget=1),
]
