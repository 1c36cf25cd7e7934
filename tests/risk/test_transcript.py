"""The Risk plugin's views of a logged game: the transcript (set-up, each turn's armies, battles,
conquests, fortify, the td network's value), charts, beliefs and the board, checked against the
log they read."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from actors.match import make_header, record
from actors.registry import parse_lineup
from bus.log import parse_log
from ops.plugins.risk.board import board
from ops.plugins.risk.transcript import build_transcript, transcript
from ops.plugins.risk.views import armies, beliefs, territories
from replay.transcript import TranscriptError
from replay.walk import walk

LINEUP = "td:net=random;net_seed=2,heuristic:offices=so+io,random"


@pytest.fixture(scope="module")
def log():
    header = make_header("risk", 2, parse_lineup(LINEUP, 3), {"max_rounds": 3})
    return parse_log(record(header)).games[0]


def _rolls(log) -> list[dict]:
    return [r["msg"] for r in log.records if r["msg"]["kind"] == "chance" and isinstance(r["msg"]["outcome"][0], list)]


def test_set_up_lists_every_claim_and_set_up_army(log):
    """The drafted start: 42 claims in seat order, then 35 x 3 - 42 = 63 set-up armies."""
    data = build_transcript(log)
    claims = data["setup"]["claims"]
    assert len(claims) == 42 and [s for s, _ in claims[:6]] == [0, 1, 2, 0, 1, 2]
    assert len({c for _, c in claims}) == 42
    assert sum(n for placed in data["setup"]["placed"].values() for n in placed.values()) == 63


def test_turns_hold_every_battle_and_conquest_of_the_log(log):
    """Each roll of the log is in exactly one turn, with its dice and losses; conquests are the
    battles after which the attacker owns the territory; turns follow the seats in order."""
    data = build_transcript(log)
    turns = data["turns"]
    assert [t["turn"] for t in turns] == list(range(1, len(turns) + 1))
    assert [t["player"] for t in turns[:3]] == [0, 1, 2] and turns[0]["round"] == 1
    battles = [b for t in turns for b in t["battles"]]
    rolls = _rolls(log)
    assert [[b["attack"], b["defence"]] for b in battles] == [m["outcome"] for m in rolls]
    for t in turns:
        assert sum(t["placed"].values()) == t["armies"] >= 3
        for b in t["battles"]:
            assert sum(b["lost"]) == min(len(b["attack"]), len(b["defence"]))
        assert all(c["moved"] >= 1 for c in t["conquered"])
        assert {c["to"] for c in t["conquered"]} <= {b["to"] for b in t["battles"]}
    assert any(t["conquered"] for t in turns)


def test_td_turns_carry_the_networks_value(log):
    """The td seat's Strategy Office reports its board's value at the start of each turn."""
    data = build_transcript(log)
    mine = [t for t in data["turns"] if t["player"] == 0]
    assert mine and all(0.0 < t["value"] < 1.0 for t in mine)
    assert [v[0] for v in data["values"]["p0"]] == [t["turn"] for t in mine]
    assert all("value" not in t for t in data["turns"] if t["player"] != 0)


def test_text_and_player_filter(log):
    text, data = transcript(log)
    assert text.splitlines()[0].startswith("risk risk-2 (seed 2): p0 td, p1 heuristic, p2 random")
    assert "turn 1 (round 1) p0: +" in text and "[value " in text and text.splitlines()[-1].startswith("end: ")
    json.dumps(data)
    only = build_transcript(log, player=1)
    assert only["turns"] and {t["player"] for t in only["turns"]} == {1} and only["values"] == {}
    with pytest.raises(TranscriptError):
        build_transcript(log, player=3)


def test_other_games_are_refused():
    from tests.golden.cases import HERE

    hanabi = parse_log((HERE / "hanabi-random-2.log").read_bytes()).games[0]
    with pytest.raises(TranscriptError):
        build_transcript(hanabi)


def test_charts_beliefs_and_board_read_the_same_game(log):
    """Territories per player add up to 42 once claimed; the IO's beliefs are in range; the
    board draws every territory."""
    states = [step.state.clone() for step in walk(log) if step.changed]
    last = states[-1]
    assert sum(territories(last).values()) == 42 and territories(states[0]) is None
    assert sum(armies(last).values()) == sum(last.to_json()["armies"])
    points = [p for r in log.records if r["msg"]["kind"] == "kb_change" and r["msg"]["source"] == "p1/io"
              for p in beliefs(r["msg"])]
    assert points and {q for _, q, _ in points} == {"strength", "aggression"}
    assert all(0.0 <= v <= 1.0 for _, q, v in points if q == "strength") and {s for s, _, _ in points} == {"p0", "p2"}
    root = ET.fromstring(board(last, 1))
    assert len([e for e in root.iter() if e.tag.endswith("rect")]) == 42
