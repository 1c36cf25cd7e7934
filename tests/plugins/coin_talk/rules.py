"""Coin talk: each round a hidden coin is flipped (chance), both players say which side they will
call (talk), then both call at once; a right call scores a point. Saying is cheap: a player may
call the other side, which is what the opponent's trust is about."""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import Field

from games.api import CHANCE, SIMULTANEOUS, TALK, Game, IllegalAction, Options, Outcome, State, TalkItem, TalkSpec

SIDES = ("heads", "tails")


class CoinOptions(Options):
    rounds: int = Field(3, ge=1, le=50)


class CoinClaim(TalkItem):
    """What the speaker says it will call this round."""

    kind: Literal["coin_claim"] = "coin_claim"
    call: Literal["heads", "tails"]


class CoinState(State):
    def __init__(self, options: CoinOptions):
        self.o = options
        self.coin: str | None = None  # this round's hidden side
        self.scores = [0, 0]
        self.history: list[dict[str, Any]] = []  # per round: coin, calls

    def _over(self) -> bool:
        return len(self.history) >= self.o.rounds

    def current_players(self) -> list[int]:
        return [] if self._over() or self.coin is None else [0, 1]

    def is_terminal(self) -> bool:
        return self._over()

    def is_chance(self) -> bool:
        return not self._over() and self.coin is None

    def sample_chance(self, rng: random.Random) -> Any:
        return rng.choice(SIDES)

    def apply_chance(self, outcome: Any) -> None:
        if not self.is_chance() or outcome not in SIDES:
            raise IllegalAction(f"not a coin side here: {outcome!r}")
        self.coin = outcome

    def legal_actions(self, player: int) -> list[str]:
        return list(SIDES) if player in self.current_players() else []

    def default_action(self, player: int) -> str:
        return "heads"

    def apply_actions(self, actions: dict[int, str]) -> None:
        if sorted(actions) != self.current_players() or any(a not in SIDES for a in actions.values()):
            raise IllegalAction(f"need one side from each of {self.current_players()}, got {actions}")
        for p, a in actions.items():
            self.scores[p] += a == self.coin
        self.history.append({"coin": self.coin, "calls": [actions[0], actions[1]]})
        self.coin = None

    def talk(self) -> TalkSpec | None:
        return TalkSpec(channels={"table": (0, 1)}, max_rounds=1) if self.current_players() else None

    def observation(self, player: int) -> dict[str, Any]:
        return {"round": len(self.history), "scores": list(self.scores), "history": [dict(h) for h in self.history]}

    def outcome(self) -> Outcome:
        a, b = self.scores
        return Outcome(returns=(a / self.o.rounds, b / self.o.rounds),
                       winners=() if a == b else ((0,) if a > b else (1,)), summary=f"{a}-{b}")

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.o.rounds, "coin": self.coin, "scores": list(self.scores),
                "history": [dict(h) for h in self.history]}

    def clone(self) -> "CoinState":
        return CoinTalk().state_from_json(self.to_json())


class CoinTalk(Game):
    """Coin talk: call hidden coins after saying what you will call (a test plugin)."""

    name = "coin_talk"
    options_model = CoinOptions
    capabilities = frozenset({CHANCE, SIMULTANEOUS, TALK})
    talk_models = (CoinClaim,)
    max_steps = 200

    def num_players(self, options: Options) -> int:
        return 2

    def new_initial_state(self, options: Options) -> CoinState:
        return CoinState(self.options(options.model_dump()) if isinstance(options, Options) else self.options(options))

    def state_from_json(self, data: dict[str, Any]) -> CoinState:
        state = CoinState(CoinOptions(rounds=data["rounds"]))
        state.coin, state.scores = data["coin"], list(data["scores"])
        state.history = [dict(h) for h in data["history"]]
        return state
