"""The llm agent against every fault of the scripted server: the game completes, the error names the
seat and the cause in one line, every call is recorded, and the log verifies with the server gone."""

from __future__ import annotations

import pytest

from replay.verify import verify_game
from tests.llm.conftest import kinds, llm, of_kind, play_game
from tests.llm.scripted_server import MARKUP, ScriptedServer

# Battle Line: seat 0 is the model, seat 1 random; the fault hits the model's first call.
CASES = {
    # fault: (options, the first try's cause, the outcome of call 0)
    "429:0": ({}, "HTTP 429 (Retry-After 0)", "ok"),
    "500": ({}, "HTTP 500", "ok"),
    "hang:3": ({"timeout": 0.5}, "no answer within 0.5 s (timeout)", "ok"),
    "cut": ({}, "connection failed", "ok"),
    "invalid_json": ({}, "unusable answer: the answer is not JSON", "repaired"),
    "illegal": ({}, 'unusable answer: "no such action" is not one of the legal moves', "repaired"),
    "big": ({}, "answer of 1,000,000 characters cut to 32,768", "ok"),
}


def _check_common(game, data_calls: int, server_calls: int) -> None:
    assert "game_end" in kinds(game)
    calls = of_kind(game, "model_call")
    assert [c["call"] for c in calls] == list(range(len(calls)))
    assert sum(1 + sum(1 for t in c["tries"] if t["status"] != 200 or "unusable" in t["cause"]) for c in calls) >= server_calls - 1
    verdict = verify_game(game)  # the server is stopped: every answer comes from the log
    assert verdict.ok, verdict.message


@pytest.mark.parametrize("fault", sorted(CASES))
def test_fault_on_the_first_call_is_retried_and_recorded(fault):
    options, cause, outcome = CASES[fault]
    with ScriptedServer(faults={0: fault}) as server:
        _, game = play_game("battleline", llm(server.url, **options) + ",random")
        served = server.calls
    calls = of_kind(game, "model_call")
    first = calls[0]
    assert first["tries"][0]["cause"].startswith(cause), first["tries"]
    assert first["outcome"] == outcome
    assert not of_kind(game, "error")  # a retried or repaired call costs the seat nothing
    _check_common(game, len(calls), served)


def test_stream_cut_is_retried():
    with ScriptedServer(faults={0: "cut"}) as server:
        _, game = play_game("battleline", llm(server.url, stream="true") + ",random")
    first = of_kind(game, "model_call")[0]
    assert first["tries"][0]["cause"].startswith("stream cut after"), first["tries"]
    assert first["outcome"] == "ok" and verify_game(game).ok


@pytest.mark.parametrize("fault,cause", [("500", "HTTP 500"), ("illegal", "is not one of the legal moves"),
                                         ("invalid_json", "the answer is not JSON")])
def test_always_failing_gives_the_rules_default_with_one_line_naming_seat_and_cause(fault, cause):
    with ScriptedServer(always=fault) as server:
        _, game = play_game("battleline", llm(server.url, tries=2, retries=1) + ",random")
    errors = of_kind(game, "error")
    assert errors and all(e["actor"] == "p0" and e["category"] == "illegal_action" for e in errors)
    assert cause in errors[0]["reason"] and "\n" not in errors[0]["reason"]
    calls = of_kind(game, "model_call")
    assert len(calls) == len(errors) and all(c["outcome"] == "default" for c in calls)
    assert "game_end" in kinds(game) and verify_game(game).ok


def test_429_waits_as_retry_after_says():
    with ScriptedServer(faults={0: "429:1"}) as server:
        _, game = play_game("battleline", llm(server.url) + ",random")
    first = of_kind(game, "model_call")[0]
    assert first["tries"] == [{"cause": "HTTP 429 (Retry-After 1)", "latency_ms": first["tries"][0]["latency_ms"],
                               "status": 429}]
    assert first["latency_ms"] >= 0 and first["outcome"] == "ok"


def test_game_budget_stops_calling():
    with ScriptedServer() as server:
        _, game = play_game("battleline", llm(server.url, game_tokens=400) + ",random")
        served = server.calls
    calls = of_kind(game, "model_call")
    spent = [c for c in calls if c["outcome"] == "default"]
    assert spent and spent[0]["tries"][0]["cause"].startswith("budget:")
    assert served == len(calls) - len(spent)
    assert verify_game(game).ok


def test_markup_and_control_characters_are_recorded_and_escaped_in_pages():
    with ScriptedServer(always="markup", say="hello") as server:
        _, game = play_game("werewolves", llm(server.url), options={"players": 5, "discussion_rounds": 1, "max_days": 2})
    calls = of_kind(game, "model_call")
    assert any(MARKUP in (c["answer"] or "") for c in calls)
    says = [s for r in of_kind(game, "talk") for s in r["says"] if s["kind"] == "say"]
    assert says and all("\x00" not in s["text"] and "\x1b" not in s["text"] for s in says)
    assert verify_game(game).ok
    _pages_escape(game)


def _pages_escape(game) -> None:
    """The transcript page and the debugger's exported page hold no raw tag the model wrote."""
    from ops.debugger.game import DebugGame
    from ops.debugger.page import export_page
    from ops.transcript_html import transcript_html

    page = transcript_html(game)
    assert "alert(" in page.replace("&quot;", '"') or "alert" in page  # the model's text is shown...
    assert "<script>alert(" not in page and "<b onmouseover" not in page and "\x00" not in page  # ...escaped
    for html in (export_page(DebugGame(game), None), export_page(DebugGame(game), 0)):
        # the debugger's page carries the records as JSON inside a script element: the text may stand
        # there as data, but can never close that element nor open a comment that would hide its end
        assert 'alert(\\"x\\")</script>' not in html and 'alert("x")</script>' not in html and "\x00" not in html
        assert "<!--" not in html.split("<script", 1)[-1] or "<\\!--" in html


def test_the_key_reaches_the_server_only(monkeypatch):
    key = "sk-test-0123456789abcdef"
    monkeypatch.setenv("DETENTE_TEST_LLM_KEY", key)
    with ScriptedServer(faults={0: "500", 1: "illegal"}) as server:
        data, game = play_game("battleline", llm(server.url, key_env="DETENTE_TEST_LLM_KEY") + ",random")
        assert server.authorizations[0] == f"Bearer {key}"
    assert key.encode() not in data and "DETENTE_TEST_LLM_KEY" in str(game.header["agents"][0])
    assert all(key not in str(c) for c in of_kind(game, "model_call"))
