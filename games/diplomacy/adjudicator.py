"""The pure adjudicator: `resolve(board, orders) -> Resolution` for movement, retreat and
adjustment phases, and the phase sequence (skipped phases, centre capture in winter).

Movement follows L. Kruijswijk's "The Math of Adjudication" (DATC section 5): each move and
support is a decision resolved by guess-and-check over its dependencies; a cycle with no or two
consistent outcomes goes to the backup rule: circular movement (every move of the cycle
succeeds), or, when a convoy is part of the cycle, the Szykman rule (the convoyed moves of the
cycle fail as if not convoyed, and cut no support). A convoyed army cannot cut a support given
for or against a fleet of its own convoy (2000 rulebook), unless another chain avoids that fleet.

Results per unit use the DATC words: ok, bounce, cut, dislodged, void, no convoy, disrupted,
disband. The convoy words go where the reference engine puts them: "no convoy" on a convoyed army
whose move fails for want of its convoy, on the fleets of that convoy that stay, on the supports
given to that move, and (with "void") on a convoy order for its army's move that no chain of it
uses; "disrupted" on a fleet that stays although the paradox rule cancelled its convoy because the
fleet's own dislodgement depended on it. A dislodged convoying fleet is just "dislodged".
Orders come typed and already validated (`board.parse_order`); a unit without one holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from games.diplomacy.board import (
    ARMY_ADJ,
    CENTRES,
    COASTS,
    FLEET_ADJ,
    FLEET_REACH,
    HOMES,
    SEA_NEXT,
    Board,
    Order,
)

OK, BOUNCE, CUT, DISLODGED, VOID, NO_CONVOY, DISRUPTED, DISBAND = (
    "ok", "bounce", "cut", "dislodged", "void", "no convoy", "disrupted", "disband")

UNIT_NAME = {(t, loc): f"{t} {loc}" for t, adj in (("A", ARMY_ADJ), ("F", FLEET_ADJ)) for loc in adj}

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2
_NEVER = 1 << 60


@dataclass
class Resolution:
    """What one phase did: the orders used (holds filled in), results by unit, and the board
    after it, already advanced to the next phase that needs orders."""

    phase: str
    orders: dict[str, list[Order]]  # power -> orders adjudicated
    results: dict[str, list[str]]  # unit ("A PAR") -> results, [] when nothing to report
    after: Board
    dislodged: dict[str, str] = field(default_factory=dict)  # unit -> dislodger's province
    winters: list[int] = field(default_factory=list)  # years whose centre capture happened


def resolve(board: Board, orders: Mapping[str, Iterable[Order]], datc: str = "2.4") -> Resolution:
    """Adjudicate one phase of `board` with typed orders per power; pure (board untouched)."""
    kind = board.phase_kind
    if kind == "M":
        return _movement(board, orders, datc)
    orders = {p: list(os) for p, os in orders.items()}
    if kind == "R":
        return _retreats(board, orders)
    return _adjustments(board, orders)


# -- movement ------------------------------------------------------------------------------

class _Cycle(Exception):
    """The quick pass met a decision that depends on itself: the phase goes to guess-and-check."""


class _Orders:
    """The orders of one movement phase, checked and indexed, and the decisions over them. A
    decision is keyed by the province of the ordered unit, and the unit's order says which one
    it is: a move (does it succeed), a support (is it given), a convoy (does the fleet stay).
    `resolve` (and `moves`) come from the subclass: a quick pass or full guess-and-check."""

    __slots__ = ("board", "convoyers", "into", "movers", "no_convoy", "order", "paradox", "supports", "szykman",
                 "units", "value", "void")

    def __init__(self, board: Board, by_prov: dict[str, Order], moves: list[str], supports: list[str],
                 convoys: list[str], datc: str):
        self.units = board.units
        self.order = by_prov
        self.board = board
        self.movers: dict[str, str] = {}  # prov -> destination province
        self.into: dict[str, list[str]] = {}  # province -> movers into it
        self.convoyers: dict[str, frozenset[str]] = {}  # convoyed mover -> its convoying fleets
        self.no_convoy: set[str] = set()  # convoyed movers with no chain at all (hold)
        self.szykman: set[str] = set()  # convoyed movers failed by the paradox rule
        self.paradox: set[str] = set()  # convoying fleets of a cycle the paradox rule decided
        self.supports: dict[str, list[str]] = {}  # supported prov -> valid supporters
        self.void: set[str] = set()
        self.value: dict[str, bool] = {}
        self._setup(moves, supports, convoys, datc)

    def resolve(self, p: str) -> bool:
        raise NotImplementedError

    moves = resolve

    def _setup(self, moves: list[str], supports: list[str], convoys: list[str], datc: str) -> None:
        """The provinces ordered to move, support and convoy, each list in `order`'s order."""
        order = self.order
        movers, into, convoyers, no_convoy = self.movers, self.into, self.convoyers, self.no_convoy
        convoy_orders: dict[tuple[str, str], list[str]] = {}
        for p in convoys:
            o = order[p]
            convoy_orders.setdefault((o.target[:3], o.dest), []).append(p)
        armies = {a for a, _ in convoy_orders}  # armies some fleet convoys
        used_convoys: set[str] = set()
        for p in moves:
            o = order[p]
            dp = o.dest[:3]
            if o.utype == "A":
                ships = convoy_orders.get((p, dp)) if p in armies else None
                if ships:
                    adjacent = dp in ARMY_ADJ[p]
                    fleets = frozenset(ships)
                    if (o.via or not adjacent) and _chain(p, dp, fleets):
                        convoyers[p] = fleets
                    elif not o.via and adjacent and datc == "2.4" and _chain(p, dp, fleets) \
                            and self._intent(p, dp, fleets):
                        convoyers[p] = fleets  # by intent; a disrupted convoy is no land move
                    if p in convoyers:
                        used_convoys |= {f for f in fleets if _on_a_chain(p, dp, f, fleets)}
                    elif not adjacent:
                        no_convoy.add(p)
                        continue
                elif dp not in ARMY_ADJ[p]:
                    no_convoy.add(p)
                    continue
            movers[p] = dp
            if dp in into:
                into[dp].append(p)
            else:
                into[dp] = [p]
        self._supports(supports, convoys, used_convoys)

    def _supports(self, supports: list[str], convoys: list[str], used_convoys: set[str]) -> None:
        """_setup's supports and convoys: valid ones, and void ones (not matching the move)."""
        units, order, movers, convoyers, no_convoy = self.units, self.order, self.movers, self.convoyers, self.no_convoy
        given, void = self.supports, self.void
        for p in convoys:
            o = order[p]
            t = o.target[:3]
            if p not in used_convoys or t not in convoyers or movers.get(t) != o.dest:
                void.add(p)
        for p in supports:
            o = order[p]
            t = o.target[:3]
            d = o.dest
            if d:
                ok = movers.get(t) == d[:3] and ("/" not in d or order[t].dest == d)
            else:
                ok = t not in movers and t not in no_convoy
            if ok:
                tu = units.get(t)
                ok = tu is not None and tu[1] == o.ttype
            if ok:
                if t in given:
                    given[t].append(p)
                else:
                    given[t] = [p]
            else:
                void.add(p)

    def _intent(self, p: str, dp: str, fleets: frozenset[str]) -> bool:
        """DATC 2.4 (4.A.3): an adjacent move is by convoy if a fleet of the army's own power
        convoys it on a chain of fleets at sea."""
        owner = self.units[p][0]
        chains = self.board.convoy_routes().get(p, {}).get(dp, ())
        return any(self.units[f][0] == owner and any(f in c for c in chains) for f in fleets)

    def _adjudicate(self, p: str) -> bool:
        k = self.order[p].kind
        if k == "-":
            return self._move_succeeds(p)
        if k == "S":
            return self._support_given(p)
        return not self._dislodged(p)  # "C": the convoying fleet stays

    # -- decisions -------------------------------------------------------------------------
    def path(self, p: str) -> bool:
        """A convoyed mover's chain holds (fleets not dislodged); True for land moves."""
        fleets = self.convoyers.get(p)
        if fleets is None:
            return True
        if p in self.szykman:
            return False
        alive = frozenset(f for f in fleets if self.resolve(f))
        return _chain(p, self.movers[p], alive)

    def by_sea(self, p: str) -> bool:
        """Moves by convoy (so: no head-to-head battle)."""
        return p in self.convoyers

    def live(self, p: str) -> bool:
        """The move is made at all (a convoyed move whose chain fails is not)."""
        return self.path(p)

    def head_to_head(self, p: str) -> str | None:
        q = self.movers[p]
        if self.movers.get(q) == p and p not in self.convoyers and q not in self.convoyers:
            return q
        return None

    def support_count(self, p: str, exclude_power: str | None = None) -> int:
        supporters = self.supports.get(p)
        if not supporters:
            return 0
        n = 0
        for s in supporters:
            if exclude_power is not None and self.units[s][0] == exclude_power:
                continue
            if self.resolve(s):
                n += 1
        return n

    def attack(self, p: str) -> int:
        if p in self.convoyers and not self.path(p):
            return 0
        q = self.movers[p]
        other = self.units.get(q)
        if other is None:
            return 1 + self.support_count(p)
        if q in self.movers and self.head_to_head(p) is None and self.moves(q):
            return 1 + self.support_count(p)
        if other[0] == self.units[p][0]:
            return 0
        return 1 + self.support_count(p, exclude_power=other[0])

    def hold(self, q: str) -> int:
        if q not in self.units:
            return 0
        if q in self.movers:
            return 0 if self.moves(q) else 1
        return 1 + self.support_count(q)

    def prevent(self, p: str) -> int:
        if p in self.convoyers and not self.path(p):
            return 0
        h = self.head_to_head(p)
        if h is not None and self.moves(h):
            return 0
        return 1 + self.support_count(p)

    def _move_succeeds(self, p: str) -> bool:
        q = self.movers[p]
        rivals = self.into[q]
        if q not in self.units and len(rivals) == 1 and p not in self.convoyers:
            return True  # an unopposed land move into an empty province
        if p in self.convoyers and not self.path(p):
            return False
        att = self.attack(p)
        h = self.head_to_head(p)
        if h is not None:
            if att <= 1 + self.support_count(h):
                return False
        elif att <= self.hold(q):
            return False
        for r in rivals:
            if r != p and att <= self.prevent(r):
                return False
        return True

    def _dislodged(self, q: str) -> bool:
        if q in self.movers and self.moves(q):
            return False
        rivals = self.into.get(q)
        if rivals:
            for r in rivals:
                if self.moves(r):
                    return True
        return False

    def _support_given(self, s: str) -> bool:
        o = self.order[s]
        owner = self.units[s][0]
        against = o.dest or o.target[:3]
        for r in self.into.get(s, ()):
            if self.units[r][0] == owner or r == against:
                continue
            if r in self.convoyers:
                if not self.path(r):
                    continue
                fleet = self.units.get(against)
                fl = self.convoyers[r]
                if fleet is not None and against in fl and against not in self.void \
                        and not _chain(r, self.movers[r], fl - {against}):
                    continue  # 2000 rulebook: no cut of support for or against the convoy
            return False
        return not self._dislodged(s)


