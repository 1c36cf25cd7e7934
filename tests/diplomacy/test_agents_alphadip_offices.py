"""AlphaDip's and DipBlue's offices alone, on hand-built knowledge bases: goal update (thesis
algorithm 3), trust update, move utility (guaranteed centres x goals, x 1/(1+trust) per helper),
deal utility and deal acceptance; DipBlue's trust ratio."""

from __future__ import annotations

import json

import pytest

from actors.diplomacy.alphadip.offices import (
    AlphaDipForeignOffice,
    AlphaDipIntelligenceOffice,
    AlphaDipParams,
    AlphaDipStrategyOffice,
)
from actors.diplomacy.alphadip.tactics import Situation, options, own_goals, search, threat
from actors.diplomacy.dipblue import DipBlueIntelligenceOffice
from bus.messages import OfficeRequest
from games.diplomacy.board import Board
from games.diplomacy.rules import Diplomacy

FRANCE = 2
NO_CLIMB = AlphaDipParams(climb_budget=0)


def _obs(board: Board | None = None, **extra):
    state = Diplomacy().new_initial_state({})
    obs = state.observation(FRANCE)
    if board is not None:
        obs = {**obs, "phase": board.phase, "year": board.year,
               "units": {p: board.units_of(p) for p in obs["powers"]},
               "centres": {p: board.centres_of(p) for p in obs["powers"]}}
    obs["deals"] = {"open": [], "confirmed": [], "events": []}
    obs.update(extra)
    return obs


def _ask(office, task, view, legal=()):
    reply = office.handle(OfficeRequest(sender="p2", to=office.address, task=task, turn=0, view=view, legal=legal))[0]
    return reply


def _updates(reply):
    return {tuple(u.path): u.value for u in reply.updates}


# -- Intelligence Office ---------------------------------------------------------------------------

def test_goal_update_is_algorithm_3():
    last = {"phase": "S1901M", "results": {}, "orders": {
        "GERMANY": ["A KIE - HOL", "A MUN S A KIE - HOL", "F BER H"],
        "ITALY": ["A VEN - TRI"],
    }}
    obs = _obs(phase="F1901M", last=last)
    io = AlphaDipIntelligenceOffice("p2/io", 1, AlphaDipParams())
    goals = _updates(_ask(io, "update", {"observation": obs, "traits": {"trust": 0.5}}))[("goals",)]
    # HOL: two German orders support it: 1 x 0.99, then +4% twice
    assert goals["GERMANY"]["HOL"] == pytest.approx(0.99 * 1.04 * 1.04, abs=1e-6)
    # KIE: the army left it (one order against): 0.99 x 0.95
    assert goals["GERMANY"]["KIE"] == pytest.approx(0.99 * 0.95, abs=1e-6)
    assert goals["GERMANY"]["BER"] == pytest.approx(0.99 * 1.04, abs=1e-6)  # held in
    assert goals["GERMANY"]["PAR"] == pytest.approx(0.99, abs=1e-6)  # decay only
    assert goals["ITALY"]["TRI"] == pytest.approx(0.99 * 1.04, abs=1e-6)
    assert goals["ITALY"]["VEN"] == pytest.approx(0.99 * 0.95, abs=1e-6)
    # a second update for the same phase changes nothing
    again = _ask(io, "update", {"observation": obs, "goals": goals, "io": {"phase": "S1901M", "events": 0},
                                "trust": {"GERMANY": 1.0}, "traits": {}})
    assert again.updates == ()


