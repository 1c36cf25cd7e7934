"""`pin=true`: an `exec` agent and the thread that talks to it share one CPU, which each process
claims for itself, and the thread's CPUs come back when the agents are closed."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from actors.external import cpu
from actors.external.connection import close_all
from replay.verify import verify_game
from tests.external.conftest import misbehaving, play_game

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                                reason="pinning needs Linux and two CPUs")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _own_claims(tmp_path, monkeypatch):
    """Claims in a folder of this test's own (other test processes claim in theirs)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    yield
    close_all()


def test_a_pinned_agent_runs_on_the_cpu_of_the_thread_that_talks_to_it():
    before = os.sched_getaffinity(0)
    data, game = play_game("hanabi", misbehaving("cpus", pin=True) + ",random", seed=3)
    mine = cpu.pinned()
    assert mine is not None and mine in before
    assert os.sched_getaffinity(0) == {mine}
    assert game.header["external"]["p0"]["version"] == str(mine)  # the agent's own mask, as it saw it
    assert game.complete and verify_game(game).ok
    close_all()
    assert os.sched_getaffinity(0) == before and cpu.pinned() is None


def test_pinning_changes_no_record_of_the_game():
    everywhere = os.sched_getaffinity(0)
    _, free = play_game("hanabi", misbehaving("good") + ",random", seed=8)
    close_all()
    _, pinned = play_game("hanabi", misbehaving("good", pin=True) + ",random", seed=8)
    assert free.header["agents"][0]["options"].get("pin") is None
    assert pinned.header["agents"][0]["options"]["pin"] is True
    assert [r["msg"] for r in pinned.records] == [r["msg"] for r in free.records]
    close_all()
    assert os.sched_getaffinity(0) == everywhere


def test_an_unpinned_agent_may_run_on_every_cpu():
    everywhere = os.sched_getaffinity(0)
    _, game = play_game("hanabi", misbehaving("cpus") + ",random", seed=3)
    assert game.header["external"]["p0"]["version"] == ",".join(map(str, sorted(everywhere)))
    assert cpu.pinned() is None


def test_two_processes_claim_two_cpus_and_a_claim_ends_with_its_process(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom actors.external import cpu\nprint(cpu.share(), flush=True)\nsys.stdin.read()"],
        cwd=ROOT, env={**os.environ, "TMPDIR": str(tmp_path)}, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        theirs = int(holder.stdout.readline())
        ours = cpu.share()
        assert ours is not None and ours != theirs
    finally:
        cpu.release()
        holder.stdin.close()
        holder.wait(10)
    # the holder is gone: its CPU can be claimed again (the lowest free one is taken first)
    assert cpu.share() == min(os.sched_getaffinity(0))
    cpu.release()
