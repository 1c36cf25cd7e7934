"""Replay without the model: verify takes every answer from the log; a fork replays the recorded
answers before its switch and calls whoever plays after it; AlphaWolf with a model as its Foreign Office."""

from __future__ import annotations

import json
import re

from actors.registry import parse_lineup, parse_spec
from bus.log import parse_log
from replay.fork import fork_header, play_fork
from replay.verify import verify_game
from tests.llm.conftest import llm, of_kind, play_game
from tests.llm.scripted_server import ScriptedServer


def _fork(game, at: int, agents: str, players: int):
    import io

    from bus.log import LogWriter

    header = fork_header(game, at, parse_lineup(agents, players))
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    play_fork(game, header, writer)
    writer.end_game()
    forked = parse_log(buf.getvalue()).games[0]
    return header, forked


def test_verify_needs_no_server_and_fails_without_the_records():
    with ScriptedServer() as server:
        _, game = play_game("hanabi", llm(server.url) + ",random")
    assert verify_game(game).ok  # the server is gone
    # without its model_call records the log cannot be replayed: verify says so, it never calls a model
    game.records[:] = [r for r in game.records if r["msg"]["kind"] != "model_call"]
    assert not verify_game(game).ok


def test_fork_replays_recorded_answers_then_random_plays_on():
    with ScriptedServer() as server:
        _, game = play_game("battleline", llm(server.url) + ",random")
        before = server.calls
        calls = of_kind(game, "model_call")
        mid = next(r["seq"] for r in game.records if r["msg"]["kind"] == "model_call" and r["msg"]["call"] == len(calls) // 2)
        header, forked = _fork(game, mid, "random,random", 2)
        assert server.calls == before  # the prefix took every answer from the log
    switch = header["fork"]["at"]
    prefix = [r for r in forked.records if r["seq"] < switch]
    assert [r["msg"] for r in prefix] == [r["msg"] for r in game.records if r["seq"] < switch]  # model calls included
    assert any(r["msg"]["kind"] == "model_call" for r in prefix)
    assert not [r for r in forked.records if r["seq"] >= switch and r["msg"]["kind"] == "model_call"]
    assert verify_game(forked).ok


def test_fork_with_the_model_after_the_switch_calls_it_live():
    with ScriptedServer() as server:
        _, game = play_game("battleline", "random,random")
        header, forked = _fork(game, 10, llm(server.url) + ",random", 2)
        assert server.calls > 0
    live = [r for r in forked.records if r["msg"]["kind"] == "model_call"]
    assert live and all(r["seq"] >= header["fork"]["at"] for r in live)
    assert verify_game(forked).ok  # and replayed without it


def test_llm_office_spec_parses_dotted_options():
    spec = parse_spec("alphawolf:fo=llm:endpoint=http://127.0.0.1:9/v1;fo.model=m;fo.temperature=0.5;offices=so+fo+io")
    assert spec.options["fo"] == {"name": "llm", "options": {"endpoint": "http://127.0.0.1:9/v1", "model": "m",
                                                              "temperature": 0.5}}


def _negotiate(body, number):
    """A scripted Foreign Office: proposes a joint vote against the next seat, accepts every joint vote heard."""
    text = body["messages"][-1]["content"]
    seat = int(body["messages"][0]["content"].split("You play seat ")[1].split(" ")[0])
    talk = [{"kind": "ww_propose", "proposal_id": number, "deal": "joint_vote", "target": (seat + 1) % 5},
            {"kind": "say", "text": f"Vote with me against player {(seat + 1) % 5}."}]
    for speaker, item in re.findall(r"^\[public\] seat (\d+): (\{.*\})$", text, re.M):
        item = json.loads(item)
        if item.get("kind") == "ww_propose" and item.get("deal") == "joint_vote":
            talk.append({"kind": "ww_accept", "proposal_id": item["proposal_id"], "proposer": int(speaker)})
    return json.dumps({"talk": talk[:4]})


def test_alphawolf_with_a_model_foreign_office_against_alphawolf_villages():
    """Its proposals and acceptances in the ledger, kept or broken; the other seats' trust in it moving."""
    from ops.debugger.game import DebugGame

    with ScriptedServer(answer=_negotiate) as server:
        fo = f"alphawolf:fo=llm:endpoint={server.url};fo.model=scripted;fo.backoff=0.01"
        _, game = play_game("werewolves", ",".join([fo] + ["alphawolf"] * 4), seed=1,
                            options={"players": 5, "discussion_rounds": 2, "max_days": 3})
        assert server.calls > 0
    calls = of_kind(game, "model_call")
    assert calls and all(c["sender"] == "p0/fo" and c["outcome"] == "ok" for c in calls)
    talk = [s for r in of_kind(game, "talk") if r["sender"] == "p0" for s in r["says"]]
    assert {"ww_propose", "ww_accept", "say"} <= {s["kind"] for s in talk}
    ledger = [e for e in DebugGame(game).ledger(0) if e["by"] == "p0" or "p0" in e["parties"]]
    assert {"proposed", "accepted"} <= {e["type"] for e in ledger}
    assert {"kept", "broken"} & {e["type"] for e in ledger if e["by"] == "p0"}, "the President kept or broke its deals"
    trust = {}
    for r in of_kind(game, "kb_change"):
        for u in r["updates"]:
            if r["sender"] != "p0" and u["path"] == ["trust"] and "0" in (u["value"] or {}):
                trust.setdefault(r["sender"], []).append(u["value"]["0"])
    assert any(len(set(v)) > 1 or v[0] != 1.0 for v in trust.values()), f"the others' trust in seat 0: {trust}"
    verdict = verify_game(game)  # the server is gone
    assert verdict.ok, verdict.message
