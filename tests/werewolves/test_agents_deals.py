"""The public deal record (deals.py) and the improved variant's claim reading (claims.py)."""

from __future__ import annotations

import pytest

from actors.werewolves.claims import apply_claims
from actors.werewolves.deals import bid_totals, bound_target, read_deals
from actors.werewolves.knowledge import prior_beliefs
from actors.werewolves.params import WolfParams
from tests.werewolves.helpers import accept, bid, line, obs, propose, retract


def test_acceptance_counts_unless_retracted_in_an_earlier_round():
    lines = [
        line(1, propose(4, 7)), line(2, propose(4, 8)), line(3, propose(4, 9)),
        # round 1: 5 accepts 1's deal while 1 retracts it (simultaneous: the acceptance counts)
        line(1, retract(4), rnd=1), line(5, accept(4, 1), rnd=1),
        line(2, retract(4), rnd=1),
        # round 2: 6 accepts 2's deal, retracted a round earlier: void
        line(6, accept(4, 2), rnd=2),
        # an acceptance in the round of the proposal could not have heard it
        line(4, accept(4, 3)),
        line(4, accept(4, 3), rnd=1), line(4, accept(4, 3), rnd=2),
    ]
    deals = read_deals(sorted(lines, key=lambda x: (x["round"], x["speaker"])))
    assert deals["1:4"].accepts == [(5, 1)] and deals["1:4"].retracted == 1
    assert deals["2:4"].accepts == [] and deals["2:4"].void == [(6, 2, "retracted in round 1")]
    assert deals["3:4"].accepts == [(4, 1)]
    assert [why for _, _, why in deals["3:4"].void] == ["accepted before it was heard", "accepted twice"]
    assert deals["1:4"].binds() == [1, 5] and deals["2:4"].binds() == []


def test_a_player_bound_twice_keeps_the_larger_coalition():
    lines = [
        line(1, propose(4, 7)), line(2, propose(4, 8)),
        line(1, accept(4, 2), rnd=1), line(3, accept(4, 1), rnd=1), line(5, accept(4, 1), rnd=1),
    ]
    deals = read_deals(lines)
    # 1 accepted 2's deal (coalition of 2) while 3 and 5 accepted its own (coalition of 3)
    assert bound_target(deals, 1) == 7
    assert bound_target(deals, 2) == 8 and bound_target(deals, 3) == 7 and bound_target(deals, 4) is None


def test_bids_total_per_target():
    lines = [line(7, bid(2, 0.5), channel="wolves"), line(9, bid(2, 0.25), channel="wolves")]
    assert bid_totals(lines) == {2: 0.75}


P = WolfParams()


def _claims(inbox, **kw):
    o = obs(**kw)
    return apply_claims(prior_beliefs(o, P), o, inbox, P)


def test_a_lone_seer_claim_and_its_accusation_move_beliefs_within_the_role_counts():
    inbox = [line(4, {"kind": "ww_claim", "role": "seer"}, {"kind": "ww_accuse", "target": 7})]
    beliefs = _claims(inbox)
    assert beliefs["4"]["seer"] > 0.7 and beliefs["7"]["werewolf"] > 0.85
    assert max(range(10), key=lambda q: beliefs[str(q)]["seer"]) == 4
    unknown = [str(q) for q in range(1, 10)]
    for role, count in (("werewolf", 2), ("seer", 1), ("doctor", 1), ("villager", 5)):
        assert sum(beliefs[s][role] for s in unknown) == pytest.approx(count, abs=0.05)
    for s in unknown:
        assert sum(beliefs[s].values()) == pytest.approx(1.0)


def test_a_wrong_accusation_or_a_second_seer_marks_a_liar():
    inbox = [line(4, {"kind": "ww_claim", "role": "seer"}, {"kind": "ww_accuse", "target": 7})]
    # 7 died and was revealed a villager: 4 lied, and in AlphaWolf only wolves lie
    beliefs = _claims(inbox, alive=[q for q in range(10) if q != 7], known={7: "villager"})
    assert beliefs["4"]["werewolf"] == pytest.approx(1.0)
    # the real seer hears someone else claim its role
    beliefs = _claims(inbox, role="seer")
    assert beliefs["4"]["werewolf"] == pytest.approx(1.0)
