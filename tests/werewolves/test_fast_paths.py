"""The werewolves rules' cached observation and digest give what the plain ones did: the observation
as it was built from `_known` and the visible events, the digest as `State.digest` hashes to_json,
at every node of random games, after clones and resamples too (each starts caches of its own)."""

from __future__ import annotations

import random

import pytest

from games.api import State
from games.registry import get_game


def _plain_observation(state, p: int) -> dict:
    """The observation as the rules made it before the caches (the reference)."""
    known = state._known(p)
    return {
        "me": p,
        "role": state._roles[p],
        "phase": {"night_tie": "night"}.get(state._phase, state._phase),
        "day": state._day,
        "num_players": state._n,
        "alive": [q for q in range(state._n) if state._alive[q]],
        "candidates": list(state._candidates or []),
        "known_roles": {str(q): known[q] for q in sorted(known)},
        "events": list(state._visible_views(p)),
        "winner": state._winner,
    }


def _check(state, where: str) -> None:
    assert state.digest() == State.digest(state), where
    if state._roles is None:
        return
    for p in range(state._n):
        got = state.observation(p)
        assert got == _plain_observation(state, p), f"{where}: observation({p})"
        assert list(got) == list(_plain_observation(state, p))


OPTIONS = [{}, {"players": 8, "tie_rule": "revote_then_random"}, {"players": 5, "reveal_roles": False},
           {"players": 12, "werewolves": 3, "seers": 2, "first_phase": "day"}]


@pytest.mark.parametrize("options", OPTIONS, ids=range(len(OPTIONS)))
def test_cached_observations_and_digests_are_the_plain_ones(options):
    game = get_game("werewolves")
    opts = game.options(options)
    for seed in range(25):
        rng = random.Random(seed)
        state = game.new_initial_state(opts)
        step = 0
        while not state.is_terminal():
            _check(state, f"seed {seed} step {step}")
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                if rng.random() < 0.2:  # a clone and a resample keep their own caches right
                    _check(state.clone(), f"seed {seed} step {step} clone")
                    p = rng.choice(state.current_players())
                    other = state.resample_hidden(p, rng)
                    _check(other, f"seed {seed} step {step} resampled for {p}")
                state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
            step += 1
        _check(state, f"seed {seed} end")


def test_observation_parts_are_shared_only_while_unchanged():
    """The shared lists are new objects once they change: a holder of an old observation keeps it."""
    game = get_game("werewolves")
    state = game.new_initial_state(game.options({}))
    rng = random.Random(3)
    state.apply_chance(state.sample_chance(rng))
    first = {p: state.observation(p) for p in state.current_players()}
    frozen = {p: _plain_observation(state, p) for p in first}
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
        for p in range(state._n):
            state.observation(p)
    assert first == frozen
