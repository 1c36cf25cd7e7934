"""AlphaDip's offices (thesis 5.1.1): the Strategy, Foreign and Intelligence Offices.

KB sections they read and write: `trust` {power: t} (0 full trust, 1 neutral, higher less
trust), `goals` {power: {centre: g}} (predicted goal values, 1 neutral), `io` (what the IO has
already read), `fo` (deal ids and what the FO asked this year), `deal_values` {deal key: utility
change for us}, `suggestions` (the SO's, as JSON moves in `Suggestion.action`).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from actors.alpha.offices import Answer, ForeignOffice, IntelligenceOffice, StrategyOffice
from actors.diplomacy.alphadip.orderfinder import fill_orders
from actors.diplomacy.alphadip.simulate import Climber, _parse, predict
from actors.diplomacy.alphadip.tactics import Situation, help_factor, own_goals, search
from actors.diplomacy.dumbbot import evaluate
from actors.diplomacy.view import board_from_observation, nothing_to_plan
from bus.messages import KBUpdate, OfficeRequest, Suggestion
from games.diplomacy.board import CENTRES, POWERS, Board, OrderError, parse_order
from games.diplomacy.deals import plan_breaches
from actors.diplomacy.alphadip.phases import (
    dmz_commitments,
    dmz_provinces,
    later_moves,
    multi_phase_powers,
    planned_entries,
)
from games.diplomacy.talk import Alliance, DipAccept, DipPropose, DipReject, Dmz, OrderCommitment, Peace


class AlphaDipParams(BaseModel):
    """AlphaDip's numbers. The IO's goal constants are the thesis' algorithm 3; the trust steps
    are ours (the thesis' pages on the IO's trust are missing from the text we have)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    node_budget: int = Field(600, ge=1)  # branch-and-bound nodes per search (never a time limit)
    keep: int = Field(2, ge=1)  # moves suggested besides the fallback
    goal_decay: float = 0.99  # algorithm 3: every goal value, every phase
    goal_support: float = 0.04  # algorithm 3: g += 0.04 g per order or deal supporting the goal
    goal_against: float = 0.95  # algorithm 3: g *= 0.95 per order or deal against it
    trust_broken: float = 0.5  # trust += this per deal the power broke (less trust)
    trust_kept: float = 0.9  # trust *= this per phase the power kept its deals with us
    accept_loss: float = 0.0  # the most utility we give up to accept an order commitment
    climb_budget: int = Field(100, ge=0)  # adjudications to refine a move (simulate.py); 0: off
    defend: float = 1.0  # weight of keeping a centre we own, against taking a new one
    threat_cap: int = Field(99, ge=0)  # the most units one opponent is assumed to bring
    keep_word: bool = False  # the PR checks its orders against its deals; the FO refuses crossed offers
    # Deals over several phases and demilitarised zones (phases.py); off: the thesis' AlphaDip.
    dmz: bool = False  # the FO offers DMZs on common borders
    dmz_phases: int = Field(2, ge=1, le=8)  # movement phases a DMZ offer covers (ours)
    multi_phase: bool = False  # support requests also ask the helper to stay out next movement phase
    future_discount: float = Field(0.8, ge=0.0, le=1.0)  # SO: weight of a commitment k phases ahead, ** k (ours)

    @property
    def phased(self) -> bool:
        """Negotiates over several phases (either option)."""
        return self.dmz or self.multi_phase


def prior_trust(traits: dict[str, Any]) -> float:
    """Trust value of a stranger from the `trust` trait: 0.5 -> 1 (neutral), 1 -> 0, 0 -> 2."""
    return round(2.0 * (1.0 - float(traits.get("trust", 0.5))), 6)


def alive(obs: dict[str, Any]) -> list[str]:
    return [p for p in POWERS if obs["units"].get(p) or obs["centres"].get(p)]


def partners(obs: dict[str, Any], year: int | None = None) -> set[str]:
    """Powers in a confirmed peace or alliance with us that covers `year` (default: now)."""
    me, year = obs["power"], year or obs["year"]
    out: set[str] = set()
    for d in obs["deals"]["confirmed"]:
        for c in d["commitments"]:
            group = c.get("powers") if c["type"] == "peace" else c.get("allies") if c["type"] == "alliance" else None
            if group and me in group and c["until"] >= year:
                out.update(p for p in group if p != me)
    return out


