"""The debugger shows each model call at its seq: the prompt as sent, the answer, tokens, latency and
failed tries, to the seat that made it only; an exported page carries a model's markup as text."""

from __future__ import annotations

import pytest

from bus.log import read_log
from ops.cli import main
from ops.debugger.game import DebugError, DebugGame
from ops.debugger.page import export_page
from tests.llm.scripted_server import ScriptedServer

pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("dbg") / "kuhn.dlog"
    with ScriptedServer(faults={0: "500"}, always="markup") as server:
        agents = f"llm:endpoint={server.url};model=scripted;retries=2,random"
        assert main(["play", "openspiel-kuhn_poker", "--seed", "4", "--agents", agents, "--log", str(path)]) == 0
    return read_log(path).games[0]


def test_each_call_at_its_seq_for_its_seat_only(game):
    dbg = DebugGame(game)
    calls = [r for r in game.records if r["msg"]["kind"] == "model_call"]
    assert calls
    seat = calls[0]["msg"]["seat"]
    rows = [m for m in dbg.summaries(seat) if m["kind"] == "model_call"]
    assert [m["seq"] for m in rows] == [r["seq"] for r in calls]
    first = calls[0]["msg"]
    assert f"{first['tokens_in']} tokens in" in rows[0]["text"] and f"{first['latency_ms']} ms" in rows[0]["text"]
    assert "failed tries" in rows[0]["text"]  # call 0 of the server answered 500 first
    record = dbg.record(calls[0]["seq"], seat)
    assert record["msg"]["messages"] == first["messages"] and record["msg"]["answer"] == first["answer"]
    other = 1 - seat
    assert not [m for m in dbg.summaries(other) if m["kind"] == "model_call"]
    with pytest.raises(DebugError):
        dbg.record(calls[0]["seq"], other)  # the other seat is told nothing of it


def test_an_exported_page_keeps_markup_as_text(game):
    answers = [r["msg"]["answer"] or "" for r in game.records if r["msg"]["kind"] == "model_call"]
    assert any('<script>alert("x")' in a for a in answers)  # the server wrote markup into its answers
    html = export_page(DebugGame(game), None)
    # in the page's data only, as JSON text that cannot end its script block (the page shows it as text)
    assert '</script><b onmouseover' not in html and '<\\/script><b onmouseover' in html
