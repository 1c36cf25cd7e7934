"""Transcripts of AlphaWolf games: deals with their fate, bids, actions, and one player's view."""

from __future__ import annotations

import json

import pytest

from ops.plugins.werewolves.transcript import build_transcript, render_transcript
from replay.transcript import TranscriptError, transcript
from tests.play import play_log


def _log(spec: str, seed: int, game: str = "werewolves", players: int = 10):
    return play_log(game, seed, spec if game == "werewolves" else "random")


def test_transcript_lists_deals_votes_and_their_fate():
    log = _log("alphawolf", 5)
    data = build_transcript(log)
    json.dumps(data)  # JSON-ready
    assert data["roles"] and data["end"]["summary"]
    days = [p for p in data["phases"] if p["phase"] == "day"]
    nights = [p for p in data["phases"] if p["phase"] == "night"]
    assert days and nights
    assert any(d["accepts"] for p in days for d in p["deals"])
    for p in days:
        for d in p["deals"]:
            for q in d["bound"]:  # a bound player kept the deal iff it voted the deal's target
                assert (q in d["kept"]) == (p["actions"][str(q)] == f"vote:{d['target']}")
                assert (q in d["kept"]) != (q in d["broken"])
    wolf_nights = [p for p in nights if "bids" in p]
    assert wolf_nights and all(p["bids"]["winner"] is not None for p in wolf_nights)
    text = render_transcript(data)
    assert "proposes #" in text and "accepts #" in text and "bids:" in text and "-> p" in text


def test_a_dishonest_president_shows_broken_deals():
    log = _log("alphawolf:traits.honesty=0.0", 5)
    data = build_transcript(log)
    broken = [d for p in data["phases"] for d in p["deals"] if d["broken"]]
    assert broken
    assert "BROKEN by" in render_transcript(data)


def test_point_of_view_has_trust_and_role_certainties_after_each_io_update():
    log = _log("alphawolf", 5)
    text, data = transcript(log, player=2)
    views = [v for p in data["phases"] for v in p["view"]]
    io_updates = [r for r in log.records if r["msg"]["kind"] == "kb_change" and r["msg"]["source"] == "p2/io"]
    assert len(views) == len(io_updates)
    assert all(abs(sum(c.values()) - 1.0) < 1e-3 for v in views for c in v["beliefs"].values())
    assert any(v["trust"] for v in views)
    assert "p2 after IO update" in text and "trust" in text


def test_transcript_refuses_other_games_and_unknown_seats():
    with pytest.raises(TranscriptError, match="seat"):
        build_transcript(_log("alphawolf", 5), player=10)
    with pytest.raises(TranscriptError, match="werewolves"):
        build_transcript(_log("random", 1, game="hanabi", players=2))
