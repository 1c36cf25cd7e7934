"""AlphaDip and DipBlue through the whole stack: registration and options, games that verify and
repeat byte for byte, kept and broken deals, and the Diplomacy transcript."""

from __future__ import annotations

import json

import pytest

from actors.registry import AgentSpecError, build_player, parse_spec
from bus.log import parse_log
from replay.transcript import TranscriptError, transcript
from replay.verify import verify_game
from tests.play import play_bytes

MIXED = ("alphadip,dipblue:preset=betrayer,alphadip:offices=so+fo,dipblue,dumbbot,"
         "dipblue:archetype=naive,alphadip:offices=so")


def _play(lineup: str, seed: int, max_year: int) -> bytes:
    return play_bytes("diplomacy", seed, lineup, {"max_year": max_year})


@pytest.fixture(scope="module")
def mixed() -> bytes:
    return _play(MIXED, 3, 1902)


@pytest.mark.parametrize("spec, addresses", [
    ("alphadip", ["p0", "p0/fo", "p0/io", "p0/so"]),
    ("alphadip:offices=pr+so", ["p0", "p0/so"]),
    ("alphadip:offices=so+fo", ["p0", "p0/fo", "p0/so"]),
    ("dipblue", ["p0", "p0/fo", "p0/io", "p0/so"]),
    ("dipblue:archetype=naive", ["p0", "p0/fo", "p0/so"]),
    ("dipblue:archetype=no_press", ["p0", "p0/so"]),
])
def test_office_sets(spec, addresses):
    assert sorted(a.address for a in build_player(parse_spec(spec), "diplomacy", 0, 1)) == addresses


def test_presets_and_bad_options():
    pr = build_player(parse_spec("dipblue:preset=betrayer"), "diplomacy", 0, 1)[0]
    assert pr.traits.honesty == 0.0
    pr = build_player(parse_spec("alphadip:preset=betrayer;traits.honesty=0.3"), "diplomacy", 0, 1)[0]
    assert (pr.traits.honesty, pr.traits.aggressiveness) == (0.3, 1.0)
    assert build_player(parse_spec("alphadip"), "diplomacy", 0, 1)[0].traits.honesty == 1.0
    for bad, why in (("alphadip:offices=fo", "Strategy Office"), ("alphadip:offices=so+xo", "has no office"),
                     ("dipblue:archetype=slave", "archetype"), ("alphadip:params.node_budget=0", "node_budget")):
        with pytest.raises(AgentSpecError, match=why):
            build_player(parse_spec(bad), "diplomacy", 0, 1)
    with pytest.raises(AgentSpecError, match="does not play"):
        build_player(parse_spec("alphadip"), "werewolves", 0, 1)


def test_games_verify_and_repeat_byte_for_byte(mixed):
    game = parse_log(mixed).games[0]
    assert game.complete
    assert verify_game(game).ok
    assert not [r for r in game.records if r["msg"]["kind"] == "fault"]
    assert _play(MIXED, 3, 1902) == mixed


def test_deals_are_made_kept_and_broken(mixed):
    game = parse_log(mixed).games[0]
    talk = [s for r in game.records if r["msg"]["kind"] == "talk_round" for line in r["msg"]["lines"] for s in line["says"]]
    kinds = {s["kind"] for s in talk}
    assert {"dip_propose", "dip_accept"} <= kinds
    plans = [u["value"] for r in game.records if r["msg"]["kind"] == "kb_change" and r["msg"]["source"] == "p1"
             for u in r["msg"]["updates"] if u["path"] == ["plan"]]
    assert any(p["why"] == "broke" for p in plans)  # the betrayer breaks when breaking pays
    honest = [u["value"]["why"] for r in game.records if r["msg"]["kind"] == "kb_change" and r["msg"]["source"] == "p3"
              for u in r["msg"]["updates"] if u["path"] == ["plan"]]
    assert "broke" not in honest  # honesty 1: never


def test_transcript_lists_deals_trust_and_goals(mixed):
    game = parse_log(mixed).games[0]
    text, data = transcript(game)
    assert text.startswith("game diplomacy-3 (diplomacy, seed 3)")
    proposals = sum(1 for r in game.records if r["msg"]["kind"] == "talk_round"
                    for line in r["msg"]["lines"] for s in line["says"] if s["kind"] == "dip_propose")
    assert text.count(" proposes ") == proposals  # every proposal
    events = [e for ph in data["phases"] for e in ph["deals"]]
    confirmed = [e for e in events if e["type"] == "confirmed"]
    broken = [e for e in events if e["type"] == "broken"]
    assert confirmed and broken
    assert text.count(" confirmed [") == len(confirmed) and text.count(" BROKEN by ") == len(broken)
    views = [v for ph in data["phases"] for v in ph["views"]]
    assert {v["player"] for v in views} == {0, 1, 3}  # the players with an IO
    alpha = [v for v in views if v["player"] == 0]
    assert len(alpha[-1]["goals"]) == 6 and len(alpha[-1]["goals"]["FRANCE"]) == 34
    assert "goals FRANCE:" in text and "trust: ENGLAND" in text
    one_text, one = transcript(game, player=0)
    assert {v["player"] for ph in one["phases"] for v in ph["views"]} == {0}
    assert "point of view: p0 AUSTRIA" in one_text
    json.dumps(one)
    with pytest.raises(TranscriptError):
        transcript(game, player=9)
