"""Tune peak: two players each pick a level 0..10 at once, then chance rolls 0..99 for each; a
player hits when its roll is below 100 * q(level), q(a) = 0.9 - 0.12 * |a - 7| (0.06 at level 0,
0.9 at level 7). A player who hits while the other misses wins; otherwise nobody does. Against a
player at level 0, the chance to win is q(a) * 0.94: highest at level 7, the planted optimum."""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from games.api import CHANCE, SIMULTANEOUS, Game, IllegalAction, Options, Outcome, State

PEAK = 7
LEVELS = [str(a) for a in range(11)]  # actions are text


def hit_chance(level: int) -> float:
    return 0.9 - 0.12 * abs(level - PEAK)


class PeakOptions(Options):
    rounds: int = Field(1, ge=1, le=1)


class PeakState(State):
    def __init__(self) -> None:
        self.levels: list[int] | None = None
        self.rolls: list[int] | None = None

    def current_players(self) -> list[int]:
        return [0, 1] if self.levels is None else []

    def is_terminal(self) -> bool:
        return self.rolls is not None

    def is_chance(self) -> bool:
        return self.levels is not None and self.rolls is None

    def sample_chance(self, rng: random.Random) -> Any:
        return [rng.randrange(100), rng.randrange(100)]

    def apply_chance(self, outcome: Any) -> None:
        if not self.is_chance() or not (isinstance(outcome, list) and len(outcome) == 2
                                        and all(isinstance(r, int) and 0 <= r < 100 for r in outcome)):
            raise IllegalAction(f"not two rolls 0..99 here: {outcome!r}")
        self.rolls = list(outcome)

    def legal_actions(self, player: int) -> list[str]:
        return list(LEVELS) if player in self.current_players() else []

    def default_action(self, player: int) -> str:
        return "0"

    def apply_actions(self, actions: dict[int, str]) -> None:
        if sorted(actions) != self.current_players() or any(a not in LEVELS for a in actions.values()):
            raise IllegalAction(f"need one level 0..10 from each of {self.current_players()}, got {actions}")
        self.levels = [int(actions[0]), int(actions[1])]

    def observation(self, player: int) -> dict[str, Any]:
        return {"levels": self.levels, "rolls": self.rolls}

    def _hits(self) -> list[bool]:
        return [self.rolls[p] < round(100 * hit_chance(self.levels[p])) for p in (0, 1)]

    def outcome(self) -> Outcome:
        hits = self._hits()
        winners = () if hits[0] == hits[1] else ((0,) if hits[0] else (1,))
        return Outcome(returns=(float(hits[0]), float(hits[1])), winners=winners, summary=f"{hits[0]:d}-{hits[1]:d}")

    def to_json(self) -> dict[str, Any]:
        return {"levels": self.levels, "rolls": self.rolls}

    def clone(self) -> "PeakState":
        return TunePeak().state_from_json(self.to_json())


class TunePeak(Game):
    """Tune peak (a test plugin)."""

    name = "tune_peak"
    options_model = PeakOptions
    capabilities = frozenset({CHANCE, SIMULTANEOUS})
    max_steps = 10

    def num_players(self, options: Options) -> int:
        return 2

    def new_initial_state(self, options: Options) -> PeakState:
        return PeakState()

    def state_from_json(self, data: dict[str, Any]) -> PeakState:
        state = PeakState()
        state.levels = None if data["levels"] is None else list(data["levels"])
        state.rolls = None if data["rolls"] is None else list(data["rolls"])
        return state
