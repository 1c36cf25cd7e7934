"""A fork made on the command line (`detente replay fork`) opens in the debugger beside its original
when the original is served too (a folder holding both logs, or `replay serve FORK --with ORIGINAL`):
the API names the original and the first seq where the two part, for every view; without the
original it says how to serve it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bus.log import read_log
from ops.cli import main
from replay.diff import first_difference
from tests.debugger.conftest import golden

ORIGINAL = golden("hanabi")  # hanabi-6: three Alpha agents


@pytest.fixture(scope="module")
def forked(tmp_path_factory) -> Path:
    """The original's log copied beside a fork of it made by the command line (seat 1 random after seq 200)."""
    folder = tmp_path_factory.mktemp("forked")
    shutil.copy(ORIGINAL, folder / "original.log")
    assert main(["replay", "fork", str(ORIGINAL), "--at", "200", "--agents", "alpha,random,alpha",
                 "--out", str(folder / "fork.log")]) == 0
    return folder


def _fork_id(forked: Path) -> str:
    return read_log(forked / "fork.log").games[0].header["game_id"]


def test_a_fork_served_with_its_original_names_it_and_where_they_part(serve, forked):
    original = read_log(forked / "original.log").games[0]
    fork = read_log(forked / "fork.log").games[0]
    expected = first_difference(original, fork)
    assert expected is not None and expected >= 200
    s = serve(forked)  # a folder holding both logs
    got = s.get(f"/api/game/{_fork_id(forked)}/original")
    assert got == {"game_id": original.header["game_id"], "at": fork.header["fork"]["at"], "first_difference": expected}
    seat = s.get(f"/api/game/{_fork_id(forked)}/original?player=2")  # a seat: no switch seq, its own first record after
    seqs = s.get(f"/api/game/{_fork_id(forked)}?player=2")["seqs"]  # the records seat 2 observed
    assert seat["at"] is None and seat["first_difference"] == min(q for q in seqs if q >= expected)


def test_without_its_original_the_answer_says_how_to_serve_it(serve, forked, tmp_path):
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(forked / "fork.log", alone / "fork.log")
    s = serve(alone / "fork.log")
    status, body = s.call("GET", f"/api/game/{_fork_id(forked)}/original")
    assert status == 404 and "--with" in body["error"] and "hanabi-6" in body["error"]
    status, body = s.call("GET", "/api/game/hanabi-6/original")
    assert status == 404  # the original is not served, so not found at all
    s.server.api.source.add_logs(forked / "original.log")  # what `replay serve FORK --with ORIGINAL` does
    assert s.get(f"/api/game/{_fork_id(forked)}/original")["game_id"] == "hanabi-6"
    status, body = s.call("GET", "/api/game/hanabi-6/original")
    assert status == 404 and "not a fork" in body["error"]


def test_serve_refuses_a_with_that_is_not_a_log(forked, tmp_path, capsys):
    bad = tmp_path / "bad.log"
    bad.write_bytes(b"not a log at all")
    assert main(["replay", "serve", str(forked / "fork.log"), "--with", str(tmp_path / "missing.log")]) == 2
    assert "--with" in capsys.readouterr().err
    assert main(["replay", "serve", str(forked / "fork.log"), "--with", str(bad)]) == 2
    assert "bad.log" in capsys.readouterr().err
