"""The command line never loses data (issue 12, part 3), in-process through `ops.cli.main`: each
case listed under "Why" about the CLI and tournament specs, plus the checks behind them.

Every refusal is one stderr line and exit 2, given before any output is opened; a log, page or
export replaces its file only once complete."""

from __future__ import annotations

import os
import time
import tracemalloc
from pathlib import Path

import pytest

from ops.cli import main

SPEC = """game = "werewolves"
games = {games}
seed = 1
[[lineup]]
agent = "random"
count = {count}
"""


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(err: str, fragment: str = "") -> None:
    assert err.count("\n") == 1 and err.startswith("detente: error: "), err
    assert "Traceback" not in err and fragment in err, err


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `folder` with its bytes and modification time."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def old_log(tmp_path, capsys):
    log = tmp_path / "game.log"
    assert _run(capsys, "play", "werewolves", "--seed", 3, "--agents", "random", "--log", log)[0] == 0
    return log


# -- Why: a bad --agents (or option) noticed only after --log was opened ------------------------


@pytest.mark.parametrize(
    "change, fragment",
    [
        (["--agents", "rando"], "unknown agent 'rando'"),
        (["--agents", "random," * 9 + "nobody"], "unknown agent 'nobody'"),
        (["--agents", "random:width=0"], "width"),
        (["--agents", "random:colour=red"], "colour"),
        (["--option", "colour=red"], "werewolves has no option 'colour'"),
        (["--option", "werewolves=5"], "werewolves options: the village side must start strictly larger"),
        (["--option", "players=2"], "werewolves option players=2: Input should be greater than or equal to 3"),
        (["--option", "tie_rule=coin"], "werewolves option tie_rule='coin'"),
        (["--option", "players=10", "--option", "players=8"], "--option players is given twice"),
        (["--seed", "-1"], "--seed: -1 is out of range"),
        (["--games", "0"], "--games: 0 is out of range"),
    ],
)
def test_bad_agents_or_option_leave_the_existing_log_as_it_was(old_log, capsys, change, fragment):
    """Why: "a bad --agents (or option) is noticed only after --log was opened: an existing log
    is overwritten with a stub"."""
    argv = {"--seed": "7", "--agents": "random", "--games": "1"}
    extra = []
    for flag, value in zip(change[::2], change[1::2]):
        if flag in argv:
            argv[flag] = value
        else:
            extra += [flag, value]
    before = _snapshot(old_log.parent)
    code, _, err = _run(capsys, "play", "werewolves", *[x for kv in argv.items() for x in kv], *extra, "--log", old_log)
    assert code == 2
    _one_line(err, fragment)
    assert _snapshot(old_log.parent) == before


def test_a_game_that_fails_midway_leaves_the_old_log_and_no_temporary_file(old_log, capsys, monkeypatch):
    import actors.match

    real = actors.match.play

    def fails_after_writing(header, sink, **kwargs):
        for _ in range(50):
            sink.record(b"\x80")  # some frames reach the file, then the game goes wrong
        raise KeyboardInterrupt

    before = _snapshot(old_log.parent)
    monkeypatch.setattr(actors.match, "play", fails_after_writing)
    code, _, err = _run(capsys, "play", "werewolves", "--seed", 9, "--agents", "random", "--log", old_log)
    assert code == 130 and err == "detente: interrupted\n"
    assert _snapshot(old_log.parent) == before  # the old log, and nothing else (no .tmp left)
    monkeypatch.setattr(actors.match, "play", real)
    assert _run(capsys, "play", "werewolves", "--seed", 9, "--agents", "random", "--log", old_log)[0] == 0
    assert _snapshot(old_log.parent) != before and sorted(p.name for p in old_log.parent.iterdir()) == ["game.log"]


