"""Each Hanabi strategy as one policy `(observation, legal, rng, options) -> action`, and a plain
loop that plays a game with policies straight on the rules (benchmarks and quick experiments; the
agents in `actors.hanabi.agents` run the same functions inside their offices).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from actors.hanabi import osawa
from actors.hanabi.estimate import estimate
from actors.hanabi.view import View
from games.hanabi.rules import Hanabi, HanabiState

Policy = Callable[[dict[str, Any], list[str], random.Random, dict[str, Any]], str]


def osawa_random(obs, legal, rng, opts) -> str:
    return osawa.random_strategy(View(obs), legal, rng)


def full_information(obs, legal, rng, opts) -> str:
    return osawa.full_information(View(obs), legal, rng)


def rational(obs, legal, rng, opts) -> str:
    return osawa.rational(View(obs), legal, rng, counting=opts.get("counting", True))


def self_estimation(obs, legal, rng, opts) -> str:
    view = View(obs)
    beliefs = estimate(view, opts.get("a", 2.5), opts.get("copies", False))
    return osawa.rational(view, legal, rng, counting=opts.get("counting", True), beliefs=beliefs,
                          believe_discard=opts.get("believe_discard", True),
                          beliefs_first=opts.get("beliefs_first", False))


def alpha(obs, legal, rng, opts) -> str:
    from actors.hanabi.alpha import alpha_policy

    return alpha_policy(obs, legal, rng, opts)


POLICIES: dict[str, Policy] = {
    "alpha": alpha,
    "osawa-random": osawa_random,
    "full-information": full_information,
    "rational": rational,
    "self-estimation": self_estimation,
}


def play_direct(policy: Policy | list[Policy], options: dict[str, Any], seed: int,
                agent_options: dict[str, Any] | None = None, deck: list[str] | None = None) -> HanabiState:
    """One game on the rules alone; the deck (unless given) and each seat's generator come from
    `seed`."""
    game = Hanabi()
    state = game.new_initial_state(options)
    n = state._n
    policies = policy if isinstance(policy, list) else [policy] * n
    state.apply_chance(deck if deck is not None else state.sample_chance(random.Random(f"deal/{seed}")))
    rngs = [random.Random(f"seat/{seed}/{p}") for p in range(n)]
    opts = agent_options or {}
    for _ in range(game.max_steps + 1):  # the rules' own length bound: a game that never ends fails
        if state.is_terminal():
            return state
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        action = policies[p](state.observation(p), legal, rngs[p], opts)
        if action not in legal:
            raise RuntimeError(f"seed {seed}: policy chose illegal {action!r}")
        state.apply_action(action)
    raise RuntimeError(f"seed {seed}: no end after {game.max_steps} steps")
