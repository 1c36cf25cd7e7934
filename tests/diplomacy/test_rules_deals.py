"""The Diplomacy negotiation language: proposals, confirmation by the referee, private press,
broken deals recorded at adjudication, binding deals, rejected malformed deals, replay."""

from __future__ import annotations

import pytest

from actors.alpha.offices import Answer, ForeignOffice, StrategyOffice
from actors.alpha.president import President
from actors.alpha.traits import Traits
from actors.match import make_header, record
from actors.registry import AGENTS, AgentDef, AgentSpec
from bus.log import parse_log
from bus.messages import Suggestion
from games.diplomacy.board import Board
from games.diplomacy.deals import Ledger, phase_key
from games.diplomacy.talk import DipAccept, DipPropose, DipReject, DipRetract, Dmz, OrderCommitment, Peace
from replay.fold import fold
from replay.verify import verify_game

ALL = {"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"}
DEAL = DipPropose(
    deal_id=1,
    commitments=(
        OrderCommitment(power="GERMANY", phase="S1901M", order="A MUN H"),
        Dmz(phase="S1901M", powers=("FRANCE", "GERMANY"), provinces=("BUR",)),
    ),
)


def test_phase_order():
    assert phase_key("S1901M") < phase_key("F1901M") < phase_key("F1901R") < phase_key("W1901A") < phase_key("S1902M")


def test_propose_accept_confirm_and_audience():
    board, ledger = Board.initial(), Ledger()
    assert ledger.validate(board, "FRANCE", DEAL, ALL) is None
    ledger.apply("S1901M", "FRANCE", DEAL)
    assert ledger.audience("FRANCE", DEAL) == ("FRANCE", "GERMANY")  # private press: parties only
    assert ledger.validate(board, "ITALY", DipAccept(proposer="FRANCE", deal_id=1), ALL).startswith("ITALY is not a party")
    assert ledger.validate(board, "FRANCE", DEAL, ALL) == "deal id 1 already used by FRANCE"
    ledger.apply("S1901M", "GERMANY", DipAccept(proposer="FRANCE", deal_id=1))
    assert "FRANCE#1" in ledger.confirmed and not ledger.open
    kinds = [e["type"] for e in ledger.visible_to("GERMANY")["events"]]
    assert kinds == ["proposed", "accepted", "confirmed"]
    assert ledger.visible_to("ITALY") == {"open": [], "confirmed": [], "events": []}


@pytest.mark.parametrize(
    "item, reason",
    [
        (DipPropose(deal_id=2, commitments=(OrderCommitment(power="GERMANY", phase="S1901M", order="A PAR - BUR"),)), "A PAR"),
        (DipPropose(deal_id=2, commitments=(OrderCommitment(power="GERMANY", phase="S1900M", order="A MUN H"),)), "past phase"),
        (DipPropose(deal_id=2, commitments=(Peace(powers=("FRANCE", "NARNIA"), until=1905),)), "'NARNIA' is not a power"),
        (DipPropose(deal_id=2, commitments=(Dmz(phase="S1901M", powers=("FRANCE", "GERMANY"), provinces=("XYZ",)),)), "unknown province"),
        (DipPropose(deal_id=2, commitments=(OrderCommitment(power="FRANCE", phase="S1901M", order="A PAR H"),)), "another party"),
        (DipAccept(proposer="FRANCE", deal_id=9), "no open deal FRANCE#9"),
        (DipRetract(deal_id=9), "no open deal FRANCE#9"),
    ],
)
def test_malformed_or_impossible_deals_are_rejected_with_a_reason(item, reason):
    assert reason in (Ledger().validate(Board.initial(), "FRANCE", item, ALL) or "")


def test_reject_and_retract_close_the_deal():
    board = Board.initial()
    for closing, speaker in ((DipReject(proposer="FRANCE", deal_id=1), "GERMANY"), (DipRetract(deal_id=1), "FRANCE")):
        ledger = Ledger()
        ledger.apply("S1901M", "FRANCE", DEAL)
        assert ledger.validate(board, speaker, closing, ALL) is None
        ledger.apply("S1901M", speaker, closing)
        assert not ledger.open and not ledger.confirmed


# -- through the whole stack: France proposes, Germany accepts and then breaks the deal --------


class ProposingFO(ForeignOffice):
    def negotiate(self, request):
        obs = request.view["observation"]
        if obs["power"] == "FRANCE" and obs["phase"] == "S1901M" and request.view["talk"]["round"] == 0:
            return Answer(says=[DEAL, DipPropose(deal_id=2, commitments=(OrderCommitment(power="ITALY", phase="S1901M", order="A XYZ H"),))])
        if obs["power"] == "GERMANY":
            return Answer(says=[DipAccept(proposer=d["proposer"], deal_id=int(d["key"].split("#")[1]))
                                for d in obs["deals"]["open"] if "GERMANY" not in d["accepted"]])
        return Answer()


class GreedySO(StrategyOffice):
    """Germany marches into Burgundy if it can; everyone else holds."""

    def suggest(self, request):
        legal = request.legal
        pick = "A MUN - BUR" if "A MUN - BUR" in legal else next((a for a in legal if a.endswith(" H")), legal[0])
        return Answer(suggestions=[Suggestion(action=pick, utility=1.0)])


