"""Differential test against the `dominoes` package (abw333/dominoes 6.1.0, MIT), a test-only
reference engine: random matches dealt the same way in both engines, compared at every step.

The variant both implement is ours with `scoring=all, blocked_scoring=both, blocked_tie=void,
opener=last_tile` (the package's `Game` and `Series`). At every decision: the seat to act, the legal
moves, the line (hence its ends), the pips in each hand and the numbers each seat is known to lack
(the package's `missing_values`); at the end of each hand its points, who laid the last tile and
whether a player went out; between hands the next opener and both scores; the end of the match.

Where the engines differ (documented, not compared):
- scoring: the seed's default (the winners score the losing pair's pips, going out or blocked) is
  not in the package, which scores all three other hands (going out) or both pairs (blocked);
- opener: the package has only its Series rule (our `last_tile`); our default `winner` and the
  seed's `pair_choice` differ after blocked hands;
- passes: ours are explicit actions ("pass", logged, needed to learn what a seat lacks); the
  package skips a seat that cannot play and records None in `moves` (not when the hand is blocked);
- the opening [6|6]: an explicit forced action here, played inside `Game.new` there;
- the match: the package's Series defaults to 200 points (ours 100; both compared at 100) and has
  no hand limit (our `max_hands`); it shuffles with the global `random`, so its deal is injected.
"""

from __future__ import annotations

import random

import pytest

from games.dominoes.rules import Dominoes
from games.dominoes.tiles import INDEX, TILES
from tests.bounds import bounded

dominoes = pytest.importorskip("dominoes")

GAME = Dominoes()
OPTIONS = {"opener": "last_tile", "scoring": "all", "blocked_scoring": "both", "blocked_tie": "void",
           "target": 100}
MIN_HANDS = 1000


def _their_hands(state) -> list:
    return [dominoes.Hand([dominoes.Domino(*TILES[INDEX[n]]) for n in hand])
            for hand in state.to_json()["hands"]]


def _our_move(move, line_empty: bool) -> str:
    d, left = move
    name = f"{min(d.first, d.second)}-{max(d.first, d.second)}"
    return name if line_empty else f"{name}:{'left' if left else 'right'}"


def _their_move(action: str):
    name, _, end = action.partition(":")
    return dominoes.Domino(*TILES[INDEX[name]]), end != "right"


def _signed(record: dict) -> int:
    # the package's Result.points: > 0 for seats 0 & 2, < 0 for 1 & 3, 0 for a void hand
    return 0 if record["pair"] is None else record["points"] * (1 if record["pair"] == 0 else -1)


def _compare(state, game, where: str) -> None:
    obs = state.observation(0)
    line = [[d.first, d.second] for d in game.board.board]
    assert obs["line"] == line, f"{where}: line {obs['line']} v {line}"
    if line:
        assert state.ends() == (game.board.left_end(), game.board.right_end()), where
    their_pips = [sum(d.first + d.second for d in h) for h in game.hands]
    assert state.hand_pips() == their_pips, f"{where}: pips {state.hand_pips()} v {their_pips}"
    missing = [sorted(m) for m in game.missing_values()]
    assert obs["lacks"] == missing, f"{where}: lacks {obs['lacks']} v {missing}"


def _play_hand(state, game, rng: random.Random, where: str) -> int:
    """Play one hand in both engines with the same random moves; return the steps compared."""
    steps, hand = 0, state.to_json()["hand"]
    if hand == 0:  # the package lays [6|6] inside Game.new
        p = state.current_players()[0]
        assert state.legal_actions(p) == ["6-6"] and game.starting_player == p, where
        state.apply_actions({p: "6-6"})
    for _ in bounded(GAME.max_steps):
        if state.is_chance() or state.is_terminal():
            break
        at = f"{where} step {steps}"
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        if legal == ["pass"]:
            assert game.turn != p, f"{at}: seat {p} passes here, the package lets it play"
            state.apply_actions({p: "pass"})
            continue
        _compare(state, game, at)  # after our passes, which the package has already made
        assert game.turn == p, f"{at}: seat {p} to act here, {game.turn} there"
        theirs = sorted(_our_move(m, not game.board.board) for m in game.valid_moves)
        assert legal == theirs, f"{at}: legal {legal} v {theirs}"
        action = rng.choice(legal)
        state.apply_actions({p: action})
        result = game.make_move(*_their_move(action))
        steps += 1
        assert (result is None) == (not state.is_chance() and not state.is_terminal()), at
    record = state.to_json()["past"][-1]
    result = game.result
    their_pips = [sum(d.first + d.second for d in h) for h in game.hands]
    assert record["pips"] == their_pips, f"{where}: final pips"
    assert (_signed(record), record["last"], record["end"] == "out") == (
        result.points, result.player, result.won), f"{where}: {record} v {result}"
    return steps


def test_matches_agree_with_the_dominoes_package(monkeypatch):
    rng = random.Random(2024)
    hands = steps = blocked = void = matches = 0
    for _ in bounded(MIN_HANDS):
        if hands >= MIN_HANDS:
            break
        state = GAME.new_initial_state(OPTIONS)
        state.apply_chance(state.sample_chance(rng))
        monkeypatch.setattr(dominoes.game, "_randomized_hands", lambda s=state: _their_hands(s))
        series = dominoes.Series(target_score=OPTIONS["target"])
        for _ in bounded(GAME.max_steps):
            where = f"match {matches} hand {hands}"
            steps += _play_hand(state, series.games[-1], rng, where)
            record = state.to_json()["past"][-1]
            hands += 1
            blocked += record["end"] == "blocked"
            void += record["pair"] is None
            if state.is_terminal():
                monkeypatch.setattr(dominoes.game, "_randomized_hands", _no_more_hands)
                assert series.next_game() is None and series.is_over(), f"{where}: the package plays on"
                assert list(state.scores()) == series.scores, f"{where}: scores"
                break
            state.apply_chance(state.sample_chance(rng))
            monkeypatch.setattr(dominoes.game, "_randomized_hands", lambda s=state: _their_hands(s))
            game = series.next_game()
            assert game is not None, f"{where}: the package ended the match, ours did not"
            assert list(state.scores()) == series.scores, f"{where}: scores {state.scores()} v {series.scores}"
            assert state.current_players() == [game.starting_player], f"{where}: next opener"
        matches += 1
    # the comparison covered both kinds of ending, void hands, and many matches
    assert blocked > 100 and void > 5 and matches > 100 and steps > 20 * MIN_HANDS


def _no_more_hands():
    raise AssertionError("the package deals another hand after ours ended the match")
