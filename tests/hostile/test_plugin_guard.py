"""The plugin guard (replay/guard.py): every plugin part of every game holds on the logs
detente's own writer makes (golden and random logs: any trip fails the test, nothing is
swallowed), and a part that fails trips the guard with the game, the part and the seq in its one
line, wherever it runs: the CLI (exit 2, one stderr line), the debugger API (a 422 with the line;
the other games are still served), a tournament report (the section marked unavailable).

The broken parts are Hanabi's own, wrapped to fail at a known record, in a module made for each
test (the board's hooks are found next to the board, so each broken hook gets its own module)."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import itertools
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bus.log import read_log
from games import registry
from games.registry import game_names, get_plugin
from replay.conformance import play_to_bytes
from replay.guard import PluginFault, check_parts
from replay.walk import walk
from tests.hostile.logs import GOLDEN

ROOT = Path(__file__).resolve().parents[2]
GOLDENS = sorted(p.stem for p in GOLDEN.glob("*.log"))
BELIEFS_LOG = GOLDEN / "hanabi-alpha-6.log"  # Hanabi with an Intelligence Office: beliefs to read
TRIP = 10  # the seq the broken transcript and exporter fail at


# -- what our own writer makes: no trip ------------------------------------------------------------

@pytest.mark.parametrize("stem", GOLDENS)
def test_every_part_holds_on_golden_logs(stem):
    game = read_log(GOLDEN / f"{stem}.log").games[0]
    calls = check_parts(game, boards=20)
    assert calls["transcript"] == 1 + len(game.header["agents"])
    assert calls.get("board", 0) > 0 or get_plugin(game.header["game"]).board is None


@pytest.mark.parametrize("name", game_names())
def test_every_part_holds_on_random_logs(name):
    from bus.log import parse_log

    options = dict(get_plugin(name).short_options) or None
    game = parse_log(play_to_bytes(name, 3, options), check=True).games[0]
    check_parts(game, boards=10)


def test_every_part_of_the_test_plugin_holds_on_random_logs():
    """coin_talk, a game installed as a third-party plugin (tests/plugins), in its own process."""
    code = ("from bus.log import parse_log\nfrom replay.conformance import play_to_bytes\n"
            "from replay.guard import check_parts\n"
            "game = parse_log(play_to_bytes('coin_talk', 3, {'rounds': 4}), check=True).games[0]\n"
            "print(sorted(check_parts(game, boards=10).items()))\n")
    done = _with_test_plugin(code)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "('board', " in done.stdout and "('exporter coin-csv', 1)" in done.stdout


@pytest.mark.parametrize("name", [g for g in game_names() if get_plugin(g).report])
def test_report_sections_hold_on_rows_our_writer_made(name, tmp_path):
    """Rows carrying the outcome `extra` of the game's golden logs: every section available."""
    from ops.tournament.report import build_report
    from tests.store_rows import full_row, stored

    logs = [read_log(p).games[0] for p in sorted(GOLDEN.glob(f"{name}-*.log"))]
    rows = [full_row(i, [f"a{s}" for s in range(len(g.header["agents"]))], g.records[-1]["msg"].get("extra") or {},
                     winners=list(g.records[-1]["msg"]["winners"])) for i, g in enumerate(logs)
            if len(g.header["agents"]) == len(logs[0].header["agents"])]
    store = stored(tmp_path, rows)
    try:
        store.set_meta("spec", json.dumps({"game": name}))
        sections = build_report(store)["sections"]
    finally:
        store.close()
    assert sections and not [s["unavailable"] for s in sections if s.get("unavailable")]


def _with_test_plugin(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "plugins"), str(ROOT)]),
           "RAY_AUTH_MODE": "disabled"}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


# -- broken parts ----------------------------------------------------------------------------------

_modules = itertools.count()