def _commitments_now(obs: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for d in obs["deals"]["confirmed"] for c in d["commitments"]
            if c.get("phase") == obs["phase"]]


def situation(view: dict[str, Any], board: Board, honest: bool, promised_only: bool,
              params: AlphaDipParams | None = None) -> Situation:
    """The search's inputs from a KB view (see tactics.Situation)."""
    obs, traits = view["observation"], view.get("traits") or {}
    me = obs["power"]
    prior = prior_trust(traits)
    trust = {p: float((view.get("trust") or {}).get(p, prior)) for p in POWERS if p != me}
    trusted = {p for p in partners(obs) if trust[p] <= 1.0}
    now = _commitments_now(obs)
    fixed, no_entry, promised, elsewhere = {}, set(), set(), set()
    for c in now:
        if c["type"] == "order":
            loc = c["order"].split()[1][:3] if len(c["order"].split()) > 1 else ""
            unit = board.units.get(loc)
            if unit is None or unit[0] != c["power"]:
                continue
            if c["power"] == me:
                fixed[loc] = c["order"]
            else:
                promised.add((c["power"], loc, c["order"]))
                if trust.get(c["power"], prior) <= 1.0:
                    elsewhere.add(loc)
        elif c["type"] == "dmz" and me in c["powers"]:
            no_entry.update(c["provinces"])
    spared = frozenset(trusted) if honest else frozenset()
    goals = own_goals(board, me, float(traits.get("aggressiveness", 0.5)), spared)
    helpers = frozenset(p for p, _, _ in promised) if promised_only else frozenset(
        p for p in (view.get("negotiators") or []) if p != me and trust.get(p, prior) <= 1.0)
    return Situation(
        board=board, power=me, goals=goals, trust=trust, friends=frozenset(trusted), spared=spared,
        helpers=helpers, predicted=view.get("goals") or {}, fixed=fixed if honest else {},
        promised=frozenset(promised) if promised_only else None, committed_elsewhere=frozenset(elsewhere),
        no_entry=frozenset(no_entry) if honest else frozenset(),
        defend=params.defend if params else 1.0, threat_cap=params.threat_cap if params else 99,
    )


def _avoid(board: Board, spared: frozenset[str]) -> list[str]:
    """Provinces of spared powers' units and centres (the Order Finder keeps out of them)."""
    return sorted({p for p, u in board.units.items() if u[0] in spared}
                  | {c for c, o in board.centres.items() if o in spared})


def _suggestion(move: Any, kind: str, breaks: bool, avoid: list[str], value: float | None = None) -> Suggestion:
    data = {**move.to_json(), "kind": kind, "breaks": breaks, "avoid": avoid}
    return Suggestion(action=json.dumps(data, sort_keys=True, separators=(",", ":")), utility=round(move.value, 6))


