"""detente's games as PettingZoo AEC environments, checked by PettingZoo's own api_test and
seed_test (not copies of them), and a PettingZoo-style policy as a detente agent."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")

from games.registry import get_game, get_plugin  # noqa: E402
from ops.bridges.pettingzoo import env  # noqa: E402

ROOT = Path(__file__).parent.parent.parent
GAMES = ["hanabi", "battleline", "dominoes", "werewolves", "risk"]


def _short(name: str) -> dict:
    return dict(get_plugin(name).short_options)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests(name):
    """PettingZoo's api_test and seed_test pass with the tensor as the observation (a float32 Box)
    and not one warning (about the spaces, the observations or the masks)."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env(name, _short(name)), num_cycles=300)
        pettingzoo_test.seed_test(lambda: env(name, _short(name)), num_cycles=300)
    assert [str(w.message) for w in caught] == []
    space = env(name, _short(name)).observation_space("player_0")
    assert space.dtype == np.float32 and space.shape == get_game(name).observation_shape(get_game(name).options(_short(name)))


def test_parallel_env_for_simultaneous_games():
    """Werewolves (simultaneous votes): PettingZoo's parallel_api_test, no warnings; a seat with
    nothing to do has one legal number (wait); a sequential game has no parallel environment."""
    import warnings

    from ops.bridges.pettingzoo import parallel_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.parallel_api_test(parallel_env("werewolves", _short("werewolves")), num_cycles=300)
    assert [str(w.message) for w in caught] == []
    e = parallel_env("werewolves", _short("werewolves"))
    observations, infos = e.reset(seed=2)
    rng, joint, steps = random.Random(2), 0, 0
    while e.agents and steps < 500:
        acting = e.state.current_players()
        joint += len(acting) > 1
        for agent in e.agents:
            mask = infos[agent]["action_mask"]
            if e._seat[agent] not in acting:
                assert list(np.flatnonzero(mask)) == [e.wait]
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in e.agents}
        observations, rewards, terminations, truncations, infos = e.step(actions)
        assert not any(info["illegal"] for info in infos.values())
        steps += 1
    assert not e.agents and joint > 0 and any(rewards.values())
    with pytest.raises(ValueError, match="simultaneous"):
        parallel_env("battleline")


@pytest.mark.parametrize("name", ["hanabi", "werewolves"])
def test_observation_and_mask_are_the_seats_own(name):
    """The mask marks exactly the legal actions; the observation is the seat's detente observation;
    at a simultaneous node every player is asked before the joint action is applied."""
    e = env(name, _short(name))
    e.reset(seed=3)
    game, opts = get_game(name), e.game_options
    rng, asked = random.Random(0), 0
    for agent in e.agent_iter(400):
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        seat = int(agent.split("_")[1])
        legal = e.state.legal_actions(seat)
        assert sorted(game.decode_action(opts, int(i)) for i in np.flatnonzero(info["action_mask"])) == legal
        assert np.array_equal(obs, game.observation_tensor(opts, seat, e.state.observation(seat)))
        assert e.observation_dict(agent) == e.state.observation(seat)
        if len(e.state.current_players()) > 1:
            asked += 1
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert asked > 0 or name == "hanabi"


def test_render_text_and_board():
    e = env("hanabi", render_mode="ansi")
    e.reset(seed=1)
    assert isinstance(e.render(), str) and e.render()
    svg = env("hanabi", render_mode="svg")
    svg.reset(seed=1)
    assert svg.render().startswith("<svg")


def test_a_game_without_an_encoding_is_refused():
    with pytest.raises(ValueError, match="action encoding"):
        env("diplomacy")


def _play(seed_env: str, log: Path) -> bytes:
    done = subprocess.run([sys.executable, "-m", "ops.cli", "play", "battleline", "--seed", "5", "--log", str(log),
                           "--agents", "policy:fn=actors.policy:highest,random"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONHASHSEED": seed_env})
    assert done.returncode == 0, done.stderr[-2000:]
    return log.read_bytes()


def test_policy_agent_plays_verifies_same_bytes(tmp_path):
    """A policy callable from (observation, action_mask) plays seat 0: verified, same bytes under two hash seeds."""
    first = _play("1", tmp_path / "a.log")
    assert first == _play("4242", tmp_path / "b.log")
    done = subprocess.run([sys.executable, "-m", "ops.cli", "replay", "verify", str(tmp_path / "a.log")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.startswith("ok:"), done.stdout + done.stderr
    from bus.log import parse_log

    game = parse_log(first).games[0]
    acts = [r["msg"]["action"] for r in game.records if r["msg"]["kind"] == "act" and r["msg"]["sender"] == "p0"]
    vocabulary = get_game("battleline").action_vocabulary(get_game("battleline").options({}))
    from replay.walk import walk

    # format 4 logs a request without its legal actions: the walk puts them back from the rules
    requests = [step.record["msg"] for step in walk(game)
                if step.record["msg"]["kind"] == "act_request" and step.record["msg"]["player"] == 0]
    # `highest`: the legal action of the highest number, every time
    assert acts == [max(q["legal"], key=vocabulary.index) for q in requests]
    assert json.loads(json.dumps(game.header["agents"][0]))["name"] == "policy"
