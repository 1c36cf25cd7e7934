"""The agents' decisions played straight on the rules, without the bus: for benchmarks and tests.

The same functions the offices run (strategy.suggest, naive.naive_suggest, intelligence.infer),
picked as the President picks with risk 0 (the best utility, ties drawn with the seat's own
generator). Chance comes from one generator seeded by the game seed, so a game is a function of
(seed, agents, options); these are not the games the bus would play for that seed (its referee
and actors draw from their own generators).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from actors.battleline.intelligence import infer
from actors.battleline.naive import naive_suggest
from actors.battleline.params import DeepBarcaParams
from actors.battleline.strategy import suggest
from games.battleline.cards import CARD_OF
from games.battleline.rules import BattleLine

GAME = BattleLine()
Policy = Callable[[dict[str, Any], list[str], random.Random], str]


def pick(suggestions: list[tuple[str, float]], rng: random.Random) -> str:
    """The President's pick with risk 0: the best utility, ties uniformly."""
    top = max(u for _, u in suggestions)
    best = [a for a, u in suggestions if u == top]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def random_policy(obs: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    return legal[rng.randrange(len(legal))]


def naive_policy(obs: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    return pick(naive_suggest(obs, legal), rng)


@dataclass
class DeepBarcaPolicy:
    """Deep Barca; with `io`, the Intelligence Office's beliefs replace the even split."""

    params: DeepBarcaParams = field(default_factory=DeepBarcaParams)
    io: bool = False
    beliefs: dict[str, Any] | None = None
    times: list[float] = field(default_factory=list)  # CPU seconds per decision that reached the model

    def __call__(self, obs: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        t0 = time.process_time()
        hand = None
        if self.io and obs["phase"] == "play":
            self.beliefs = infer(obs, self.beliefs, self.params)
            hand = {CARD_OF[c]: h for c, h in self.beliefs["hand"].items()}
        suggestions, _ = suggest(obs, legal, self.params, hand)
        action = pick(suggestions, rng)
        self.times.append(time.process_time() - t0)
        return action


def make_policy(name: str, params: DeepBarcaParams | None = None) -> Policy:
    """`random`, `naive`, `deep-barca` or `deep-barca+io`."""
    if name == "random":
        return random_policy
    if name == "naive":
        return naive_policy
    if name in ("deep-barca", "deep-barca+io"):
        return DeepBarcaPolicy(params or DeepBarcaParams(), io=name.endswith("+io"))
    raise ValueError(f"unknown policy {name!r} (random, naive, deep-barca, deep-barca+io)")


def play_direct(policies: list[Policy], seed: int, options: dict[str, Any] | None = None):
    """One game (or series) played to its end; returns the final state."""
    state = GAME.new_initial_state(options or {})
    chance = random.Random(f"battleline-chance-{seed}")
    rngs = [random.Random(f"battleline-seat-{seed}-{s}") for s in (0, 1)]
    for _ in range(GAME.max_steps + 1):  # the rules' own length bound: a game that never ends fails
        if state.is_terminal():
            return state
        if state.is_chance():
            state.apply_chance(state.sample_chance(chance))
            continue
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        action = policies[p](state.observation(p), legal, rngs[p])
        state.apply_actions({p: action})
    raise RuntimeError(f"seed {seed}: no end after {GAME.max_steps} steps")
