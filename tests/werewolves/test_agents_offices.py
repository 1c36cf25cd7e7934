"""Each AlphaWolf office on hand-built knowledge bases, asserting the numbers of thesis 5.2."""

from __future__ import annotations

import math

import pytest

from actors.werewolves.foreign import WolfForeignOffice
from actors.werewolves.intelligence import WolfIntelligenceOffice
from actors.werewolves.knowledge import deal_utility, prior_beliefs, threat, threats
from actors.werewolves.params import WolfParams
from actors.werewolves.strategy import WolfStrategyOffice
from bus.messages import KBUpdate
from games.werewolves.talk import WwAccept, WwBid, WwRetract
from tests.werewolves.helpers import accept, bid, line, obs, propose, request, spread

P = WolfParams()
VILLAGE_SUM = 1.0 + 0.4 + 0.2 + 0.1  # base threats to the village: wolf, villager, doctor, seer
WOLF_SUM = 1.0 + 0.7 + 0.4 + 0.02  # to a wolf: seer, doctor, villager, wolf


def _updates(reply) -> dict[tuple[str, ...], object]:
    return {u.path: u.value for u in reply.updates}


# -- Strategy Office: threat values (eq. 5.2) ---------------------------------------------------


def test_threat_is_the_base_weighted_mean_of_role_certainties():
    """Thesis eq. 5.2: T_p = sum_i(B_i C_i) / sum_i(B_i)."""
    base = P.village_threat
    assert threat(spread(werewolf=1), base) == pytest.approx(1.0 / VILLAGE_SUM)
    assert threat(spread(seer=1), base) == pytest.approx(0.1 / VILLAGE_SUM)
    mixed = spread(werewolf=0.5, villager=0.3, doctor=0.1, seer=0.1)
    assert threat(mixed, base) == pytest.approx((0.5 + 0.12 + 0.02 + 0.01) / VILLAGE_SUM)
    # to a werewolf the seer is the worst threat and a fellow wolf almost none
    assert threat(spread(seer=1), P.wolf_threat) == pytest.approx(1.0 / WOLF_SUM)
    assert threat(spread(werewolf=1), P.wolf_threat) == pytest.approx(0.02 / WOLF_SUM)


def test_prior_spreads_the_roles_not_accounted_for():
    """A villager of a 10-player game knows itself: 9 unknown seats share 2 wolves, 1 seer,
    1 doctor and the 5 other villagers."""
    beliefs = prior_beliefs(obs(me=0), P)
    assert beliefs["0"] == spread(villager=1)
    assert beliefs["4"] == pytest.approx(spread(werewolf=2 / 9, seer=1 / 9, doctor=1 / 9, villager=5 / 9))
    t = threats(beliefs, "villager", P)
    assert t[4] == pytest.approx((2 / 9 + 0.4 * 5 / 9 + 0.2 / 9 + 0.1 / 9) / VILLAGE_SUM)
    assert t[0] == pytest.approx(0.4 / VILLAGE_SUM)


def _beliefs() -> dict[str, dict[str, float]]:
    out = {str(q): spread(villager=0.6, werewolf=0.2, seer=0.1, doctor=0.1) for q in range(10)}
    out["0"] = spread(villager=1)
    out["3"] = spread(werewolf=0.9, villager=0.1)
    out["5"] = spread(seer=0.8, villager=0.2)
    return out


def test_so_suggests_the_top_three_by_threat_for_a_vote():
    view = {"observation": obs(me=0), "beliefs": _beliefs(), "seat": 0}
    legal = ["abstain"] + [f"vote:{q}" for q in range(1, 10)]
    [reply] = WolfStrategyOffice("p0/so", 1).handle(request("suggest", view, legal=legal))
    assert len(reply.suggestions) == 3
    top = reply.suggestions[0]
    assert top.action == "vote:3"
    assert top.utility == pytest.approx((0.9 + 0.04) / VILLAGE_SUM, abs=1e-6)
    assert [s.utility for s in reply.suggestions] == sorted((s.utility for s in reply.suggestions), reverse=True)
    assert "vote:5" not in [s.action for s in reply.suggestions]  # the likely seer is no threat


