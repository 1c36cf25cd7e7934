"""Every registered game passes the conformance suite (rules level and log level), with the short
options its plugin declares (a game to its sixth round, a board game to its second year: the
whole length is for the game's own tests and benchmarks)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import games.conformance as rules_checks
import replay.conformance as log_checks
from games.registry import game_names, get_game, get_plugin


def _short(name: str) -> dict:
    return dict(get_plugin(name).short_options)


@pytest.mark.parametrize("name", game_names())
def test_rules_conformance(name):
    rules_checks.run_all(get_game(name), _short(name))


@pytest.mark.parametrize("name", game_names())
def test_log_conformance(name):
    log_checks.run_all(name, _short(name))


@pytest.mark.parametrize("name", game_names())
def test_same_bytes_under_different_hash_seeds(name, tmp_path):
    """Same seed, same bytes: two processes with different PYTHONHASHSEED write identical logs."""
    logs = []
    for hash_seed in ("1", "4242"):
        path = tmp_path / f"{hash_seed}.log"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        options = [arg for key, value in _short(name).items() for arg in ("--option", f"{key}={value}")]
        subprocess.run(
            [sys.executable, "-m", "ops.cli", "play", name, "--seed", "11", "--agents", "random", "--log", str(path),
             *options],
            check=True,
            env=env,
            capture_output=True,
        )
        logs.append(path.read_bytes())
    assert logs[0] == logs[1]
    assert len(logs[0]) > 1000
