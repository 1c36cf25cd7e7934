"""`detente replay page` and `replay serve` on the command line: one self-contained file per view
(no network, the point of view's data only), one-line errors for bad input."""

from __future__ import annotations

import json
import re

import pytest

from bus.log import read_log
from ops.cli import main
from tests.debugger.checks import assert_only_observed
from tests.debugger.conftest import golden


def _embedded(html: str) -> dict:
    blob = re.search(r'<script type="application/json" id="detente-data">(.*?)</script>', html, re.DOTALL).group(1)
    return json.loads(blob.replace("<\\/", "</"))


@pytest.mark.parametrize("name, seat", [("werewolves", 4), ("hanabi", 0), ("diplomacy", 2)])
def test_a_players_page_holds_only_its_view(tmp_path, capsys, name, seat):
    out = tmp_path / "game.html"
    assert main(["replay", "page", str(golden(name)), "--out", str(out), "--player", str(seat)]) == 0
    assert "player" in capsys.readouterr().out
    html = out.read_text()
    assert "http://" not in html.split('id="detente-data"')[0].replace("http://www.w3.org", "")  # nothing to fetch
    assert "default-src 'none'" in html
    data = _embedded(html)
    log = read_log(golden(name)).games[0]
    answers = {"meta": data["meta"], "rows": data["summaries"], "boards": data["boards"], "details": [],
               "records": {int(k): v for k, v in data["records"].items()}}
    assert_only_observed(log, seat, answers)
    assert set(data["kb"]) == {str(seat)} and all(s["seat"] == seat for s in data["suggestions"])
    kinds = {r["msg"]["kind"] for r in data["records"].values()}
    assert not kinds & {"chance", "step", "talk_round", "game_end"}


def test_the_omniscient_page_holds_the_whole_game(tmp_path):
    out = tmp_path / "all.html"
    assert main(["replay", "page", str(golden("werewolves")), "--out", str(out)]) == 0
    data = _embedded(out.read_text())
    log = read_log(golden("werewolves")).games[0]
    assert len(data["records"]) == len(log.records) and data["meta"]["player"] is None
    assert [p["role"] for p in data["meta"]["players"]] == log.records[-1]["msg"]["roles"]


def test_bad_input_on_the_command_line_is_one_line(tmp_path, capsys):
    cases = [
        (["replay", "page", str(tmp_path / "missing.log"), "--out", str(tmp_path / "x.html")], "no such log"),
        (["replay", "page", str(golden("hanabi")), "--out", str(tmp_path / "x.html"), "--player", "7"], "not a seat"),
        (["replay", "page", str(golden("hanabi")), "--out", str(tmp_path / "x.html"), "--game", "nope"], "no game"),
        (["replay", "page", str(golden("hanabi")), "--out", str(tmp_path / "no" / "x.html")], "no folder"),
        (["replay", "serve", str(tmp_path / "missing.log")], "no such log"),
        (["replay", "serve", str(golden("hanabi")), "--port", "70000"], "not a port"),
    ]
    for argv, words in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and "Traceback" not in err, (argv, err)
    assert not (tmp_path / "x.html").exists()


def test_a_skipped_browser_test_fails_under_ci():
    """Without a browser the browser tests skip; under CI=true a skipped browser test fails the run."""
    import os
    import subprocess
    import sys

    from tests.debugger.conftest import ROOT

    test = "tests/debugger/test_browser.py::test_errors_show_on_the_page"
    env = {**os.environ, "DETENTE_CHROMIUM": "/nonexistent/chromium", "CI": ""}
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", test]
    local = subprocess.run(argv, check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert local.returncode == 0 and "1 skipped" in local.stdout, local.stdout[-2000:]
    ci = subprocess.run(argv, check=False, cwd=ROOT, env={**env, "CI": "true"}, capture_output=True, text=True, timeout=300)
    assert ci.returncode != 0 and "may not be skipped under CI=true" in ci.stdout, ci.stdout[-2000:]
