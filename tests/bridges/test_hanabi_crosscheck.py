"""OpenSpiel's Hanabi through the bridge (`openspiel-hanabi`, chance drawn as the referee draws it)
against detente's own Hanabi: for the same dealt deck and the same deterministic policy, the same
final score on 200 deals. The action notation is tests/hanabi's (OpenSpiel's words to ours); HLE
zeroes the score on a bomb-out, so ours runs with bomb_out_scores_zero=true (as there)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from games.hanabi.cards import CARD_OF  # noqa: E402
from games.registry import get_game  # noqa: E402
from tests.hanabi.test_rules_openspiel import _ours  # noqa: E402

DEALS = 200


def _policy(state, p: int, legal: list[str], turn: int) -> str:
    """Deterministic and fully informed (it tries moves on a copy of our state; both engines then
    get its choice): a play that scores, else discarding slot 0, else a hint by a fixed rotation."""
    for action in legal:
        if action.startswith("play:"):
            trial = state.clone()
            trial.apply_actions({p: action})
            if trial.score() > state.score():
                return action
    if "discard:0" in legal:
        return "discard:0"
    hints = [a for a in legal if a.startswith("hint:")] or legal
    return hints[(turn * 7) % len(hints)]


def _score_pair(seed: int) -> tuple[float, float, int]:
    ours_game, bridged = get_game("hanabi"), get_game("openspiel-hanabi")
    ours = ours_game.new_initial_state(ours_game.options({"players": 2, "bomb_out_scores_zero": True}))
    deck = ours.sample_chance(random.Random(seed))
    ours.apply_chance(deck)
    theirs = bridged.new_initial_state(bridged.options({"players": 2}))
    draws, turn = iter(deck), 0
    while True:
        while theirs.is_chance():
            theirs.apply_chance(CARD_OF[next(draws)])  # the bridge checks it against OpenSpiel's outcomes
        if ours.is_terminal() or theirs.is_terminal():
            assert ours.is_terminal() and theirs.is_terminal(), f"seed {seed} turn {turn}: one game ended alone"
            return ours.outcome().returns[0], theirs.outcome().returns[0], turn
        p = ours.current_players()[0]
        assert theirs.current_players() == [p]
        mapping = {_ours(a.split(" ", 1)[1], p, 2): a for a in theirs.legal_actions(p)}
        legal = ours.legal_actions(p)
        assert sorted(mapping) == legal, f"seed {seed} turn {turn}: legal actions differ"
        action = _policy(ours, p, legal, turn)
        ours.apply_actions({p: action})
        theirs.apply_actions({p: mapping[action]})
        turn += 1


def test_same_scores_on_200_deals():
    results = [_score_pair(seed) for seed in range(DEALS)]
    assert all(a == b for a, b, _ in results), [(s, a, b) for s, (a, b, _) in enumerate(results) if a != b][:5]
    assert len({a for a, _, _ in results}) > 3 and sum(t for _, _, t in results) > DEALS * 20  # varied, real games
