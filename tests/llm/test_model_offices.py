"""A language model as the Foreign Office of AlphaDip and of the generic agent, and as the judge in
AlphaWolf's Intelligence Office, against a scripted server that answers from the prompt alone: its
deals reach the game's ledger (Diplomacy's deals; the generic agent's pacts, kept or broken by its
President), its verdicts move trust with their reasons, and every game verifies with the server
gone."""

from __future__ import annotations

import json
import re

from replay.verify import verify_game
from tests.llm.conftest import of_kind, play_game
from tests.llm.scripted_server import ScriptedServer


def _diplomat(body, number):
    """Proposes peace to the next power and accepts every open deal the prompt lists."""
    text = body["messages"][-1]["content"]
    powers = re.search(r"the powers by seat: ([A-Z, ]+)\.", text)
    me = re.search(r"You are ([A-Z]+) \(seat", text)
    if not (powers and me):
        return json.dumps({"talk": []})
    order = [p.strip() for p in powers.group(1).split(",")]
    mine = me.group(1)
    other = order[(order.index(mine) + 1) % len(order)]
    year = int(re.search(r"Phase [SFW](\d{4})", text).group(1))
    talk = [{"kind": "dip_propose", "deal_id": number,
             "commitments": [{"type": "peace", "powers": sorted([mine, other]), "until": year}]}]
    for proposer, deal in re.findall(r"^Open deal ([A-Z]+)#(\d+) by", text, re.M):
        if proposer != mine:
            talk.append({"kind": "dip_accept", "proposer": proposer, "deal_id": int(deal)})
    return json.dumps({"talk": talk[:4]})


def test_alphadip_with_a_model_foreign_office():
    from ops.debugger.game import DebugGame

    with ScriptedServer(answer=_diplomat) as server:
        fo = f"alphadip:fo=llm:endpoint={server.url};fo.model=scripted;fo.backoff=0.01"
        _, game = play_game("diplomacy", ",".join([fo] + ["alphadip"] * 6), seed=3, options={"max_year": 1901})
        assert server.calls > 0
    calls = of_kind(game, "model_call")
    assert calls and all(c["sender"] == "p0/fo" and c["outcome"] == "ok" for c in calls)
    said = [s for r in of_kind(game, "talk") if r["sender"] == "p0" for s in r["says"]]
    assert {"dip_propose", "dip_accept"} <= {s["kind"] for s in said}
    ledger = DebugGame(game).ledger(0)
    mine = [e for e in ledger if e["by"] == "p0" or "p0" in e["parties"] or "AUSTRIA" in str(e)]
    assert {"proposed", "accepted"} <= {e["type"] for e in mine}, ledger[:5]
    verdict = verify_game(game)  # the server is gone: the answers come from the log
    assert verdict.ok, verdict.message


def _pact_maker(body, number):
    """Proposes the first pact the prompt offers and accepts every pact offered to this seat."""
    text = body["messages"][-1]["content"]
    says = []
    listed = re.findall(r"^  (pact \{.*?\}) \|", text, re.M)
    if listed:
        says.append({"kind": "say", "text": listed[0]})
    for pid, proposer, commitments, status in re.findall(r"^  (\S+) by seat (\d+): (\[.*\]) \((\w+)\)$", text, re.M):
        if status == "offered":
            says.append({"kind": "say", "text": "pact " + json.dumps(
                {"commitments": json.loads(commitments), "id": pid, "stage": "accept"}, separators=(",", ":"),
                sort_keys=True)})
    return json.dumps({"talk": says[:4]})