class _Quick(_Orders):
    """Plain memoised recursion: exact when no decision depends on itself (the usual case),
    and then the same answers guess-and-check gives; raises _Cycle otherwise."""

    __slots__ = ()

    def resolve(self, p: str) -> bool:
        value = self.value
        if p in value:
            v = value[p]
            if v is None:
                raise _Cycle
            return v
        value[p] = None  # being decided
        k = self.order[p].kind
        if k == "-":
            v = value[p] = self._move_succeeds(p)
        elif k == "S":
            v = value[p] = self._support_given(p)
        else:
            v = value[p] = not self._dislodged(p)
        return v

    moves = resolve

    def _count(self, supporters: list[str] | None, exclude_power: str = "") -> int:
        """support_count over the supporters of one unit (each of them consulted)."""
        n = 0
        if supporters:
            for s in supporters:
                if exclude_power and self.units[s][0] == exclude_power:
                    continue
                if self.resolve(s):
                    n += 1
        return n

    def _move_succeeds(self, p: str) -> bool:
        # The same decision as _Orders._move_succeeds (attack, hold, prevent), inlined; it
        # consults the same decisions, which is what keeps the quick pass exact.
        movers, units, convoyers, supports = self.movers, self.units, self.convoyers, self.supports
        q = movers[p]
        rivals = self.into[q]
        other = units.get(q)
        if p in convoyers:
            if not self.path(p):
                return False
        elif other is None and len(rivals) == 1:
            return True  # an unopposed land move into an empty province
        h = q if movers.get(q) == p and p not in convoyers and q not in convoyers else None
        if other is None or (h is None and q in movers and self.resolve(q)):  # q empty, or left
            att = 1 + (self._count(supports[p]) if p in supports else 0)
        elif other[0] == units[p][0]:
            att = 0
        else:
            att = 1 + (self._count(supports[p], other[0]) if p in supports else 0)
        if h is not None:
            if att <= 1 + (self._count(supports[h]) if h in supports else 0):
                return False
        elif other is not None:
            if q in movers:
                if att <= (0 if self.resolve(q) else 1):
                    return False
            elif att <= 1 + (self._count(supports[q]) if q in supports else 0):
                return False
        elif att <= 0:
            return False
        if len(rivals) > 1:
            for r in rivals:
                if r == p:
                    continue
                if r in convoyers and not self.path(r):
                    prevent = 0
                elif movers.get(q) == r and r not in convoyers and q not in convoyers and self.resolve(q):
                    prevent = 0  # r lost a head-to-head battle
                else:
                    prevent = 1 + (self._count(supports[r]) if r in supports else 0)
                if att <= prevent:
                    return False
        return True


