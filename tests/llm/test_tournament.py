"""Tournaments with `llm` seats against the scripted model server (inline runner, no Ray):
concurrent games give the same games as one at a time, the caps stop and resume, a re-run takes
the recorded answers instead of calling. Kuhn poker through the OpenSpiel bridge: a model seat
makes one or two calls a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from ops.tournament.runner import run_tournament
from ops.tournament.spec import game_id, parse_spec
from ops.tournament.store import Store, load_game
from tests.llm.scripted_server import ScriptedServer

pytest.importorskip("pyspiel")
GAME = "openspiel-kuhn_poker"


def make_spec(url: str, games: int, **knobs):
    data = {"game": GAME, "games": games, "seed": 5, "batch": knobs.pop("batch", games),
            "prices": {"scripted": {"input": 0.5, "output": 2.0}},
            "lineup": [{"agent": "llm", "options": {"endpoint": url, "model": "scripted"}}, {"agent": "random"}]}
    return parse_spec({**data, **knobs})


def model_calls_in_logs(out: Path, games: int) -> list[dict]:
    """Every model_call record of the recorded games, read from their logs."""
    calls = []
    for i in range(games):
        found = load_game(out, game_id(i))
        if found is not None:
            calls += [r["msg"] for r in found[0].records if r["msg"]["kind"] == "model_call"]
    return calls


def records(out: Path, i: int, clock: bool = True) -> list:
    """A game's records; `clock` false: without what the wall clock measured (a call's latency)."""
    return [(r["seq"], r["cause"], r["msg"] if clock else _unclocked(r["msg"])) for r in load_game(out, game_id(i))[0].records]


def _unclocked(msg: dict) -> dict:
    if msg["kind"] != "model_call":
        return msg
    return {**msg, "latency_ms": None, "tries": [{**t, "latency_ms": None} for t in msg["tries"]]}


@pytest.fixture(scope="module")
def server():
    with ScriptedServer(delay=0.05) as s:
        yield s


def test_concurrent_games_wait_at_once_and_play_the_same_games(server, tmp_path):
    games = 24
    peak = {}
    for k in (1, 8):
        server.peak = 0
        summary = run_tournament(make_spec(server.url, games, concurrent_games=k), tmp_path / f"k{k}", runners=0)
        peak[k] = server.peak
        assert summary.recorded_now == games and not summary.failed
    for i in range(games):  # each game's log is its own: the same records whatever K (latencies aside)
        assert records(tmp_path / "k1", i, clock=False) == records(tmp_path / "k8", i, clock=False)
    with Store(tmp_path / "k1", read_only=True) as a, Store(tmp_path / "k8", read_only=True) as b:
        query = "select game_id, scores, ranks, steps, records from games order by game_id"
        assert a.db.execute(query).fetchall() == b.db.execute(query).fetchall()
        offsets = b.db.execute('select segment, "offset", nbytes from games order by "offset"').fetchall()
    assert len({(s, o) for s, o, _ in offsets}) == games  # every game whole at its own place
    assert all(o1 + n1 <= o2 for (s1, o1, n1), (s2, o2, _) in zip(offsets, offsets[1:]) if s1 == s2)
    # one game at a time asks one question at a time; eight games wait on the server together (how
    # much faster that is, is the benchmark's to say: python -m ops.bench.llm)
    assert peak[1] == 1 and peak[8] > 1, peak


def test_token_cap_stops_handing_out_games_and_a_higher_cap_plays_on(server, tmp_path):
    out = tmp_path / "capped"
    probe = run_tournament(make_spec(server.url, 4), tmp_path / "probe", runners=0)
    assert probe.recorded_now == 4
    per_game = sum(c["tokens_in"] + c["tokens_out"] for c in model_calls_in_logs(tmp_path / "probe", 4)) / 4
    cap = int(per_game * 6)  # about six games' worth, handed out two at a time
    first = run_tournament(make_spec(server.url, 40, batch=2, token_cap=cap), out, runners=0)
    assert first.capped and "token cap" in first.capped
    assert 0 < first.recorded_now < 40
    spent = sum(c["tokens_in"] + c["tokens_out"] for c in model_calls_in_logs(out, 40))
    assert spent >= cap and spent - cap < per_game * 2 * 3  # stopped within a batch or so of the cap
    from ops.tournament.report import build_report, format_text

    with Store(out, read_only=True) as store:
        text = format_text(build_report(store))
    assert "stopped handing out games: token cap reached" in text
    again = run_tournament(make_spec(server.url, 40, batch=2, token_cap=cap * 100), out, runners=0)
    assert again.capped is None and first.recorded_now + again.recorded_now == 40
    with Store(out, read_only=True) as store:
        assert store.db.execute("select count(distinct game_id) from games").fetchone()[0] == 40
        assert store.get_meta("cap") is None  # the report no longer says it stopped
    cost_capped = run_tournament(make_spec(server.url, 10, batch=1, cost_cap=1e-9), tmp_path / "cost", runners=0)
    assert cost_capped.recorded_now == 1 and "cost cap" in cost_capped.capped


def test_a_rerun_takes_the_recorded_answers_instead_of_calling(server, tmp_path):
    games = 12
    first = tmp_path / "first"
    run_tournament(make_spec(server.url, games, concurrent_games=4), first, runners=0)
    made = len(model_calls_in_logs(first, games))
    assert made > 0
    before = server.calls
    again = tmp_path / "again"
    summary = run_tournament(make_spec(server.url, games, concurrent_games=4, answers_from=str(first)), again,
                             runners=0)
    assert summary.recorded_now == games
    assert server.calls == before, "a recorded answer was asked of the server again"
    for i in range(games):
        assert records(first, i) == records(again, i)  # the recorded calls re-emitted byte for byte
    # a game the earlier run lacks (the count grew) is played live
    more = run_tournament(make_spec(server.url, games + 2, answers_from=str(first)), again, runners=0)
    assert more.recorded_now == 2 and server.calls > before