@pytest.fixture
def broken(monkeypatch):
    """broken(**parts) -> a Hanabi plugin whose named parts are the given functions (board hooks:
    phase, deals, seat_names, seat_colours, next to the real board), installed in the registry."""
    real = get_plugin("hanabi")

    def install(exporters=None, report=None, **functions):
        name = f"_detente_broken_{next(_modules)}"
        module = types.ModuleType(name)
        from ops.plugins.hanabi import board as hanabi_board

        module.board = hanabi_board.board
        module.phase = hanabi_board.phase
        for key, fn in functions.items():
            setattr(module, key, fn)
        if exporters is not None:
            module.export = exporters
        if report is not None:
            module.report = report
        monkeypatch.setitem(sys.modules, name, module)
        charts = real.charts
        if "chart" in functions or "x_of" in functions:
            chart = functions.get("chart")
            charts = (dataclasses.replace(real.charts[0], read=f"{name}:chart" if chart else real.charts[0].read,
                                          x_of=f"{name}:x_of" if "x_of" in functions else None),)
        plugin = dataclasses.replace(
            real, transcript=f"{name}:transcript" if "transcript" in functions else real.transcript,
            beliefs=f"{name}:beliefs" if "beliefs" in functions else real.beliefs, charts=charts,
            board=f"{name}:board", exporters={"broken-json": f"{name}:export"} if exporters else real.exporters,
            report=f"{name}:report" if report else real.report)
        monkeypatch.setitem(registry._PLUGINS, "hanabi", plugin)
        return plugin
    return install


def _fault_line(text: str, part: str, seq: int | None = None) -> None:
    """One line naming the game, the part and the seq (exactly `seq` when given)."""
    assert "\n" not in text.strip(), text
    assert "game hanabi" in text and f"plugin part {part} failed at seq " in text, text
    found = int(re.search(r"failed at seq (-?\d+)", text).group(1))
    if seq is not None:
        assert found == seq, text


def _cli(*argv: str) -> tuple[int, str, str]:
    from ops.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _small() -> str:
    return str(GOLDEN / "hanabi-random-2.log")


def _api(tmp_path, *logs: Path):
    from ops.debugger.api import Api
    from ops.debugger.source import open_source

    folder = tmp_path / "logs"
    folder.mkdir()
    for log in logs:
        (folder / log.name).write_bytes(log.read_bytes())
    return Api(open_source(folder), None)


def _api_error(api, path: str, query=None) -> tuple[int, str]:
    from ops.debugger.game import DebugError

    with pytest.raises(DebugError) as caught:
        api.get(path, query or {})
    return caught.value.status, str(caught.value)


def _gid(path: Path) -> str:
    return str(read_log(path).games[0].header["game_id"])


def test_a_broken_transcript_trips_the_guard_in_the_cli(broken):
    from ops.plugins.hanabi.transcript import transcript as real

    def transcript(log, player):
        for step in walk(log):
            if step.seq == TRIP:
                raise KeyError("fireworks")
        return real(log, player)

    broken(transcript=transcript)
    code, out, err = _cli("replay", "transcript", _small())
    assert code == 2 and not out
    _fault_line(err, "transcript", TRIP)
    assert "KeyError: 'fireworks'" in err


def test_a_broken_belief_reader_trips_the_guard_in_the_cli(broken):
    def beliefs(msg):
        return [("p1", "candidates", "many")]  # not a number

    broken(beliefs=beliefs)
    game = read_log(BELIEFS_LOG).games[0]
    first = next(r["seq"] for r in game.records if r["msg"]["kind"] == "kb_change" and r["msg"]["source"].endswith("/io"))
    code, _, err = _cli("replay", "transcript", str(BELIEFS_LOG), "--format", "json")
    assert code == 2
    _fault_line(err, "beliefs", first)


def test_a_broken_chart_trips_the_guard_in_transcripts_and_the_debugger(broken, tmp_path):
    from replay.series import state_series

    def chart(state):
        if state.to_json()["hints"] < 8:  # the first hint given
            raise ZeroDivisionError("division by zero")
        return {"hints": state.to_json()["hints"]}

    broken(chart=chart)
    game = read_log(_small()).games[0]
    first = next(s.seq for s in walk(game) if s.state.to_json()["hints"] < 8)
    with pytest.raises(PluginFault) as caught:
        state_series(game)
    _fault_line(str(caught.value), "chart 'score, hint tokens and lives'", first)
    api = _api(tmp_path, Path(_small()))
    status, line = _api_error(api, f"/api/game/{_gid(Path(_small()))}")
    assert status == 422
    _fault_line(line, "chart 'score, hint tokens and lives'", first)


def test_a_broken_chart_x_trips_the_guard(broken):
    from replay.series import state_series

    broken(x_of=lambda state: "year one")
    game = read_log(_small()).games[0]
    first = next(s.seq for s in walk(game) if s.changed)
    with pytest.raises(PluginFault) as caught:
        state_series(game)
    _fault_line(str(caught.value), "chart 'score, hint tokens and lives' x", first)