class AlphaDipStrategyOffice(StrategyOffice):
    """D-Brane-like strategic module with goals and trust (tactics.py): a fallback move (no
    support from others), the best moves (possibly needing support), deal utilities. Each move
    is completed by the Order Finder and refined against predicted orders (simulate.py)."""

    def __init__(self, address: str, seed: int, params: AlphaDipParams):
        super().__init__(address, seed)
        self.params = params
        self._cache: tuple | None = None  # (position, our DumbBot evaluation, opponent model)
        self._ev = None

    def suggest(self, request: OfficeRequest) -> Answer:
        view = request.view
        obs = view["observation"]
        if nothing_to_plan(obs):
            return Answer(suggestions=[Suggestion(action='{"orders":{}}', utility=0.0)])
        board = board_from_observation(obs)
        acting = bool(request.legal)
        sit = situation(view, board, honest=True, promised_only=acting, params=self.params)
        budget, keep = self.params.node_budget, self.params.keep
        avoid = _avoid(board, sit.spared)
        _, climber = self._model(board, sit.power)
        fallback, _ = search(sit, budget, 1, foreign=False)
        base = self._refine(climber, board, sit, fallback[0], frozenset(avoid), None)
        out = [_suggestion(fallback[0], "fallback", False, avoid)]
        if sit.helpers:
            moves, _ = search(sit, budget, keep, foreign=True)
            for m in moves:
                if m.needs:
                    gain = self._refine(climber, board, sit, m, frozenset(avoid), base)
                    out.append(_suggestion(m, "move", False, avoid, gain))
        if acting and (sit.fixed or sit.spared or sit.no_entry):  # what breaking our word would bring
            free = situation(view, board, honest=False, promised_only=True, params=self.params)
            moves, _ = search(free, budget, 1, foreign=True)
            if moves and moves[0].orders != fallback[0].orders:
                self._refine(climber, board, free, moves[0], frozenset(), base)
                out.append(_suggestion(moves[0], "break", True, []))
        out.sort(key=lambda s: -s.utility)
        return Answer(suggestions=out)

    def _model(self, board: Board, me: str) -> tuple[Any, Climber | None]:
        """DumbBot's evaluation of the board for us and the opponent model, once per position."""
        key = (board.phase, tuple(sorted(board.units.items())), tuple(sorted(board.centres.items())))
        if self._cache is None or self._cache[0] != key:
            evs = {p: evaluate(board, p) for p in POWERS if any(u[0] == p for u in board.units.values())}
            climber = Climber(board, me, predict(board, me, evs), evs[me].value) if self.params.climb_budget else None
            self._cache = (key, evs.get(me), climber)
        self._ev = self._cache[1]
        return self._cache[1], self._cache[2]

    def _refine(self, climber: Climber | None, board: Board, sit: Situation, move: Any, avoid: frozenset[str],
                base: float | None) -> float:
        """Complete `move` with the Order Finder, climb it against the predicted orders (in place),
        and set its value: the climbed score, or for a move needing help the fallback's score
        plus its gain discounted by the trust in every helper."""
        move.orders = fill_orders(board, sit.power, dict(move.orders), self.rng, avoid, ev=self._ev)
        if climber is None:
            return move.value
        others = climber.others
        if move.needs:
            others = {p: list(os) for p, os in others.items()}
            for power, prov, order in move.needs:
                others[power] = [o for o in others.get(power, []) if o.loc[:3] != prov] + [_parse(board, power, order)]
        solo = Climber.__new__(Climber)
        solo.__dict__.update({**climber.__dict__, "others": others, "nodes": 0})
        orders, score = solo.climb(move.orders, self.params.climb_budget, frozen=set(sit.fixed),
                                   avoid=avoid | sit.no_entry)
        move.orders = orders
        if base is None:
            move.value = score
        else:
            factor = 1.0
            for power in sorted({pw for pw, _, _ in move.needs}):
                factor *= help_factor(sit.trust.get(power, 1.0))
            move.value = base + (score - base) * factor
        return move.value

    def deal_utility(self, request: OfficeRequest) -> Answer:
        """For each open deal proposed to us: the change of our best move's utility if we keep
        its commitments for this phase (order commitments, DMZs); peace and alliances are
        judged by the FO on trust."""
        view = request.view
        obs = view["observation"]
        me = obs["power"]
        known = view.get("deal_values") or {}
        board = board_from_observation(obs)
        base_sit = situation(view, board, honest=True, promised_only=True, params=self.params)
        budget = self.params.node_budget
        base = None
        updates = []
        for d in obs["deals"]["open"]:
            if d["proposer"] == me or me in d["accepted"] or d["key"] in known:
                continue
            fixed, no_entry = dict(base_sit.fixed), set(base_sit.no_entry)
            for c in d["commitments"]:
                if c["type"] == "order" and c["power"] == me and c["phase"] == obs["phase"]:
                    fixed[c["order"].split()[1][:3]] = c["order"]
                elif c["type"] == "dmz" and me in c["powers"] and c["phase"] == obs["phase"]:
                    no_entry.update(c["provinces"])
            if fixed == base_sit.fixed and no_entry == set(base_sit.no_entry):
                value = 0.0
            else:
                if base is None:
                    base = _best(search(base_sit, budget, 1, foreign=False)[0])
                sit = Situation(**{**base_sit.__dict__, "fixed": fixed, "no_entry": frozenset(no_entry)})
                value = _best(search(sit, budget, 1, foreign=False)[0]) - base
            if self.params.phased:  # later movement phases' DMZs, valued on today's board, discounted
                for k, ph in enumerate(later_moves(obs["phase"], self.params.dmz_phases + 1), start=1):
                    later = {p for c in d["commitments"] if c["type"] == "dmz" and me in c["powers"] and c["phase"] == ph
                             for p in c["provinces"]}
                    if not later - set(base_sit.no_entry):
                        continue
                    if base is None:
                        base = _best(search(base_sit, budget, 1, foreign=False)[0])
                    sit = Situation(**{**base_sit.__dict__, "no_entry": frozenset(set(base_sit.no_entry) | later)})
                    value += self.params.future_discount ** k * (_best(search(sit, budget, 1, foreign=False)[0]) - base)
            updates.append(KBUpdate(path=("deal_values", d["key"]), value=round(value, 6)))
        return Answer(updates=updates)