def test_trust_update_broken_and_kept_deals():
    events = [
        {"phase": "S1901M", "type": "confirmed", "deal": "FRANCE#0", "to": ["FRANCE", "GERMANY"]},
        {"phase": "S1901M", "type": "confirmed", "deal": "ITALY#0", "to": ["FRANCE", "ITALY"]},
        {"phase": "S1901M", "type": "broken", "deal": "FRANCE#0", "to": ["FRANCE", "GERMANY"], "by": "GERMANY",
         "detail": "x", "enforced": False},
    ]
    obs = _obs(phase="F1901M", last={"phase": "S1901M", "orders": {}, "results": {}})
    obs["deals"] = {"open": [], "confirmed": [], "events": events}
    io = AlphaDipIntelligenceOffice("p2/io", 1, AlphaDipParams())
    up = _updates(_ask(io, "update", {"observation": obs, "traits": {"trust": 0.5},
                                      "trust": {"GERMANY": 1.0, "ITALY": 1.0, "ENGLAND": 0.5}}))
    assert up[("trust",)]["GERMANY"] == pytest.approx(1.5)  # broke a deal: + 0.5 (less trust)
    assert up[("trust",)]["ITALY"] == pytest.approx(0.9)  # kept: x 0.9
    assert up[("trust",)]["ENGLAND"] == pytest.approx(0.5)  # no deal: unchanged
    assert up[("io",)] == {"events": 3, "phase": "S1901M", "moved": "S1901M"}
    # prior trust of strangers from the trait: 2 (1 - trust)
    first = _updates(_ask(io, "update", {"observation": _obs(), "traits": {"trust": 0.75}}))
    assert set(first[("trust",)].values()) == {0.5}


# -- Strategy Office -------------------------------------------------------------------------------

def _belgium(helper: bool) -> Board:
    """France takes neutral Belgium, which Germany's A RUH could also enter."""
    b = Board(1901, "F", "M")
    b.units = {"PIC": ("FRANCE", "A", "PIC"), "RUH": ("GERMANY", "A", "RUH")}
    if helper:
        b.units["NTH"] = ("ENGLAND", "F", "NTH")
    else:
        b.units["BUR"] = ("FRANCE", "A", "BUR")
    b.centres = {c: p for p, cs in (("FRANCE", "PAR BRE MAR"), ("GERMANY", "MUN KIE BER"), ("ENGLAND", "LON EDI LVP"))
                 for c in cs.split()}
    return b


def test_move_utility_guaranteed_centres_weighted_by_goals():
    b = _belgium(helper=False)
    goals = {**own_goals(b, "FRANCE", 0.5), "BEL": 1.3}
    sit = Situation(b, "FRANCE", goals)
    assert threat(sit, "BEL") == 1  # Germany's A RUH
    (best,) = options(sit, "BEL")[:1]
    assert best.value == pytest.approx(1.3)  # strength 2 > threat 1: guaranteed, worth its goal
    assert dict(best.orders) == {"BUR": "A BUR - BEL", "PIC": "A PIC S A BUR - BEL"}  # ties: first by orders
    moves, nodes = search(sit, budget=100)
    assert moves[0].value == pytest.approx(1.3) and nodes <= 100
    # a trusted peace partner's units are no threat: a lone move suffices
    calm = Situation(b, "FRANCE", goals, friends=frozenset({"GERMANY"}))
    assert dict(options(calm, "BEL")[0].orders) == {"BUR": "A BUR - BEL"}


def test_move_needing_support_is_discounted_by_trust():
    b = _belgium(helper=True)
    goals = {**own_goals(b, "FRANCE", 0.5), "BEL": 1.3}
    sit = Situation(b, "FRANCE", goals, trust={"ENGLAND": 0.5}, helpers=frozenset({"ENGLAND"}))
    (opt,) = options(sit, "BEL")
    assert opt.needs == (("ENGLAND", "NTH", "F NTH S A PIC - BEL"),)
    assert opt.value == pytest.approx(1.3 / 1.5)  # x 1 / (1 + trust 0.5)
    assert search(sit, 100, foreign=False)[0][0].value == 0.0  # no fallback takes Belgium


def test_strategy_office_fallback_suggestions_and_deal_utility():
    b = _belgium(helper=True)
    obs = _obs(b)
    so = AlphaDipStrategyOffice("p2/so", 1, NO_CLIMB)
    view = {"observation": obs, "traits": {"aggressiveness": 0.5, "trust": 0.5}, "trust": {"ENGLAND": 0.0},
            "negotiators": ["ENGLAND", "FRANCE"]}
    moves = [json.loads(s.action) | {"u": s.utility} for s in _ask(so, "suggest", view).suggestions]
    assert [m["kind"] for m in moves] == ["move", "fallback"]
    assert moves[0]["u"] == pytest.approx(1.0) and moves[0]["needs"] == [["ENGLAND", "NTH", "F NTH S A PIC - BEL"]]
    assert moves[1]["u"] == 0.0  # alone France guarantees nothing
    # deal utility: Italy asks France's A MAR to hold in spring 1901: Spain is lost (-1)
    obs = _obs()
    obs["deals"]["open"] = [{"key": "ITALY#0", "proposer": "ITALY", "parties": ["FRANCE", "ITALY"], "accepted": ["ITALY"],
                             "commitments": [{"type": "order", "power": "FRANCE", "phase": "S1901M", "order": "A MAR H"}]},
                            {"key": "ITALY#1", "proposer": "ITALY", "parties": ["FRANCE", "ITALY"], "accepted": ["ITALY"],
                             "commitments": [{"type": "order", "power": "FRANCE", "phase": "S1901M", "order": "F BRE H"}]}]
    up = _updates(_ask(so, "deal_utility", {"observation": obs, "traits": {}}))
    assert up == {("deal_values", "ITALY#0"): -1.0, ("deal_values", "ITALY#1"): 0.0}


