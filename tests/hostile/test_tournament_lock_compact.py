"""One driver per tournament folder, and `detente tournament compact` (issue 12, part 4), without
Ray: the lock refuses a second driver at once and naming the first, a killed holder never blocks,
compaction reclaims stale segment bytes with every game's bytes unchanged and still verifying,
and a compaction stopped at any point (a crash, a full disk) loses nothing."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bus.log import MAGIC, read_game_at
from ops.cli import main
from ops.tournament import store as store_module
from ops.tournament.runner import BatchPlayer
from ops.tournament.spec import parse_spec
from ops.tournament.store import FolderLock, Store, StoreError, compact

ROOT = Path(__file__).resolve().parents[2]
SPEC = {"game": "werewolves", "games": 12, "seed": 5, "segment_mib": 1,
        "lineup": [{"agent": "random", "label": "so", "count": 5}, {"agent": "random", "label": "pr", "count": 5, "options": {"offices": ""}}]}


def _spec_file(folder: Path, games: int = 12) -> Path:
    path = folder / "spec.toml"
    path.write_text(f'game = "werewolves"\ngames = {games}\nseed = 5\nsegment_mib = 1\n'
                    '[[lineup]]\nagent = "random"\nlabel = "so"\ncount = 5\n'
                    '[[lineup]]\nagent = "random"\nlabel = "pr"\ncount = 5\noptions = { offices = "" }\n')
    return path


def _play(out: Path, runner: str, games: list[int]) -> list[dict]:
    player = BatchPlayer(str(out), parse_spec(SPEC).model_dump(mode="json"), runner)
    rows = player.play(games)
    player.close()
    return rows


def _record(out: Path, rows: list[dict]) -> None:
    store = Store(out)
    try:
        store.add(rows)
        store.db.execute("insert or replace into meta values ('spec', ?)", [json.dumps(
            parse_spec(SPEC).model_dump(mode="json", exclude={"games"}), sort_keys=True)])
    finally:
        store.close()


def _index(out: Path) -> dict[str, tuple[str, int, int]]:
    store = Store(out, read_only=True)
    try:
        return {g: (s, o, n) for g, s, o, n in store.db.execute('select game_id, segment, "offset", nbytes from games').fetchall()}
    finally:
        store.close()


def _payloads(out: Path) -> dict[str, list[bytes]]:
    """Every recorded game's frames as stored, read through the index."""
    found = {}
    for gid, (segment, offset, _) in _index(out).items():
        game, bad = read_game_at(out / "logs" / segment, offset)
        assert bad is None and game.header["game_id"] == gid
        found[gid] = game.payloads
    return found


def _messy_folder(out: Path) -> dict[str, list[bytes]]:
    """A folder as killed runners leave it: runner 1 played games 0-11 but only the even ones were
    recorded (its odd ones were re-queued and played again by runner 2), its segment ends in a torn
    frame, and runner 3's segment holds only games nobody recorded."""
    first = _play(out, "t-r001", list(range(12)))
    again = _play(out, "t-r002", list(range(1, 12, 2)))
    _play(out, "t-r003", [0, 1])
    with open(out / "logs" / first[0]["segment"], "ab") as f:
        f.write(b"\x10\x00\x00\x00torn")  # half a frame: a runner killed mid-write
    _record(out, [r for r in first if r["idx"] % 2 == 0] + again)
    return _payloads(out)


# -- the lock -------------------------------------------------------------------------------------


