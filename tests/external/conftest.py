"""Shared helpers of the agent protocol's tests: games with external agents played in memory."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
MISBEHAVING = HERE / "misbehaving.py"


def exec_spec(*args: str, **options) -> str:
    """An `exec` agent spec running this interpreter on `args`."""
    opts = {"cmd": [sys.executable, *args], **options}
    return "exec:" + ";".join(f"{k}={json.dumps(v)}" for k, v in opts.items())


def misbehaving(mode: str, at: int = 2, **options) -> str:
    return exec_spec(str(MISBEHAVING), mode, str(at), stderr="discard", **options)


def play_game(game: str, agents: str, seed: int = 1, options: dict | None = None):
    """(log bytes, the game as read back) of one game played here."""
    from actors.match import game_options, make_header, record
    from actors.registry import parse_lineup
    from bus.log import parse_log
    from games.registry import get_game

    players = get_game(game).num_players(game_options(game, options))
    data = record(make_header(game, seed, parse_lineup(agents, players), options))
    log = parse_log(data)
    assert log.bad is None and len(log.games) == 1
    return data, log.games[0]


@pytest.fixture(autouse=True)
def _fresh_pool():
    """Every test starts and ends with no agent process of this test process running."""
    from actors.external.connection import close_all

    close_all()
    yield
    close_all()
