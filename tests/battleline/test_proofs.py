"""Proof of claim against brute force (issue 13, "Must show"): in 1,000 positions from played
games, stratified by the cards the other side still misses, a flag is claimable exactly when no
completion of that side from the unseen troops beats the claimant (1.1 "Claiming"; the claimant's
hand counts as unseen, 1.1 item 2). The brute force is ops/bench/battleline.py's, which checks
10,000 positions (`python -m ops.bench.battleline --only proofs --proofs 10000`)."""

from __future__ import annotations

import pytest

from ops.bench.battleline import brute_claimable, check_proofs
from tests.battleline.test_rules import F0, F1, position


def test_the_brute_force_reads_the_rules():
    """The oracle itself on hand-made positions: a Wedge 10-9-8 against an empty side is proved;
    a Host is not while a stronger completion is unseen; equal complete formations go to the side
    completed first; the claimant's own hand counts as unseen."""
    wedge = position({0: (["R8", "R9", "R10"], [])}, (F0, F1))
    assert brute_claimable(wedge.to_json(), 0, 0) and 0 in wedge.claimable(0)
    host = position({0: (["R2", "O4", "B9"], ["G1"])}, (F0, F1))
    assert not brute_claimable(host.to_json(), 0, 0) and 0 not in host.claimable(0)
    tie = position({0: (["R8", "O8", "Y8"], ["G8", "B8", "P8"])}, (F0, F1),
                   order=["G8", "B8", "P8", "R8", "O8", "Y8"])
    assert not brute_claimable(tie.to_json(), 0, 0) and brute_claimable(tie.to_json(), 1, 0)
    # Seat 1 can beat R10-R9-... only with B10 B9, which seat 0 holds: still no proof.
    held = position({0: (["R10", "O10", "Y10"], ["B8"])}, (["B9", "B10", "P1", "P2", "P3", "P4", "P5"], F1),
                    troops=["G1"])
    assert not brute_claimable(held.to_json(), 0, 0) and 0 not in held.claimable(0)


@pytest.mark.slow
def test_claims_against_brute_force_in_1000_positions():
    """1,000 positions: 240 each with 0, 1, 2 and 3 cards missing, the rest with 4 under Mud (or
    3 where Mud gave too few); both answers occur in every stratum with cards missing but the
    rarest, and the rules agree with the brute force on every one."""
    tally, wrong = check_proofs(1000, seed=0)
    assert not wrong, f"{len(wrong)} disagreements; the first: {wrong[0]}"
    assert sum(c["positions"] for c in tally.values()) == 1000
    for missing in (0, 1, 2, 3):
        assert tally[missing]["positions"] >= 240, tally
        assert tally[missing]["claimable"] and tally[missing]["not claimable"], (missing, tally[missing])


def test_the_position_search_is_bounded(monkeypatch):
    """positions() plays a bounded number of games (POSITION_GAMES a position asked for, plus two
    waits for Mud): asked for more than its games can give, it fails instead of playing on."""
    from ops.bench import battleline as bench

    assert len(list(bench.positions(8))) == 8
    monkeypatch.setattr(bench, "POSITION_GAMES", 0)
    monkeypatch.setattr(bench, "MUD_WAIT", 1)
    with pytest.raises(RuntimeError, match="500 positions not found in 2 games"):
        list(bench.positions(500))