def test_a_second_driver_exits_2_at_once_naming_the_first(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    with FolderLock(out):
        start = time.monotonic()
        code = main(["tournament", "run", str(_spec_file(tmp_path)), "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 2 and time.monotonic() - start < 5
        assert err.count("\n") == 1 and err.startswith("detente: error: ")
        assert f"pid {os.getpid()} on host {socket.gethostname()} (tournament run, started " in err
        assert not (out / "results.duckdb").exists()  # refused before the store was touched
        code = main(["tournament", "compact", str(out)])
        assert code == 2 and "no tournament results" in capsys.readouterr().err
    # released at the end of the run: the next one takes it
    with FolderLock(out):
        pass


def test_a_killed_holder_never_blocks_the_next_driver(tmp_path, capsys):
    out = tmp_path / "out"
    _record(out, _play(out, "t-r001", list(range(4))))
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom ops.tournament.store import FolderLock\n"
                               f"with FolderLock({str(out)!r}):\n    print('locked', flush=True)\n    time.sleep(60)\n"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        assert main(["tournament", "run", str(_spec_file(tmp_path, games=4)), "--out", str(out)]) == 2
        assert f"pid {holder.pid}" in capsys.readouterr().err
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    finally:
        if holder.poll() is None:
            holder.kill()
    # the kernel dropped the dead driver's lock: every game is recorded, so no Ray is needed
    assert main(["tournament", "run", str(_spec_file(tmp_path, games=4)), "--out", str(out)]) == 0
    assert "4/4 games recorded" in capsys.readouterr().out


# -- compaction -----------------------------------------------------------------------------------


def test_compact_reclaims_stale_bytes_and_every_game_keeps_its_bytes(tmp_path, capsys):
    out = tmp_path / "out"
    before = _messy_folder(out)
    sizes = {p.name: p.stat().st_size for p in (out / "logs").glob("*.dlog")}
    assert main(["tournament", "compact", str(out), "--verify"]) == 0
    text = capsys.readouterr().out
    assert "12 recorded games, 6 moved" in text and "1 segments with stale bytes rewritten into 1" in text
    assert "1 without a recorded game removed" in text and "ok: 12 games reproduced" in text
    assert _payloads(out) == before  # byte for byte
    live: dict[str, int] = {}
    for segment, _, nbytes in _index(out).values():
        live[segment] = live.get(segment, len(MAGIC)) + nbytes
    now = {p.name: p.stat().st_size for p in (out / "logs").glob("*.dlog")}
    assert now == live  # not a stale byte left
    assert sum(now.values()) < sum(sizes.values())
    assert main(["tournament", "compact", str(out)]) == 0
    assert "0 moved" in capsys.readouterr().out and {p.name: p.stat().st_size for p in (out / "logs").glob("*.dlog")} == now


def test_a_compaction_stopped_before_its_commit_loses_nothing(tmp_path, monkeypatch):
    out = tmp_path / "out"
    before = _messy_folder(out)
    index = _index(out)

    def crash(store, where):
        raise KeyboardInterrupt  # killed between copying and pointing the index at the copies

    monkeypatch.setattr(store_module, "_repoint", crash)
    with pytest.raises(KeyboardInterrupt):
        compact(out)
    assert _index(out) == index and _payloads(out) == before
    assert list((out / "logs").glob("compact-*.dlog"))  # the copies, unreferenced
    monkeypatch.undo()
    done = compact(out)
    assert done.moved == 6 and _payloads(out) == before
    assert {s for s, _, _ in _index(out).values()} == {p.name for p in (out / "logs").glob("*.dlog")}


def test_a_full_disk_while_compacting_is_one_line_and_changes_nothing(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    before = _messy_folder(out)
    index = _index(out)
    monkeypatch.setenv("DETENTE_FAULTS", "segment=9000")
    assert main(["tournament", "compact", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err and "the index is unchanged" in err
    assert _index(out) == index and _payloads(out) == before
    monkeypatch.delenv("DETENTE_FAULTS")
    assert main(["tournament", "compact", str(out), "--verify"]) == 0 and _payloads(out) == before


def test_compact_refuses_an_index_that_points_nowhere(tmp_path, capsys):
    out = tmp_path / "out"
    _messy_folder(out)
    segment = next(iter(_index(out).values()))[0]
    (out / "logs" / segment).rename(out / "logs" / "moved-away")
    files = sorted(p.name for p in (out / "logs").iterdir())
    assert main(["tournament", "compact", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"segment {segment}, which is missing; nothing changed" in err
    assert sorted(p.name for p in (out / "logs").iterdir()) == files
    with pytest.raises(StoreError, match="no tournament results"):
        compact(tmp_path / "nowhere")
