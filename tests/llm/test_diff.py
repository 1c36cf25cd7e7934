"""`detente replay diff`: a game forked with `replay fork` against its original, with built-in agents."""

from __future__ import annotations

import json

import pytest

from bus.log import read_log
from ops.cli import main
from replay.diff import DiffError, diff, diff_text, first_difference


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("diff")
    original, forked, other = folder / "a.dlog", folder / "b.dlog", folder / "c.dlog"
    assert main(["play", "battleline", "--seed", "7", "--agents", "random", "--log", str(original)]) == 0
    assert main(["replay", "fork", str(original), "--at", "40", "--agents", "random,naive", "--out", str(forked)]) == 0
    assert main(["play", "battleline", "--seed", "8", "--agents", "random", "--log", str(other)]) == 0
    return original, forked, other


def _game(path):
    return read_log(path).games[0]


def test_the_first_difference_is_the_first_seq_where_the_records_part(logs):
    a, b = _game(logs[0]), _game(logs[1])
    first = first_difference(a, b)
    switch = b.header["fork"]["at"]
    assert first is not None and first >= switch
    before = [(r["cause"], r["msg"]) for r in a.records if r["seq"] < first]
    assert before == [(r["cause"], r["msg"]) for r in b.records if r["seq"] < first]
    at_a = next(r for r in a.records if r["seq"] == first)
    at_b = next(r for r in b.records if r["seq"] == first)
    assert (at_a["cause"], at_a["msg"]) != (at_b["cause"], at_b["msg"])
    assert first_difference(a, a) is None


def test_side_by_side_shows_each_seats_moves_after_it_and_both_outcomes(logs):
    a, b = _game(logs[0]), _game(logs[1])
    d = diff(a, b, limit=None)
    # seat 1 became naive: its moves after the fork point are those B's log holds, in order
    moves_b = [f"{r['seq']}: act {r['msg']['action']} (turn {r['msg']['turn']})" for r in b.records
               if r["seq"] >= d.first and r["msg"]["kind"] == "act" and r["msg"]["sender"] == "p1"]
    assert moves_b and d.seats[1][1] == moves_b
    assert d.agents == (["random", "random"], ["random", "naive"])
    ends = [next(r["msg"] for r in g.records if r["msg"]["kind"] == "game_end") for g in (a, b)]
    assert [o.returns for o in d.outcomes] == [e["returns"] for e in ends]
    text = diff_text(d)
    assert f"first difference at seq {d.first}" in text and "seat 1: A random | B naive" in text
    assert f"outcome B: {ends[1]['summary']}" in text


def test_cli_text_and_json_and_two_games_refused(logs, capsys):
    original, forked, other = map(str, logs)
    assert main(["replay", "diff", original, forked, "--format", "json", "--limit", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["first_difference"] == first_difference(_game(logs[0]), _game(logs[1]))
    assert all(len(s["a"]) <= 3 and len(s["b"]) <= 3 for s in out["seats"])
    assert main(["replay", "diff", original, original]) == 0
    assert "identical" in capsys.readouterr().out
    with pytest.raises(DiffError):
        diff(_game(logs[0]), _game(logs[2]))
    assert main(["replay", "diff", original, other]) == 2
    assert "not one game" in capsys.readouterr().err