class _Movement(_Orders):
    """Full guess-and-check over the decisions, for phases with a cycle of dependencies."""

    __slots__ = ("depmin", "frames", "guessed", "started", "state", "tick")

    def __init__(self, board: Board, by_prov: dict[str, Order], moves: list[str], supports: list[str],
                 convoys: list[str], datc: str):
        super().__init__(board, by_prov, moves, supports, convoys, datc)
        self.state: dict[str, int] = {}
        self.guessed: list[str] = []  # decisions put to guessing, in order
        self.started: dict[str, int] = {}  # when each decision began guessing
        self.depmin: dict[str, int] = {}  # for a partial result: the earliest guess it used
        self.frames: list[int] = []  # per adjudication under way: the earliest guess consulted
        self.tick = 0

    # A decision being decided is GUESSING: first guessed to fail, then to succeed. Each
    # adjudication records the earliest guess it consulted (`frames`): none -> the result is
    # final; a guess made further out -> the result is partial and that outer guess settles it;
    # only its own (or later) guesses -> both guesses are tried: same result -> final, else the
    # decisions still guessing form a cycle for the backup rule.
    def resolve(self, key: str) -> bool:
        st = self.state.get(key, _UNRESOLVED)
        if st == _RESOLVED:
            return self.value[key]
        if st == _GUESSING:
            if self.frames:
                tick = min(self.started[key], self.depmin.get(key, _NEVER))
                self.frames[-1] = min(self.frames[-1], tick)
            return self.value[key]
        mark = len(self.guessed)
        self.guessed.append(key)
        self.state[key], self.value[key] = _GUESSING, False
        mine = self.started[key] = self.tick
        self.tick += 1
        self.depmin.pop(key, None)
        frames = self.frames
        frames.append(_NEVER)
        first = self._adjudicate(key)
        dep = frames.pop()
        if dep == _NEVER:
            return self._settle(key, mark, first)
        if dep < mine:
            return self._partial(key, first, dep)
        self._reset(mark + 1)
        self.value[key] = True
        frames.append(_NEVER)
        second = self._adjudicate(key)
        dep = frames.pop()
        if dep < mine:
            return self._partial(key, second, dep)
        if dep == _NEVER or first == second:
            return self._settle(key, mark, second)
        cycle = [k for k in self.guessed[mark:] if self.state[k] == _GUESSING]
        self._reset(mark)
        if not self._backup(cycle):
            return self._settle(key, mark, first)
        return self.resolve(key)

    def moves(self, p: str) -> bool:
        if self.state.get(p) == _RESOLVED:
            return self.value[p]
        return self.resolve(p)

    def _settle(self, key: str, mark: int, result: bool) -> bool:
        self._reset(mark + 1)
        del self.guessed[mark:]
        if self.state.get(key) != _RESOLVED:  # the backup rule may have decided it already
            self.value[key], self.state[key] = result, _RESOLVED
        return self.value[key]

    def _partial(self, key: str, result: bool, dep: int) -> bool:
        self.value[key], self.depmin[key] = result, dep
        if self.frames and dep < self.frames[-1]:
            self.frames[-1] = dep
        return result

    def _reset(self, mark: int) -> None:
        for k in self.guessed[mark:]:
            if self.state[k] == _GUESSING:
                self.state[k] = _UNRESOLVED
        del self.guessed[mark:]

    def _backup(self, cycle: list[str]) -> bool:
        """Decide a cycle with no or two consistent outcomes; False if it has nothing to decide."""
        order = self.order
        fleets = {k for k in cycle if order[k].kind == "C"}
        changed = False
        if fleets:
            # Convoy paradox, Szykman rule: the moves convoyed by fleets of the cycle fail as
            # if not convoyed (they hold, and cut no support).
            self.paradox |= fleets
            for m, fl in sorted(self.convoyers.items()):
                if fl & fleets and m not in self.szykman:
                    self.szykman.add(m)
                    self.value[m], self.state[m] = False, _RESOLVED
                    changed = True
        else:
            # Circular movement: every move in the cycle succeeds.
            for k in cycle:
                if order[k].kind == "-":
                    self.value[k], self.state[k] = True, _RESOLVED
                    changed = True
        return changed