def test_an_agent_that_needs_an_option_is_refused_before_the_game(tmp_path, capsys):
    """Hanabi's full-information agent needs open hands: refused up front, the option named."""
    log = tmp_path / "h.log"
    code, _, err = _run(capsys, "play", "hanabi", "--seed", 1, "--agents", "full-information", "--log", log)
    assert code == 2 and not log.exists()
    _one_line(err, "agent 'full-information' needs the hanabi option reveal_own_cards=true")
    code, out, _ = _run(capsys, "play", "hanabi", "--seed", 1, "--agents", "full-information",
                        "--option", "reveal_own_cards=true", "--log", log)
    assert code == 0 and log.exists() and "winners" in out
    spec = tmp_path / "h.toml"
    spec.write_text('game = "hanabi"\ngames = 4\n[[lineup]]\nagent = "full-information"\ncount = 2\n')
    code, _, err = _run(capsys, "tournament", "run", spec, "--out", tmp_path / "out")
    assert code == 2 and not (tmp_path / "out").exists()
    _one_line(err, "lineup.0: agent 'full-information' needs the hanabi option reveal_own_cards=true")


# -- Why: huge or odd values give tracebacks ----------------------------------------------------


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--seed", str(2**70)], "--seed: 1180591620717411303424 is out of range (0..9223372036854775807)"),
        (["--seed", str(2**63 - 1), "--games", "2"], "runs past the largest seed"),
        (["--seed", "1" * 5000], "invalid int value"),
        (["--option", f"players={10**20}"], "werewolves option players=100000000000000000000: does not fit in 64 bits"),
        (["--option", f"max_days={2**64}"], "max_days"),
        (["--agents", f"random:width={10**30}"], "option width=1000000000000000000000000000000 does not fit in 64 bits"),
        (["--agents", "random:width=" + "[" * 100_000], "nested too deeply"),
        (["--game-id", "x\nsecond line"], "--game-id"),
        (["--games", str(10**6)], "--games"),
    ],
)
def test_huge_or_odd_values_are_one_line(tmp_path, capsys, argv, fragment):
    """Why: "`--seed 2**70`, `players=10**20` ... give tracebacks"."""
    base = {"--seed": "1", "--agents": "random"}
    extra = []
    for flag, value in zip(argv[::2], argv[1::2]):
        if flag in base:
            base[flag] = value
        else:
            extra += [flag, value]
    code, _, err = _run(capsys, "play", "werewolves", *[x for kv in base.items() for x in kv], *extra, "--log", tmp_path / "x.log")
    assert code == 2
    _one_line(err, fragment)
    assert list(tmp_path.iterdir()) == []


def test_players_1000_is_refused_at_once(tmp_path, capsys):
    """Why: "`players=1000` hangs": every game seats at most 64 (a village of 300 logs 60 MB)."""
    start = time.monotonic()
    code, _, err = _run(capsys, "play", "werewolves", "--seed", 1, "--agents", "random", "--option", "players=1000",
                        "--log", tmp_path / "x.log")
    assert code == 2 and time.monotonic() - start < 5
    _one_line(err, "werewolves with these options seats 1000 players; detente plays at most 64")
    spec = tmp_path / "big.toml"
    spec.write_text(SPEC.format(games=10, count=1000) + "[options]\nplayers = 1000\n")
    code, _, err = _run(capsys, "tournament", "run", spec, "--out", tmp_path / "out")
    assert code == 2 and not (tmp_path / "out").exists()
    _one_line(err, "count")


@pytest.mark.parametrize("make, fragment", [
    (lambda tmp: tmp, "is a folder; name a file"),
    (lambda tmp: tmp / "missing" / "x.log", "does not exist"),
    (lambda tmp: tmp / "file.txt" / "x.log", "is not a folder"),
    (lambda tmp: Path("/proc/detente-test.log"), "cannot write /proc/detente-test.log"),
    (lambda tmp: Path("/proc/self/mem"), ""),
])
def test_log_naming_a_folder_or_an_unwritable_path_is_one_line(tmp_path, capsys, make, fragment):
    """Why: "`--log` naming a folder or an unwritable path ... give tracebacks"."""
    (tmp_path / "file.txt").write_text("a file, not a folder\n")
    before = _snapshot(tmp_path)
    code, _, err = _run(capsys, "play", "werewolves", "--seed", 1, "--agents", "random", "--log", make(tmp_path))
    assert code in (1, 2)
    _one_line(err, fragment)
    assert _snapshot(tmp_path) == before