def _dealer(game, seat, seed, opts):
    pr = f"p{seat}"
    offices = {"fo": f"{pr}/fo", "so": f"{pr}/so"}
    return [President(pr, seed, seat, offices, Traits(risk=0.0)), ProposingFO(offices["fo"], seed), GreedySO(offices["so"], seed)]


@pytest.fixture
def dealer(monkeypatch):
    monkeypatch.setitem(AGENTS, "dealer", AgentDef("dealer", None, _dealer, "test"))


def _play(options):
    header = make_header("diplomacy", 1, [AgentSpec(name="dealer")] * 7, {"max_year": 1901, **options})
    return parse_log(record(header)).games[0]


@pytest.mark.parametrize("binding", [False, True])
def test_deal_confirmed_broken_and_recorded(dealer, binding):
    log = _play({"binding_deals": binding})
    kinds = [r["msg"]["kind"] for r in log.records]
    assert "talk_round" in kinds
    errors = [r["msg"] for r in log.records if r["msg"]["kind"] == "error"]
    assert any("A XYZ" in e["reason"] or "XYZ" in e["reason"] for e in errors)  # impossible deal: logged reason
    italy_heard = [r["msg"] for r in log.records if r["msg"]["kind"] == "heard" and r["msg"]["to"] == "p4"]
    assert not italy_heard  # private press: Italy is not a party to France's deal
    state = fold(log).state  # replay folds talk, checking every digest
    events = state.observation(3)["deals"]["events"]  # Germany's view
    assert [e["type"] for e in events][:3] == ["proposed", "accepted", "confirmed"]
    broken = [e for e in events if e["type"] == "broken"]
    assert {e["by"] for e in broken} == {"GERMANY"}
    assert any("instead of A MUN H" in e["detail"] for e in broken)
    assert all(e["enforced"] is binding for e in broken)
    assert state.observation(2)["deals"]["events"] == events  # France, the other party, sees the same
    assert state.observation(4)["deals"]["events"] == []
    steps = [r["seq"] for r in log.records if r["msg"]["kind"] == "step"]
    after_spring = next(f.state for f in (fold(log, at=seq) for seq in steps) if f.state.board.phase == "F1901M")
    burgundy = after_spring.board.units.get("BUR")
    assert (burgundy is not None and burgundy[0] == "GERMANY") is not binding  # bound: A MUN held
    assert after_spring.board.units["MUN"][0] == "GERMANY" if binding else "MUN" not in after_spring.board.units
    assert verify_game(log).ok


def test_items_closed_earlier_in_the_round_are_dropped_not_fatal():
    """Talk is checked when said and applied at round close in speaker order: a rejection applied
    before an acceptance of the same deal leaves the acceptance nothing to accept."""
    three = DipPropose(deal_id=3, commitments=(Peace(powers=("AUSTRIA", "FRANCE", "GERMANY"), until=1903),))
    board, ledger = Board.initial(), Ledger()
    ledger.apply("S1901M", "FRANCE", three)
    assert ledger.validate(board, "AUSTRIA", DipReject(proposer="FRANCE", deal_id=3), ALL) is None
    assert ledger.validate(board, "GERMANY", DipAccept(proposer="FRANCE", deal_id=3), ALL) is None
    ledger.apply("S1901M", "AUSTRIA", DipReject(proposer="FRANCE", deal_id=3))
    ledger.apply("S1901M", "GERMANY", DipAccept(proposer="FRANCE", deal_id=3))
    ledger.apply("S1901M", "FRANCE", DipRetract(deal_id=3))
    ledger.apply("S1901M", "FRANCE", three)  # same id again in the round
    assert not ledger.open and not ledger.confirmed
    dropped = [e for e in ledger.events if e["type"] == "dropped"]
    assert [e["by"] for e in dropped] == ["GERMANY", "FRANCE", "FRANCE"] and all(len(e["to"]) == 1 for e in dropped)


def test_peace_is_broken_by_attacks_on_a_partner_not_by_helping_it():
    from games.diplomacy.board import parse_order
    from games.diplomacy.deals import _breaches

    board = Board.initial()
    board.units["GAL"] = ("RUSSIA", "A", "GAL")
    board.units["UKR"] = ("RUSSIA", "A", "UKR")
    board.centres["RUM"] = "RUSSIA"
    peace = Peace(powers=("AUSTRIA", "RUSSIA"), until=1905)

    def breaches(**orders):
        typed = {p.upper(): [parse_order(board, p.upper(), o) for o in os] for p, os in orders.items()}
        return [(who, why) for who, _, why in _breaches(board, typed, peace, "S1901M", 1901)]

    # Austria supports Russia into the province Russia's own army leaves: no attack on anyone
    assert breaches(russia=["A GAL - SIL", "A UKR - GAL"], austria=["A VIE S A UKR - GAL"]) == []
    # Austria moves onto a Russian army that stays, or supports such a move: peace broken
    assert [w for w, _ in breaches(russia=["A GAL H"], austria=["A VIE - GAL"])] == ["AUSTRIA"]
    assert [w for w, _ in breaches(russia=["A GAL H"], austria=["A VIE - GAL", "A BUD S A VIE - GAL"])] == ["AUSTRIA", "AUSTRIA"]
    # ... but not when the Russian army moves away (Galicia is no centre)
    assert breaches(russia=["A GAL - SIL"], austria=["A VIE - GAL"]) == []
    # taking an empty Russian centre is an attack
    assert [w for w, _ in breaches(austria=["A BUD - RUM"])] == ["AUSTRIA"]
