"""The Dominoes plugin's views of a logged match: transcript (hands, turns, passes and what they
show, signals, roles, reasons, beliefs), board, charts and belief series; read off the golden logs."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bus.log import parse_log
from games.dominoes.rules import Dominoes
from ops.plugins.dominoes.board import board
from ops.plugins.dominoes.transcript import build_transcript, transcript
from replay.series import belief_series, state_series
from replay.transcript import TranscriptError
from replay.transcript import transcript as any_transcript

GOLDEN = Path(__file__).parents[1] / "golden"


def _log(stem: str):
    return parse_log((GOLDEN / f"{stem}.log").read_bytes()).games[0]


SIGNAL = _log("dominoes-glutton-blocker-signal-22")  # glutton-blocker (p0, p2) v individualists, signal on
ALPHA = _log("dominoes-alpha-pair-3")  # alpha-pair (p0, p2) v glutton-blocker without FO (p1, p3)


def test_every_hand_and_turn_is_there_and_passes_show_what_a_seat_lacks():
    data = build_transcript(SIGNAL)
    end = SIGNAL.records[-1]["msg"]
    assert len(data["hands"]) == end["extra"]["hands"]
    steps = sum(1 for r in SIGNAL.records if r["msg"]["kind"] == "step")
    assert sum(len(h["turns"]) for h in data["hands"]) == steps
    for hand in data["hands"]:
        assert all(tiles is not None and len(tiles) == 7 for tiles in hand["deal"])
        gained = [after - before for after, before in zip(hand["scores"], hand["scores_before"])]
        assert gained == [hand["points"] if hand["pair"] == pair else 0 for pair in (0, 1)]
        lacked: dict[int, set[int]] = {}
        for turn in hand["turns"]:
            if turn["action"] == "pass":
                assert set(turn["new_lacks"]) <= set(turn["ends"])  # a pass shows the numbers at the ends
                assert not set(turn["new_lacks"]) & lacked.get(turn["seat"], set())
                lacked.setdefault(turn["seat"], set()).update(turn["new_lacks"])
    assert data["hands"][-1]["scores"] == end["extra"]["scores"]


def test_signals_and_roles_of_the_pair_are_in_the_transcript():
    data = build_transcript(SIGNAL)
    for hand in data["hands"]:
        assert sorted((s["seat"], s["to"]) for s in hand["signals"]) == [(0, 2), (2, 0)]  # once a hand, each way
        assert {r["seat"] for r in hand["roles"]} <= {0, 2} and hand["roles"]
        for turn in hand["turns"]:
            if turn["seat"] in (0, 2) and "rule" in turn:
                assert turn["role"] in ("glutton", "blocker") and turn["rule"].startswith(("3.3", "ours"))
            elif turn["seat"] in (1, 3) and "rule" in turn:
                assert "role" not in turn
    assert any(r["swapped"] for h in data["hands"] for r in h["roles"])  # seed 3.4's swap happens here
    text, _ = transcript(SIGNAL)
    assert "signal p0 -> p2: code" in text and "swapped after" in text and "reads roles: glutton p" in text and " lacks " in text


def test_a_players_transcript_holds_only_its_own_hand_signals_and_reasons():
    data = build_transcript(SIGNAL, player=1)
    for hand in data["hands"]:
        assert [tiles is not None for tiles in hand["deal"]] == [False, True, False, False]
        assert hand["signals"] == [] and hand["roles"] == []  # p1 hears no signal of the other pair
        assert all("rule" not in t and "only" not in t for t in hand["turns"] if t["seat"] != 1)
    with pytest.raises(TranscriptError):
        build_transcript(SIGNAL, player=4)


def test_the_alpha_pairs_scores_and_beliefs_are_in_the_transcript():
    data = build_transcript(ALPHA)
    alpha = [t for h in data["hands"] for t in h["turns"] if t["seat"] in (0, 2) and "scores" in t]
    assert alpha and all(t["action"] == t["scores"][0][0] or len(t["scores"]) > 1 for t in alpha)
    believed = [t for t in alpha if "tiles" in t.get("beliefs", {})]
    assert believed and all(set(t["beliefs"]["tiles"]) == {f"p{q}" for q in range(4) if q != t["seat"]}
                            for t in believed)
    text, _ = transcript(ALPHA)
    assert "believes:" in text and "likely" in text


def test_the_plugin_transcript_is_the_one_replay_uses_with_belief_series_and_charts():
    text, data = any_transcript(ALPHA)
    assert text.startswith("game dominoes-3 (dominoes")
    series = data["beliefs"]
    assert set(series["scales"]) == {"numbers lacked", "expected pips"}
    assert {p["observer"] for p in series["points"]} <= {"p0", "p1", "p2", "p3"}
    assert belief_series(SIGNAL)["points"]  # the glutton-blocker's memory of passes
    chart, = state_series(ALPHA)
    assert chart["title"] == "pair scores" and set(chart["series"]) == {"pair 0&2", "pair 1&3"}
    assert chart["series"]["pair 0&2"][-1][1] == ALPHA.records[-1]["msg"]["extra"]["scores"][0]


def test_the_board_shows_the_line_and_only_the_viewers_hand():
    game, rng = Dominoes(), random.Random(2)
    state = game.new_initial_state({"target": 30})
    for _ in range(12):
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            p = state.current_players()[0]
            state.apply_actions({p: rng.choice(state.legal_actions(p))})
    data = state.to_json()
    whole = ET.fromstring(board(state, None))
    titles = [t.text for t in whole.iter() if t.tag.endswith("title")]
    assert titles.count("?") == 0 and len(titles) == len(data["line"]) + sum(len(h) for h in data["hands"])
    mine = ET.fromstring(board(state, 1))
    titles = [t.text for t in mine.iter() if t.tag.endswith("title")]
    assert titles.count("?") == sum(len(h) for q, h in enumerate(data["hands"]) if q != 1)
    assert all(t.replace("|", "-") in data["hands"][1] for t in titles[len(data["line"]):] if t != "?")
