"""The `peaker` agent: an Alpha President with a Strategy Office that suggests its `level`
option (rounded to a whole level), and nothing else."""

from __future__ import annotations

import os
import time
from pathlib import Path

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


RENDEZVOUS = "DETENTE_TEST_RENDEZVOUS"  # a folder: the test that sets it wants two processes at once
_met = False


def _rendezvous(folder: str, wait_s: float = 30.0) -> None:
    """In a Ray actor (a trial's process, not the driver), mark this process in `folder`, then wait
    (at most `wait_s`) until a second actor has marked it too: a test's proof that two trials ran
    side by side, whatever the machine's load."""
    global _met
    if _met:
        return
    import ray

    if not ray.is_initialized() or ray.get_runtime_context().get_actor_id() is None:
        return  # the driver builds agents too (checking the options); it is no trial
    here = Path(folder)
    (here / str(os.getpid())).touch()
    deadline = time.monotonic() + wait_s
    while len(list(here.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    _met = True


class PeakerSO(StrategyOffice):
    def __init__(self, address: str, seed: int, level: float):
        super().__init__(address, seed)
        self.level = level
        if os.environ.get(RENDEZVOUS):
            _rendezvous(os.environ[RENDEZVOUS])

    def suggest(self, request: OfficeRequest) -> Answer:
        return Answer(suggestions=[Suggestion(action=str(int(round(self.level))), utility=1.0)])


PEAKER = AlphaAgent(options=PeakerOptions, offices={"so": office_from(PeakerSO, "level")})

AGENTS = [AgentDef("peaker", frozenset({"tune_peak"}), PEAKER.build, "plays its level option (test plugin)")]