def _best(moves: list[Any]) -> float:
    return moves[0].value if moves else 0.0


class AlphaDipForeignOffice(ForeignOffice):
    """Coalitions and this phase's order commitments (thesis 5.1.1; coalition rules after
    DipBlue, reference 3.2).

    Round 0: peace (this year) with every power known to negotiate that we trust (trust <= 1)
    and are not at peace with; an alliance of our trusted partners against the strongest power
    outside it; for the best suggestion that needs others' support, one deal per helper: its
    supports and our supported order. Every round: accept peace from a trusted power; an
    alliance whose allies we all trust and whose enemies are none of our partners; order
    commitments (or DMZs) for this phase from a trusted power when the SO says keeping them
    costs us at most `accept_loss`; reject everything else (e.g. commitments for later phases).
    """

    def __init__(self, address: str, seed: int, params: AlphaDipParams):
        super().__init__(address, seed)
        self.params = params

    def negotiate(self, request: OfficeRequest) -> Answer:
        view = request.view
        obs = view["observation"]
        me, year, phase = obs["power"], obs["year"], obs["phase"]
        prior = prior_trust(view.get("traits") or {})
        trust = {p: float((view.get("trust") or {}).get(p, prior)) for p in POWERS if p != me}
        values = view.get("deal_values") or {}
        fo = dict(view.get("fo") or {})
        next_id = int(fo.get("next_id", 0))
        says: list[Any] = []
        mine = partners(obs)
        claimed = _claims(obs, phase) if self.params.keep_word else {}
        board = board_from_observation(obs) if self.params.keep_word else None
        for d in obs["deals"]["open"]:
            if d["proposer"] == me or me in d["accepted"]:
                continue
            ok = self._acceptable(d, me, phase, trust, mine, values)
            if ok and board is not None:  # keep_word: no offer that crosses or breaks a deal we have
                ok = not _contradicts(d, claimed, phase) and not _breaks_confirmed(board, d, obs, phase)
            if ok:
                says.append(DipAccept(proposer=d["proposer"], deal_id=int(d["key"].split("#")[1])))
            elif len(d["parties"]) == 2:  # a deal of three or more lapses unanswered (see _NO_REJECT)
                says.append(DipReject(proposer=d["proposer"], deal_id=int(d["key"].split("#")[1])))
        if (view.get("talk") or {}).get("round") == 0:
            asked = {k: v for k, v in (fo.get("asked") or {}).items() if v == year}
            living = set(alive(obs))
            known = view.get("negotiators")  # None until anyone has spoken: ask everyone once
            talkers = [p for p in (known if known is not None else POWERS) if p in living and p != me]
            for p in talkers:
                if p not in mine and trust[p] <= 1.0 and asked.get(f"peace:{p}") != year:
                    says.append(DipPropose(deal_id=next_id, commitments=(Peace(powers=tuple(sorted((me, p))), until=year),)))
                    next_id += 1
                    asked[f"peace:{p}"] = year
            friends = sorted(p for p in mine if trust[p] <= 1.0 and p in living)
            if friends and asked.get("alliance") != year:
                sizes = {p: len(obs["centres"].get(p, [])) for p in living if p != me and p not in friends}
                if sizes:
                    enemy = min(sizes, key=lambda p: (-sizes[p], p))
                    says.append(DipPropose(deal_id=next_id, commitments=(
                        Alliance(allies=tuple(sorted([me] + friends)), enemies=(enemy,), until=year),)))
                    next_id += 1
                    asked["alliance"] = year
            requests = self._support_requests(view, phase, me, next_id)
            says += requests
            next_id += len(requests)
            if self.params.dmz and phase.endswith("M"):
                offers = self._dmz_offers(view, obs, me, talkers, trust, asked, next_id)
                says += offers
                next_id += len(offers)
            fo["asked"] = asked
        fo["next_id"] = next_id
        return Answer(says=says, updates=[KBUpdate(path=("fo",), value=fo)])

    def _dmz_offers(self, view: dict[str, Any], obs: dict[str, Any], me: str, talkers: list[str],
                    trust: dict[str, float], asked: dict[str, Any], first_id: int) -> list[DipPropose]:
        """A DMZ over this and the next movement phases with each trusted power on a common border (phases.py)."""
        phase, planned, out = obs["phase"], planned_entries(view), []
        for p in talkers:
            if trust[p] > 1.0 or asked.get(f"dmz:{p}") == phase:
                continue
            provinces = dmz_provinces(obs, me, p, planned)
            if provinces:
                commitments = dmz_commitments(phase, tuple(sorted((me, p))), provinces, self.params.dmz_phases)
                out.append(DipPropose(deal_id=first_id + len(out), commitments=commitments))
                asked[f"dmz:{p}"] = phase
        return out

    def _support_requests(self, view: dict[str, Any], phase: str, me: str, first_id: int) -> list[DipPropose]:
        """One deal per power whose support the best suggestion needs."""
        moves = [json.loads(s["action"]) | {"utility": s["utility"]} for s in view.get("suggestions") or []]
        fallback = max((m["utility"] for m in moves if m.get("kind") == "fallback"), default=0.0)
        best = max((m for m in moves if m.get("kind") == "move" and m.get("needs")), key=lambda m: m["utility"], default=None)
        if best is None or best["utility"] <= fallback:
            return []
        out, n = [], first_id
        by_power: dict[str, list[str]] = {}
        for power, _, order in best["needs"]:
            by_power.setdefault(power, []).append(order)
        for power, orders in sorted(by_power.items()):
            supported = {o.split(" S ", 1)[1] for o in orders}
            ours = [o for p, o in sorted(best["orders"].items())
                    if any(o.startswith(s.split(" - ")[0]) for s in supported)]
            commitments = [OrderCommitment(power=power, phase=phase, order=o) for o in sorted(orders)]
            commitments += [OrderCommitment(power=me, phase=phase, order=o) for o in ours]
            if self.params.multi_phase and phase.endswith("M") and power in multi_phase_powers(view["observation"]):
                taken = sorted({o.split(" - ")[1].split()[0][:3] for o in ours if " - " in o})
                if taken:  # and leave what we take alone next movement phase
                    commitments.append(Dmz(phase=later_moves(phase, 1)[0], powers=(power,), provinces=tuple(taken)))
            out.append(DipPropose(deal_id=n, commitments=tuple(commitments)))
            n += 1
        return out

    def _acceptable(self, deal: dict[str, Any], me: str, phase: str, trust: dict[str, float], mine: set[str],
                    values: dict[str, float]) -> bool:
        proposer = deal["proposer"]
        if trust.get(proposer, 1.0) > 1.0:
            return False
        for c in deal["commitments"]:
            if c["type"] == "peace":
                if any(trust.get(p, 1.0) > 1.0 for p in c["powers"] if p != me):
                    return False
            elif c["type"] == "alliance":
                if me not in c["allies"] or any(trust.get(p, 1.0) > 1.0 for p in c["allies"] if p != me):
                    return False
                if any(e in mine or e == me for e in c["enemies"]):
                    return False
            elif c["type"] in ("order", "dmz"):
                binds_me = c.get("power") == me or me in c.get("powers", ())
                if binds_me and c["phase"] != phase and not (self.params.phased and c["type"] == "dmz"):
                    return False  # AlphaDip negotiates the current phase only (thesis 5.1.1.1)
        return not (deal["key"] in values and values[deal["key"]] < -self.params.accept_loss)


