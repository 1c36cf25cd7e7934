"""A language model as the Foreign Office of AlphaDip and of the generic agent, against a scripted
server that negotiates from the prompt alone: its deals reach the game's ledger (Diplomacy's
confirmed deals; the generic agent's pacts, kept or broken by its President), and every game
verifies with the server gone."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("httpx", reason="the llm extra (pip install 'detente[llm]') is not installed")

from replay.verify import verify_game  # noqa: E402
from tests.llm.conftest import of_kind, play_game  # noqa: E402
from tests.llm.scripted_server import ScriptedServer  # noqa: E402


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
                            options={"players": 5, "discussion_rounds": 2, "max_days": 3})
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
