"""Risk agents, registered for specs and tournaments (the generic `random` plays Risk too).

    heuristic                       ours: exact odds, continents and borders (PR+SO)
    heuristic:offices=so+io         with the Intelligence Office (opponents' strength, aggression)
    td                              the seed's agent with the shipped trained network (PR+SO)
    td:net=random;net_seed=3        the same machinery with random weights (the seed's baseline)
    td:net=trained-2000             the same training run's checkpoint after 2,000 games
    td:net=mistrained               the shipped "incorrectly-trained" network (see params.LearnParams)
    td:params.odds=exact            exact odds instead of the seed's simulated battles
    td:net=given;weights={...};learn=true   a network given in full (its sha256 checked) that learns
                                    by TD(lambda) as it plays: a training game's seat (actors.risk.train)

Both Presidents take their Strategy Office's one suggestion (traits.risk 0).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from actors.alpha.builder import AlphaAgent, office_from, president_from
from actors.alpha.options import AgentOptions
from actors.alpha.traits import Traits
from actors.registry import AgentDef
from actors.risk.network import Net
from actors.risk.offices import HeuristicStrategyOffice, RiskIntelligenceOffice, RiskPresident, TDStrategyOffice
from actors.risk.params import HIDDEN, INPUTS, HeuristicParams, LearnParams, TDParams

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


class Weights(BaseModel):
    """A network given in full (network.FORMAT's integer w1 and w2) and its sha256 (`Net.digest`),
    which must match: a log names the network it starts from, and carries it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    w1: tuple[tuple[StrictInt, ...], ...] = Field(min_length=HIDDEN, max_length=HIDDEN)
    w2: tuple[StrictInt, ...] = Field(min_length=HIDDEN + 1, max_length=HIDDEN + 1)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")

    @model_validator(mode="after")
    def _check(self) -> Weights:
        if any(len(row) != INPUTS + 1 for row in self.w1):
            raise ValueError(f"w1 rows have {INPUTS + 1} weights each")
        if self.net().digest() != self.sha256:
            raise ValueError(f"the weights' sha256 is {self.net().digest()}, not {self.sha256}")
        return self

    def net(self) -> Net:
        return Net(self.w1, self.w2)


_LEARN = LearnParams()


class TDOptions(_Options):
    """Options of `td`."""

    agent = "td"
    net: Literal["trained", "trained-2000", "mistrained", "random", "given"] = "trained"
    net_seed: int = 0  # the random network's seed (net=random)
    weights: Weights | None = None  # the network (net=given)
    # learn: the network learns by TD(lambda) as it plays (network.Learner; a training game's seat)
    learn: bool = False
    alpha: float = Field(_LEARN.alpha, gt=0.0)
    lam: float = Field(_LEARN.lam, ge=0.0, le=1.0)
    update: Literal["td", "misupdate"] = _LEARN.update
    params: TDParams = Field(default_factory=TDParams)

    @model_validator(mode="after")
    def _given(self) -> TDOptions:
        if (self.net == "given") != (self.weights is not None):
            raise ValueError("weights= goes with net=given, and net=given needs weights=")
        return self


HEURISTIC = AlphaAgent(
    options=HeuristicOptions,
    president=PRESIDENT,
    offices={"so": office_from(HeuristicStrategyOffice, "params"), "io": office_from(RiskIntelligenceOffice)},
)

TD = AlphaAgent(
    options=TDOptions,
    president=PRESIDENT,
    offices={"so": office_from(TDStrategyOffice, "net", "net_seed", "weights", "learn", "alpha", "lam", "update",
                                    "params"), "io": office_from(RiskIntelligenceOffice)},
)

AGENTS: list[AgentDef] = [
    AgentDef("heuristic", GAMES, HEURISTIC.build,
             "Risk heuristic (ours): exact odds, continent focus, border defence; offices=so+io adds the IO",
             budget=BUDGET),
    AgentDef("td", GAMES, TD.build,
             "Keppler & Choi 2000: a TD-trained 48-10-1 network and its claim/placement/60% attack/fortify "
             "machinery as the Strategy Office; net=trained|trained-2000|mistrained|random|given (weights=, "
             "sha256 checked); learn=true: TD(lambda) while it plays",
             budget=BUDGET),
]
