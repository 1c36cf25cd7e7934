"""The thesis' module boundary as a process boundary: the JavaScript client is the Foreign Office
of one AlphaWolf seat (a real Node process). Its joint votes reach the deal ledger, its free text
the transcript, and the other seats' Intelligence Offices change their trust in that seat."""

from __future__ import annotations

import os
import shutil

import pytest

from ops.debugger.game import DebugGame
from replay.transcript import transcript
from replay.verify import verify_game
from tests.external.conftest import play_game

# an office spec of several options is written as a JSON object (the short form NAME:key=value takes one)
FO = ('alphawolf:fo={"name":"exec","options":{"cmd":["node","ops/examples/agents/js/random.js","--fo"],'
      '"stderr":"discard"}}')


@pytest.fixture(scope="module")
def game():
    if shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail("node is missing: CI runs the JavaScript client (Node.js >= 18)")
        pytest.skip("no Node.js here")
    _, log = play_game("werewolves", ",".join([FO] + ["alphawolf"] * 9), seed=1)
    return log


def test_the_js_foreign_office_negotiates_for_its_seat(game):
    assert game.header["external"]["p0/fo"]["name"] == "random-js"
    replies = [r["msg"] for r in game.records if r["msg"]["sender"] == "p0/fo" and r["msg"]["kind"] == "office_reply"]
    said = {item["kind"] for m in replies for item in m["says"]}
    assert {"ww_propose", "ww_accept", "say"} <= said
    assert not [r for r in game.records if r["msg"]["kind"] in ("error", "fault", "breach")]
    verdict = verify_game(game)
    assert verdict.ok and "p0/fo 'random-js'" in verdict.message


def test_its_joint_votes_are_in_the_deal_ledger(game):
    ledger = DebugGame(game).ledger(None)
    assert any(e["type"] == "proposed" and e["by"] == "p0" for e in ledger), ledger[:5]
    assert any(e["type"] == "accepted" and e["by"] == "p0" for e in ledger), sorted({e["type"] for e in ledger})


def test_its_free_text_is_in_the_transcript(game):
    text, _ = transcript(game)
    assert any(line.strip().startswith("[public r") and 'p0 says "' in line for line in text.splitlines())


def test_the_others_trust_in_it_moves(game):
    trust_in_p0 = {}
    for r in game.records:
        m = r["msg"]
        if m["kind"] == "kb_change" and m["sender"] != "p0":
            for u in m["updates"]:
                if list(u["path"]) == ["trust"] and isinstance(u["value"], dict) and "0" in u["value"]:
                    trust_in_p0.setdefault(m["sender"], []).append(u["value"]["0"])
    assert trust_in_p0, "no other seat's IO rated p0"
    assert any(len(set(values)) > 1 for values in trust_in_p0.values()), trust_in_p0
