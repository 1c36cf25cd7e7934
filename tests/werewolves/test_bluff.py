"""Bluffing AlphaWolf (false seer and medium claims), the village learning from claims proven
false, AlphaWolf with the AIWolf roles, and the agent conformance suite for every new option."""

from __future__ import annotations

import pytest

from actors.match import game_options, make_header, record
from actors.registry import parse_lineup
from actors.werewolves.bluff import claim_plan
from actors.werewolves.claims import apply_claims, liars_seen, proven_false
from actors.werewolves.params import WolfParams
from bus.log import parse_log
from games.registry import get_game
from ops.plugins.werewolves.transcript import build_transcript, render_transcript
from replay import agent_conformance as checks

BLUFF = "alphawolf:params.claim_honesty=0"
LEARN = "alphawolf:params.claim_honesty=0;params.learn_claims=true"


def _game(spec: str, options: dict, seed: int):
    n = get_game("werewolves").num_players(game_options("werewolves", options))
    return parse_log(record(make_header("werewolves", seed, parse_lineup(spec, n), options))).games[0]


def _claim_logs(game):
    out = []
    for r in game.records:
        msg = r["msg"]
        if msg["kind"] == "kb_change":
            out += [(msg["sender"], u["value"]) for u in msg["updates"] if u["path"][:2] == ["claims", "log"]]
    return out


def _talk(game):
    for r in game.records:
        msg = r["msg"]
        if msg["kind"] == "heard" and msg["channel"] == "public":
            for line in msg["lines"]:
                for s in line["says"]:
                    yield msg["turn"], line["speaker"], s


def test_bluffing_wolves_claim_roles_they_do_not_hold_and_log_the_trait():
    game = _game(BLUFF, {}, 1)
    roles = build_transcript(game)["roles"]
    lies = [(speaker, s) for _, speaker, s in _talk(game) if s["kind"] == "ww_claim" and s["role"] != roles[speaker]]
    assert lies and all(roles[q] == "werewolf" for q, _ in lies)
    logged = [v for _, v in _claim_logs(game) if not v["true"]]
    assert logged and all(v["honesty"] == 0.0 and v["value"] > 0 for v in logged)
    # one voice per pack: on any day only one wolf claims falsely
    by_turn = {}
    for turn, speaker, s in _talk(game):
        if s["kind"] == "ww_claim" and roles[speaker] == "werewolf":
            by_turn.setdefault(turn, set()).add(speaker)
    assert all(len(v) == 1 for v in by_turn.values())


def test_honest_wolves_never_claim_falsely():
    for seed in (1, 2, 3):
        game = _game("alphawolf", {}, seed)
        roles = build_transcript(game)["roles"]
        assert not [s for _, q, s in _talk(game) if s["kind"] == "ww_claim" and s["role"] != roles[q]]
        assert not _claim_logs(game)


def test_transcript_marks_bluffs_in_the_omniscient_view_only():
    game = _game(BLUFF, {}, 1)
    text = render_transcript(build_transcript(game))
    assert "[BLUFF]" in text and "claim honesty 0.00" in text
    seen = render_transcript(build_transcript(game, player=3))
    assert "[BLUFF]" not in seen and "claim honesty" not in seen


def _obs(**extra):
    base = {"me": 5, "role": "villager", "phase": "day", "day": 2, "num_players": 6, "alive": [0, 1, 2, 3, 5],
            "candidates": [], "known_roles": {"5": "villager", "4": "villager"}, "events": [], "winner": None}
    return {**base, **extra}


def _line(speaker, *says, turn=3):
    return {"channel": "public", "speaker": speaker, "turn": turn, "round": 0, "day": 2, "says": list(says)}


def test_a_claim_is_proven_false_by_a_revealed_role():
    """p1 claimed seer and called p4 a werewolf; p4 died a villager: p1 lied."""
    inbox = [_line(1, {"kind": "ww_claim", "role": "seer"}, {"kind": "ww_result", "ability": "divined", "target": 4,
                                                            "species": "werewolf"})]
    obs = _obs()
    assert liars_seen(obs, inbox, 5) == [1]
    assert not proven_false((2, "seer", [("divined", 0, "werewolf")]), obs, 5)


def test_learning_village_trusts_claims_less_after_a_false_one():
    params = WolfParams(role_counts={"werewolf": 1, "seer": 1, "doctor": 0})
    lied = [_line(1, {"kind": "ww_claim", "role": "seer"}, {"kind": "ww_accuse", "target": 4})]
    fresh = [_line(2, {"kind": "ww_claim", "role": "seer"}, {"kind": "ww_accuse", "target": 3})]
    obs = _obs()
    uniform = {str(q): {"doctor": 0.0, "seer": 0.2, "villager": 0.6, "werewolf": 0.2} for q in range(6)}
    uniform["4"] = uniform["5"] = {"doctor": 0.0, "seer": 0.0, "villager": 1.0, "werewolf": 0.0}
    naive = apply_claims(uniform, obs, lied + fresh, params)
    learnt = apply_claims(uniform, obs, lied + fresh, params.model_copy(update={"learn_claims": True}))
    assert learnt["1"]["werewolf"] > 0.99  # the proven liar
    # after one false claim the next claimant's word weighs less: its target is less suspected
    assert learnt["3"]["werewolf"] < naive["3"]["werewolf"]


