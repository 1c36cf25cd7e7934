"""What an agent's author sees when the agent misbehaves: `detente play` ends with one line per seat
that had errors (a seat, an office, a talker), transcripts show each error in place, an agent
stopped mid-game warns once, and the header's paths and the spec grammar are as the docs say."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from actors.external.connection import for_header
from actors.registry import parse_spec
from bus.log import read_log
from replay.transcript import transcript
from tests.external.conftest import HERE, misbehaving

ROOT = HERE.parent.parent
AUTHOR = HERE / "author_agent.py"


def _author(mode: str) -> str:
    return "exec:" + ";".join(f"{k}={json.dumps(v)}" for k, v in
                              {"cmd": [sys.executable, str(AUTHOR), mode], "stderr": "discard"}.items())


def _play(tmp_path: Path, game: str, agents: str, seed: int = 3) -> tuple[subprocess.CompletedProcess, Path]:
    log = tmp_path / f"{game}-{seed}.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "ops.cli", "play", game, "--seed", str(seed), "--agents", agents,
                           "--log", str(log)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done, log


def _seat_lines(stdout: str) -> dict[int, str]:
    return {int(m[1]): m[0] for m in re.finditer(r"^  seat (\d+) \(.*$", stdout, re.MULTILINE)}


def test_a_seat_playing_illegal_moves_gets_one_line_and_its_errors_in_the_transcript(tmp_path):
    done, log = _play(tmp_path, "battleline", f"{misbehaving('illegal')},random")
    lines = _seat_lines(done.stdout)
    assert list(lines) == [0], done.stdout  # the random seat had no error
    line = lines[0]
    assert "misbehaving-illegal" in line  # its handshake name, beside its spec
    count = int(re.search(r": (\d+) errors \(illegal_action \1\)", line)[1])
    game = read_log(log).games[0]
    errors = [r for r in game.records if r["msg"]["kind"] == "error"]
    assert count == len(errors) > 0
    assert f"first at seq {errors[0]['seq']}, illegal_action by p0: " in line and "no-such-move" in line
    text, data = transcript(game)
    assert [e["seq"] for e in data["errors"]] == [r["seq"] for r in errors]
    rows = text.splitlines()
    first = next(i for i, row in enumerate(rows) if f"[{errors[0]['seq']}] error (illegal_action) p0" in row)
    before = [int(s) for row in rows[:first] for s in re.findall(r"\(seq (\d+)\)", row)]
    after = [int(s) for row in rows[first + 1:] for s in re.findall(r"\(seq (\d+)\)", row)]
    assert before and max(before) < errors[0]["seq"] < min(after)  # in place: between the turns around it


def test_an_office_that_writes_nonsense_is_named_by_its_seat_and_office(tmp_path):
    office = _author("office-bad-json").split(":", 1)[1]
    options = dict(kv.split("=", 1) for kv in office.split(";"))
    fo = json.dumps({"name": "exec", "options": {k: json.loads(v) for k, v in options.items()}})
    done, log = _play(tmp_path, "werewolves", ",".join([f"alphawolf:fo={fo}"] + ["alphawolf"] * 9))
    lines = _seat_lines(done.stdout)
    assert list(lines) == [0], done.stdout
    assert "[fo: author-office-bad-json 1]" in lines[0] and "raised by p0/fo: " in lines[0] and "invalid JSON" in lines[0]
    game = read_log(log).games[0]
    faults = [r for r in game.records if r["msg"]["kind"] == "fault" and r["msg"]["actor"] == "p0/fo"]
    assert re.search(rf": {len(faults)} errors \(raised {len(faults)}\)", lines[0])
    text, data = transcript(game)
    assert [e["seq"] for e in data["errors"]] == [r["seq"] for r in faults]
    assert f"[{faults[0]['seq']}] error (raised) p0/fo" in text
    assert "\nerrors:" not in text  # each placed in its night or day, none left over for the end


def test_a_talker_saying_what_no_rules_allow_gets_its_invalid_talk_counted(tmp_path):
    done, log = _play(tmp_path, "werewolves", _author("talk-invalid"))
    lines = _seat_lines(done.stdout)
    game = read_log(log).games[0]
    dropped: dict[int, int] = {}
    for r in game.records:
        if r["msg"]["kind"] == "error":
            assert r["msg"]["category"] == "invalid_talk"
            seat = int(r["msg"]["actor"][1:])
            dropped[seat] = dropped.get(seat, 0) + 1
    assert dropped and sorted(lines) == sorted(dropped)
    for seat, n in dropped.items():
        assert f": {n} error{'s' * (n != 1)} (invalid_talk {n}); " in lines[seat]
        assert "target 99 is not a seat" in lines[seat]
    text, _ = transcript(game)
    assert text.count("error (invalid_talk)") == sum(dropped.values())


def test_an_agent_that_died_warns_once_and_every_later_request_is_still_an_error_event(tmp_path):
    done, log = _play(tmp_path, "battleline", f"{misbehaving('die')},random")
    assert done.stderr.count("actor_failed") == 1, done.stderr
    assert "exited (code 3)" in done.stderr
    game = read_log(log).games[0]
    errors = [r for r in game.records if r["msg"]["kind"] == "error" and r["msg"]["actor"] == "p0"]
    assert len(errors) > 5 and all("exited (code 3)" in r["msg"]["reason"] for r in errors)
    assert f": {len(errors)} errors (raised {len(errors)})" in _seat_lines(done.stdout)[0]


def test_the_header_keeps_relative_paths_and_hides_absolute_ones_outside(tmp_path, monkeypatch):
    inside = tmp_path / "work"
    (inside / "bots").mkdir(parents=True)
    monkeypatch.chdir(inside)
    kept = for_header("exec", {"cmd": ["perl", "agent.pl", str(inside / "bots" / "a.pl"), "/opt/secret/b.pl"],
                               "cwd": str(tmp_path), "env": {"TOKEN": "s3cret"}})
    assert kept["cmd"] == ["perl", "agent.pl", "bots/a.pl", "<outside>/b.pl"]
    assert kept["cwd"] == "<outside>/" + tmp_path.name and kept["env"] == {"TOKEN": "<set>"}


@pytest.mark.parametrize("text", ["stderr=discard", 'stderr="discard"'])
def test_a_spec_value_is_json_where_it_parses_else_text(text):
    spec = parse_spec(f'exec:cmd=["perl","agent.pl"];{text}')
    assert spec.options == {"cmd": ["perl", "agent.pl"], "stderr": "discard"}