def test_so_heals_by_the_inverse_threat():
    """Utility of healing is 1/T: the doctor protects the player least likely to harm it."""
    beliefs = _beliefs()
    beliefs["0"] = spread(doctor=1)
    view = {"observation": obs(me=0, role="doctor"), "beliefs": beliefs, "seat": 0}
    legal = ["abstain"] + [f"protect:{q}" for q in range(10)]
    [reply] = WolfStrategyOffice("p0/so", 1).handle(request("suggest", view, legal=legal))
    top = reply.suggestions[0]
    assert top.action == "protect:5"
    assert top.utility == pytest.approx(VILLAGE_SUM / (0.8 * 0.1 + 0.2 * 0.4), abs=1e-5)


def test_so_never_suggests_inspecting_a_known_role():
    beliefs = _beliefs()
    view = {"observation": obs(me=0, role="seer", phase="night", known={3: "werewolf"}), "beliefs": beliefs, "seat": 0}
    legal = ["abstain"] + [f"inspect:{q}" for q in range(1, 10)]
    [reply] = WolfStrategyOffice("p0/so", 1).handle(request("suggest", view, legal=legal))
    assert "inspect:3" not in [s.action for s in reply.suggestions]


# -- Strategy Office: deal utility (algorithm 4) ----------------------------------------------


def test_deal_utility_formula():
    """Algorithm 4: target value (T, or 1/T for a positive action) * 1/T(proposer) * trust."""
    assert deal_utility(0.25, 0.5, False, 1.2) == pytest.approx(0.5 * 4 * 1.2)
    assert deal_utility(0.25, 0.5, True, 1.2) == pytest.approx(2 * 4 * 1.2)


def test_so_scores_received_proposals_into_the_kb():
    beliefs = _beliefs()
    inbox = [line(2, propose(12, 3)), line(4, propose(13, 4, "heal"))]
    view = {"observation": obs(me=0), "beliefs": beliefs, "seat": 0, "trust": {"2": 1.2, "4": 0.5},
            "inbox": inbox, "deals": {"current": {"turn": 3}}}
    [reply] = WolfStrategyOffice("p0/so", 1).handle(request("deal_utility", view))
    got = _updates(reply)
    t = threats(beliefs, "villager", P)
    vote = got[("deals", "current", "received", "2:12")]
    assert vote["utility"] == pytest.approx(t[3] * (1 / t[2]) * 1.2, abs=1e-5)
    assert (vote["proposer"], vote["target"], vote["deal"]) == (2, 3, "joint_vote")
    heal = got[("deals", "current", "received", "4:13")]
    assert heal["utility"] == pytest.approx((1 / t[4]) * (1 / t[4]) * 0.5, abs=1e-5)


def test_so_ignores_malformed_and_pointless_proposals_with_a_reason():
    inbox = [
        line(2, {"kind": "ww_propose", "proposal_id": 12, "deal": "bribe", "target": 3}),
        line(4, propose(12, 0)),  # a joint vote against me
        line(5, propose(12, 9)),  # a dead target
        line(6, propose(12, 3), channel="wolves"),
    ]
    view = {"observation": obs(me=0, alive=range(9)), "seat": 0, "inbox": inbox, "deals": {"current": {"turn": 3}}}
    [reply] = WolfStrategyOffice("p0/so", 1).handle(request("deal_utility", view))
    reasons = {path[-1]: value["ignored"] for path, value in _updates(reply).items()}
    assert reasons["2:12"].startswith("malformed proposal")
    assert reasons["4:12"] == "a joint vote against me"
    assert reasons["5:12"] == "target 9 is not a living player"
    assert reasons["6:12"].startswith("proposals belong on the public channel")


# -- Foreign Office: algorithm 5 --------------------------------------------------------------