def _chain(start: str, dest: str, fleets: frozenset[str]) -> bool:
    """Some chain of the given fleets (water provinces) links `start` to `dest`."""
    frontier = [f for f in SEA_NEXT[start] if f in fleets]
    seen = set(frontier)
    goal = SEA_NEXT[dest]
    while frontier:
        f = frontier.pop()
        if f in goal:
            return True
        for g in FLEET_REACH[f]:
            if g in fleets and g not in seen:
                seen.add(g)
                frontier.append(g)
    return False


def _on_a_chain(start: str, dest: str, fleet: str, fleets: frozenset[str]) -> bool:
    """`fleet` lies on some simple chain of `fleets` from `start` to `dest`."""
    def walk(cur: str, seen: frozenset[str], used: bool) -> bool:
        used = used or cur == fleet
        if cur in SEA_NEXT[dest] and used:
            return True
        for g in FLEET_REACH[cur]:
            if g in fleets and g not in seen and walk(g, seen | {g}, used):
                return True
        return False
    return any(walk(f, frozenset([f]), False) for f in SEA_NEXT[start] if f in fleets)


def _movement(board: Board, orders: Mapping[str, Iterable[Order]], datc: str) -> Resolution:
    """A movement phase: orders indexed, every move and support decided, units moved, the
    dislodged given their retreats, and the board advanced to the next phase needing orders."""
    units = board.units
    by_prov, moves, supports, convoys = _index_orders(units, orders)
    m = _decide(board, by_prov, moves, supports, convoys, datc)
    used, results, out = _result_lists(units, by_prov)
    for p in m.void:
        if by_prov[p].kind == "C" and _convoys_the_move(by_prov, by_prov[p]):
            out[p].append(NO_CONVOY)  # on no chain the move uses: it convoys nothing
        out[p].append(VOID)
    new_units, moved, dislodged = _move_units(m, out)
    if m.convoyers:
        _failed_convoys(m, out, dislodged)
    for p in m.no_convoy:
        out[p].append(NO_CONVOY)
    for sups in m.supports.values():
        for p in sups:
            if not m.value[p]:
                out[p].append(CUT)
    after = _board_after_moves(board, new_units)
    named = _dislodge(m, out, after, moved, dislodged) if dislodged else {}
    res = Resolution(board.phase, used, results, after, named)
    if after.dislodged:
        return res  # retreats next
    if after.season == "S":
        after.season, after.phase_kind = "F", "M"  # no retreats: fall movement next
        return res
    _advance(after, res)  # no retreats: winter
    return res


