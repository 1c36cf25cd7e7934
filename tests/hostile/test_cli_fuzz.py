"""Random command lines and specs (issue 12, part 5, the CLI half): generated with hypothesis and
run in-process through `ops.cli.main(argv)` under tracemalloc, plus a few dozen subprocess cases
for exit codes, broken pipes and peak memory.

Every case: exit 0, 1 or 2; a refusal or failure is exactly one stderr line and never a
traceback; memory stays bounded; files that existed before are untouched unless the command
succeeded in writing them. The in-process cases are derandomized (the same cases every run);
DETENTE_FUZZ_EXAMPLES=N runs N per generator instead of the default."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ops.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("DETENTE_FUZZ_EXAMPLES", "50"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PEAK_IN_PROCESS = 96 * 2**20  # tracemalloc peak of one command
PEAK_RSS = 256 * 2**20  # a whole CLI process (imports included: ~55 MiB)
RAW = os.fsdecode(b"\xff\xfe")  # bytes that are not UTF-8, as argv delivers them


@pytest.fixture(scope="module")
def world():
    """Files the commands read and must not damage: a log, a damaged log, a text file, a tournament
    folder (6 recorded games), a spec; copied afresh into each example's folder."""
    from ops.tournament.runner import BatchPlayer
    from ops.tournament.spec import parse_spec
    from ops.tournament.store import Store

    base = Path(tempfile.mkdtemp(prefix="detente-fuzz-"))
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["play", "werewolves", "--seed", "3", "--agents", "random", "--log", str(base / "game.log")]) == 0
    data = bytearray((base / "game.log").read_bytes())
    data[len(data) // 2] ^= 0x10
    (base / "flipped.log").write_bytes(bytes(data))
    (base / "torn.log").write_bytes(bytes(data[: len(data) // 3]))
    (base / "notes.txt").write_text("not a log\n")
    spec = {"game": "werewolves", "games": 6, "seed": 2, "lineup": [{"agent": "random", "count": 10}]}
    player = BatchPlayer(str(base / "tour"), parse_spec(spec).model_dump(mode="json"), "fz-r001")
    rows = player.play(list(range(6)))
    player.close()
    store = Store(base / "tour")
    store.add(rows)
    store.close()
    (base / "spec.toml").write_text('game = "werewolves"\ngames = 6\nseed = 2\n[[lineup]]\nagent = "random"\ncount = 10\n')
    yield base
    shutil.rmtree(base, ignore_errors=True)


@contextlib.contextmanager
def _example(world: Path):
    """A fresh copy of the world for one example."""
    with tempfile.TemporaryDirectory(prefix="detente-case-") as tmp:
        here = Path(tmp)
        for item in world.iterdir():
            (shutil.copytree if item.is_dir() else shutil.copy2)(item, here / item.name)
        yield here


def _state(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _call(argv: list[str]) -> tuple[int, str, str, int]:
    """main(argv) in-process: exit code, stdout, stderr, tracemalloc peak."""
    out, err = io.StringIO(), io.StringIO()
    tracemalloc.start()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return code, out.getvalue(), err.getvalue(), peak


def _check(argv: list[str], here: Path, written: set[str] = frozenset()) -> int:
    """Run one case and check the contract; `written`: files the command may replace on success."""
    before = _state(here)
    code, out, err, peak = _call(argv)
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err and "Traceback" not in out, (argv, err)
    if code:
        assert err.count("\n") == 1 and (err.startswith("detente: error: ") or err.startswith("FAIL: ")), (argv, err)
    assert peak < PEAK_IN_PROCESS, (argv, peak)
    after = _state(here)
    for name, content in before.items():
        may_change = code == 0 and (name in written or name.endswith((".duckdb", ".lock", ".wal", "report.html")))
        assert may_change or after.get(name) == content, (argv, name, code, err)
    if code:  # a refusal or a failure leaves no new file behind (no temporary file either)
        assert set(after) <= set(before) | {"tour/driver.lock"}, (argv, sorted(set(after) - set(before)))
    return code


# -- generators ---------------------------------------------------------------------------------

INTS = st.one_of(st.integers(-3, 12), st.sampled_from([2**31, 2**63 - 1, 2**63, 2**70, 10**20, -(2**64)]), st.integers())
WORDS = st.sampled_from(["random", "alphawolf", "full-information", "rational", "nobody", "", " ", ",", RAW, "a\nb",
                         "random:width=0", "random:width=2", "random:offices=", "random:traits.risk=2",
                         "random:width=" + "[" * 3000, "random,random", "random:" + RAW + "=1"])
TEXT = st.one_of(WORDS, st.text(max_size=16))
VALUES = st.one_of(INTS.map(str), TEXT, st.sampled_from(["true", "false", "null", "[1,2]", '{"a": 1}', "1e999",
                                                         "NaN", "-0", "3.0", '"8"', "[" * 3000]))
OPTION_KEYS = st.sampled_from(["players", "werewolves", "seers", "doctors", "tie_rule", "max_days", "reveal_roles",
                               "discussion_rounds", "reveal_own_cards", "hand_size", "colour", "", RAW])
PATHS = ["{here}/new.log", "{here}/game.log", "{here}", "{here}/missing/x.log", "{here}/notes.txt/x.log",
         "/proc/detente-fuzz.log", "/dev/null", "{here}/" + RAW + ".log", "{here}/tour"]
INPUTS = ["{here}/game.log", "{here}/flipped.log", "{here}/torn.log", "{here}/notes.txt", "{here}/missing.log",
          "{here}/tour", "{here}", "/dev/null", "{here}/" + RAW]


def _fill(items: list[str], here: Path) -> list[str]:
    return [item.replace("{here}", str(here)) for item in items]


@st.composite
def play_argv(draw):
    game = draw(st.sampled_from(["werewolves", "hanabi", "werewolves", "chess", RAW, ""]))
    argv = ["play", game, "--seed", str(draw(INTS)), "--agents", draw(st.one_of(WORDS, TEXT)), "--log", draw(st.sampled_from(PATHS))]
    for _ in range(draw(st.integers(0, 3))):
        argv += ["--option", f"{draw(OPTION_KEYS)}={draw(VALUES)}"]
    extras = draw(st.lists(st.sampled_from(["--games", "--pack", "--fsync", "--game-id", "--runtime", "--frob"]), max_size=3, unique=True))
    for flag in extras:
        argv += {"--games": ["--games", str(draw(st.one_of(st.integers(-1, 3), INTS)))],
                 "--game-id": ["--game-id", draw(TEXT)],
                 "--runtime": ["--runtime", draw(st.sampled_from(["inline", "bogus", ""]))]}.get(flag, [flag])
    return argv


@st.composite
def replay_argv(draw):
    which = draw(st.sampled_from(["verify", "show", "transcript", "fork", "export"]))
    source = draw(st.sampled_from(INPUTS))
    argv = (["export", "diplomacy-json", source] if which == "export" else ["replay", which, source])
    if which == "fork":
        argv += ["--at", str(draw(INTS)), "--agents", draw(WORDS), "--out", draw(st.sampled_from(PATHS))]
    if draw(st.booleans()):
        argv += ["--game", draw(st.one_of(st.sampled_from(["g00000001", "g00000099", "werewolves-3"]), TEXT))]
    if which == "show" and draw(st.booleans()):
        argv += ["--at", str(draw(INTS))]
    if which == "verify" and draw(st.booleans()):
        argv += ["--sample", str(draw(INTS))]
    if which == "transcript":
        argv += draw(st.sampled_from([[], ["--format", "json"], ["--format", "html"], ["--format", "html", "--out", "{here}/page.html"],
                                      ["--player", "2"], ["--player", str(10**9)], ["--out", "{here}/p.html"]]))
    return argv


def _toml(value) -> str:
    """A TOML value (inline), the subset the generator makes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return {float("inf"): "inf", float("-inf"): "-inf"}.get(value, "nan" if value != value else repr(value))
    if isinstance(value, str):
        return json.dumps(value)  # surrogates come out as \udcff escapes, which TOML refuses
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"


SCALARS = st.one_of(INTS, st.booleans(), st.floats(), TEXT, st.sampled_from(["200", "werewolves", "rotate", "inline"]))
TOML_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                            st.dictionaries(st.sampled_from(["agent", "count", "players", "x"]), inner, max_size=3)),
                           max_leaves=6)


@st.composite
def spec_text(draw):
    """Specs near a valid one: each key kept, dropped or given a generated value."""
    spec = {"game": "werewolves", "games": 6, "seed": 2, "seating": "rotate", "options": {"players": 10},
            "lineup": [{"agent": "random", "count": 10}]}
    for key in ["game", "games", "seed", "seating", "placement", "options", "lineup", "batch", "segment_mib", "fsync", "x"]:
        choice = draw(st.sampled_from(["keep", "keep", "drop", "value"]))
        if choice == "drop":
            spec.pop(key, None)
        elif choice == "value":
            spec[key] = draw(TOML_VALUES)
    if draw(st.booleans()) and isinstance(spec.get("lineup"), list) and spec["lineup"] and isinstance(spec["lineup"][0], dict):
        spec["lineup"][0] = {**spec["lineup"][0], draw(st.sampled_from(["agent", "count", "options", "label"])): draw(TOML_VALUES)}
    return "".join(f"{k} = {_toml(v)}\n" for k, v in spec.items())


ANY = st.lists(st.one_of(st.sampled_from(["play", "replay", "verify", "show", "tournament", "run", "report", "compact",
                                          "games", "agents", "export", "--help", "-h", "--seed", "--log", "--out",
                                          "--agents", "--games", "--format", "html", "werewolves", "hanabi",
                                          "{here}/game.log", "{here}/tour", "{here}/new.log"]), TEXT), max_size=8)


# -- in-process ---------------------------------------------------------------------------------


@FUZZ
@given(argv=play_argv())
def test_random_play_command_lines(world, argv):
    with _example(world) as here:
        _check(_fill(argv, here), here, written={"game.log", "tour"})


@FUZZ
@given(argv=replay_argv())
def test_random_replay_and_export_command_lines(world, argv):
    with _example(world) as here:
        _check(_fill(argv, here), here, written={"game.log", "page.html", "p.html"})


@FUZZ
@given(text=spec_text(), extra=st.sampled_from([[], ["--games", "3"], ["--games", "0"], ["--games", str(10**12)], ["--runners", "0"]]),
       out=st.sampled_from(["{here}/out", "{here}/tour", "{here}/notes.txt", "/proc/detente-fuzz"]))
def test_random_tournament_specs(world, text, extra, out):
    """Specs are checked in full before the folder is made; a good one reaches the runner (a stub
    here: the runner itself is tested on a real Ray in test_tournament_*)."""
    from ops.tournament.runner import RunSummary

    with _example(world) as here:
        spec = here / "fuzz.toml"
        spec.write_text(text, errors="surrogateescape")
        calls = []

        def runner(spec_model, folder, **kwargs):
            calls.append(spec_model)
            return RunSummary(spec_model.games, 0, spec_model.games, [], 1, 0, 0.0)

        with mock.patch("ops.tournament.runner.run_tournament", runner):
            code = _check(_fill(["tournament", "run", str(spec), "--out", out, *extra], here), here)
        assert bool(calls) == (code == 0)
        if code and out == "{here}/out":
            assert not (here / "out").exists()


@FUZZ
@given(tokens=ANY)
def test_random_tokens(world, tokens):
    with _example(world) as here:
        with mock.patch("ops.tournament.runner.run_tournament", side_effect=AssertionError("no tournament here")):
            _check(_fill(tokens, here), here, written={"new.log", "game.log"})


# -- subprocesses: exit codes, broken pipes, peak memory ---------------------------------------


# `python -m ops.cli` that also writes its peak RSS (VmHWM: the high-water mark of this process's own
# memory, which, unlike a child's ru_maxrss, does not count the parent it was forked from)
_WRAPPED = (
    "import atexit, os, sys\n"
    "def _peak():\n"
    "    with open('/proc/self/status') as f:\n"
    "        kib = next(line.split()[1] for line in f if line.startswith('VmHWM'))\n"
    "    with open(os.environ['DETENTE_TEST_PEAK'], 'w') as out:\n"
    "        out.write(kib)\n"
    "atexit.register(_peak)\n"
    "sys.argv[0] = 'detente'\n"
    "from ops.cli import main\n"
    "sys.exit(main())\n"
)


def _spawn(argv: list, close_stdout: bool = False, env: dict | None = None) -> tuple[int, bytes, int]:
    """Run the CLI in a process of its own: exit code, stderr, peak RSS in bytes."""
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile() as peak:
        proc = subprocess.Popen([sys.executable, "-c", _WRAPPED, *argv], cwd=ROOT, stderr=err,
                                stdout=subprocess.PIPE if close_stdout else subprocess.DEVNULL,
                                env={**os.environ, **(env or {}), "DETENTE_TEST_PEAK": peak.name})
        if close_stdout:
            proc.stdout.close()  # as `| head` does once it has its lines
        proc.wait()
        err.seek(0)
        kib = Path(peak.name).read_text() or "0"
        return proc.returncode, err.read(), int(kib) * 1024


def _cases(base: Path) -> list[tuple[str, list, int, str, dict]]:
    log, tour, new = str(base / "game.log"), str(base / "tour"), str(base / "sub-new.log")
    play = ["play", "werewolves", "--seed", "1", "--agents", "random"]
    specs = {"latin1": SPEC_LATIN1, "huge": SPEC_HUGE, "string": SPEC_STRING, "crowd": SPEC_CROWD}
    for name, text in specs.items():
        (base / f"sub-{name}.toml").write_bytes(text)
    pipe = {"pipe": True}
    return [
        # broken pipes: quiet, exit 141 as `git log | head`
        ("games | head", ["games"], 141, "", pipe),
        ("agents | head", ["agents"], 141, "", pipe),
        ("play --help | head", ["play", "--help"], 141, "", pipe),
        ("show | head", ["replay", "show", log], 141, "", pipe),
        ("transcript | head", ["replay", "transcript", log], 141, "", pipe),
        ("verify | head", ["replay", "verify", log], 141, "", pipe),
        ("report json | head", ["tournament", "report", tour, "--format", "json"], 141, "", pipe),
        ("play 3 games | head", [*play, "--games", "3", "--log", new], 141, "", pipe),
        # bad input: one line, exit 2
        ("seed 2**70", ["play", "werewolves", "--seed", str(2**70), "--agents", "random", "--log", new], 2, "out of range", {}),
        ("players=1000", [*play, "--option", "players=1000", "--log", new], 2, "at most 64", {}),
        ("log is a folder", [*play, "--log", str(base)], 2, "is a folder", {}),
        ("log unwritable", [*play, "--log", "/proc/detente-sub.log"], 2, "cannot write", {}),
        ("bad agents, old log", ["play", "werewolves", "--seed", "1", "--agents", "rando", "--log", log], 2, "unknown agent", {}),
        ("raw-byte agents", [b"play", b"werewolves", b"--seed", b"1", b"--agents", b"\xff", b"--log", new.encode()], 2, "malformed agent spec", {}),
        ("needs open hands", ["play", "hanabi", "--seed", "1", "--agents", "full-information", "--log", new], 2, "reveal_own_cards=true", {}),
        ("non-UTF-8 spec", ["tournament", "run", str(base / "sub-latin1.toml"), "--out", str(base / "o1")], 2, "not UTF-8", {}),
        ("games = 10**12", ["tournament", "run", str(base / "sub-huge.toml"), "--out", str(base / "o2")], 2, "less than or equal", {}),
        ('games = "200"', ["tournament", "run", str(base / "sub-string.toml"), "--out", str(base / "o3")], 2, "valid integer", {}),
        ("spec players=1000", ["tournament", "run", str(base / "sub-crowd.toml"), "--out", str(base / "o4")], 2, "count", {}),
        ("out is a file", ["tournament", "run", str(base / "spec.toml"), "--out", log], 2, "not a folder", {}),
        ("missing log", ["replay", "verify", str(base / "missing.log")], 2, "no such log file", {}),
        ("compact nothing", ["tournament", "compact", str(base / "missing")], 2, "no tournament results", {}),
        ("unknown command", ["frobnicate"], 2, "invalid choice", {}),
        # failures: one line, exit 1
        ("flipped byte", ["replay", "verify", str(base / "flipped.log")], 1, "offset", {}),
        ("/dev/full", [*play, "--log", "/dev/full"], 1, "No space left on device", {}),
        ("disk full, old log", [*play, "--log", log], 1, "No space left on device", {"env": {"DETENTE_FAULTS": "log=4000"}}),
        # fine
        ("help", ["--help"], 0, "", {}),
        ("play", [*play, "--log", new], 0, "", {}),
        ("verify folder", ["replay", "verify", tour], 0, "", {}),
    ]


SPEC_BODY = b'seed = 1\n[[lineup]]\nagent = "random"\ncount = 10\n'
SPEC_LATIN1 = b'game = "werewolves"\ngames = 6\n' + SPEC_BODY + "# caf\u00e9\n".encode("latin-1")
SPEC_HUGE = b'game = "werewolves"\ngames = 1000000000000\n' + SPEC_BODY
SPEC_STRING = b'game = "werewolves"\ngames = "200"\n' + SPEC_BODY
SPEC_CROWD = b'game = "werewolves"\ngames = 6\n[options]\nplayers = 1000\n[[lineup]]\nagent = "random"\ncount = 1000\n'


@pytest.mark.slow  # in the default suite (CI), not the quick subset
def test_subprocess_cases_exit_codes_pipes_and_peak_memory(world):
    """A few dozen real processes: the exit code, one quiet or one-line stderr, bounded peak RSS,
    and the files that were there before untouched where the command did not succeed."""
    with _example(world) as here:
        cases = _cases(here)
        before = _state(here)

        def one(case):
            name, argv, _, _, how = case
            return _spawn(argv, close_stdout=how.get("pipe", False), env=how.get("env"))

        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(one, cases))
        problems = []
        for (name, argv, want, fragment, how), (code, err, rss) in zip(cases, results):
            text = err.decode("utf-8", "replace")
            lines = text.count("\n")
            ok = code == want and "Traceback" not in text and 0 < rss < PEAK_RSS
            if want == 141:
                ok = ok and text == ""  # not a word about the pipe
            elif want:
                ok = ok and lines == 1 and fragment in text
            if not ok:
                problems.append(f"{name}: exit {code} (want {want}), {rss / 2**20:.0f} MiB, stderr {text!r}")
        assert not problems, "\n".join(problems)
        after = _state(here)
        assert after["game.log"] == before["game.log"]  # bad agents, disk full: the old log as it was
        assert not (here / "o1").exists() and not (here / "o2").exists() and not (here / "o3").exists()
        assert (here / "sub-new.log").exists()  # the one play that succeeded
        assert not [p for p in here.rglob("*.tmp")]


def test_the_cli_states_the_bounds_the_spec_checks():
    import ops.cli
    from ops.tournament import spec

    assert (ops.cli.MAX_SEED, ops.cli.MAX_GAMES, ops.cli.MAX_SEATS) == (spec.MAX_SEED, spec.MAX_GAMES, spec.MAX_SEATS)