def _claims(obs: dict[str, Any], phase: str) -> dict[str, list[tuple[str, str]]]:
    """Unit (province) -> (deal key, order) for every order commitment of this phase in the
    deals we see, open or confirmed."""
    out: dict[str, list[tuple[str, str]]] = {}
    for d in obs["deals"]["open"] + obs["deals"]["confirmed"]:
        for c in d["commitments"]:
            if c["type"] == "order" and c["phase"] == phase:
                out.setdefault(c["order"].split()[1][:3], []).append((d["key"], c["order"]))
    return out


def _contradicts(deal: dict[str, Any], claimed: dict[str, list[tuple[str, str]]], phase: str) -> bool:
    """True when `deal` commits a unit to an order that a deal with a smaller key commits it
    differently (with `keep_word`: both parties then keep the same one of two crossed offers)."""
    for c in deal["commitments"]:
        if c["type"] == "order" and c["phase"] == phase:
            unit = c["order"].split()[1][:3]
            if any(key < deal["key"] and order != c["order"] for key, order in claimed.get(unit, ())):
                return True
    return False


def _breaks_confirmed(board: Board, deal: dict[str, Any], obs: dict[str, Any], phase: str) -> bool:
    """True when an order `deal` commits a power to would break another deal of ours, confirmed
    or on the table this round (a move into a peace partner's province, even one the partner
    offers to support)."""
    others = obs["deals"]["confirmed"] + [d for d in obs["deals"]["open"] if d["key"] != deal["key"]]
    for c in deal["commitments"]:
        if c["type"] == "order" and c["phase"] == phase:
            try:
                order = parse_order(board, c["power"], c["order"])
            except OrderError:
                continue  # the ledger has already refused impossible orders
            if plan_breaches(board, c["power"], [order], others):
                return True
    return False