def _index_orders(units: dict[str, tuple[str, str, str]], orders: Mapping[str, Iterable[Order]]
                  ) -> tuple[dict[str, Order], list[str], list[str], list[str]]:
    """Each unit's order by province (a hold where it has none), and the provinces ordered to
    move, support and convoy, each in the order given."""
    by_prov: dict[str, Order] = {}
    moves: list[str] = []
    supports: list[str] = []
    convoys: list[str] = []
    holds = 0
    for power, os in orders.items():
        for o in os:
            loc = o[2]
            p = loc[:3]
            u = units.get(p)
            # orders come parsed; one for a unit the power does not have here is ignored
            if u is None or u[0] != power or u[2] != loc or u[1] != o[1]:
                continue
            kind = o[0]
            if kind == "-":
                moves.append(p)
            elif kind == "S":
                supports.append(p)
            elif kind == "C":
                convoys.append(p)
            elif kind == "H":
                holds += 1
            else:
                continue
            by_prov[p] = o
    if len(moves) + len(supports) + len(convoys) + holds > len(by_prov):
        # a unit ordered twice: its last order stands, in the place of its first
        moves = [p for p, o in by_prov.items() if o.kind == "-"]
        supports = [p for p, o in by_prov.items() if o.kind == "S"]
        convoys = [p for p, o in by_prov.items() if o.kind == "C"]
    if len(by_prov) < len(units):
        for p, u in units.items():
            if p not in by_prov:
                by_prov[p] = Order("H", u[1], u[2])
    return by_prov, moves, supports, convoys