def _fo_view(rnd: int, received_utility: float, extra_lines=()) -> dict:
    mine = {"id": 12, "deal": "joint_vote", "target": 5, "utility": 2.0}
    received = {"2:12": {"key": "2:12", "proposer": 2, "id": 12, "deal": "joint_vote", "target": 3,
                         "round": 0, "utility": received_utility}}
    inbox = [line(0, propose(12, 5)), line(2, propose(12, 3)), *extra_lines]
    return {"observation": obs(me=0), "seat": 0, "talk": {"channel": "public", "round": rnd},
            "inbox": inbox, "deals": {"current": {"turn": 3, "proposed": True, "mine": {"joint_vote": mine},
                                                  "received": received}}}


@pytest.mark.parametrize("rnd, utility, accepts", [
    (1, 1.7, True),  # concession 2.0 * 0.8 = 1.6 < 1.7
    (1, 1.5, False),  # 1.5 < 1.6: keep waiting
    (2, 1.5, True),  # concession 2.0 * 0.8 * 0.8 = 1.28 < 1.5
    (3, 1.0, False),  # 2.0 * 0.8 * 0.64 = 1.024 > 1.0
])
def test_fo_accepts_above_a_decreasing_concession_value(rnd, utility, accepts):
    """Algorithm 5, lines 18-32: accept the best deal above own utility * concession factor,
    confirm it (a joint vote) and retract the conflicting own proposal."""
    [reply] = WolfForeignOffice("p0/fo", 1).handle(request("negotiate", _fo_view(rnd, utility), to="p0/fo"))
    if accepts:
        assert list(reply.says) == [WwAccept(proposal_id=12, proposer=2), WwRetract(proposal_id=12)]
        assert _updates(reply)[("deals", "current", "accepted")] == "2:12"
    else:
        assert reply.says == () and reply.updates == ()


def test_fo_locks_an_accepted_proposal_and_ignores_conflicting_deals():
    """Lines 13-16: once p4 accepted my vote against 5, a deal against 3 conflicts; it is ignored
    with the reason in the KB (logged as a kb_change), and the commitment is the locked deal."""
    view = _fo_view(2, 5.0, extra_lines=[line(4, accept(12, 0), rnd=1)])
    [reply] = WolfForeignOffice("p0/fo", 1).handle(request("negotiate", view, to="p0/fo"))
    assert reply.says == ()
    entry = _updates(reply)[("deals", "current", "received", "2:12")]
    assert entry["ignored"] == "conflicts with my deal to vote against 5"
    view["talk"] = {"closing": True}
    legal = ["abstain"] + [f"vote:{q}" for q in range(1, 10)]
    [reply] = WolfForeignOffice("p0/fo", 1).handle(request("negotiate", view, legal=legal, to="p0/fo"))
    assert _updates(reply)[("commitments", "3")] == "vote:5"


def test_fo_proposes_a_joint_vote_against_the_highest_threat_once():
    beliefs = _beliefs()
    view = {"observation": obs(me=0), "seat": 0, "beliefs": beliefs, "talk": {"channel": "public", "round": 0},
            "suggestions": [{"action": "vote:3", "utility": 0.55}], "deals": {"current": {"turn": 3}}}
    [reply] = WolfForeignOffice("p0/fo", 1).handle(request("negotiate", view, to="p0/fo"))
    [says] = reply.says
    assert (says.kind, says.deal, says.target, says.proposal_id) == ("ww_propose", "joint_vote", 3, 12)
    t = threats(beliefs, "villager", P)
    mine = _updates(reply)[("deals", "current", "mine", "joint_vote")]
    assert mine["utility"] == pytest.approx(t[3] / t[0], abs=1e-5)  # algorithm 4, myself as proposer


def test_fo_asks_for_investigation_and_heal_when_trust_is_low():
    view = {"observation": obs(me=0), "seat": 0, "beliefs": _beliefs(), "talk": {"channel": "public", "round": 0},
            "trust": {"7": 0.7, "8": 0.75}, "suggestions": [{"action": "vote:3", "utility": 0.55}],
            "deals": {"current": {"turn": 3}}}
    [reply] = WolfForeignOffice("p0/fo", 1).handle(request("negotiate", view, to="p0/fo"))
    deals = [(s.deal, s.target) for s in reply.says]
    assert deals == [("joint_vote", 3), ("investigate", 7), ("heal", 0)]


