"""Risk games played straight on the rules, without the bus: for training and quick benchmarks.

The policies are the Strategy Offices' own functions of (observation, legal actions), so a game
here makes the same decisions as through the stack; only the dice differ (the referee's
generator is seeded from its address, this one from `chance_seed`), unless the game's header
names the same `chance_seed` (bus.header), as a logged training game's does (actors.risk.train):
then it is the same game. Nothing here is logged.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.api import Outcome
from games.risk.rules import Risk, RiskState

Policy = Callable[[dict[str, Any], list[str]], str]
# (state, seat about to act, its observation) -> None: called before every decision
Watcher = Callable[[RiskState, int, dict[str, Any]], None]

GAME = Risk()


def random_policy(seed: str) -> Policy:
    """Uniform over the legal actions (the generic `random` agent's play)."""
    rng = random.Random(seed)
    return lambda obs, legal: legal[rng.randrange(len(legal))]


def play(policies: list[Policy], options: dict[str, Any], chance_seed: str,
         watch: Watcher | None = None) -> tuple[RiskState, Outcome]:
    """One game, seat i played by policies[i]; returns the final state and its outcome."""
    state = GAME.new_initial_state(options)
    dice = random.Random(chance_seed)
    for _ in range(GAME.max_steps + 1):  # the rules' own length bound: a game that never ends fails
        if state.is_terminal():
            return state, state.outcome()
        if state.is_chance():
            state.apply_chance(state.sample_chance(dice))
            continue
        seat = state.current_players()[0]
        obs = state.observation(seat)
        if watch is not None:
            watch(state, seat, obs)
        legal = state.legal_actions(seat)
        action = policies[seat](obs, legal)
        if action not in legal:
            raise ValueError(f"seat {seat} chose {action!r}, not legal in phase {obs['phase']}")
        state.apply_action(action)
    raise RuntimeError(f"{chance_seed}: no end after {GAME.max_steps} steps")
