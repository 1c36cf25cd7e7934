"""detente's games registered as OpenSpiel Python games, checked by OpenSpiel's own
`random_sim_test` (with serialisation), and OpenSpiel's MCTS as a detente agent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from games.registry import get_plugin  # noqa: E402
from ops.bridges.openspiel.export import register  # noqa: E402

ROOT = Path(__file__).parent.parent.parent
GAMES = ["hanabi", "battleline", "dominoes", "werewolves", "risk"]


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_with_serialisation(name):
    assert f"detente_{name}" in register()
    game = pyspiel.load_game(f"detente_{name}", {"options": json.dumps(dict(get_plugin(name).short_options))})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_game_through_pyspiel_is_detentes_game():
    """Actions are the vocabulary's numbers, the end is detente's, the seed fixes the deal."""
    register(["hanabi"])
    game = pyspiel.load_game("detente_hanabi", {"options": "{}", "seed": 3})
    state, steps = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            assert state.chance_outcomes() == [(0, 1.0)]
            state.apply_action(0)
        else:
            legal = state.legal_actions()
            assert [state.action_to_string(state.current_player(), a) for a in legal] == \
                state.inner.legal_actions(state.current_player())
            state.apply_action(legal[0])
        steps += 1
    assert steps > 20 and state.returns() == list(state.inner.outcome().returns)
    again = game.new_initial_state()
    again.apply_action(0)
    other = pyspiel.load_game("detente_hanabi", {"options": "{}", "seed": 4}).new_initial_state()
    other.apply_action(0)
    first = game.new_initial_state()
    first.apply_action(0)
    assert str(first) == str(again) != str(other)


def _play(hash_seed: str, log: Path) -> bytes:
    done = subprocess.run([sys.executable, "-m", "ops.cli", "play", "openspiel-kuhn_poker", "--seed", "2", "--games", "6",
                           "--agents", "openspiel-mcts:simulations=30;samples=2,random", "--log", str(log)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONHASHSEED": hash_seed})
    assert done.returncode == 0, done.stderr[-2000:]
    return log.read_bytes()


def test_mcts_agent_same_bytes_under_two_hash_seeds_and_verifies(tmp_path):
    first = _play("1", tmp_path / "a.log")
    assert first == _play("4242", tmp_path / "b.log")
    done = subprocess.run([sys.executable, "-m", "ops.cli", "replay", "verify", str(tmp_path / "a.log")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "ok: 6 games reproduced" in done.stdout, done.stdout + done.stderr
    from bus.log import parse_log

    replies = [r["msg"] for g in parse_log(first).games for r in g.records
               if r["msg"]["kind"] == "office_reply" and r["msg"]["sender"] == "p0/so"]
    # the MCTS office answers one action with its share of the visits (not the random office's 1.0s)
    assert replies and any(len(m["suggestions"]) == 1 and m["suggestions"][0]["utility"] < 1.0 for m in replies)


def test_mcts_agent_searches_battleline_from_its_observation():
    """In detente's own Battle Line (rebuilt from the seat's observation, actions by the encoding)."""
    from tests.play import play_log

    game = play_log("battleline", 1, ["openspiel-mcts:simulations=10;samples=1;max_length=10", "random"])
    replies = [r["msg"] for r in game.records if r["msg"]["kind"] == "office_reply" and r["msg"]["sender"] == "p0/so"]
    searched = [m for m in replies if len(m["suggestions"]) == 1 and m["suggestions"][0]["utility"] < 1.0]
    assert len(searched) > 10
    assert not [r for r in game.records if r["msg"]["kind"] in ("error", "fault")]
