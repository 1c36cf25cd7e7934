"""Faults and hostile external agents: each case is a real misbehaving process (misbehaving.py).

Whatever the agent does, the game completes, the rules' default is applied where the agent owed a
move, an error event names the seat's actor and the cause, nothing waits past the agent's own
timeout, the log verifies without the agent, and the next game gets a fresh process.
"""

from __future__ import annotations

import time

import pytest

from replay.verify import verify_game
from tests.external.conftest import misbehaving, play_game


def errors_of(game, address="p0"):
    return [r["msg"] for r in game.records if r["msg"]["kind"] == "error" and r["msg"]["actor"] == address]


def check(mode: str, cause: str, seed: int = 1, at: int = 2, **options):
    data, game = play_game("hanabi", f"{misbehaving(mode, at, **options)},random", seed=seed)
    assert game.complete, f"{mode}: the game did not complete"
    errors = errors_of(game)
    assert errors, f"{mode}: no error event names p0"
    assert cause in errors[0]["reason"], errors[0]["reason"]
    verdict = verify_game(game)
    assert verdict.ok, verdict.message
    return game, errors


@pytest.mark.parametrize("mode, cause", [
    ("die", "exited (code 3)"),
    ("bad-json", "invalid JSON"),
    ("long-line", "a line of over 1,048,576 bytes"),
    ("flood", "unasked (flooding)"),
])
def test_a_failing_agent_gets_the_default_and_an_error_naming_it(mode, cause):
    game, errors = check(mode, cause)
    assert errors[0]["applied"] != "ignored"  # it owed a move: the rules' default stood in


def test_a_hanging_agent_waits_no_longer_than_its_timeout():
    t0 = time.monotonic()
    game, errors = check("hang", "gave no answer within 0.5 s", timeout=0.5)
    assert time.monotonic() - t0 < 10
    # every later request of the game failed at once, each with its own error event and default
    assert len(errors) > 1 and all("no answer" in e["reason"] for e in errors)


def test_a_slow_agent_runs_out_of_its_game_budget():
    """A chess clock: 0.1 s a decision against 0.35 s a game; the rest of the game is the default."""
    game, errors = check("slow", "spent its budget of 0.35 s a game", at=0, budget=0.35)
    acts = [r for r in game.records if r["msg"]["kind"] == "act" and r["msg"]["sender"] == "p0"]
    assert 2 <= len(acts) <= 4  # what fitted in the budget was played


def test_an_agent_that_never_starts():
    data, game = play_game("hanabi", 'exec:cmd=["no-such-program-anywhere"],random')
    entry = game.header["external"]["p0"]
    assert "never started" in entry["error"] and "name" not in entry
    assert game.complete and errors_of(game) and "never started" in errors_of(game)[0]["reason"]
    assert verify_game(game).ok


def test_an_agent_that_never_says_hello():
    t0 = time.monotonic()
    data, game = play_game("hanabi", f"{misbehaving('silent', timeout=0.5)},random")
    assert "no hello" in game.header["external"]["p0"]["error"] and time.monotonic() - t0 < 10
    data, game = play_game("hanabi", f"{misbehaving('no-hello')},random")
    assert "not a hello" in game.header["external"]["p0"]["error"]
    assert verify_game(game).ok


def test_an_answer_for_the_wrong_turn_is_unexpected_and_the_default_applies():
    game, errors = check("wrong-turn", "unexpected act for turn")
    silent = [r["msg"] for r in game.records if r["msg"]["kind"] == "error" and r["msg"]["category"] == "silent"]
    assert silent, "the seat still owed its move: the referee applied the default when nothing came"


def test_an_illegal_action_and_an_answer_over_the_limits():
    check("illegal", "illegal action 'no-such-move'")
    data, game = play_game("hanabi", f"{misbehaving('many')},random")
    breaches = [r["msg"] for r in game.records if r["msg"]["kind"] == "breach"]
    assert breaches and "an answer of 100 messages" in breaches[0]["reason"]
    assert verify_game(game).ok  # the refused answer is not in the log: its breach is taken as given


def test_the_next_game_gets_a_fresh_process():
    _, first = play_game("hanabi", f"{misbehaving('die')},random", seed=1)
    _, second = play_game("hanabi", f"{misbehaving('die')},random", seed=2)
    assert first.header["external"]["p0"]["version"] != second.header["external"]["p0"]["version"]
    # a well-behaved agent keeps its process from game to game
    _, a = play_game("hanabi", f"{misbehaving('good')},random", seed=1)
    _, b = play_game("hanabi", f"{misbehaving('good')},random", seed=2)
    assert a.header["external"]["p0"]["version"] == b.header["external"]["p0"]["version"]