# -- Foreign Office --------------------------------------------------------------------------------

def _deal(key, *commitments):
    proposer = key.split("#")[0]
    parties = sorted({proposer, "FRANCE"})
    return {"key": key, "proposer": proposer, "parties": parties, "accepted": [proposer], "commitments": list(commitments)}


def test_deal_acceptance():
    peace = {"type": "peace", "powers": ["FRANCE", "ITALY"], "until": 1901}
    obs = _obs()
    obs["deals"]["open"] = [
        _deal("ITALY#0", peace),
        _deal("GERMANY#0", {**peace, "powers": ["FRANCE", "GERMANY"]}),
        _deal("ITALY#1", {"type": "order", "power": "FRANCE", "phase": "S1901M", "order": "F BRE H"}),
        _deal("ITALY#2", {"type": "order", "power": "FRANCE", "phase": "S1901M", "order": "A MAR H"}),
        _deal("ITALY#3", {"type": "order", "power": "FRANCE", "phase": "F1901M", "order": "F BRE H"}),
        _deal("ITALY#4", {"type": "alliance", "allies": ["FRANCE", "ITALY"], "enemies": ["AUSTRIA"], "until": 1901}),
        _deal("ITALY#5", {"type": "alliance", "allies": ["FRANCE", "ITALY"], "enemies": ["GERMANY"], "until": 1901}),
    ]
    fo = AlphaDipForeignOffice("p2/fo", 1, AlphaDipParams())
    view = {"observation": obs, "trust": {"ITALY": 0.8, "GERMANY": 1.5, "AUSTRIA": 1.0}, "traits": {},
            "deal_values": {"ITALY#1": 0.0, "ITALY#2": -1.0}, "talk": {"round": 1}}
    said = {(s.kind, s.proposer, s.deal_id) for s in _ask(fo, "negotiate", view).says}
    assert said == {
        ("dip_accept", "ITALY", 0),  # peace with a trusted power
        ("dip_reject", "GERMANY", 0),  # trust 1.5 > 1: not trusted
        ("dip_accept", "ITALY", 1),  # costs nothing
        ("dip_reject", "ITALY", 2),  # costs a centre
        ("dip_reject", "ITALY", 3),  # a later phase: AlphaDip negotiates this phase only
        ("dip_accept", "ITALY", 4),  # allies trusted, the enemy is not our partner
        ("dip_accept", "ITALY", 5),
    }
    # once at peace with Germany, an alliance against it is refused
    obs["deals"]["confirmed"] = [_deal("GERMANY#9", {"type": "peace", "powers": ["FRANCE", "GERMANY"], "until": 1901})]
    said = {(s.kind, s.proposer, s.deal_id) for s in _ask(fo, "negotiate", view).says}
    assert ("dip_reject", "ITALY", 5) in said and ("dip_accept", "ITALY", 4) in said


