"""A game brought as a plugin: tests/plugins/ holds `coin_talk` and its `.dist-info` (an installed
distribution whose entry point names the plugin), so with tests/plugins on PYTHONPATH detente
finds it exactly as it finds a pip-installed game. Every command runs as a subprocess; nothing
outside tests/plugins/coin_talk* names the game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent.parent


def _detente(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)]), "RAY_AUTH_MODE": "disabled"}
    done = subprocess.run([sys.executable, "-m", "ops.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def test_plugin_game_plays_verifies_and_shows(tmp_path):
    assert "coin_talk: Coin talk" in _detente("games").stdout
    assert "caller: says a side" in _detente("agents").stdout
    log = tmp_path / "c.log"
    out = _detente("play", "coin_talk", "--seed", "5", "--agents", "caller", "--log", str(log), "--option", "rounds=4").stdout
    assert "log:" in out
    assert _detente("replay", "verify", str(log)).stdout.startswith("ok:")
    text = _detente("replay", "transcript", str(log)).stdout
    assert text.count("round ") == 4 and "said" in text
    data = json.loads(_detente("replay", "transcript", str(log), "--format", "json").stdout)
    assert len(data["rounds"]) == 4
    observers = {p["observer"] for p in data["beliefs"]["points"]}
    assert observers == {"p0", "p1"} and data["beliefs"]["scales"]["trust"]["hi"] == 1.0
    page = tmp_path / "c.html"
    _detente("replay", "transcript", str(log), "--format", "html", "--out", str(page))
    html = page.read_text()
    assert 'aria-label="scores"' in html and 'aria-label="trust of p0 by subject, by seq"' in html
    assert "y: trust (0..1; higher = more trust)" in html
    shown = _detente("replay", "show", str(log), "--at", "30").stdout
    assert "scores" in shown
    assert _detente("coin_talk", "odds", "--rounds", "4").stdout.strip() == "all 4 right by guessing: 1 in 16"
    csv = _detente("export", "coin-csv", str(log)).stdout.splitlines()
    assert csv[0] == "round,coin,p0,p1" and len(csv) == 5
    bad = _detente("play", "coin_talk", "--seed", "5", "--agents", "caller", "--log", str(log), "--option", "rounds=0",
                   check=False)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_plugin_agent_conformance_and_board():
    """The plugin's board renders a state, and its agent passes the agent checks (in-process)."""
    code = ("import sys; sys.path.insert(0, %r)\n" % str(HERE) +
            "from games.registry import get_game, get_plugin\n"
            "from games.plugin import resolve\n"
            "import games.conformance as c\n"
            "game = get_game('coin_talk'); c.run_all(game)\n"
            "svg = resolve(get_plugin('coin_talk').board)(game.new_initial_state(game.options({})))\n"
            "assert svg.startswith('<svg'), svg\n"
            "from replay import agent_conformance as a\n"
            "a.run_all('caller', 'coin_talk')\n"
            "print('ok')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


@pytest.mark.ray
def test_plugin_game_tournament_on_ray_runners(tmp_path):
    spec = tmp_path / "coin.toml"
    spec.write_text('game = "coin_talk"\ngames = 12\nseed = 2\nbatch = 3\noptions = {rounds = 3}\n'
                    '[[lineup]]\nagent = "caller"\nlabel = "caller"\ncount = 1\n'
                    '[[lineup]]\nagent = "random"\nlabel = "random"\ncount = 1\n')
    out = tmp_path / "t"
    _detente("tournament", "run", str(spec), "--out", str(out), "--runners", "2")
    report = json.loads(_detente("tournament", "report", str(out), "--format", "json").stdout)
    assert report["games"] == 12
    assert {a["agent"]: a["seats"] for a in report["agents"]} == {"caller": 12, "random": 12}
    assert _detente("replay", "verify", str(out)).returncode == 0
