"""Records valid in form, wrong in content, through every plugin part of every game and through
the debugger API (the fuzz suites' plugin half; the log half is test_fuzz_logs.py).

Per game, CASES logs are made from its golden log (a short random game where it has none) by
tests/hostile/content.py: a field removed, a value of another type, another game's action or
chance outcome, another seat's observation or heard line; cases cycle through the four. Each
case is checked as the core checks a log (GameLog.check: a typed LogError ends it there), then
every plugin part of the game runs on it (replay.guard.check_parts: the transcripts of the whole
game and of seat 0, the belief reader, the charts, the exporters, the board and its hooks at up
to 4 positions per view), then ten debugger routes (head, meta, the board at the changed record,
messages, the record, its detail, every board, omniscient and seat views); one case in four is
also written as a log file (when our writer's codec can lay it out) and given to `detente replay
transcript`, `replay show` and each of the game's exporters (exit 0, or 2 with one stderr line).
Each ends in a clean answer or a typed error (LogError, PluginFault included; DebugError 4xx/5xx
with one line): never a traceback, never a case past content.CASE_SECONDS (a hang), resident
memory never rising past the readers' bound (bus.log READ_MEMORY). Report sections get REPORT_CASES stores
per game whose rows carry a game's outcome `extra` changed the same ways: each report builds,
a failing section marked unavailable.

The cases are derandomized (content.py seeds each from the game and the case number): the same
ones every run; DETENTE_FUZZ_SCALE=N runs N times as many. Cases per game and plugin part in the
default run (each case runs through every part its game declares; "-": the game declares none;
cases the core refuses stop before the parts and are counted here all the same):

    game                       transcript beliefs charts board hooks exporters report debugger-API CLI
    battleline                     40        40      40    40    -       -         6      40   10
    diplomacy                      40        40      40    40    40      40        6      40   10
    dominoes                       40        40      40    40    -       -        -       40   10
    hanabi                         40        40      40    40    40      -         6      40   10
    risk                           40        40      40    40    -       -         6      40   10
    werewolves                     40        40      40    40    40      -        -       40   10
    openspiel-<7 games> (each)     -         -       -     40    -       -        -       40   10
    coin_talk (test plugin)        40        40      40    40    -       40       -       40   10

(transcript: the game's own, else the generic one, which is not plugin code: "-" above.)
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bus.log import READ_MEMORY, read_log
from games.registry import game_names, get_plugin
from replay.guard import board_hooks
from tests.hostile import content
from tests.hostile.logs import rss_rise

ROOT = Path(__file__).resolve().parents[2]
SCALE = float(os.environ.get("DETENTE_FUZZ_SCALE", "1"))
CASES = max(1, int(40 * SCALE))
REPORT_CASES = max(1, int(6 * SCALE))
CLI_EVERY = 4  # one case in 4 also runs the CLI's transcript, show and exporters on it, written as a file
GAMES = game_names()


def run_game(game: str, cases: int) -> dict[str, dict[str, int]]:
    """Run `cases` cases of `game`; {"kinds": {...}, "outcomes": {...}} counted. Raises (with the
    case named) on anything but a clean answer or a typed error, on a hang, on memory."""
    kinds: dict[str, int] = {}
    outcomes: dict[str, int] = {}
    for case in range(cases):
        kind, seq, log = content.mutate(game, case)
        try:
            with content.deadline():
                out, rise = rss_rise(lambda: content.run_case(log, seq))
        except Exception as exc:
            raise AssertionError(f"{game} case {case} ({kind}, seq {seq}): {type(exc).__name__}: {exc}") from exc
        assert rise < READ_MEMORY, f"{game} case {case}: memory rose {rise >> 20} MiB"
        if case % CLI_EVERY == case // CLI_EVERY % CLI_EVERY:  # the CLI on the case as a file (every kind in turn)
            with tempfile.TemporaryDirectory(prefix="detente-content-case-") as tmp, content.deadline():
                out.update({f"cli {k}": str(v) for k, v in content.cli_case(log, Path(tmp)).items()})
        kinds[kind] = kinds.get(kind, 0) + 1
        for part, verdict in out.items():
            key = f"{part.split(' ')[0]}={verdict}"
            outcomes[key] = outcomes.get(key, 0) + 1
    return {"kinds": kinds, "outcomes": outcomes}


@pytest.mark.parametrize("game", GAMES)
def test_content_cases_read_cleanly_or_fail_typed(game):
    counted = run_game(game, CASES)
    assert set(counted["kinds"]) == set(content.KINDS) or CASES < len(content.KINDS), counted
    reached = sum(v for k, v in counted["outcomes"].items() if k.startswith("parts="))
    assert reached >= CASES // 3, f"{game}: only {reached} of {CASES} cases got past the core's check: {counted}"


def test_content_cases_of_the_test_plugin():
    """coin_talk, installed as a third-party plugin (tests/plugins), in its own process."""
    code = ("import json\nfrom tests.hostile.test_fuzz_plugins import run_game\n"
            f"print(json.dumps(run_game('coin_talk', {CASES})))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "plugins"), str(ROOT)]),
           "RAY_AUTH_MODE": "disabled"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    counted = json.loads(done.stdout.strip().splitlines()[-1])
    assert sum(v for k, v in counted["outcomes"].items() if k.startswith("parts=")) >= CASES // 3, counted


# -- report sections over rows whose `extra` is wrong in content -------------------------------------

REPORTED = [g for g in GAMES if get_plugin(g).report]


def _extra_cases(game: str) -> list[dict]:
    """The outcome `extra` of the game's golden logs, then REPORT_CASES changed copies."""
    from tests.hostile.logs import GOLDEN

    ends = [read_log(p).games[0].records[-1]["msg"] for p in sorted(GOLDEN.glob(f"{game}-*.log"))]
    extras = [e.get("extra") or {} for e in ends if e["kind"] == "game_end"]
    out = []
    for case in range(REPORT_CASES):
        rng = random.Random(f"report/{game}/{case}")
        extra = copy.deepcopy(rng.choice(extras))
        slots = content._slots(extra)
        if slots:
            container, key, _ = rng.choice(slots)
            if case % 2:
                del container[key]
            else:
                container[key] = copy.deepcopy(rng.choice([v for v in content._OTHER_TYPES if type(v) is not type(container[key])]))
        out.append(extra)
    return out, extras


