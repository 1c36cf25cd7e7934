"""A log or a segment holding the same game id twice: a frame duplicated (the header: a second
game of the same id starts there), two copies concatenated, a packed game written twice into a
tournament segment. Each copy may verify on its own; `detente replay verify` fails the file by
name and the offsets of every copy, `show` (and every command reading one game) refuses it in
one line, and no index picks a copy: not the CLI's, not the debugger's (a 409)."""

from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import pytest

from bus.log import MAGIC, frame, game_offsets, iter_frames, read_log
from ops.cli import main
from tests.hostile.logs import SMALL, golden, tournament_folder


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def _named(text: str, name: str, game_id: str, offsets: list[int]) -> None:
    where = ", ".join(str(o) for o in offsets)
    assert f"{name} holds game {game_id!r} {len(offsets)} times (headers at byte offsets {where})" in text, text


def _twice(tmp_path: Path) -> tuple[Path, int]:
    data = golden(SMALL)
    path = tmp_path / "twice.log"
    path.write_bytes(data + data[len(MAGIC):])
    return path, len(data)


def _header_twice(tmp_path: Path) -> tuple[Path, int]:
    frames, _ = iter_frames(golden(SMALL), len(MAGIC))
    first = frame(frames[0][1])
    path = tmp_path / "header-twice.log"
    path.write_bytes(MAGIC + first + b"".join(frame(p) for _, p in frames))
    return path, len(MAGIC) + len(first)


@pytest.mark.parametrize("make", [_twice, _header_twice], ids=["two copies", "header frame duplicated"])
def test_one_file_holding_a_game_twice_is_named_by_verify_and_show(tmp_path, make):
    path, second = make(tmp_path)
    gid = read_log(path).games[0].header["game_id"]
    code, out, err = _cli("replay", "verify", path)
    assert code == 1 and not out
    _named(err, path.name, gid, [len(MAGIC), second])
    for argv in (("replay", "show", path), ("replay", "show", path, "--game", gid), ("replay", "transcript", path),
                 ("replay", "verify", path, "--game", gid)):
        code, out, err = _cli(*argv)
        assert code in (1, 2) and not out and err.count("\n") == 1, (argv, err)
        _named(err, path.name, gid, [len(MAGIC), second])


def test_a_file_of_two_games_is_not_a_duplicate(tmp_path):
    other = golden("hanabi-exec-7")
    path = tmp_path / "two.log"
    path.write_bytes(golden(SMALL) + other[len(MAGIC):])
    code, out, _ = _cli("replay", "verify", path)
    assert code == 0 and "ok: 2 games reproduced" in out


@pytest.mark.parametrize("compress", [False, "zstd"], ids=["plain segment", "packed segment"])
def test_a_segment_holding_a_game_twice_is_named_by_verify_and_show(tmp_path, compress):
    rows = tournament_folder(tmp_path / "t", 3, compress=compress)
    row = rows[1]
    segment = tmp_path / "t" / "logs" / row["segment"]
    data = segment.read_bytes()
    copy = data[row["offset"]: row["offset"] + row["nbytes"]]
    if compress:
        assert len(iter_frames(MAGIC + copy, len(MAGIC))[0]) == 1  # the game is one packed frame
    segment.write_bytes(data + copy)
    offsets = [row["offset"], len(data)]
    assert [o for g, o in game_offsets(segment)[0] if g == row["game_id"]] == offsets
    code, out, err = _cli("replay", "verify", tmp_path / "t")
    assert code == 1
    _named(err, segment.name, row["game_id"], offsets)
    assert "1 of 3 games failed" in err  # the copy counts as one failure, the games verify
    code, out, err = _cli("replay", "show", tmp_path / "t", "--game", row["game_id"])
    assert code == 2 and not out
    _named(err, segment.name, row["game_id"], offsets)
    code, out, err = _cli("replay", "verify", segment)  # the segment as a file
    assert code == 1
    _named(err, segment.name, row["game_id"], offsets)
    alone = tmp_path / "segments"  # a folder of segments without a store
    alone.mkdir()
    shutil.copy(segment, alone / segment.name)
    code, out, err = _cli("replay", "verify", alone)
    assert code == 1
    _named(err, segment.name, row["game_id"], offsets)


def test_the_debugger_opens_neither_copy(tmp_path):
    from ops.debugger.api import Api
    from ops.debugger.game import DebugError
    from ops.debugger.source import open_source

    path, second = _twice(tmp_path)
    gid = read_log(path).games[0].header["game_id"]
    folder = tmp_path / "folder"
    folder.mkdir()
    shutil.copy(path, folder / "a.log")
    (folder / "b.log").write_bytes(golden(SMALL))
    for source, where in ((path, "headers at byte offsets 12, "), (folder, "a.log at byte offset 12; a.log at byte offset")):
        api = Api(open_source(source), None)
        api.get("/api/games", {})  # the list is read whole (a log file: in the background)
        for route in (f"/api/game/{gid}", f"/api/game/{gid}/head"):
            with pytest.raises(DebugError) as caught:
                api.get(route, {})
            assert caught.value.status == 409 and f"game {gid!r}" in str(caught.value) and where in str(caught.value)


def test_a_record_frame_duplicated_is_named_by_verify_and_show(tmp_path):
    """A record's frame twice: the reader stops at the copy (its seq does not increase) and says where."""
    frames, _ = iter_frames(golden(SMALL), len(MAGIC))
    payloads = [p for _, p in frames]
    path = tmp_path / "record-twice.log"
    path.write_bytes(MAGIC + b"".join(frame(p) for p in payloads[:6] + [payloads[5]] + payloads[6:]))
    at = len(MAGIC) + sum(len(frame(p)) for p in payloads[:6])
    code, _, err = _cli("replay", "verify", path)
    assert code == 1 and f"bad frame at byte offset {at} (seq 4): seq 4 comes after seq 4" in err
    code, out, _ = _cli("replay", "show", path)
    assert code == 0 and f"note: log stops early, bad frame at byte offset {at} (seq 4)" in out
