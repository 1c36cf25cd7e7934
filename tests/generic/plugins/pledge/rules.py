"""Pledge (ours, a public-goods game with private values): three players, a few rounds. Each round
chance deals every player a card of value 1, 2 or 3 (each sees only its own), the players talk on
one channel for two rounds, then each at once either keeps its card (scoring 4 x its value) or
gives it to the pot, each player scoring 3 x the pot's total. A round
shows everyone who gave and the pot, never a kept card. Keeping is every player's best reply, all
giving is best for all. Returns are each player's score over the most a round can give, 30, times
the rounds.

Written against the Game API's required part only: no state_from_observation, no actions_seen, no
provisional returns, no cheap playout policy, no views."""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from games.api import (CHANCE, PRIVATE_INFORMATION, SIMULTANEOUS, TALK, Game, IllegalAction, Options, Outcome, State,
                       TalkSpec)

MOVES = ("give", "keep")
N = 3
TOP = 30  # a round's most: keeping a 3 (12) while both others give their 3 (3 x 6)


class PledgeOptions(Options):
    rounds: int = Field(4, ge=1, le=50)


class PledgeState(State):
    def __init__(self, rounds: int):
        self.rounds = rounds
        self.cards: list[int] | None = None
        self.scores = [0] * N
        self.history: list[dict[str, Any]] = []  # per round: who gave, the pot

    def _over(self) -> bool:
        return len(self.history) >= self.rounds

    def current_players(self) -> list[int]:
        return [] if self._over() or self.cards is None else list(range(N))

    def is_terminal(self) -> bool:
        return self._over()

    def is_chance(self) -> bool:
        return not self._over() and self.cards is None

    def sample_chance(self, rng: random.Random) -> Any:
        return [rng.randrange(1, 4) for _ in range(N)]

    def apply_chance(self, outcome: Any) -> None:
        bad = not isinstance(outcome, list) or len(outcome) != N or any(c not in (1, 2, 3) for c in outcome)
        if not self.is_chance() or bad:
            raise IllegalAction(f"not a deal: {outcome!r}")
        self.cards = list(outcome)

    def legal_actions(self, player: int) -> list[str]:
        return list(MOVES) if player in self.current_players() else []

    def default_action(self, player: int) -> str:
        return "keep"

    def apply_actions(self, actions: dict[int, str]) -> None:
        if sorted(actions) != self.current_players() or any(a not in MOVES for a in actions.values()):
            raise IllegalAction(f"need a move from each of {self.current_players()}, got {actions}")
        pot = sum(self.cards[p] for p in range(N) if actions[p] == "give")
        for p in range(N):
            self.scores[p] += 3 * pot + (4 * self.cards[p] if actions[p] == "keep" else 0)
        self.history.append({"moves": [actions[p] for p in range(N)], "pot": pot})
        self.cards = None

    def talk(self) -> TalkSpec | None:
        return TalkSpec(channels={"table": tuple(range(N))}, max_rounds=2) if self.current_players() else None

    def observation(self, player: int) -> dict[str, Any]:
        return {"me": player, "rounds": self.rounds, "scores": list(self.scores),
                "history": [{"moves": list(h["moves"]), "pot": h["pot"]} for h in self.history],
                "card": None if self.cards is None else self.cards[player]}

    def resample_hidden(self, player: int, rng: random.Random) -> "PledgeState":
        """The others' cards of this round redrawn (the past ones were never part of the state)."""
        new = self.clone()
        if new.cards is not None:
            new.cards = [c if p == player else rng.randrange(1, 4) for p, c in enumerate(new.cards)]
        return new

    def outcome(self) -> Outcome:
        best = max(self.scores)
        return Outcome(returns=tuple(s / (TOP * self.rounds) for s in self.scores),
                       winners=tuple(p for p in range(N) if self.scores[p] == best), summary=str(self.scores))

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "cards": self.cards, "scores": list(self.scores),
                "history": [{"moves": list(h["moves"]), "pot": h["pot"]} for h in self.history]}

    def clone(self) -> "PledgeState":
        return Pledge().state_from_json(self.to_json())


class Pledge(Game):
    """Pledge (a third-party test plugin)."""

    name = "pledge"
    options_model = PledgeOptions
    capabilities = frozenset({CHANCE, SIMULTANEOUS, TALK, PRIVATE_INFORMATION})
    max_steps = 200

    def num_players(self, options: Options) -> int:
        return N

    def new_initial_state(self, options: Options) -> PledgeState:
        return PledgeState((options if isinstance(options, PledgeOptions) else self.options(options)).rounds)

    def state_from_json(self, data: dict[str, Any]) -> PledgeState:
        state = PledgeState(int(data["rounds"]))
        state.cards = None if data["cards"] is None else [int(c) for c in data["cards"]]
        state.scores = [int(s) for s in data["scores"]]
        state.history = [{"moves": [str(m) for m in h["moves"]], "pot": int(h["pot"])} for h in data["history"]]
        return state