def test_a_broken_board_trips_the_guard_in_the_debugger_which_serves_other_games(broken, tmp_path):
    def board(state, player):
        raise IndexError("list index out of range")

    broken(board=board)
    other = GOLDEN / "dominoes-random-3.log"
    api = _api(tmp_path, Path(_small()), other)
    status, line = _api_error(api, f"/api/game/{_gid(Path(_small()))}/at/12")
    assert status == 422
    _fault_line(line, "board", 12)
    assert "IndexError" in line
    assert api.get(f"/api/game/{_gid(Path(_small()))}", {})["game"] == "hanabi"  # the rest of the game is served
    assert api.get(f"/api/game/{_gid(other)}/at/12", {})["board"].startswith("<svg")  # and every other game


@pytest.mark.parametrize("hook", ["phase", "deals", "seat_names", "seat_colours"])
def test_a_broken_board_hook_trips_the_guard_in_the_debugger(broken, tmp_path, hook):
    def fails(*args):
        raise AttributeError("'NoneType' object has no attribute 'get'")

    broken(**{hook: fails})
    path = Path(_small())
    api = _api(tmp_path, path)
    status, line = _api_error(api, f"/api/game/{_gid(path)}")
    assert status == 422
    _fault_line(line, f"board.{hook}", 0)  # the first record: the index reads every hook there


def test_a_broken_exporter_trips_the_guard_in_the_cli(broken):
    def export(log):
        for step in walk(log):
            if step.seq == TRIP:
                int(step.msg["kind"])
        return "{}"

    broken(exporters=export)
    code, out, err = _cli("export", "broken-json", _small())
    assert code == 2 and not out
    _fault_line(err, "exporter broken-json", TRIP)
    assert "ValueError: invalid literal" in err


def test_a_broken_report_section_is_marked_unavailable(broken, tmp_path):
    from ops.tournament.html import format_html
    from ops.tournament.report import build_report, format_text
    from ops.tournament.store import Store
    from tests.hostile.logs import tournament_folder

    rows = tournament_folder(tmp_path, 3)

    def report(games):
        for game in games:
            game["extra"]["no such field"]  # noqa: B018 - not a key of any row
        return []

    broken(report=report)
    with Store(tmp_path) as store:
        store.set_meta("spec", json.dumps({"game": "hanabi"}))
    with Store(tmp_path, read_only=True) as store:
        data = build_report(store)
    (section,) = data["sections"]
    line = section["unavailable"]
    assert line.startswith("game hanabi: plugin part report failed at stored game ") and "KeyError: 'no such field'" in line
    assert any(f"stored game {r['game_id']}:" in line for r in rows)
    assert f"unavailable: {line}" in format_text(data)
    assert "Unavailable: " in format_html(data, "t")
    assert data["agents"] and json.dumps(data)  # the rest of the report stands


def test_a_fault_crosses_processes_whole():
    import pickle

    fault = PluginFault("hanabi", "board", 12, KeyError("x"))
    again = pickle.loads(pickle.dumps(fault))
    assert str(again) == str(fault) == "game hanabi: plugin part board failed at seq 12: KeyError: 'x'"
    assert (again.game, again.part, again.seq) == ("hanabi", "board", 12)


def test_a_game_page_of_a_report_says_when_its_plugin_fails(broken, tmp_path):
    from ops.tournament.html import write_game_pages
    from ops.tournament.report import build_report
    from ops.tournament.store import Store
    from tests.hostile.logs import tournament_folder

    tournament_folder(tmp_path / "t", 2)

    def transcript(log, player):
        for step in walk(log):
            if step.seq == TRIP:
                raise KeyError("fireworks")

    broken(transcript=transcript)
    with Store(tmp_path / "t", read_only=True) as store:
        report = build_report(store)
    assert write_game_pages(str(tmp_path / "t"), report, str(tmp_path / "out")) == 2
    for page in sorted((tmp_path / "out" / "pages").glob("*.html")):
        text = page.read_text()
        assert "Unavailable" in text
        _fault_line(re.search(r"<p>(game hanabi: [^<]*)</p>", text).group(1).replace("&#x27;", "'"), "transcript", TRIP)
