"""Drivers on a real local Ray (issue 12, parts 4 and 5): two drivers on one folder, a driver
killed with SIGKILL and rerun, and a full disk (injected in the segment writer and in the store)
while a tournament runs. Marked `ray`.

Why: "two drivers on one tournament folder both play every game, with no warning"; "a full disk
ends the driver with a Ray traceback (resume after freeing space works)"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bus.log import MAGIC
from ops.cli import main
from ops.tournament.store import Store
from tests.processes import kill_session

pytestmark = pytest.mark.ray
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def _ray(local_ray):
    return local_ray


def _spec(folder: Path, games: int) -> Path:
    path = folder / "spec.toml"
    path.write_text(f'game = "werewolves"\ngames = {games}\nseed = 11\nbatch = 5\n'
                    '[[lineup]]\nagent = "random"\nlabel = "so"\ncount = 5\n'
                    '[[lineup]]\nagent = "random"\nlabel = "pr"\ncount = 5\noptions = { offices = "" }\n')
    return path


def _recorded(out: Path) -> tuple[int, int, int]:
    """(rows, distinct game indices, distinct segment offsets) of the store."""
    store = Store(out, read_only=True)
    try:
        return store.db.execute('select count(*), count(distinct idx), count(distinct (segment, "offset")) from games').fetchone()
    finally:
        store.close()


def _stale_bytes(out: Path) -> int:
    store = Store(out, read_only=True)
    try:
        live = dict(store.db.execute("select segment, sum(nbytes) from games group by segment").fetchall())
    finally:
        store.close()
    return sum(p.stat().st_size - (len(MAGIC) + live.get(p.name, 0) if p.name in live else 0)
               for p in (out / "logs").glob("*.dlog"))


def test_two_drivers_the_second_exits_2_then_a_sigkilled_driver_resumes(tmp_path, capsys):
    out, games = tmp_path / "out", 600  # enough that the first driver is still playing when the second comes
    spec = _spec(tmp_path, games)
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    first = subprocess.Popen([sys.executable, "-m", "ops.cli", "tournament", "run", str(spec), "--out", str(out), "--runners", "1"],
                             cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120

        def written() -> int:
            return sum(p.stat().st_size for p in (out / "logs").glob("*.dlog")) if (out / "logs").is_dir() else 0

        while time.monotonic() < deadline and written() < 20_000 and first.poll() is None:
            time.sleep(0.05)  # the first driver is playing
        holder = json.loads((out / "driver.lock").read_text())
        assert holder["pid"] == first.pid and holder["command"] == "tournament run"
        start = time.monotonic()
        second = subprocess.run([sys.executable, "-m", "ops.cli", "tournament", "run", str(spec), "--out", str(out)],
                                cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and time.monotonic() - start < 30
        assert second.stderr.count("\n") == 1 and f"is in use: pid {first.pid} on host {holder['host']}" in second.stderr
        assert second.stdout == ""
        assert first.poll() is None, "the first driver ended before it could be killed: nothing tested"
    finally:
        kill_session(first.pid)
        first.wait()
    # the kernel released the dead driver's lock: the same command resumes and completes
    assert main(["tournament", "run", str(spec), "--out", str(out)]) == 0
    summary = capsys.readouterr().out
    assert f"{games}/{games} games recorded" in summary and f" 0 before;" not in summary
    assert _recorded(out) == (games, games, games)
    stale = _stale_bytes(out)  # games the killed driver played but never recorded
    assert main(["tournament", "compact", str(out), "--verify"]) == 0
    text = capsys.readouterr().out
    reclaimed = int(text.split(" reclaimed)")[0].rsplit("(", 1)[1].replace(",", ""))
    assert reclaimed >= stale and f"ok: {games} games reproduced" in text  # merged segments save a magic line each
    assert _stale_bytes(out) == 0 and _recorded(out) == (games, games, games)


@pytest.mark.parametrize("fault", ["segment=60000", "store=6000"])
def test_a_full_disk_is_one_line_and_the_rerun_records_every_game_once(tmp_path, capsys, monkeypatch, fault):
    out, games = tmp_path / "out", 60
    spec = _spec(tmp_path, games)
    monkeypatch.setenv("DETENTE_FAULTS", fault)
    assert main(["tournament", "run", str(spec), "--out", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    failure = [line for line in err if not line.split()[0].replace(",", "").split("/")[0].isdigit()]  # not progress
    assert len(failure) == 1 and failure[0].startswith("detente: error: cannot write "), err
    assert "No space left on device" in failure[0] and "free space and rerun the same command" in failure[0]
    assert not any("Traceback" in line or "Ray" in line for line in err)
    rows, _, _ = _recorded(out)
    assert rows < games
    monkeypatch.delenv("DETENTE_FAULTS")
    assert main(["tournament", "run", str(spec), "--out", str(out)]) == 0
    assert f"{games}/{games} games recorded in {out} ({games - rows} now, {rows} before" in capsys.readouterr().out
    assert _recorded(out) == (games, games, games)  # every game exactly once
    assert main(["replay", "verify", str(out)]) == 0
    assert f"ok: {games} games reproduced" in capsys.readouterr().out