def test_foreign_office_opens_with_peace_alliance_and_support_requests():
    b = _belgium(helper=True)
    obs = _obs(b)
    so = AlphaDipStrategyOffice("p2/so", 1, NO_CLIMB)
    base = {"observation": obs, "traits": {}, "trust": {"ENGLAND": 0.0}, "negotiators": ["ENGLAND", "FRANCE"]}
    sugg = [s.model_dump() for s in _ask(so, "suggest", base).suggestions]
    fo = AlphaDipForeignOffice("p2/fo", 1, AlphaDipParams())
    reply = _ask(fo, "negotiate", {**base, "suggestions": sugg, "talk": {"round": 0}})
    deals = [[c.model_dump() for c in s.commitments] for s in reply.says]
    assert deals[0] == [{"type": "peace", "powers": ("ENGLAND", "FRANCE"), "until": 1901}]
    assert deals[1] == [{"type": "order", "power": "ENGLAND", "phase": "F1901M", "order": "F NTH S A PIC - BEL"},
                        {"type": "order", "power": "FRANCE", "phase": "F1901M", "order": "A PIC - BEL"}]
    assert [s.deal_id for s in reply.says] == [0, 1]
    assert _updates(reply)[("fo",)]["next_id"] == 2


# -- DipBlue's trust ratio -------------------------------------------------------------------------

def test_dipblue_trust_ratio():
    last = {"phase": "S1901M", "results": {}, "orders": {
        "FRANCE": ["A PAR H", "A MAR H", "F BRE H"],
        "GERMANY": ["A MUN - BUR", "A KIE S A MUN - PAR"],  # supports an attack on Paris
        "ITALY": ["A VEN - PIE", "A ROM - MAR"],  # attacks Marseilles (at peace with us)
    }}
    obs = _obs(phase="F1901M", last=last)
    obs["deals"]["confirmed"] = [_deal("ITALY#0", {"type": "peace", "powers": ["FRANCE", "ITALY"], "until": 1901})]
    io = DipBlueIntelligenceOffice("p2/io", 1)
    up = _updates(_ask(io, "update", {"observation": obs}))
    ratio = up[("trust",)]
    assert ratio["GERMANY"] == pytest.approx(1.01)  # effective 1: + 0.01
    assert ratio["ITALY"] == pytest.approx(1.08)  # at peace, effective 0.5: + 0.04 / 0.5
    assert ratio["ENGLAND"] == pytest.approx(1.0)
    spring = _obs(phase="S1902M", year=1902, last={**last, "phase": "W1901A", "orders": {}})
    spring["deals"]["confirmed"] = obs["deals"]["confirmed"] and [
        _deal("ITALY#0", {"type": "peace", "powers": ["FRANCE", "ITALY"], "until": 1902})]
    up = _updates(_ask(io, "update", {"observation": spring, "trust": ratio, "io": up[("io",)]}))
    assert up[("trust",)]["ITALY"] == pytest.approx(1.08 * 0.95)  # spring, at peace
    assert up[("trust",)]["GERMANY"] == pytest.approx(1.01 * 0.99)  # spring, otherwise


# -- President: keeping its word (keep_word) ------------------------------------------------------

def test_an_honest_plan_is_checked_against_every_confirmed_deal():
    from actors.diplomacy.alphadip.president import kept_orders
    from games.diplomacy.script import Script

    board = (Script("S1902M").units("FRANCE", "A BUR", "F BRE", "A MAR").units("GERMANY", "A MUN")
             .centres("FRANCE", "PAR", "BRE", "MAR").centres("GERMANY", "MUN", "BER", "KIE").board)
    deals = [
        {"key": "FRANCE#1", "parties": ["FRANCE", "GERMANY"],
         "commitments": [{"type": "peace", "powers": ["FRANCE", "GERMANY"], "until": 1902}]},
        {"key": "ENGLAND#1", "parties": ["ENGLAND", "FRANCE"],
         "commitments": [{"type": "order", "power": "FRANCE", "phase": "S1902M", "order": "F BRE - MAO"}]},
    ]
    plan = {"BUR": "A BUR - MUN", "BRE": "F BRE - ENG", "MAR": "A MAR - SPA"}
    kept, why = kept_orders(board, "FRANCE", plan, deals)
    assert kept == {"BUR": "A BUR H", "BRE": "F BRE - MAO", "MAR": "A MAR - SPA"}
    assert why == ["ordered F BRE - ENG instead of F BRE - MAO", "A BUR - MUN attacks GERMANY in MUN, a party to the peace"]
    # a peace that ended last year binds nothing; the commitment still does
    old = [{**deals[0], "commitments": [{**deals[0]["commitments"][0], "until": 1901}]}, deals[1]]
    assert kept_orders(board, "FRANCE", plan, old)[0] == {**plan, "BRE": "F BRE - MAO"}