def test_a_full_device_is_one_line():
    """/dev/full: every write fails with ENOSPC, a real device and no mount."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["play", "werewolves", "--seed", "1", "--agents", "random", "--log", "/dev/full"])
    assert code == 1 and err.getvalue() == "detente: error: /dev/full: No space left on device\n"


def test_the_injected_disk_full_keeps_the_old_log(old_log, capsys, monkeypatch):
    """The same hook as the segment writer's (DETENTE_FAULTS=log=N): ENOSPC at byte N."""
    before = _snapshot(old_log.parent)
    monkeypatch.setenv("DETENTE_FAULTS", "log=5000")
    code, _, err = _run(capsys, "play", "werewolves", "--seed", 4, "--agents", "random", "--log", old_log)
    assert code == 1
    _one_line(err, f"{old_log}: No space left on device")
    assert _snapshot(old_log.parent) == before


def test_non_utf8_spec_and_arguments(tmp_path, capsys):
    """Why: "a non-UTF-8 spec ... give tracebacks"; arguments arrive surrogate-escaped."""
    spec = tmp_path / "latin1.toml"
    spec.write_bytes(SPEC.format(games=10, count=10).encode() + '# café\n'.encode("latin-1"))
    code, _, err = _run(capsys, "tournament", "run", spec, "--out", tmp_path / "out")
    assert code == 2 and not (tmp_path / "out").exists()
    _one_line(err, "not UTF-8 text (byte ")
    raw = os.fsdecode(b"\xff\xfe")
    for argv, fragment in [
        (["--agents", raw], "malformed agent spec"),
        (["--agents", f"random:offices={raw}"], "offices"),
        (["--option", f"tie_rule={raw}"], "tie_rule"),
        (["--game-id", raw], "--game-id"),
    ]:
        base = {"--seed": "1", "--agents": "random", **dict(zip(argv[::2], argv[1::2]))}
        code, _, err = _run(capsys, "play", "werewolves", *[x for kv in base.items() for x in kv], "--log", tmp_path / "x.log")
        assert code == 2, argv
        _one_line(err, fragment)
    odd = tmp_path / f"{raw}.log"  # a file name that is not UTF-8 is still a file name
    code, out, _ = _run(capsys, "play", "werewolves", "--seed", 1, "--agents", "random", "--log", odd)
    assert code == 0 and odd.exists() and "\\udcff" in out


# -- Why: specs accepted that cannot run ------------------------------------------------------------


def test_a_spec_of_10_to_the_12_games_is_refused_and_writes_nothing(tmp_path, capsys):
    """Why: "a spec with `games = 10**12` is accepted and runs out of memory after writing the folder"."""
    spec = tmp_path / "huge.toml"
    spec.write_text(SPEC.format(games=10**12, count=10))
    tracemalloc.start()
    try:
        code, _, err = _run(capsys, "tournament", "run", spec, "--out", tmp_path / "out")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and not (tmp_path / "out").exists() and peak < 32 * 2**20
    _one_line(err, "games: Input should be less than or equal to 1000000000 (got 1000000000000)")
    code, _, err = _run(capsys, "tournament", "run", "ops/examples/werewolves.toml", "--out", tmp_path / "out",
                        "--games", 10**12)
    assert code == 2 and not (tmp_path / "out").exists()
    _one_line(err, "--games")


def test_planning_the_largest_tournament_takes_no_memory():
    """The driver hands out batches as it goes: a billion games are planned in constant memory."""
    from itertools import islice

    from ops.tournament.runner import pending_batches
    from ops.tournament.spec import MAX_GAMES

    tracemalloc.start()
    try:
        first = list(islice(pending_batches(MAX_GAMES, {0, 2, 3}, 50), 3))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert first[0][:3] == [1, 4, 5] and [len(b) for b in first] == [50, 50, 50] and peak < 2**20


@pytest.mark.parametrize("line, field", [
    ('games = "200"', "games: Input should be a valid integer (got '200')"),
    ("games = 2e2", "games"),
    ("games = true", "games"),
    ('seed = "1"', "seed"),
    ("seed = -1", "seed"),
    (f"seed = {2**63}", "seed"),
    ('batch = "5"', "batch"),
    ("fsync = 1", "fsync"),
    ('options = { players = "10" }', "werewolves option players takes a number, not a string ('10')"),
    ("options = { reveal_roles = 1 }", "werewolves option reveal_roles takes true or false, not a number"),
])
def test_numbers_in_a_spec_are_numbers(tmp_path, capsys, line, field):
    """Why: "`games = "200"` passes"."""
    key = line.split(" ")[0]
    text = SPEC.format(games=20, count=10)
    text = "\n".join(l for l in text.splitlines() if not l.startswith(f"{key} ")) + "\n"
    spec = tmp_path / "s.toml"
    spec.write_text(line + "\n" + text)
    code, _, err = _run(capsys, "tournament", "run", spec, "--out", tmp_path / "out")
    assert code == 2 and not (tmp_path / "out").exists()
    _one_line(err, field)