@pytest.mark.parametrize("game", REPORTED)
def test_report_sections_over_rows_wrong_in_content(game):
    from ops.tournament.report import build_report, format_text
    from ops.tournament.store import Store
    from tests.store_rows import full_row, stored

    cases, real = _extra_cases(game)
    players = len(read_log(sorted(content.GOLDEN.glob(f"{game}-*.log"))[0]).games[0].header["agents"])
    seats = [f"a{s}" for s in range(players)]
    unavailable = 0
    for case, extra in enumerate(cases):
        with tempfile.TemporaryDirectory(prefix="detente-report-case-") as tmp:
            rows = [full_row(i, seats, e, winners=[0]) for i, e in enumerate([real[0], extra, real[-1]])]
            store = stored(Path(tmp), rows)
            try:
                store.set_meta("spec", json.dumps({"game": game}))
                with content.deadline():
                    data = build_report(store)
                    text = format_text(data)
            except Exception as exc:
                raise AssertionError(f"{game} report case {case}: {type(exc).__name__}: {exc}") from exc
            finally:
                store.close()
        for section in data["sections"]:
            if section.get("unavailable"):
                unavailable += 1
                assert section["unavailable"].startswith((f"game {game}: plugin part report failed at stored game ",
                                                          f"game {game}: plugin part report failed at the store: "))
                assert f"unavailable: {section['unavailable']}" in text
    assert unavailable < len(cases) or len(cases) < 2, "every changed row made the sections unavailable"


def test_the_docstring_counts_the_cases():
    """The table above says what runs: every game's row, with the parts it declares."""
    doc = __doc__.split("\n\n    game")[1]
    rows = {line.split()[0]: line.split()[1:] for line in doc.splitlines()[1:] if line.strip() and line.startswith("    ")}
    assert CASES == 40 * SCALE and CASES // CLI_EVERY == 10 or SCALE != 1
    for game in GAMES:
        plugin = get_plugin(game)
        row = rows.get("openspiel-<7" if game.startswith("openspiel-") else game)
        assert row is not None, f"{game} has no row in the docstring"
        if game.startswith("openspiel-"):
            row = row[2:]  # "games> (each)"
        declared = [plugin.transcript, plugin.beliefs, plugin.charts, plugin.board,
                    board_hooks(game, plugin.board), plugin.exporters, plugin.report, True, True]
        expected = [{"report": "6", "cli": "10"}.get(part, "40") if d else "-"
                    for part, d in zip(["t", "b", "c", "bo", "h", "e", "report", "api", "cli"], declared)]
        assert row == expected, f"{game}: the docstring says {row}, the plugin declares {expected}"
    assert len([g for g in GAMES if g.startswith("openspiel-")]) in (0, 7)
