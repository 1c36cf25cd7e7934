"""Tournaments on a real local Ray: exact counts, resume, killed runners and drivers, runner-count
independence. Marked `ray`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from bus.log import read_game_at
from ops.tournament.runner import run_tournament
from tests.processes import kill_session
from ops.tournament.spec import load_spec
from ops.tournament.store import Store
from replay.verify import verify_game

pytestmark = pytest.mark.ray
EXAMPLE = "ops/examples/werewolves.toml"


@pytest.fixture(scope="module", autouse=True)
def _ray(local_ray):
    return local_ray


def _rows(out):
    store = Store(out, read_only=True)
    try:
        return store.db.execute(
            "select game_id, seed, seats, scores, ranks, winners, roles, steps, records, summary, nbytes from games order by game_id"
        ).fetchall()
    finally:
        store.close()


def _verify_all(out):
    store = Store(out, read_only=True)
    try:
        where = store.db.execute('select game_id, segment, "offset" from games order by game_id').fetchall()
    finally:
        store.close()
    for gid, segment, offset in where:
        game, bad = read_game_at(out / "logs" / segment, offset)
        assert bad is None and game.header["game_id"] == gid
        verdict = verify_game(game)
        assert verdict.ok, f"{gid}: {verdict.message}"
    return len(where)


def test_exact_count_and_rerun_records_none(tmp_path):
    spec = load_spec(EXAMPLE, games=200)
    first = run_tournament(spec, tmp_path)
    assert first.recorded_now == 200 and not first.failed
    again = run_tournament(spec, tmp_path)
    assert again.recorded_now == 0 and again.recorded_before == 200
    assert len(_rows(tmp_path)) == 200
    more = run_tournament(load_spec(EXAMPLE, games=230), tmp_path)  # growing the count plays only the new ones
    assert more.recorded_now == 30 and len(_rows(tmp_path)) == 230


def test_one_and_two_runners_give_the_same_results(tmp_path):
    spec = load_spec(EXAMPLE, games=60)
    run_tournament(spec, tmp_path / "one", runners=1)
    run_tournament(spec, tmp_path / "two", runners=2)
    assert _rows(tmp_path / "one") == _rows(tmp_path / "two")


def test_played_here_and_by_a_runner_give_the_same_results(tmp_path):
    spec = load_spec(EXAMPLE, games=40)
    here = run_tournament(spec, tmp_path / "here", runners=0)
    assert here.recorded_now == 40 and list(here.placement.values())[0]["pid"] == os.getpid()
    run_tournament(spec, tmp_path / "runner", runners=1)
    assert _rows(tmp_path / "here") == _rows(tmp_path / "runner")


def _my_runner_pids():
    """RayRunner worker processes of the Ray this test process started (never another run's,
    even one started from the same shell): their chain of parents leads to this process."""
    out = subprocess.run(["ps", "-eo", "pid,ppid,args"], capture_output=True, text=True).stdout
    parent, runners = {}, []
    for line in out.splitlines()[1:]:
        pid, ppid, *args = line.split(maxsplit=2)
        parent[int(pid)] = int(ppid)
        if args and "ray::RayRunner" in args[0]:
            runners.append(int(pid))

    def mine(pid: int) -> bool:
        while pid > 1:
            if pid == os.getpid():
                return True
            pid = parent.get(pid, 1)
        return False

    return [pid for pid in runners if mine(pid)]


def test_killed_runner_is_replaced_and_nothing_is_lost(tmp_path):
    spec = load_spec(EXAMPLE, games=300).model_copy(update={"batch": 10})
    killed = []

    def kill_one(done, total):
        if not killed and done >= 40:
            pids = _my_runner_pids()
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

    summary = run_tournament(spec, tmp_path, on_progress=kill_one)
    assert killed, "no runner process found to kill"
    assert summary.restarts >= 1
    assert len(_rows(tmp_path)) == 300
    assert _verify_all(tmp_path) == 300


def test_killed_driver_then_rerun_completes(tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    cmd = [sys.executable, "-m", "ops.cli", "tournament", "run", EXAMPLE, "--out", str(out), "--games", "400"]
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90

    def written():
        return sum(p.stat().st_size for p in (out / "logs").glob("*.dlog")) if (out / "logs").is_dir() else 0

    while time.monotonic() < deadline and written() < 600_000:
        time.sleep(0.05)  # kill once about a fifth of the 400 games' packed logs (~7 KB each) are written
    kill_session(proc.pid)  # the driver, its local Ray, its runners (and their agents)
    proc.wait()
    summary = run_tournament(load_spec(EXAMPLE, games=400), out)
    assert summary.recorded_before + summary.recorded_now == 400
    assert summary.recorded_before < 400, "the driver finished before it was killed: nothing tested"
    assert len(_rows(out)) == 400
    assert _verify_all(out) == 400


def test_report_reads_the_store_while_the_run_goes_on(tmp_path):
    """The driver holds the DuckDB file only while it records a batch, so another process can
    report mid-run (DuckDB allows one writer or many readers, never both)."""
    spec = load_spec(EXAMPLE, games=2000)
    start, seen = time.monotonic(), []

    def report_once(done, total):
        # after 2.5 s the recorder has written at least once (it writes every 2 s)
        if not seen and done and time.monotonic() - start > 2.5:
            cmd = [sys.executable, "-m", "ops.cli", "tournament", "report", str(tmp_path), "--format", "json"]
            seen.append(subprocess.run(cmd, capture_output=True, text=True, timeout=120))

    summary = run_tournament(spec, tmp_path, on_progress=report_once)
    assert seen, "the run ended before the report was tried"
    proc = seen[0]
    assert proc.returncode == 0, proc.stderr
    import json

    games = json.loads(proc.stdout)["games"]
    assert 0 < games < 2000  # a report of the games recorded so far
    assert summary.recorded_now == 2000 and len(_rows(tmp_path)) == 2000