def _decide(board: Board, by_prov: dict[str, Order], moves: list[str], supports: list[str],
            convoys: list[str], datc: str) -> _Orders:
    """The orders with every move and support decided: by the quick pass, or, where it meets a
    decision that depends on itself, by guess-and-check from the start."""
    m: _Orders = _Quick(board, by_prov, moves, supports, convoys, datc)
    try:
        _quick_pass(m)
    except _Cycle:  # decide the phase again, in the order guess-and-check is defined over
        m = _Movement(board, by_prov, moves, supports, convoys, datc)
        for p in sorted(m.movers):
            m.moves(p)
        for p in sorted(m.supports):
            for s in m.supports[p]:
                m.resolve(s)
    # Every move and support is decided now; convoys left open depend on moves only (no cycle).
    return m


def _quick_pass(m: _Orders) -> None:
    """Decide every move and support by memoised recursion; raises _Cycle."""
    units, value, movers, into, convoyers = m.units, m.value, m.movers, m.into, m.convoyers
    # first the decisions that consult no other: an unattacked support is given, an
    # unopposed land move into an empty province succeeds
    if m.supports:
        for sups in m.supports.values():
            for s in sups:
                if s not in into:
                    value[s] = True
    decide = m.resolve
    for p in movers:
        if p not in value:
            q = movers[p]
            if q not in units and len(into[q]) == 1 and p not in convoyers:
                value[p] = True
            else:
                decide(p)
    for sups in m.supports.values():
        for s in sups:
            if s not in value:
                decide(s)


def _result_lists(units: dict[str, tuple[str, str, str]], by_prov: dict[str, Order]
                  ) -> tuple[dict[str, list[Order]], dict[str, list[str]], dict[str, list[str]]]:
    """The orders used per power, and an empty result list per unit: by unit name (what the
    Resolution holds) and by province (the same lists, to fill in)."""
    used: dict[str, list[Order]] = {}
    results: dict[str, list[str]] = {}
    out: dict[str, list[str]] = {}  # province -> its unit's results
    for p in sorted(units):
        u = units[p]
        results[f"{u[1]} {u[2]}"] = out[p] = []
        power = u[0]
        if power in used:
            used[power].append(by_prov[p])
        else:
            used[power] = [by_prov[p]]
    return used, results, out


def _move_units(m: _Orders, out: dict[str, list[str]]
                ) -> tuple[dict[str, tuple[str, str, str]], dict[str, str], dict[str, str]]:
    """The units after the moves, the moves made (province -> destination) and the units
    dislodged (province -> its dislodger's province); a failed move's result in `out`."""
    units, by_prov, value = m.units, m.order, m.value
    # the units that stay keep their order; the ones that moved come after, in order of moving
    new_units = dict(units)
    moved: dict[str, str] = {}  # prov -> destination (location)
    dislodged: dict[str, str] = {}  # prov -> its dislodger's province
    movers = m.movers
    for p, dp in movers.items():
        if value[p]:
            moved[p] = by_prov[p].dest
            del new_units[p]
            if dp in units and (dp not in movers or not value[dp]):
                dislodged[dp] = p
                del new_units[dp]
        else:
            out[p].append(NO_CONVOY if p in m.convoyers and not m.path(p) else BOUNCE)
    for p, dest in moved.items():
        u = units[p]
        new_units[dest[:3]] = (u[0], u[1], dest)
    return new_units, moved, dislodged


def _convoys_the_move(by_prov: dict[str, Order], o: Order) -> bool:
    """The convoy order `o` is for the move its army is ordered to make (same army, same destination)."""
    a = by_prov.get(o.target[:3])
    return a is not None and a.kind == "-" and a.utype == "A" and a.dest == o.dest


def _failed_convoys(m: _Orders, out: dict[str, list[str]], dislodged: dict[str, str]) -> None:
    """The words of a convoyed move that failed for want of its convoy (the army's own result is
    "no convoy"), on the units that had nothing else to report: each fleet convoying it, unless
    dislodged, "no convoy", or "disrupted" where the paradox rule cancelled the convoy because
    the fleet's own dislodgement depended on it; each support given to the move, "no convoy"."""
    value, paradox = m.value, m.paradox
    for p, fleets in m.convoyers.items():
        if value[p] or m.path(p):
            continue
        for f in sorted(fleets):
            if f not in dislodged and not out[f]:
                out[f].append(DISRUPTED if f in paradox else NO_CONVOY)
        for s in m.supports.get(p, ()):
            if value[s]:
                out[s].append(NO_CONVOY)


def _board_after_moves(board: Board, new_units: dict[str, tuple[str, str, str]]) -> Board:
    """The board after a movement phase, in its retreat phase, with no dislodged unit yet."""
    after = Board.__new__(Board)
    after._cache = {}
    after.year, after.season, after.phase_kind = board.year, board.season, "R"
    after.centres = board.centres  # replaced, never mutated, when centres change hands
    after.units = new_units
    after.dislodged = {}
    return after


