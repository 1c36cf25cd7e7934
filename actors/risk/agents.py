"""Risk agents, registered for specs and tournaments (the generic `random` plays Risk too).

    heuristic                       ours: exact odds, continents and borders (PR+SO)
    heuristic:offices=so+io         with the Intelligence Office (opponents' strength, aggression)
    td                              the seed's agent with the shipped trained network (PR+SO)
    td:net=random;net_seed=3        the same machinery with random weights (the seed's baseline)
    td:net=trained-2000             the same training run's checkpoint after 2,000 games
    td:net=mistrained               the shipped "incorrectly-trained" network (see params.LearnParams)
    td:params.odds=exact            exact odds instead of the seed's simulated battles

Both Presidents take their Strategy Office's one suggestion (traits.risk 0).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from actors.alpha.builder import AlphaAgent, office_from, president_from
from actors.alpha.options import AgentOptions
from actors.alpha.traits import Traits
from actors.registry import AgentDef
from actors.risk.offices import HeuristicStrategyOffice, RiskIntelligenceOffice, RiskPresident, TDStrategyOffice
from actors.risk.params import HeuristicParams, TDParams

GAMES = frozenset({"risk"})
VIEWS = {"so": ("legal", "observation", "seat"), "io": ("beliefs", "observation", "seat", "seen")}
PRESIDENT = president_from(RiskPresident, views=VIEWS)
BUDGET = {"risk": {"max_rounds": 4, "players": 3}}  # agent conformance: short three-player games


class _Options(AgentOptions):
    roles = ("io", "so")
    traits: Traits = Traits(risk=0.0)  # take the Strategy Office's suggestion


class HeuristicOptions(_Options):
    """Options of `heuristic`."""

    agent = "heuristic"
    params: HeuristicParams = Field(default_factory=HeuristicParams)


class TDOptions(_Options):
    """Options of `td`."""

    agent = "td"
    net: Literal["trained", "trained-2000", "mistrained", "random"] = "trained"
    net_seed: int = 0  # the random network's seed (net=random)
    params: TDParams = Field(default_factory=TDParams)


HEURISTIC = AlphaAgent(
    options=HeuristicOptions,
    president=PRESIDENT,
    offices={"so": office_from(HeuristicStrategyOffice, "params"), "io": office_from(RiskIntelligenceOffice)},
)

TD = AlphaAgent(
    options=TDOptions,
    president=PRESIDENT,
    offices={"so": office_from(TDStrategyOffice, "net", "net_seed", "params"), "io": office_from(RiskIntelligenceOffice)},
)

AGENTS: list[AgentDef] = [
    AgentDef("heuristic", GAMES, HEURISTIC.build,
             "Risk heuristic (ours): exact odds, continent focus, border defence; offices=so+io adds the IO",
             budget=BUDGET),
    AgentDef("td", GAMES, TD.build,
             "Keppler & Choi 2000: a TD-trained 48-10-1 network and its claim/placement/60% attack/fortify "
             "machinery as the Strategy Office; net=trained|trained-2000|mistrained|random",
             budget=BUDGET),
]
