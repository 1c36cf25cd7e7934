"""OpenSpiel's games through the bridge (ops/bridges/openspiel): chance drawn from OpenSpiel's
declared distribution, observations that are OpenSpiel's own for that player, joint actions at
simultaneous nodes, the digest from OpenSpiel's serialisation; played, verified and transcribed by
the CLI; a missing extra named in one line. (Rules and log conformance of every bridged game run
with every other registered game in tests/conformance; a 20-game tournament and its report run
in tests/bridges/test_docs.py, from the OpenSpiel page.)"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from games.api import IllegalAction  # noqa: E402
from games.registry import get_game  # noqa: E402

ROOT = Path(__file__).parent.parent.parent


def _detente(*args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "ops.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "RAY_AUTH_MODE": "disabled", **(env or {})})
    if check:
        assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_chance_is_drawn_from_openspiels_distribution():
    """Kuhn poker deals one of three cards, then one of the two left (OpenSpiel's chance_outcomes)."""
    game = get_game("openspiel-kuhn_poker")
    rng, counts = random.Random(7), {0: 0, 1: 0, 2: 0}
    for _ in range(3000):
        counts[game.new_initial_state().sample_chance(rng)] += 1
    assert all(900 < c < 1100 for c in counts.values()), counts  # 1/3 each; 5 sigma is about 130
    state = game.new_initial_state()
    state.apply_chance(2)
    with pytest.raises(IllegalAction):
        state.apply_chance(2)  # that card is dealt: OpenSpiel gives it probability 0
    assert sorted(state.sample_chance(random.Random(s)) for s in range(40))[::39] == [0, 1]


def test_observation_is_openspiels_for_that_player_only():
    game = get_game("openspiel-kuhn_poker")
    state = game.new_initial_state()
    state.apply_chance(0)  # p0 holds the jack
    state.apply_chance(2)  # p1 holds the king
    inner = state.inner
    for p in (0, 1):
        seen = state.observation(p)
        assert seen["string"] == inner.observation_string(p)
        assert seen["tensor"] == [int(x) for x in inner.observation_tensor(p)]
    assert state.observation(0) != state.observation(1)
    # what p0 sees is the same whichever card p1 holds
    other = game.new_initial_state()
    other.apply_chance(0)
    other.apply_chance(1)
    assert other.observation(0) == state.observation(0) and other.observation(1) != state.observation(1)
    assert state.legal_actions(0) == ["0 Pass", "1 Bet"] and state.legal_actions(1) == []


def test_simultaneous_nodes_take_joint_actions():
    game = get_game("openspiel-goofspiel")
    state = game.new_initial_state(game.options({"num_cards": 4}))
    state.apply_chance(state.sample_chance(random.Random(1)))
    assert state.current_players() == [0, 1]
    with pytest.raises(IllegalAction):
        state.apply_actions({0: state.legal_actions(0)[0]})  # p1's bid is missing
    before = len(state.inner.history())
    state.apply_actions({0: state.legal_actions(0)[0], 1: state.legal_actions(1)[-1]})
    assert len(state.inner.history()) == before + 2


def test_digest_and_serialisation_are_openspiels():
    game = get_game("openspiel-bargaining")
    opts = game.options({"max_turns": 4})
    state, rng = game.new_initial_state(opts), random.Random(3)
    state.apply_chance(state.sample_chance(rng))
    data = state.to_json()
    assert data["serialized"] == state.inner.serialize()
    back = game.state_from_json(json.loads(json.dumps(data)))
    assert back.digest() == state.digest() and back.inner.history() == state.inner.history()
    state.apply_actions({0: state.legal_actions(0)[1]})
    assert state.digest() != back.digest()


def test_options_are_openspiels_parameters():
    game = get_game("openspiel-leduc_poker")
    assert game.options({"players": 3}).players == 3 and game.num_players(game.options({"players": 3})) == 3
    with pytest.raises(ValueError):
        game.options({"not_a_parameter": 1})
    assert get_game("openspiel-hanabi").num_players(get_game("openspiel-hanabi").options({"players": 4})) == 4


@pytest.mark.parametrize("name,options", [("openspiel-bargaining", []), ("openspiel-kuhn_poker", []),
                                          ("openspiel-goofspiel", ["--option", "num_cards=5"])])
def test_play_verify_transcript(name, options, tmp_path):
    log = tmp_path / "g.log"
    out = _detente("play", name, "--seed", "3", "--agents", "random", "--log", str(log), *options).stdout
    assert "log:" in out
    assert _detente("replay", "verify", str(log)).stdout.startswith("ok:")
    text = _detente("replay", "transcript", str(log)).stdout
    assert "chance:" in text and "end: returns" in text


def test_a_missing_extra_is_one_line():
    """Where open_spiel cannot be imported, the bridged games are not listed and naming one says why."""
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('pyspiel', 'open_spiel'): raise ImportError(name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from games.registry import game_names\n"
            "assert not [n for n in game_names() if n.startswith('openspiel-')], game_names()\n"
            "from ops.cli import main\n"
            "sys.exit(main(['play', 'openspiel-kuhn_poker', '--agents', 'random', '--seed', '1', '--log', 'unused.log']))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "pip install 'detente[openspiel]'" in done.stderr, done.stderr