class AlphaDipIntelligenceOffice(IntelligenceOffice):
    """Predicted goals by the thesis' algorithm 3 and trust from deals kept and broken.

    Goals: for every opponent and centre, g *= 0.99 each phase; then for each of the last
    phase's orders or newly confirmed deals supporting the goal g += 0.04 g, and for each one
    against it g *= 0.95. Supporting: the power moves into the centre or supports a move into it,
    holds or is supported to hold in it, or commits to an order doing so. Against: it moves a
    unit out of the centre, supports another power's move into it, or agrees to peace with its
    owner or to a DMZ over it.
    Trust (0 full, 1 neutral, more = less trust): + `trust_broken` per deal the power broke with
    us since the last update; else x `trust_kept` once per movement phase in which a deal with us
    bound it. (Orders of phases in which we had no request are not seen: only `last` is.)
    """

    def __init__(self, address: str, seed: int, params: AlphaDipParams):
        super().__init__(address, seed)
        self.params = params

    def update(self, request: OfficeRequest) -> Answer:
        view = request.view
        obs = view["observation"]
        me = obs["power"]
        prm = self.params
        prior = prior_trust(view.get("traits") or {})
        trust = {p: float((view.get("trust") or {}).get(p, prior)) for p in POWERS if p != me}
        goals = {p: dict((view.get("goals") or {}).get(p) or {c: 1.0 for c in sorted(CENTRES)})
                 for p in POWERS if p != me}
        io = dict(view.get("io") or {})
        last = obs.get("last")
        if last is None or last["phase"] == io.get("phase"):
            if not view.get("trust"):
                return Answer(updates=[KBUpdate(path=("trust",), value=trust), KBUpdate(path=("goals",), value=goals)])
            return Answer()
        events = obs["deals"]["events"]
        new = events[int(io.get("events", 0)):]
        done = last["phase"]
        board_units = _units_before(last)
        confirmed_content = {d["key"]: d for d in obs["deals"]["confirmed"]}
        newly = [confirmed_content[e["deal"]] for e in new if e["type"] == "confirmed" and e["deal"] in confirmed_content]
        for op in sorted(goals):
            row = goals[op]
            orders = last["orders"].get(op, [])
            for c in sorted(row):
                g = row[c] * prm.goal_decay
                pro, con = _for_and_against(op, c, orders, newly, board_units, obs)
                for _ in range(pro):
                    g += prm.goal_support * g
                for _ in range(con):
                    g *= prm.goal_against
                row[c] = round(g, 6)
        # trust: every deal broken since the last update (phases without a request of ours
        # included); kept: once per movement phase adjudicated, for the powers bound with us
        moved = done if done.endswith("M") else (done[:5] + "M" if done.endswith("R") else f"F{done[1:5]}M")
        broken: dict[str, int] = {}
        for e in new:
            if e["type"] == "broken" and e["by"] != me:
                broken[e["by"]] = broken.get(e["by"], 0) + 1
        in_force: dict[str, list[str]] = {d["key"]: d["parties"] for d in obs["deals"]["confirmed"]}
        for e in events:
            if e["type"] == "confirmed" and e["phase"] == moved:
                in_force.setdefault(e["deal"], e["to"])
            elif prm.phased and e["type"] == "lapsed" and e["phase"] == moved:
                in_force.setdefault(e["deal"], e["to"])  # its last phase was checked before it lapsed
        bound = {p for parties in in_force.values() if me in parties for p in parties if p != me}
        kept_now = io.get("moved") != moved
        if prm.phased:  # one verdict per deal and movement phase (phases.py)
            if kept_now:
                io["ledger"] = _phase_verdicts(io.get("ledger") or {}, events, in_force, me, moved)
                counts = _kept_counts(io["ledger"], in_force, me, moved)
            else:
                counts = {}
            for p in sorted(trust):
                if broken.get(p):
                    trust[p] = trust[p] + prm.trust_broken * broken[p]
                elif counts.get(p):
                    trust[p] = trust[p] * prm.trust_kept ** counts[p]
                trust[p] = round(trust[p], 6)
        for p in sorted(trust) if not prm.phased else ():
            if broken.get(p):
                trust[p] = trust[p] + prm.trust_broken * broken[p]
            elif kept_now and p in bound:
                trust[p] = trust[p] * prm.trust_kept
            trust[p] = round(trust[p], 6)
        io["moved"] = moved
        io.update({"events": len(events), "phase": done})
        return Answer(updates=[KBUpdate(path=("trust",), value=trust), KBUpdate(path=("goals",), value=goals),
                               KBUpdate(path=("io",), value=io)])