def test_the_generic_agent_with_a_model_foreign_office_makes_pacts_its_president_keeps_or_breaks():
    with ScriptedServer(answer=_pact_maker) as server:
        fo = f"generic:fo=llm:endpoint={server.url};fo.model=scripted;fo.backoff=0.01;iterations=40"
        _, game = play_game("werewolves", ",".join([fo] + ["generic:iterations=40"] * 4), seed=2,
                            options={"players": 5, "discussion_rounds": 2, "max_days": 3,
                                     "first_night_kill": False})  # every seat lives to talk on day 1
        assert server.calls > 0
    calls = of_kind(game, "model_call")
    assert calls and all(c["sender"] == "p0/fo" for c in calls)
    prompt = calls[0]["messages"][-1]["content"]
    assert "Deals here are pacts" in prompt and "What you see now" in prompt
    said = [s["text"] for r in of_kind(game, "talk") if r["sender"] == "p0" for s in r["says"] if s["kind"] == "say"]
    assert any(t.startswith("pact ") and '"stage":"propose"' in t for t in said), said
    ledger = [u["value"] for r in of_kind(game, "kb_change") if r["sender"] == "p0" for u in r["updates"]
              if u["path"][0] == "pacts"]
    assert any(e["proposer"] == 0 for e in ledger), "the model's proposals are in its President's ledger"
    from actors.alpha.generic import pacts as P

    mine = [m for m in P.mark(game.records) if m["proposer"] == 0 or any(c["player"] == 0 for c in m["commitments"])]
    assert any(c["verdict"] in ("kept", "broken") for m in mine for c in m["commitments"] if c["player"] == 0), \
        "a confirmed pact of the model's seat, its own commitment kept or broken by its President"
    verdict = verify_game(game)
    assert verdict.ok, verdict.message


def _judge(body, number):
    """Judges dishonest the first seat it heard propose a joint vote, honest every other seat it is asked about."""
    text = body["messages"][-1]["content"]
    if '"judgments"' not in text:  # a Foreign Office's question: say nothing
        return json.dumps({"talk": []})
    seats = [int(q) for q in re.findall(r"\d+", re.search(r"For each of the seats ([\d, ]+) judge", text).group(1))]
    proposers = {int(q) for q in re.findall(r"^\[\w+\] seat (\d+): \{.*\"ww_propose\"", text, re.M)}
    proposers = set(sorted(proposers)[:1])  # the first proposer only: the rest are judged honest
    return json.dumps({"judgments": [{"seat": q, "verdict": "dishonest" if q in proposers else "honest",
                                      "why": "proposed a joint vote" if q in proposers else "nothing against it"}
                                     for q in seats]})


def test_alphawolf_with_a_model_judging_in_its_intelligence_office():
    """The model's verdicts move trust with their reasons recorded; the AlphaWolf IO's role predictions
    stay; a seat whose Foreign Office and Intelligence Office both ask a model replays both."""
    with ScriptedServer(answer=_judge) as server:
        io = f"alphawolf:io=llm:endpoint={server.url};io.model=scripted;io.backoff=0.01"
        both = (f"alphawolf:io=llm:endpoint={server.url};io.model=scripted;io.backoff=0.01;"
                f"fo=llm:endpoint={server.url};fo.model=scripted;fo.backoff=0.01")
        _, game = play_game("werewolves", ",".join([io, both] + ["alphawolf"] * 3), seed=1,
                            options={"players": 5, "discussion_rounds": 2, "max_days": 3})
        assert server.calls > 0
    calls = of_kind(game, "model_call")
    judges = [c for c in calls if c["purpose"] == "judge"]
    assert {c["sender"] for c in judges} == {"p0/io", "p1/io"} and all(c["outcome"] == "ok" for c in judges)
    assert any(c["sender"] == "p1/fo" for c in calls), "seat 1's Foreign Office asked its model too"
    for sender in ("p0/io", "p1/io", "p1/fo"):
        mine = [c["call"] for c in calls if c["sender"] == sender]
        assert mine == list(range(len(mine))), f"{sender} numbers its own calls"
    judged = [u["value"] for r in of_kind(game, "kb_change") if r["sender"] == "p0" for u in r["updates"]
              if u["path"] == ["io", "judged"]]
    verdicts = [v for j in judged for v in j.values()]
    assert {"honest", "dishonest"} <= {v["verdict"] for v in verdicts}, verdicts
    assert all(v["after"] < v["before"] for v in verdicts if v["verdict"] == "dishonest" and v["before"] > 0)
    assert all(v["after"] >= v["before"] for v in verdicts if v["verdict"] == "honest")
    assert all(v["why"] for v in verdicts)
    beliefs = [u for r in of_kind(game, "kb_change") if r["sender"] == "p0" for u in r["updates"] if u["path"] == ["beliefs"]]
    assert beliefs, "AlphaWolf's own role predictions still come from its IO"
    verdict = verify_game(game)  # both offices' calls replayed from the log, by actor and call number
    assert verdict.ok, verdict.message