@pytest.mark.parametrize("content, fragment", [
    (b"x" * (2**20 + 1), "a spec is at most 1024 KiB"),
    (b"a = " + b"[" * 5000 + b"]" * 5000, "not valid TOML"),
    (b"\x00\x01\x02", "not valid TOML"),
])
def test_odd_spec_files(tmp_path, capsys, content, fragment):
    spec = tmp_path / "s.toml"
    spec.write_bytes(content)
    code, _, err = _run(capsys, "tournament", "run", spec, "--out", tmp_path / "out")
    assert code == 2 and not (tmp_path / "out").exists()
    _one_line(err, fragment)


def test_a_fifo_is_not_read_as_a_spec(tmp_path, capsys):
    fifo = tmp_path / "spec.fifo"
    os.mkfifo(fifo)
    code, _, err = _run(capsys, "tournament", "run", fifo, "--out", tmp_path / "out")
    assert code == 2
    _one_line(err, "is not a regular file")


# -- options listed with defaults and bounds; pages written whole --------------------------------


def test_games_and_play_help_list_options_with_defaults_and_bounds(capsys):
    code, out, _ = _run(capsys, "games", "hanabi", "werewolves")
    assert code == 0
    assert "  players=2  (integer 2..5)" in out and "  reveal_own_cards=false  (true|false)" in out
    assert "  tie_rule=none  (none|revote_then_random)" in out and "at most 64 seats" in out
    code, out, _ = _run(capsys, "games")
    assert code == 0 and "hanabi: " in out and "players=" not in out  # the plain listing imports no game
    code, out, _ = _run(capsys, "play", "--help")
    assert code == 0 and "  players=10  (integer 3..)" in out and "0..2**63-1" in out
    code, _, err = _run(capsys, "games", "chess")
    assert code == 2
    _one_line(err, "unknown game 'chess'")
    code, out, _ = _run(capsys, "agents")
    assert "full-information:" in out and "needs reveal_own_cards=true" in out


def test_pages_and_exports_replace_their_file_only_when_complete(old_log, tmp_path, capsys):
    page, export = tmp_path / "page.html", tmp_path / "game.json"
    page.write_text("old page")
    export.write_text("old export")
    before = _snapshot(tmp_path)
    code, _, err = _run(capsys, "replay", "transcript", old_log, "--format", "html", "--out", page, "--player", 42)
    assert code == 2 and _snapshot(tmp_path) == before
    _one_line(err, "not a seat")
    code, _, err = _run(capsys, "export", "diplomacy-json", old_log, "--out", export)
    assert code == 2 and _snapshot(tmp_path) == before
    _one_line(err, "exports diplomacy games, not 'werewolves'")
    code, _, err = _run(capsys, "replay", "fork", old_log, "--at", 30, "--agents", "nobody", "--out", old_log)
    assert code == 2 and _snapshot(tmp_path) == before
    _one_line(err, "unknown agent 'nobody'")
    code, out, _ = _run(capsys, "replay", "transcript", old_log, "--format", "html", "--out", page)
    assert code == 0 and page.read_text().startswith("<!doctype html>")
    code, out, _ = _run(capsys, "replay", "fork", old_log, "--at", 30, "--agents", "random:offices=", "--out", old_log)
    assert code == 0 and _run(capsys, "replay", "verify", old_log)[0] == 0  # forked over its own source
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.log", "page.html"]


def test_permission_denied_is_one_line(old_log, capsys, monkeypatch):
    """Root passes every permission check, so the denial is staged at open()."""
    import ops.cli

    def denied(path, mode="r", *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    before = _snapshot(old_log.parent)
    monkeypatch.setattr(ops.cli, "open", denied, raising=False)
    code, _, err = _run(capsys, "play", "werewolves", "--seed", 1, "--agents", "random", "--log", old_log)
    assert code == 2 and _snapshot(old_log.parent) == before
    _one_line(err, f"cannot write {old_log}: Permission denied")
