"""A policy learned through the OpenSpiel bridge (OpenSpiel's tabular Q-learning over the exported
Werewolves, ops/bridges/openspiel/learn.py), saved with its command and played by the `policy`
agent: a short training run, the shipped table, a verified game and (slow) a 400-game tournament."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from games.registry import get_game  # noqa: E402
from ops.bridges.openspiel.learn import POLICIES, WEREWOLVES5, key, table_policy  # noqa: E402
from replay.verify import verify_game  # noqa: E402
from tests.play import play_log  # noqa: E402

ROOT = Path(__file__).parent.parent.parent
SHIPPED = POLICIES / "werewolves5.json"
SPEC = "policy:fn=ops.bridges.openspiel.learn:werewolves5;game_options=" + json.dumps(WEREWOLVES5, separators=(",", ":"))


def test_training_writes_a_table_with_its_command(tmp_path):
    out = tmp_path / "q.json"
    done = subprocess.run([sys.executable, "-m", "ops.bridges.openspiel.learn", "--episodes", "30", "--seed", "3",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    made = json.loads(out.read_text())
    assert made["command"].startswith("python -m ops.bridges.openspiel.learn --game werewolves")
    assert made["episodes"] == 30 and made["states"] == len(made["table"]) > 30
    assert "tabular_qlearner" in made["library"] and made["means"]
    game = get_game("werewolves")
    opts = game.options(WEREWOLVES5)
    state, policy = game.new_initial_state(opts), table_policy(out)
    import random

    rng = random.Random(0)
    while state.is_chance():
        state.apply_chance(state.sample_chance(rng))
    seat = state.current_players()[0]
    tensor = game.observation_tensor(opts, seat, state.observation(seat))
    mask = np.zeros(game.num_distinct_actions(opts), np.int8)
    mask[[game.encode_action(opts, a) for a in state.legal_actions(seat)]] = 1
    chosen = policy(tensor, mask)
    assert mask[chosen] and chosen == policy(tensor.copy(), mask.copy())  # legal and deterministic
    assert key(tensor) == key(tensor.astype(np.float64))


def test_the_shipped_policy_plays_and_verifies():
    made = json.loads(SHIPPED.read_text())
    assert made["command"].startswith("python -m ops.bridges.openspiel.learn") and made["options"] == WEREWOLVES5
    log = play_log("werewolves", 4, [SPEC, "random", "random", "random", "random"], WEREWOLVES5)
    assert not [r for r in log.records if r["msg"]["kind"] in ("error", "fault")]
    assert verify_game(log).ok
    acts = [r["msg"]["action"] for r in log.records if r["msg"]["kind"] == "act" and r["msg"]["sender"] == "p0"]
    assert acts and "abstain" not in acts  # what it learned first: abstaining is worth least


@pytest.mark.slow
@pytest.mark.ray
def test_the_learned_policy_beats_random_in_400_games(tmp_path):
    """One learned seat and four random ones, seats rotated: the policy's mean score and random's,
    with 95% intervals apart."""
    spec = tmp_path / "spec.toml"
    spec.write_text('game = "werewolves"\ngames = 400\nseed = 1\nseating = "rotate"\n[options]\n'
                    + "".join(f"{k} = {json.dumps(v)}\n" for k, v in WEREWOLVES5.items())
                    + '[[lineup]]\nagent = "policy"\nlabel = "learned"\n'
                    + f'options = {{fn = "ops.bridges.openspiel.learn:werewolves5", game_options = {{'
                    + ", ".join(f"{k} = {json.dumps(v)}" for k, v in WEREWOLVES5.items()) + "}}\n"
                    + '[[lineup]]\nagent = "random"\nlabel = "random"\ncount = 4\n')
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    for args in (["run", str(spec), "--out", str(tmp_path / "out"), "--runners", "2"],
                 ["report", str(tmp_path / "out"), "--format", "json"]):
        done = subprocess.run([sys.executable, "-m", "ops.cli", "tournament", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=900, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    rows = {row["agent"]: row for row in report["agents"]}
    learned, rand = rows["learned"]["mean_score_ci"], rows["random"]["mean_score_ci"]
    assert learned[0] > rand[1], (learned, rand)
