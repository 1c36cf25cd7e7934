"""The CLI contract: play, replay verify, replay show; bad input is one line and exit 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ops.cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_verify_show(tmp_path, capsys):
    log = tmp_path / "out.log"
    code, out, _ = _run(capsys, "play", "werewolves", "--seed", "7", "--agents", "random", "--log", str(log))
    assert code == 0
    assert "winners:" in out and ("win" in out or "draw" in out)
    code, out, _ = _run(capsys, "replay", "verify", str(log))
    assert code == 0 and out.startswith("ok:")
    code, out, _ = _run(capsys, "replay", "show", str(log), "--at", "20")
    assert code == 0
    assert "state after seq 20" in out and "seat" in out


def test_packed_play_log_holds_the_same_games(tmp_path, capsys):
    from bus.log import read_log

    plain, packed = tmp_path / "plain.log", tmp_path / "packed.log"
    common = ["play", "werewolves", "--seed", "7", "--agents", "random", "--games", "3"]
    assert _run(capsys, *common, "--log", str(plain))[0] == 0
    assert _run(capsys, *common, "--log", str(packed), "--pack")[0] == 0
    assert packed.stat().st_size * 3 < plain.stat().st_size
    a, b = read_log(plain), read_log(packed)
    assert [g.payloads for g in a.games] == [g.payloads for g in b.games] and len(b.games) == 3
    code, out, _ = _run(capsys, "replay", "verify", str(packed))
    assert code == 0 and "ok: 3 games reproduced" in out


def test_play_packs_by_columns_and_verify_takes_a_folder_of_segments(tmp_path, capsys):
    """`--pack columns` writes the same games; `replay verify DIR` on a folder of segments without
    a results store (what `detente risk train` writes) verifies every game of every segment and
    names the one that fails."""
    from bus.log import read_log

    folder = tmp_path / "games"
    folder.mkdir()
    common = ["play", "werewolves", "--seed", "5", "--agents", "random", "--games", "2"]
    assert _run(capsys, *common, "--log", str(folder / "a.dlog"), "--pack", "columns")[0] == 0
    assert _run(capsys, *common, "--log", str(folder / "b.dlog"), "--pack")[0] == 0
    a, b = read_log(folder / "a.dlog"), read_log(folder / "b.dlog")
    assert [g.payloads for g in a.games] == [g.payloads for g in b.games]
    # columns packs smaller than zstd (1.8x on these games in log format 3, whose records hold fewer digests)
    assert folder.joinpath("a.dlog").stat().st_size * 3 < folder.joinpath("b.dlog").stat().st_size * 2
    code, out, _ = _run(capsys, "replay", "verify", str(folder))
    assert code == 0 and "ok: 4 games reproduced in 2 segments" in out
    code, out, _ = _run(capsys, "replay", "verify", str(folder), "--sample", "2")
    assert code == 0 and "ok: 2 games reproduced in 2 segments (a sample of 2)" in out
    data = bytearray((folder / "b.dlog").read_bytes())
    data[len(data) // 2] ^= 0x01
    (folder / "b.dlog").write_bytes(bytes(data))
    code, _, err = _run(capsys, "replay", "verify", str(folder))
    assert code == 1 and "FAIL: b.dlog" in err and "games failed" in err


def test_verify_names_offset_of_flipped_byte(tmp_path, capsys):
    log = tmp_path / "out.log"
    assert _run(capsys, "play", "werewolves", "--seed", "3", "--agents", "random", "--log", str(log))[0] == 0
    data = bytearray(log.read_bytes())
    data[len(data) // 2] ^= 0x01
    log.write_bytes(bytes(data))
    code, out, err = _run(capsys, "replay", "verify", str(log))
    assert code == 1
    assert "offset" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["play", "chess", "--seed", "1", "--agents", "random", "--log", "{tmp}/x.log"], "unknown game 'chess'"),
        (["play", "werewolves", "--seed", "1", "--agents", "random,,", "--log", "{tmp}/x.log"], "malformed --agents"),
        (["play", "werewolves", "--seed", "1", "--agents", "rando", "--log", "{tmp}/x.log"], "unknown agent 'rando'"),
        (["play", "werewolves", "--seed", "1", "--agents", "random:width", "--log", "{tmp}/x.log"], "malformed option"),
        (["play", "werewolves", "--seed", "1", "--agents", "random,random", "--log", "{tmp}/x.log"], "10 seats"),
        (["play", "werewolves", "--seed", "1", "--agents", "random:offices=fo", "--log", "{tmp}/x.log"], "no office fo"),
        (["play", "werewolves", "--seed", "x", "--agents", "random", "--log", "{tmp}/x.log"], "invalid int value"),
        (["play", "werewolves", "--seed", "1", "--agents", "random", "--option", "players=1", "--log", "{tmp}/x.log"], "option"),
        (["play", "werewolves", "--seed", "1", "--agents", "random", "--option", "colour=red", "--log", "{tmp}/x.log"], "colour"),
        (["replay", "verify", "{tmp}/missing.log"], "no such log file"),
        (["replay", "verify", "{tmp}/notalog.log"], "not a detente log"),
        (["replay", "show", "{tmp}"], "name a game with --game"),
        (["replay", "show", "{tmp}", "--game", "g1"], "no tournament results here"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_exit_2(argv, fragment, tmp_path, capsys):
    (tmp_path / "notalog.log").write_text("just text\n")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1, err
    assert err.startswith("detente") and fragment in err
    assert "Traceback" not in err


def test_console_script_bad_input_has_no_traceback(tmp_path):
    """Through a real process: one stderr line, exit code 2."""
    proc = subprocess.run(
        [sys.executable, "-m", "ops.cli", "replay", "verify", str(tmp_path / "nope.log")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "no such log file" in proc.stderr


def test_debug_logging_binds_game_seq_actor(tmp_path):
    """Operational logs (structlog, stderr) carry game_id, seq and actor per message at DEBUG."""
    import os

    proc = subprocess.run(
        [sys.executable, "-m", "ops.cli", "play", "werewolves", "--seed", "2", "--agents", "random", "--log", str(tmp_path / "g.log")],
        capture_output=True,
        text=True,
        env={**os.environ, "DETENTE_LOG_LEVEL": "DEBUG"},
    )
    assert proc.returncode == 0
    lines = [l for l in proc.stderr.splitlines() if "message" in l]
    assert len(lines) > 100
    assert all("game_id=werewolves-2" in l and "seq=" in l and "actor=" in l for l in lines)
    quiet = subprocess.run(
        [sys.executable, "-m", "ops.cli", "play", "werewolves", "--seed", "2", "--agents", "random", "--log", str(tmp_path / "h.log")],
        capture_output=True,
        text=True,
    )
    assert quiet.stderr == "" and (tmp_path / "g.log").read_bytes() == (tmp_path / "h.log").read_bytes()


def test_transcript_text_and_json(tmp_path, capsys):
    import json

    log = tmp_path / "aw.log"
    assert _run(capsys, "play", "werewolves", "--seed", "4", "--agents", "alphawolf", "--log", str(log))[0] == 0
    code, out, _ = _run(capsys, "replay", "transcript", str(log), "--player", "2")
    assert code == 0 and "day 1" in out and "point of view: p2" in out
    code, out, _ = _run(capsys, "replay", "transcript", str(log), "--format", "json")
    assert code == 0 and isinstance(json.loads(out), dict)
    code, _, err = _run(capsys, "replay", "transcript", str(log), "--player", "42")
    assert code == 2 and "not a seat" in err


def test_export_diplomacy_json(tmp_path, capsys):
    import json

    log = tmp_path / "g.log"
    assert _run(capsys, "play", "diplomacy", "--seed", "3", "--agents", "random", "--log", str(log), "--option", "max_year=1902")[0] == 0
    code, out, _ = _run(capsys, "export", "diplomacy-json", str(log))
    data = json.loads(out)
    assert code == 0 and data["map"] == "standard" and data["phases"][0]["name"] == "S1901M"
    other = tmp_path / "w.log"
    assert _run(capsys, "play", "werewolves", "--seed", "1", "--agents", "random", "--log", str(other))[0] == 0
    code, _, err = _run(capsys, "export", "diplomacy-json", str(other))
    assert code == 2 and "exports diplomacy games, not 'werewolves'" in err


def test_fork_from_the_command_line(tmp_path, capsys):
    log, out = tmp_path / "g.log", tmp_path / "f.log"
    assert _run(capsys, "play", "werewolves", "--seed", "6", "--agents", "random", "--log", str(log))[0] == 0
    code, text, _ = _run(capsys, "replay", "fork", str(log), "--at", "30", "--agents", "random:offices=", "--out", str(out))
    assert code == 0 and "forked werewolves-6 at seq" in text
    assert _run(capsys, "replay", "verify", str(out))[0] == 0
    code, _, err = _run(capsys, "replay", "fork", str(log), "--at", "30", "--agents", "random", "--out", str(out))
    assert code == 2 and "nothing to fork" in err
