"""AlphaDip's deals over several phases and demilitarised zones (options dmz, multi_phase): the
offers, their values, acceptance, the IO's per-phase ledger, and the agent suite for the options."""

from __future__ import annotations

import pytest

from actors.diplomacy.alphadip.offices import AlphaDipForeignOffice, AlphaDipParams
from actors.diplomacy.alphadip.phases import dmz_provinces, later_moves, movement_phases
from actors.match import make_header, record
from actors.registry import parse_lineup
from bus.log import parse_log
from games.diplomacy.board import CENTRES
from replay import agent_conformance as checks
from replay.verify import verify_game

NEW = "alphadip:params.dmz=true;params.multi_phase=true"
LINEUP = f"{NEW},dipblue,dumbbot,{NEW},dipblue,dumbbot,dumbbot"


def test_movement_phases_run_spring_fall_spring():
    assert later_moves("S1901M", 3) == ["F1901M", "S1902M", "F1902M"]
    assert later_moves("F1901R", 1) == ["S1902M"]
    assert movement_phases("F1901M", 2) == ["F1901M", "S1902M"]


def test_a_dmz_covers_empty_common_borders_only():
    obs = {"units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A BER", "F KIE"]},
           "centres": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE"]}}
    # France (PAR, MAR, BRE) and Germany (MUN, BER, KIE) can both reach Burgundy only
    assert dmz_provinces(obs, "FRANCE", "GERMANY", planned=set()) == ["BUR"]
    assert dmz_provinces(obs, "FRANCE", "GERMANY", planned={"BUR"}) == []  # our best move enters it
    obs["units"]["GERMANY"] = ["A BUR", "A BER", "F KIE"]
    assert "BUR" not in dmz_provinces(obs, "FRANCE", "GERMANY", planned=set())  # occupied
    assert not set(dmz_provinces(obs, "FRANCE", "GERMANY", planned=set())) & (CENTRES & {"PAR", "MAR", "BRE", "MUN"})


def test_later_phase_dmz_accepted_only_with_the_option():
    deal = {"proposer": "GERMANY", "key": "GERMANY#0", "parties": ["FRANCE", "GERMANY"],
            "commitments": [{"type": "dmz", "phase": "F1901M", "powers": ["FRANCE", "GERMANY"], "provinces": ["BUR"]}]}
    trust = {"GERMANY": 1.0}
    old = AlphaDipForeignOffice("p0/fo", 1, AlphaDipParams())
    new = AlphaDipForeignOffice("p0/fo", 1, AlphaDipParams(dmz=True))
    assert not old._acceptable(deal, "FRANCE", "S1901M", trust, set(), {})
    assert new._acceptable(deal, "FRANCE", "S1901M", trust, set(), {})
    assert not new._acceptable(deal, "FRANCE", "S1901M", trust, set(), {"GERMANY#0": -1.0})  # the SO says it costs


@pytest.fixture(scope="module")
def game():
    return parse_log(record(make_header("diplomacy", 5, parse_lineup(LINEUP, 7), {"max_year": 1902}))).games[0]


def test_dmz_deals_over_several_phases_are_made_kept_and_counted(game):
    proposals, ledger = [], {}
    for r in game.records:
        msg = r["msg"]
        if msg["kind"] == "kb_change":
            for u in msg["updates"]:
                if u["path"] == ["io"] and (u["value"] or {}).get("ledger"):
                    ledger = u["value"]["ledger"]
    state_deals = None
    from replay.walk import walk

    for step in walk(game):
        if step.state is not None:
            state_deals = step.state.to_json().get("deals")
    events = state_deals["events"]
    proposals = [e for e in events if e["type"] == "proposed"]
    confirmed = {e["deal"] for e in events if e["type"] == "confirmed"}
    assert proposals and confirmed
    assert any(len(phases) > 1 for phases in ledger.values())  # one deal judged in two phases
    assert {v for phases in ledger.values() for v in phases.values()} <= {"kept", "broken"}
    assert verify_game(game).ok
    assert not [r for r in game.records if r["msg"]["kind"] == "error"]


def test_agent_conformance_with_the_new_deals(monkeypatch):
    """The agent suite (same bytes under two hash seeds, no errors, verify, fork) with dmz and multi_phase."""
    monkeypatch.setattr(checks, "spec_text", lambda agent: NEW)
    options = {"max_year": 1901}
    logs = checks.check_hash_seeds("alphadip", "diplomacy", [1], options)
    checks.check_no_errors("alphadip", "diplomacy", logs)
    checks.check_verifies("alphadip", "diplomacy", logs)
    checks.check_fork("alphadip", "diplomacy", 1, options)


def test_the_golden_multi_phase_game_holds_multi_phase_deals():
    from pathlib import Path

    log = parse_log((Path("tests/golden") / "diplomacy-alphadip-phases-5.log").read_bytes()).games[0]
    multi = 0
    for r in log.records:
        msg = r["msg"]
        for line in msg.get("lines", ()) if msg["kind"] == "heard" else ():
            for s in line["says"]:
                if s.get("kind") == "dip_propose" and len({c.get("phase") for c in s["commitments"]} - {None}) > 1:
                    multi += 1
    assert multi > 0