def _dislodge(m: _Orders, out: dict[str, list[str]], after: Board, moved: dict[str, str],
              dislodged: dict[str, str]) -> dict[str, str]:
    """Mark the dislodged units, give each its retreat options on `after` (or disband it when it
    has none); returns dislodged unit -> its dislodger's province."""
    units = m.units
    for p in dislodged:
        out[p].append(DISLODGED)  # a convoying fleet too: "dislodged" says it, not "disrupted"
    standoff = _standoffs(m, moved, dislodged)
    new_units = after.units
    named: dict[str, str] = {}  # dislodged unit -> its dislodger's province
    for p, by in dislodged.items():
        power, utype, loc = units[p]
        from_sea = m.by_sea(by)
        options = []
        adj = FLEET_ADJ.get(loc, ()) if utype == "F" else ARMY_ADJ.get(loc, ())
        for d in sorted(adj):
            dp = d[:3]
            if dp in new_units or dp in standoff or (dp == by and not from_sea):
                continue
            options.append(d)
        if options:
            after.dislodged[p] = (power, utype, loc, tuple(options))
        else:  # nowhere to go: disbanded at once, no retreat phase for it
            out[p].append(DISBAND)
        named[f"{utype} {loc}"] = by
    return named


def _standoffs(m: _Orders, moved: dict[str, str], dislodged: dict[str, str]) -> set[str]:
    """Provinces left empty by a standoff: a move made there failed, other than the loser of a
    head-to-head battle. A dislodged unit may not retreat there (nor into an occupied province,
    nor to its dislodger's origin unless the dislodger came by convoy)."""
    standoff = set()
    for p, dp in m.movers.items():
        if p in moved or not m.live(p) or p in m.szykman:
            continue
        if p in dislodged and dislodged[p] == dp and m.head_to_head(p) is not None:
            continue
        standoff.add(dp)
    return standoff


# -- retreats and adjustments --------------------------------------------------------------

def _retreats(board: Board, orders: dict[str, list[Order]]) -> Resolution:
    dis = board.dislodged
    chosen: dict[str, Order] = {}
    for power, os in orders.items():
        for o in os:
            d = dis.get(o.loc[:3]) if o.loc else None
            if d is not None and d[0] == power and d[2] == o.loc and o.kind in "RD" \
                    and (o.kind == "D" or o.dest in d[3]):
                chosen[o.loc[:3]] = o
    targets: dict[str, int] = {}
    for o in chosen.values():
        if o.kind == "R":
            targets[o.dest[:3]] = targets.get(o.dest[:3], 0) + 1
    after = board.clone()
    after.dislodged = {}
    results: dict[str, list[str]] = {}
    used: dict[str, list[Order]] = {}
    for p in sorted(dis):
        power, utype, loc, _ = dis[p]
        o = chosen.get(p) or Order("D", utype, loc)
        used.setdefault(power, []).append(o)
        unit = f"{utype} {loc}"
        if o.kind == "R" and targets[o.dest[:3]] == 1:
            after.units[o.dest[:3]] = (power, utype, o.dest)
            results[unit] = []
        elif o.kind == "R":
            results[unit] = [BOUNCE, DISBAND]
        else:
            results[unit] = [DISBAND]
    res = Resolution(board.phase, used, results, after)
    _advance(after, res)
    return res


def _adjustments(board: Board, orders: dict[str, list[Order]]) -> Resolution:
    after = board.clone()
    results: dict[str, list[str]] = {}
    used: dict[str, list[Order]] = {}
    for power in sorted(HOMES):
        n = board.adjustment(power)
        mine = orders.get(power, [])
        out = used.setdefault(power, [])
        if n > 0:
            built: set[str] = set()
            for o in mine:
                if o.kind == "W" and len(out) < n:
                    out.append(o)
                if o.kind == "B" and len(out) >= n:
                    results.setdefault(f"{o.utype} {o.loc}", [VOID])
                if o.kind != "B" or len(out) >= n:
                    continue
                prov = o.loc[:3]
                if prov in built or prov not in board.build_sites(power):
                    results[f"{o.utype} {o.loc}"] = [VOID]
                    continue
                built.add(prov)
                after.units[prov] = (power, o.utype, o.loc)
                results[f"{o.utype} {o.loc}"] = []
                out.append(o)
            out += [Order("W")] * (n - len(out))
        elif n < 0:
            gone: list[str] = []
            for o in mine:
                u = board.units.get(o.loc[:3]) if o.kind == "D" else None
                if u is not None and u[0] == power and u[2] == o.loc and len(gone) < -n \
                        and o.loc[:3] not in gone:
                    gone.append(o.loc[:3])
                    out.append(o)
                elif o.kind == "D" and o.loc[:3] not in gone:
                    results[f"{o.utype} {o.loc}"] = [VOID]
            for p in civil_disorder_removals(board, power, -n - len(gone), set(gone)):
                gone.append(p)
                u = board.units[p]
                out.append(Order("D", u[1], u[2]))
            for p in gone:
                u = after.units.pop(p)
                results[f"{u[1]} {u[2]}"] = []
        if not out:
            del used[power]
    res = Resolution(board.phase, used, results, after)
    _advance(after, res)
    return res