def test_crossed_support_offers_are_settled_by_the_smaller_key():
    from actors.diplomacy.alphadip.offices import _claims, _contradicts
    from actors.diplomacy.alphadip.president import kept_orders
    from games.diplomacy.script import Script

    board = Script("F1903M").units("ENGLAND", "F HOL").units("FRANCE", "A RUH").units("GERMANY", "A KIE").board
    e_offer = {"key": "ENGLAND#10", "parties": ["ENGLAND", "FRANCE"], "commitments": [
        {"type": "order", "power": "FRANCE", "phase": "F1903M", "order": "A RUH S F HOL - KIE"},
        {"type": "order", "power": "ENGLAND", "phase": "F1903M", "order": "F HOL - KIE"}]}
    f_offer = {"key": "FRANCE#11", "parties": ["ENGLAND", "FRANCE"], "commitments": [
        {"type": "order", "power": "ENGLAND", "phase": "F1903M", "order": "F HOL S A RUH - KIE"},
        {"type": "order", "power": "FRANCE", "phase": "F1903M", "order": "A RUH - KIE"}]}
    obs = {"deals": {"open": [e_offer, f_offer], "confirmed": []}}
    claimed = _claims(obs, "F1903M")
    assert _contradicts(f_offer, claimed, "F1903M") and not _contradicts(e_offer, claimed, "F1903M")
    # both confirmed anyway (players without the check): each side keeps ENGLAND#10, the same deal
    deals = [f_offer, e_offer]
    assert kept_orders(board, "ENGLAND", {"HOL": "F HOL S A RUH - KIE"}, deals)[0] == {"HOL": "F HOL - KIE"}
    assert kept_orders(board, "FRANCE", {"RUH": "A RUH - KIE"}, deals)[0] == {"RUH": "A RUH S F HOL - KIE"}


@pytest.mark.slow  # ~5 s; in the default suite (CI), out of the quick subset
def test_keep_word_stops_an_honest_alphadip_from_breaking_deals():
    from actors.match import make_header, record
    from actors.registry import parse_spec
    from bus.log import parse_log
    from replay.fold import fold

    def broken(spec):  # AlphaDip as GERMANY and ITALY, the rest DumbBots, to 1906
        seats = [parse_spec(spec) if seat in (3, 4) else parse_spec("dumbbot") for seat in range(7)]
        game = parse_log(record(make_header("diplomacy", 7, seats, {"max_year": 1906}))).games[0]
        events = fold(game, check=False).state.to_json()["deals"]["events"]
        return sum(e["type"] == "confirmed" for e in events), [e["detail"] for e in events if e["type"] == "broken"]

    confirmed, breaks = broken("alphadip")
    assert confirmed and len(breaks) == 2  # without the check, honest AlphaDips break deals they made
    confirmed, breaks = broken("alphadip:params.keep_word=true")
    assert confirmed > 20 and breaks == []


def test_keep_word_refuses_a_support_offer_that_would_break_a_peace():
    from actors.diplomacy.alphadip.offices import _breaks_confirmed
    from games.diplomacy.script import Script

    board = (Script("S1903M").units("AUSTRIA", "A MUN").units("GERMANY", "A BER", "A KIE")
             .centres("GERMANY", "BER", "KIE").centres("AUSTRIA", "MUN").board)
    peace = {"key": "AUSTRIA#4", "parties": ["AUSTRIA", "GERMANY"],
             "commitments": [{"type": "peace", "powers": ["AUSTRIA", "GERMANY"], "until": 1903}]}
    offer = {"key": "AUSTRIA#5", "parties": ["AUSTRIA", "GERMANY"], "commitments": [
        {"type": "order", "power": "GERMANY", "phase": "S1903M", "order": "A KIE S A MUN - BER"},
        {"type": "order", "power": "AUSTRIA", "phase": "S1903M", "order": "A MUN - BER"}]}
    on_table = {"deals": {"open": [peace, offer], "confirmed": []}}
    assert _breaks_confirmed(board, offer, on_table, "S1903M")  # the peace offered this round counts
    confirmed = {"deals": {"open": [offer], "confirmed": [peace]}}
    assert _breaks_confirmed(board, offer, confirmed, "S1903M")
    alone = {"deals": {"open": [offer], "confirmed": []}}
    assert not _breaks_confirmed(board, offer, alone, "S1903M")
