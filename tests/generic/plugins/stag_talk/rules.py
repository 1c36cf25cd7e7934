"""Stag talk: three hunters, a few rounds. Each round chance makes every hunter hungry or not (each
sees only its own hunger), the hunters talk on one channel for two rounds, then each hunts "stag"
or "hare" at once. A hare feeds its hunter 1 (2 if hungry); a stag feeds each of its hunters 3 if
at least two hunt it, else nothing. Returns are each hunter's food over 3 per round."""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from games.api import (CHANCE, OBSERVATION_STATE, PRIVATE_INFORMATION, SIMULTANEOUS, TALK, Game, IllegalAction,
                       Options, Outcome, State, TalkSpec)

HUNTS = ("hare", "stag")
N = 3


class StagOptions(Options):
    rounds: int = Field(4, ge=1, le=50)


class StagState(State):
    def __init__(self, options: StagOptions):
        self.rounds = options.rounds
        self.hunger: list[int] | None = None
        self.scores = [0] * N
        self.history: list[list[str]] = []

    def _over(self) -> bool:
        return len(self.history) >= self.rounds

    def current_players(self) -> list[int]:
        return [] if self._over() or self.hunger is None else list(range(N))

    def is_terminal(self) -> bool:
        return self._over()

    def is_chance(self) -> bool:
        return not self._over() and self.hunger is None

    def sample_chance(self, rng: random.Random) -> Any:
        return [rng.randrange(2) for _ in range(N)]

    def apply_chance(self, outcome: Any) -> None:
        bad = not isinstance(outcome, list) or len(outcome) != N or any(h not in (0, 1) for h in outcome)
        if not self.is_chance() or bad:
            raise IllegalAction(f"not a hunger draw: {outcome!r}")
        self.hunger = list(outcome)

    def legal_actions(self, player: int) -> list[str]:
        return list(HUNTS) if player in self.current_players() else []

    def default_action(self, player: int) -> str:
        return "hare"

    def apply_actions(self, actions: dict[int, str]) -> None:
        if sorted(actions) != self.current_players() or any(a not in HUNTS for a in actions.values()):
            raise IllegalAction(f"need a hunt from each of {self.current_players()}, got {actions}")
        stags = sum(1 for a in actions.values() if a == "stag")
        for p in range(N):
            self.scores[p] += (3 if stags >= 2 else 0) if actions[p] == "stag" else 1 + self.hunger[p]
        self.history.append([actions[p] for p in range(N)])
        self.hunger = None

    def talk(self) -> TalkSpec | None:
        return TalkSpec(channels={"camp": tuple(range(N))}, max_rounds=2) if self.current_players() else None

    def observation(self, player: int) -> dict[str, Any]:
        return {"me": player, "rounds": self.rounds, "scores": list(self.scores),
                "history": [list(h) for h in self.history],
                "hungry": None if self.hunger is None else self.hunger[player]}

    def resample_hidden(self, player: int, rng: random.Random) -> "StagState":
        new = self.clone()
        if new.hunger is not None:
            new.hunger = [h if p == player else rng.randrange(2) for p, h in enumerate(new.hunger)]
        return new

    def outcome(self) -> Outcome:
        best = max(self.scores)
        return Outcome(returns=tuple(s / (3 * self.rounds) for s in self.scores),
                       winners=tuple(p for p in range(N) if self.scores[p] == best), summary=str(self.scores))

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "hunger": self.hunger, "scores": list(self.scores),
                "history": [list(h) for h in self.history]}

    def clone(self) -> "StagState":
        return StagTalk().state_from_json(self.to_json())


class StagTalk(Game):
    """Stag talk (a third-party test plugin)."""

    name = "stag_talk"
    options_model = StagOptions
    capabilities = frozenset({CHANCE, SIMULTANEOUS, TALK, PRIVATE_INFORMATION, OBSERVATION_STATE})
    max_steps = 200

    def num_players(self, options: Options) -> int:
        return N

    def new_initial_state(self, options: Options) -> StagState:
        return StagState(options if isinstance(options, StagOptions) else self.options(options))

    def state_from_json(self, data: dict[str, Any]) -> StagState:
        state = StagState(StagOptions(rounds=data["rounds"]))
        state.hunger = None if data["hunger"] is None else list(data["hunger"])
        state.scores, state.history = list(data["scores"]), [list(h) for h in data["history"]]
        return state

    def state_from_observation(self, player: int, observation: dict[str, Any]) -> StagState:
        """The others' hunger is unseen: filled as not hungry (resample_hidden redraws it)."""
        state = StagState(StagOptions(rounds=observation["rounds"]))
        state.scores, state.history = list(observation["scores"]), [list(h) for h in observation["history"]]
        if observation["hungry"] is not None:
            state.hunger = [observation["hungry"] if p == player else 0 for p in range(N)]
        return state

    def actions_seen(self, player: int, observation: dict[str, Any]) -> dict[int, str]:
        history = observation["history"]
        return {p: a for p, a in enumerate(history[-1])} if history else {}
