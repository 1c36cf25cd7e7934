"""Tournament reports of model calls: every figure against the games' own model_call records."""

from __future__ import annotations

import json
import statistics
from collections import Counter

import pytest

from ops.tournament.html import format_html
from ops.tournament.report import build_report, format_text
from ops.tournament.runner import run_tournament
from ops.tournament.store import Store
from tests.llm.scripted_server import MARKUP, ScriptedServer
from tests.llm.test_tournament import make_spec, model_calls_in_logs

pytest.importorskip("pyspiel")
GAMES = 16


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "out"
    with ScriptedServer(delay=0.0, faults={1: "500", 4: "invalid_json", 7: "illegal", 9: "429:0"}) as server:
        spec = make_spec(server.url, GAMES, concurrent_games=4, lineup=[
            {"agent": "llm", "label": f"model {MARKUP[:9]}", "options": {"endpoint": server.url, "model": "scripted",
                                                                       "retries": 2}},
            {"agent": "random"}])
        assert run_tournament(spec, out, runners=0).recorded_now == GAMES
    return out


def test_per_agent_figures_are_the_logs_model_calls(folder):
    calls = model_calls_in_logs(folder, GAMES)
    with Store(folder, read_only=True) as store:
        report = build_report(store)
    (row,) = report["model_calls"]  # random makes none and is not listed
    assert row["calls"] == len(calls)
    assert row["tokens_in"] == sum(c["tokens_in"] for c in calls)
    assert row["tokens_out"] == sum(c["tokens_out"] for c in calls)
    assert row["cost"] == pytest.approx(sum(c["tokens_in"] * 0.5 + c["tokens_out"] * 2.0 for c in calls) / 1e6)
    assert row["latency_ms_median"] == pytest.approx(statistics.median(c["latency_ms"] for c in calls))
    assert row["retries"] == sum(len(c["tries"]) for c in calls) > 0
    assert row["failed_tries"] == dict(sorted(Counter(t["cause"] for c in calls for t in c["tries"]).items()))
    assert row["defaults"] == sum(c["outcome"] == "default" for c in calls)
    listed = {g["game_id"]: g["model_calls"] for g in report["games_listed"]}
    assert sum(m["calls"] for m in listed.values() if m) == len(calls)  # all 16 games are listed
    json.dumps(report, allow_nan=True)


def test_text_and_html_show_them_escaped(folder):
    with Store(folder, read_only=True) as store:
        report = build_report(store)
    text = format_text(report)
    assert "model calls" in text and "tokens in" in text
    page = format_html(report)
    assert "Model calls" in page and "latency p50" in page and "tokens in/out" in page
    assert "<script>" not in page and "&lt;script&gt;" in page