def test_wolves_sealed_bids_highest_total_wins_ties_to_lower_seat():
    fo = WolfForeignOffice("p7/fo", 1)
    inbox = [line(7, bid(2, 0.5), channel="wolves"), line(9, bid(4, 0.3), channel="wolves"),
             line(8, bid(4, 0.3), channel="wolves")]
    view = {"observation": obs(me=7, role="werewolf", phase="night", known={8: "werewolf", 9: "werewolf"}),
            "seat": 7, "inbox": inbox, "talk": {"closing": True}}
    legal = ["abstain", "attack:2", "attack:4"]
    [reply] = fo.handle(request("negotiate", view, legal=legal, to="p7/fo"))
    assert _updates(reply)[("commitments", "3")] == "attack:4"  # 0.6 beats 0.5
    view["inbox"] = inbox[:2] + [line(8, bid(2, 0.1), channel="wolves"), line(6, bid(4, 0.3), channel="wolves")]
    [reply] = fo.handle(request("negotiate", view, legal=legal, to="p7/fo"))
    assert _updates(reply)[("commitments", "3")] == "attack:2"  # 0.6 each: the lower seat


def test_a_wolf_bids_its_highest_threat_with_that_threat_as_preference():
    beliefs = {str(q): spread(villager=0.8, doctor=0.1, seer=0.1) for q in range(10)}
    beliefs["4"] = spread(seer=0.9, villager=0.1)
    for w in (7, 9):
        beliefs[str(w)] = spread(werewolf=1)
    view = {"observation": obs(me=7, role="werewolf", phase="night", known={9: "werewolf"}), "seat": 7,
            "beliefs": beliefs, "talk": {"channel": "wolves", "round": 0}}
    [reply] = WolfForeignOffice("p7/fo", 1).handle(request("negotiate", view, to="p7/fo"))
    assert list(reply.says) == [WwBid(target=4, preference=round((0.9 + 0.04) / WOLF_SUM, 6))]


# -- Intelligence Office: algorithm 6 and trust ----------------------------------------------------


def _io_obs(events, day=3):
    return obs(me=0, day=day, alive=range(9), known={9: "werewolf"}, events=events)


def test_io_role_scaling_and_normalisation():
    """Algorithm 6: damage = (T(target) - mean T) * age factor; certainties * exp(gain * damage),
    renormalised. p2 voted against the revealed wolf p9 on day 2 (helpful: more likely the seer);
    p3 voted against me (damaging, slightly)."""
    events = [{"type": "day_votes", "day": 2, "round": 1, "votes": [[2, 9], [3, 0]]}]
    [reply] = WolfIntelligenceOffice("p0/io", 1).handle(request("update", {"observation": _io_obs(events), "seat": 0}, to="p0/io"))
    beliefs = _updates(reply)[("beliefs",)]
    prior = spread(werewolf=1 / 8, seer=1 / 8, doctor=1 / 8, villager=5 / 8)  # 8 unknown seats
    t_prior = (1 / 8 + 0.4 * 5 / 8 + 0.2 / 8 + 0.1 / 8) / VILLAGE_SUM
    age = 0.75  # one day ago
    for seat, target_t in ((2, 1.0 / VILLAGE_SUM), (3, 0.4 / VILLAGE_SUM)):
        damage = (target_t - t_prior) * age
        scaled = {r: prior[r] * math.exp(P.village_gain[r] * damage) for r in prior}
        total = sum(scaled.values())
        assert beliefs[str(seat)] == pytest.approx({r: v / total for r, v in scaled.items()}, abs=1e-6)
        assert sum(beliefs[str(seat)].values()) == pytest.approx(1.0, abs=1e-5)
    assert beliefs["2"]["seer"] > prior["seer"] > beliefs["3"]["seer"]
    assert beliefs["2"]["werewolf"] < prior["werewolf"] < beliefs["3"]["werewolf"]
    # seer > doctor > villager: a helpful act raises the seer's certainty the most
    assert beliefs["2"]["seer"] / prior["seer"] > beliefs["2"]["doctor"] / prior["doctor"] > beliefs["2"]["villager"] / prior["villager"]
    assert beliefs["9"] == spread(werewolf=1) and beliefs["4"] == pytest.approx(prior)