def civil_disorder_removals(board: Board, power: str, n: int, skip: set[str] = frozenset()) -> list[str]:
    """Provinces of the `n` units removed in civil disorder: furthest from a home centre first
    (armies count steps over any province, fleets over their own moves), fleets before armies
    at equal distance, then alphabetical (2000 rulebook, as the reference engine does)."""
    if n <= 0:
        return []
    ranked = []
    for p, (pw, utype, loc) in board.units.items():
        if pw == power and p not in skip:
            ranked.append((-_home_distance(utype, loc, HOMES[power]), 0 if utype == "F" else 1,
                           f"{utype} {loc}", p))
    ranked.sort()
    return [r[3] for r in ranked[:n]]


def _home_distance(utype: str, loc: str, homes: frozenset[str]) -> int:
    frontier, seen, dist = [loc], {loc}, 0
    while frontier:
        if any(x[:3] in homes for x in frontier):
            return dist
        nxt = []
        for x in frontier:
            if utype == "A":
                step = _any_adjacent(x[:3])
            else:
                step = FLEET_ADJ.get(x, ())
            for y in step:
                if y not in seen:
                    seen.add(y)
                    nxt.append(y)
        frontier, dist = nxt, dist + 1
    return 99999


_ANY_ADJ: dict[str, frozenset[str]] = {}


def _any_adjacent(p: str) -> frozenset[str]:
    """Provinces next to `p` by land or by sea (an army's distance ignores terrain)."""
    got = _ANY_ADJ.get(p)
    if got is None:
        locs = COASTS.get(p, ()) + ((p,) if p in FLEET_ADJ else ())
        got = ARMY_ADJ.get(p, frozenset()) | frozenset(x[:3] for l in locs for x in FLEET_ADJ[l])
        _ANY_ADJ[p] = got
    return got


# -- the phase sequence --------------------------------------------------------------------

def _advance(board: Board, res: Resolution) -> None:
    """Move `board` to the next phase that needs orders: retreats only with dislodged units;
    in winter, centres change hands and adjustments happen only where someone builds or removes."""
    board.changed()
    for _ in range(3):  # at most: fall movement -> retreats -> winter adjustments -> next spring
        s, k = board.season, board.phase_kind
        if k == "M":
            board.phase_kind = "R"
            if board.dislodged:
                return
            continue
        if k == "R":
            board.dislodged = {}
            if s == "S":
                board.season, board.phase_kind = "F", "M"
                return
            board.season, board.phase_kind = "W", "A"
            capture_centres(board)
            res.winters.append(board.year)
            if _adjusts(board):
                return
            continue
        # after adjustments
        board.year += 1
        board.season, board.phase_kind = "S", "M"
        return
    raise RuntimeError(f"no phase needing orders after {board.phase}")


def _adjusts(board: Board) -> bool:
    """Some power builds or removes (`board.adjustment(power) != 0` for some power)."""
    centres, units = board.centres, board.units
    owned = list(centres.values())
    have = [u[0] for u in units.values()]
    for power, homes in HOMES.items():
        diff = owned.count(power) - have.count(power)
        if diff < 0:
            return True
        if diff > 0:
            for c in homes:  # a build site: an owned home centre, free
                if centres.get(c) == power and c not in units:
                    return True
    return False


def capture_centres(board: Board) -> None:
    """Each supply centre goes to the power with a unit in it (winter, after fall retreats)."""
    units = board.units
    centres = board.centres = dict(board.centres)  # boards may share the dict: copy before writing
    for prov in [p for p in units if p in CENTRES]:
        centres[prov] = units[prov][0]
    board.changed()
