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
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = state.legal_actions()
            assert [state.action_to_string(state.current_player(), a) for a in legal] == \
                state.inner.legal_actions(state.current_player())
            state.apply_action(legal[0])
        steps += 1
    assert steps > 20 and state.returns() == list(state.inner.outcome().returns)
    register(["risk"])
    risk = pyspiel.load_game("detente_risk", {"options": json.dumps({"max_rounds": 2}), "seed": 3})
    firsts = []
    for seed in (3, 3, 4):  # dice are no shuffle: one outcome, drawn from the seed and the steps so far
        state, dice = pyspiel.load_game("detente_risk", {"options": json.dumps({"max_rounds": 2}), "seed": seed}).new_initial_state(), 0
        while dice < 8 and not state.is_terminal():
            if state.is_chance_node():
                assert state.chance_outcomes() == [(0, 1.0)]
                dice += 1
                state.apply_action(0)
            else:
                state.apply_action(state.legal_actions()[0])
        firsts.append(state.inner.digest())
    assert firsts[0] == firsts[1] != firsts[2] and risk.max_chance_outcomes() == 1


def test_every_card_of_the_exported_hanabi_is_a_chance_node():
    """Hanabi's deck (one detente outcome, a shuffle) is 50 OpenSpiel chance nodes, each offering
    the distinct cards left with probability count / cards left; the last completes the deal."""
    register(["hanabi"])
    game = pyspiel.load_game("detente_hanabi", {"options": "{}", "seed": 1})
    assert game.max_chance_outcomes() == 25  # 5 colours x 5 ranks
    state, drawn = game.new_initial_state(), []
    first = state.chance_outcomes()
    assert len(first) == 25 and abs(sum(p for _, p in first) - 1) < 1e-9
    assert dict(first)[0] == 3 / 50  # three ones of the first colour in a deck of 50
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        action = outcomes[len(drawn) % len(outcomes)][0]
        drawn.append(state.action_to_string(pyspiel.PlayerId.CHANCE, action).split()[1].strip('"'))
        state.apply_action(action)
    from games.registry import get_game

    deck = get_game("hanabi").new_initial_state().sample_chance(__import__("random").Random(0))
    assert len(drawn) == 50 and sorted(drawn) == sorted(deck)  # a permutation of the deck: the deal detente applied
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history() and not state.information_state_string(0) == clone.information_state_string(0)


def test_exported_views_and_information_states():
    """With VIEWS, OpenSpiel's observation tensor and string are the game's views of the seat's
    observation; the information state holds the seat's observations and own actions so far."""
    import numpy as np

    from games.registry import get_game

    register(["battleline"])
    game = pyspiel.load_game("detente_battleline", {"options": "{}", "seed": 2})
    detente, opts = get_game("battleline"), get_game("battleline").options({})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    for _ in range(3):
        player = state.current_player()
        seen = state.inner.observation(player)
        assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32),
                              detente.observation_tensor(opts, player, seen).reshape(-1))
        assert state.observation_string(player) == detente.observation_text(opts, player, seen)
        before = state.information_state_string(player)
        action = state.legal_actions()[0]
        state.apply_action(action)
        after = state.information_state_string(player)
        assert after.startswith(before) and "act " + detente.decode_action(opts, action) in after


def test_outcome_sampling_mccfr_runs_on_an_exported_game():
    """OpenSpiel's outcome-sampling MCCFR (numpy, open_spiel/python/algorithms) on the exported
    Hanabi: its information states are the seats' recall, its chance the deck's nodes."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    register(["hanabi"])
    game = pyspiel.load_game("detente_hanabi", {"options": json.dumps({"hand_size": 2})})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(30):
        solver.iteration()
    assert len(solver._infostates) > 30  # noqa: SLF001 - the tables the iterations filled
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = solver.average_policy().action_probabilities(state)
    assert sorted(probs) == state.legal_actions() and abs(sum(probs.values()) - 1) < 1e-9


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