def test_io_trust_falls_for_votes_against_me_and_broken_deals_once_per_day():
    events = [{"type": "day_votes", "day": 1, "round": 1, "votes": [[0, 5], [2, 5], [3, 0], [4, 6], [5, 2]]}]
    inbox = [line(2, propose(4, 5), turn=1), line(4, accept(4, 2), turn=1, rnd=1)]
    view = {"observation": _io_obs(events, day=2), "seat": 0, "inbox": inbox}
    io = WolfIntelligenceOffice("p0/io", 1)
    [reply] = io.handle(request("update", view, to="p0/io"))
    got = _updates(reply)
    trust = got[("trust",)]
    assert trust["3"] == pytest.approx(1.0 - 0.3)  # voted against me
    assert trust["4"] == pytest.approx(1.0 - 0.3)  # accepted p2's vote against 5, voted 6
    assert trust["2"] == pytest.approx(1.05) and trust["5"] == pytest.approx(1.05)
    assert trust["7"] == pytest.approx(1.0)  # did not vote: no evidence
    assert got[("io", "trust_day")] == 1
    view.update(trust=trust, io={"trust_day": 1})
    [again] = io.handle(request("update", view, to="p0/io"))
    assert ("trust",) not in _updates(again)  # day 1 is counted once


def test_io_update_replaces_beliefs_with_a_kbupdate():
    [reply] = WolfIntelligenceOffice("p0/io", 1).handle(request("update", {"observation": obs(), "seat": 0}, to="p0/io"))
    assert isinstance(reply.updates[0], KBUpdate) and reply.updates[0].path == ("beliefs",)


# -- improved variant: claims and bluffs -----------------------------------------------------------


def test_improved_seer_claims_and_accuses_the_wolf_it_found_and_any_false_claimant():
    fo = WolfForeignOffice("p0/fo", 1, variant="improved")
    view = {"observation": obs(me=0, role="seer", known={3: "werewolf"}), "seat": 0, "beliefs": _beliefs(),
            "talk": {"channel": "public", "round": 0}, "suggestions": [{"action": "vote:3", "utility": 0.5}],
            "deals": {"current": {"turn": 3}}}
    [reply] = fo.handle(request("negotiate", view, to="p0/fo"))
    assert [(s.kind, getattr(s, "target", None)) for s in reply.says][:3] == [
        ("ww_claim", None), ("ww_accuse", 3), ("ww_propose", 3)]
    # round 1: p6 claimed the seer's role too: a liar, accused at once (the claim is not repeated)
    view["inbox"] = [line(0, *[s.model_dump() for s in reply.says]), line(6, {"kind": "ww_claim", "role": "seer"})]
    view["talk"] = {"channel": "public", "round": 1}
    view["deals"]["current"]["proposed"] = True
    [reply] = fo.handle(request("negotiate", view, to="p0/fo"))
    assert [(s.kind, getattr(s, "target", None)) for s in reply.says] == [("ww_accuse", 6)]


def test_a_bluffing_pack_sends_its_lowest_seated_wolf_to_claim_the_seer():
    view = {"observation": obs(me=7, role="werewolf", known={9: "werewolf"}), "seat": 7, "beliefs": _beliefs(),
            "talk": {"channel": "public", "round": 0}, "suggestions": [{"action": "vote:5", "utility": 0.5}],
            "deals": {"current": {"turn": 3}}}
    says = WolfForeignOffice("p7/fo", 1, WolfParams(bluff=True), "improved").handle(request("negotiate", view, to="p7/fo"))[0].says
    assert [(s.kind, getattr(s, "target", None)) for s in says][:2] == [("ww_claim", None), ("ww_accuse", 5)]
    view["observation"] = obs(me=9, role="werewolf", known={7: "werewolf"})
    view["seat"] = 9
    says = WolfForeignOffice("p9/fo", 1, WolfParams(bluff=True), "improved").handle(request("negotiate", view, to="p9/fo"))[0].says
    assert [s.kind for s in says] == ["ww_propose"]  # p7 bluffs for the pack
