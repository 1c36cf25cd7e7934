"""The Battle Line plugin's views of a logged game: transcript (with the Strategy Office's numbers
and every claim's proof), board, course chart and the Intelligence Office's beliefs.

One game through the whole stack (the bus, the referee, the offices): Deep Barca with its
Intelligence Office against naive, all ten tactics cards.
"""

from __future__ import annotations

import xml.dom.minidom

import pytest

from actors.match import make_header, record
from actors.registry import parse_lineup
from bus.log import parse_log
from games.battleline.cards import CARD_OF, N_TROOPS, NAMES
from games.battleline.formations import IMPOSSIBLE, Pool, best, score
from ops.plugins.battleline.board import board
from ops.plugins.battleline.transcript import build_transcript, render_transcript, transcript
from ops.plugins.battleline.views import INFORMATION, beliefs, course
from replay.transcript import TranscriptError
from replay.walk import walk


@pytest.fixture(scope="module")
def log():
    header = make_header("battleline", 5, parse_lineup("deep-barca:offices=so+io,naive", 2))
    data = parse_log(record(header))
    assert data.bad is None and len(data.games) == 1
    return data.games[0]


def test_every_deep_barca_play_shows_the_so_numbers(log):
    """Issue 13 part 3: "each flag's formations with the MFA/BSFA numbers the SO computed"."""
    data = build_transcript(log)
    plays = [t for t in data["turns"] if t["player"] == 0 and t["phase"] == "play" and "analysis" in t
             and "flags" in t["analysis"]]
    assert plays, "no analysed play of p0"
    for t in plays:
        a = t["analysis"]
        assert len(a["flags"]) == 9 and 0.0 <= a["game"] <= 1.0 and t["suggestions"]
        for fl in a["flags"]:
            if fl["method"] in ("mfa", "mix"):
                assert "mfa" in fl and fl["mine"] and all(0 <= p <= 1 and 0 <= b <= 1 for _, p, b in fl["mine"])
            if fl["method"] == "mix":
                assert "bsfa" in fl
    text = render_transcript(data)
    assert "MFA" in text and "BSFA" in text and "SO: " in text and "IO: information" in text


def test_naive_turns_carry_suggestions_but_no_analysis(log):
    data = build_transcript(log, player=1)
    assert data["turns"] and all(t["player"] == 1 for t in data["turns"])
    assert not any("analysis" in t for t in data["turns"])


def test_every_claim_shows_a_proof_that_holds(log):
    """1.1 "Claiming and proof": a claim shows the claimant's formation and, against an
    incomplete side, the best completion the unseen troops allow, which does not beat it."""
    claims = [t for t in build_transcript(log)["turns"] if t["action"].startswith("claim:")]
    assert claims
    for t in claims:
        p = t["proof"]
        mine = [CARD_OF[c] for c in p["mine"]]
        need = len(mine)
        assert p["score"].split()[0] in ("wedge", "phalanx", "battalion", "skirmish", "host")
        if p["why"] == "no completion beats it":
            rank, total = p["against"].split()
            assert _score(rank, int(total)) <= score(mine, need, p["fog"])
    assert "[proof: " in transcript(log)[0]


def _score(rank: str, total: int) -> int:
    return ("host", "skirmish", "battalion", "phalanx", "wedge").index(rank) * 100 + total


def test_the_proof_is_recomputed_from_the_state_before_the_claim(log):
    """The proof's best completion is formations.best over the troops off the table then."""
    before = None
    for step in walk(log):
        msg = step.msg
        if msg["kind"] == "step" and before is not None:
            (seat, action), = ((int(p), a) for p, a in msg["actions"].items())
            if action.startswith("claim:"):
                f = int(action.split(":")[1])
                flag = before["flags"][f]
                theirs = [CARD_OF[c] for c, _ in flag["sides"][1 - seat]]
                mine = [CARD_OF[c] for c, _ in flag["sides"][seat]]
                need = 4 if flag["mud"] >= 0 else 3
                if len(theirs) < need:
                    seen = {c for fl in before["flags"] for s in fl["sides"] for c, _ in s}
                    seen |= {c for pile in before["discards"] for c in pile}
                    pool = Pool([c for c in range(N_TROOPS) if NAMES[c] not in seen])
                    floor = score(mine, need, flag["fog"] >= 0)
                    assert best(theirs, need, flag["fog"] >= 0, pool, floor=floor) == IMPOSSIBLE
        if step.changed:
            before = step.state.to_json()


def test_board_is_well_formed_for_every_view(log):
    """The debugger's board: nine flags, both sides, claimed flags; every view well-formed."""
    for i, step in enumerate(walk(log)):
        if step.changed and i % 40 == 0:
            for player in (None, 0, 1):
                svg = board(step.state, player)
                xml.dom.minidom.parseString(svg)
                assert svg.count("<title>flag ") == 9
    last = board(step.state, None)
    assert "claimed by p" in last


def test_course_and_beliefs(log):
    """The chart counts claimed flags; the IO's beliefs are one series on 0..1 about the opponent."""
    points, state = [], None
    for step in walk(log):
        state = step.state
        if step.msg["kind"] == "kb_change":
            points += beliefs(step.msg)
    assert points and {s for s, q, _ in points} == {"p1"} and {q for _, q, _ in points} == {INFORMATION}
    assert all(0.0 <= v <= 1.0 for _, _, v in points)
    end = course(state)
    assert end["p0 flags"] + end["p1 flags"] >= 3


def test_transcript_refuses_other_games_and_seats(log):
    with pytest.raises(TranscriptError):
        build_transcript(log, player=2)
    other = parse_log(record(make_header("hanabi", 1, parse_lineup("random", 2)))).games[0]
    with pytest.raises(TranscriptError):
        build_transcript(other)