def test_counter_claims_share_the_wolf_teams_mass():
    params = WolfParams(role_counts={"werewolf": 1, "seer": 1, "doctor": 0}, learn_claims=True)
    inbox = [_line(1, {"kind": "ww_claim", "role": "seer"}), _line(2, {"kind": "ww_claim", "role": "seer"})]
    uniform = {str(q): {"doctor": 0.0, "seer": 0.2, "villager": 0.6, "werewolf": 0.2} for q in range(6)}
    out = apply_claims(uniform, _obs(known_roles={"5": "villager"}, alive=[0, 1, 2, 3, 4, 5]), inbox, params)
    assert out["1"]["werewolf"] > 0.35 and out["2"]["werewolf"] > 0.35 and out["0"]["werewolf"] < 0.2


def test_the_strategy_office_weighs_value_against_being_caught():
    params = WolfParams()
    beliefs = {str(q): {"doctor": 0.1, "seer": 0.1, "villager": 0.7, "werewolf": 0.1} for q in range(10)}
    obs = {"me": 0, "role": "werewolf", "phase": "day", "day": 1, "num_players": 10, "alive": list(range(10)),
           "known_roles": {"0": "werewolf", "1": "werewolf"}, "events": []}
    view = {"observation": obs, "seat": 0, "beliefs": beliefs, "inbox": []}
    likely = claim_plan(view, params, 1)
    dead_seer = {**beliefs, **{str(q): {"doctor": 0.15, "seer": 0.0, "villager": 0.85, "werewolf": 0.0} for q in range(2, 10)}}
    safe = claim_plan({**view, "beliefs": dead_seer}, params, 1)
    assert likely["role"] == safe["role"] == "seer"
    assert likely["p_caught"] > 0.7 and safe["p_caught"] == 0.0 and safe["value"] > likely["value"]
    assert claim_plan({**view, "seat": 1, "observation": {**obs, "me": 1}}, params, 1) is None  # p0 speaks for the pack


@pytest.mark.parametrize("spec,options", [
    (LEARN, {"preset": "aiwolf5"}),
    (BLUFF, {"preset": "aiwolf13", "discussion_rounds": 2, "max_days": 6}),
    ("alphawolf:params.claim_honesty=0.5;params.learn_claims=true", {"discussion_rounds": 2, "max_days": 6}),
])
def test_agent_conformance_with_the_new_options(spec, options, monkeypatch):
    """The agent suite (same bytes under two hash seeds, no errors, verify, fork) for each new option."""
    monkeypatch.setattr(checks, "spec_text", lambda agent: spec)
    logs = checks.check_hash_seeds("alphawolf", "werewolves", [1, 2], options)
    checks.check_no_errors("alphawolf", "werewolves", logs)
    checks.check_verifies("alphawolf", "werewolves", logs)
    checks.check_fork("alphawolf", "werewolves", 1, options)


def test_possessed_bluffs_in_the_aiwolf_village():
    roles_seen = set()
    for seed in range(20, 23):
        game = _game(BLUFF, {"preset": "aiwolf5"}, seed)
        roles = build_transcript(game)["roles"]
        roles_seen |= {roles[q] for _, q, s in _talk(game) if s["kind"] == "ww_claim" and s["role"] != roles[q]}
    assert "possessed" in roles_seen


@pytest.mark.parametrize("stem", ["werewolves-alphawolf-bluff-1", "werewolves-aiwolf5-bluff-22"])
def test_the_golden_bluffing_games_hold_bluffs(stem):
    from pathlib import Path

    from ops.plugins.werewolves.transcript import transcript

    text, _ = transcript(parse_log((Path("tests/golden") / f"{stem}.log").read_bytes()).games[0])
    assert "[BLUFF]" in text and "BLUFF as seer" in text


def test_the_debugger_shows_bluffs_to_the_whole_game_view_only():
    from pathlib import Path

    from ops.plugins.werewolves.board import deals
    from replay.walk import walk

    game = parse_log(Path("tests/golden/werewolves-alphawolf-bluff-1.log").read_bytes()).games[0]
    memo: dict = {}
    events = [e for step in walk(game) for e in deals(step, memo)]
    bluffs = [e for e in events if e["type"] == "bluff"]
    claims = [e for e in events if e["type"] == "claimed"]
    assert bluffs and all(e["seen_by"] == [] for e in bluffs)  # no seat sees it; the omniscient view does
    assert claims and all(e["seen_by"] for e in claims)
    assert len(claims) > len(bluffs)  # the real seer's claims are not bluffs


def test_a_defensive_counter_claim_is_the_likelier_lie():
    """p1 claims seer and calls p2 a werewolf; p2 then claims seer too: p2 is the likelier liar."""
    params = WolfParams(role_counts={"werewolf": 1, "seer": 1, "doctor": 0}, learn_claims=True)
    inbox = [_line(1, {"kind": "ww_claim", "role": "seer"}, {"kind": "ww_accuse", "target": 2}),
             {**_line(2, {"kind": "ww_claim", "role": "seer"}, {"kind": "ww_accuse", "target": 1}), "round": 1}]
    uniform = {str(q): {"doctor": 0.0, "seer": 0.2, "villager": 0.6, "werewolf": 0.2} for q in range(6)}
    out = apply_claims(uniform, _obs(known_roles={"5": "villager"}, alive=[0, 1, 2, 3, 4, 5]), inbox, params)
    assert out["2"]["werewolf"] > 0.6 > out["1"]["werewolf"]
    assert out["1"]["seer"] > out["2"]["seer"]