def _phase_verdicts(ledger: dict[str, Any], events: list[dict[str, Any]], in_force: dict[str, list[str]], me: str,
                    moved: str) -> dict[str, Any]:
    """The IO's ledger with movement phase `moved` judged for every deal of ours in force then:
    "broken" when the game recorded a breach of it in that phase, else "kept"."""
    breached = {e["deal"] for e in events if e["type"] == "broken" and e["phase"] == moved and e["by"] != me}
    out = {k: dict(v) for k, v in ledger.items()}
    for key, parties in sorted(in_force.items()):
        if me in parties and len(parties) > 1:
            out.setdefault(key, {})[moved] = "broken" if key in breached else "kept"
    return {k: out[k] for k in sorted(out)}


def _kept_counts(ledger: dict[str, Any], in_force: dict[str, list[str]], me: str, moved: str) -> dict[str, int]:
    """Per other party: the deals with us it kept in phase `moved`."""
    counts: dict[str, int] = {}
    for key, parties in sorted(in_force.items()):
        if (ledger.get(key) or {}).get(moved) == "kept":
            for p in parties:
                if p != me:
                    counts[p] = counts.get(p, 0) + 1
    return counts


def _units_before(last: dict[str, Any]) -> dict[str, str]:
    """Province -> power of every unit ordered in the last phase."""
    out = {}
    for power, orders in last["orders"].items():
        for o in orders:
            parts = o.split()
            if len(parts) >= 2 and parts[0] in ("A", "F"):
                out[parts[1][:3]] = power
    return out


def _for_and_against(op: str, c: str, orders: list[str], deals: list[dict[str, Any]],
                     units: dict[str, str], obs: dict[str, Any]) -> tuple[int, int]:
    pro = con = 0
    for o in orders:
        parts = o.split()
        if len(parts) < 3 or parts[0] not in ("A", "F"):
            continue
        here = parts[1][:3]
        verb = parts[2]
        if verb == "-":
            if parts[3][:3] == c:
                pro += 1
            elif here == c:
                con += 1
        elif verb == "S":
            target = parts[6][:3] if len(parts) >= 7 and parts[5] == "-" else parts[4][:3]
            if target == c:
                mover = parts[4][:3]
                if units.get(mover, op) == op:
                    pro += 1
                else:
                    con += 1
        elif verb == "H" and here == c:
            pro += 1
    owner = None
    for p, cs in obs["centres"].items():
        if c in cs:
            owner = p
    for d in deals:
        for k in d["commitments"]:
            if k["type"] == "order" and k["power"] == op:
                parts = k["order"].split()
                if len(parts) >= 4 and parts[2] == "-" and parts[3][:3] == c:
                    pro += 1
            elif k["type"] == "peace" and op in k["powers"] and owner in k["powers"] and owner != op or k["type"] == "dmz" and op in k["powers"] and c in k["provinces"]:
                con += 1
    return pro, con


# _NO_REJECT: the rules validate talk when it arrives and apply a round's talk in speaker order,
# so an accept that follows, in the same round, another party's reject of the same deal fails in
# the ledger (a KeyError in games.diplomacy.deals.Ledger.apply). Until that
# is fixed we never reject a deal with more than one other party: it lapses at adjudication.
