"""The `peaker` agent: an Alpha President with a Strategy Office that suggests its `level`
option (rounded to a whole level), and nothing else."""

from __future__ import annotations

from pydantic import Field

from actors.alpha.builder import AlphaAgent, office_from
from actors.alpha.offices import Answer, StrategyOffice
from actors.alpha.options import AgentOptions
from actors.registry import AgentDef
from bus.messages import OfficeRequest, Suggestion


class PeakerOptions(AgentOptions):
    roles = ("so",)
    agent = "peaker"
    level: float = Field(2.0, ge=0.0, le=10.0)  # the hand-set level: 2 (the optimum is 7)


class PeakerSO(StrategyOffice):
    def __init__(self, address: str, seed: int, level: float):
        super().__init__(address, seed)
        self.level = level

    def suggest(self, request: OfficeRequest) -> Answer:
        return Answer(suggestions=[Suggestion(action=str(int(round(self.level))), utility=1.0)])


PEAKER = AlphaAgent(options=PeakerOptions, offices={"so": office_from(PeakerSO, "level")})

AGENTS = [AgentDef("peaker", frozenset({"tune_peak"}), PEAKER.build, "plays its level option (test plugin)")]
