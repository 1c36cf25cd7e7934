"""AlphaDip's tactics (thesis 5.1.1.2, after D-Brane's strategic module): the supply centres a move
guarantees, weighted by goal values, and a branch and bound over them under a node budget.

A *move* is a set of orders for this power's units plus, possibly, supporting orders asked of
other powers. Its utility (our reading of the thesis' equation 5.1, whose page is missing from
the text we have): the sum over the centres it guarantees of this power's goal value for the
centre, each term multiplied, for every other power whose support the centre needs, by
`1 / (1 + trust)` (trust 0 = full trust -> x1; 1 = neutral -> x0.5; higher -> less).

A centre `c` is guaranteed (worst case over single opponents, as D-Brane counts it) when
- one of our units stays in `c` and its hold strength 1 + supports is at least the threat, or
- one of our units moves into `c` with strength 1 + supports greater than the threat,
where the threat of power P on `c` is the number of P's units in `c` or able to move into it,
and the threat is the largest over the powers that count (not our trusted peace partners, not
powers whose predicted goal value for `c` is below GOAL_FLOOR, not units committed elsewhere by
a confirmed deal of a trusted power). Cut supports and convoys are not modelled. Centres we own
that nobody can reach are guaranteed whatever we do: they are left out of the search; so are all
centres we own in spring (ownership changes only in the fall: their defence is left to the Order
Finder, whose DumbBot values weigh it), which keeps spring moves from freezing into holds.

The search (NB3-like: de Jonge & Sierra's negotiation-based branch and bound) walks the targets
in order of their best option, choosing for each one of its options whose units are still free,
or nothing; the bound is the value so far plus the best option of every remaining target. It
stops after `budget` nodes, never after a time, so its result does not depend on machine speed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from games.diplomacy.board import (
    ARMY_ADJ,
    CENTRES,
    FLEET_ADJ,
    FLEET_REACH,
    Board,
    can_move,
    can_reach,
    movement_orders,
)

GOAL_FLOOR = 0.5  # a power whose predicted goal value for a centre is below this is no threat to it
MAX_FOREIGN = 2  # supports asked of other powers for one centre


def help_factor(trust: float) -> float:
    """Utility multiplier for a centre that needs a power's support (trust 0 full, 1 neutral)."""
    return 1.0 / (1.0 + max(0.0, trust))


@dataclass(frozen=True)
class Option:
    """One way to guarantee `centre`: our orders (province -> order) and orders asked of others
    ((power, province, order))."""

    centre: str
    value: float
    orders: tuple[tuple[str, str], ...]
    needs: tuple[tuple[str, str, str], ...] = ()

    def units(self) -> set[str]:
        return {p for p, _ in self.orders} | {p for _, p, _ in self.needs}


@dataclass
class Move:
    """A searched move: our orders, the supports it needs from others, and its utility."""

    value: float
    orders: dict[str, str] = field(default_factory=dict)  # our province -> order
    needs: list[tuple[str, str, str]] = field(default_factory=list)  # (power, province, order)
    centres: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"value": round(self.value, 6), "orders": dict(sorted(self.orders.items())),
                "needs": [list(n) for n in self.needs], "centres": sorted(self.centres)}


@dataclass
class Situation:
    """What the SO knows when it searches (all plain data, built from the KB view)."""

    board: Board
    power: str
    goals: dict[str, float]  # centre -> our goal value
    trust: dict[str, float] = field(default_factory=dict)  # power -> trust (0 full, 1 neutral)
    friends: frozenset[str] = frozenset()  # powers whose units are not counted as threats
    spared: frozenset[str] = frozenset()  # powers whose units and centres we must not attack
    helpers: frozenset[str] = frozenset()  # powers we may ask for support
    predicted: dict[str, dict[str, float]] = field(default_factory=dict)  # power -> centre -> goal
    fixed: dict[str, str] = field(default_factory=dict)  # our province -> committed order
    promised: frozenset[tuple[str, str, str]] | None = None  # the only foreign supports usable
    committed_elsewhere: frozenset[str] = frozenset()  # foreign provinces whose orders are promised
    no_entry: frozenset[str] = frozenset()  # provinces we promised not to enter (DMZ)
    defend: float = 1.0  # weight of keeping a centre we own (vs taking one)
    threat_cap: int = 99  # the most units one opponent is assumed to bring against a centre


def _legal(board: Board, prov: str) -> frozenset[str]:
    cache = board._cache.setdefault("alphadip_legal", {})
    got = cache.get(prov)
    if got is None:
        got = cache[prov] = frozenset(movement_orders(board, prov))
    return got


def _move_order(board: Board, prov: str, target: str) -> str | None:
    _, utype, loc = board.units[prov]
    if utype == "A":
        order = f"A {loc} - {target}"
    else:
        dests = sorted(d for d in FLEET_ADJ.get(loc, ()) if d[:3] == target)
        if not dests:
            return None
        order = f"F {loc} - {dests[0]}"
    return order if order in _legal(board, prov) else None


def _support(board: Board, prov: str, other: str, target: str | None) -> str | None:
    _, utype, loc = board.units[prov]
    _, otype, oloc = board.units[other]
    order = f"{utype} {loc} S {otype} {oloc}" + (f" - {target}" if target else "")
    return order if order in _legal(board, prov) else None


def reachers(board: Board) -> dict[str, list[str]]:
    """Province -> provinces of the units that could move into it, sorted."""
    got = board._cache.get("alphadip_reach")
    if got is None:
        got = {}
        for prov, (_, utype, loc) in sorted(board.units.items()):
            for d in ARMY_ADJ.get(loc, ()) if utype == "A" else FLEET_REACH.get(loc, ()):
                got.setdefault(d, []).append(prov)
        got = {k: sorted(v) for k, v in got.items()}
        board._cache["alphadip_reach"] = got
    return got


def threat(sit: Situation, c: str) -> int:
    """The largest number of units one counted opponent can bring against centre `c`."""
    board = sit.board
    per: dict[str, int] = {}
    occupant = board.units.get(c)
    provs = list(reachers(board).get(c, ()))
    if occupant is not None:
        provs.append(c)
    for prov in provs:
        owner = board.units[prov][0]
        if owner == sit.power or owner in sit.friends or prov in sit.committed_elsewhere:
            continue
        if sit.predicted.get(owner, {}).get(c, 1.0) < GOAL_FLOOR:
            continue
        per[owner] = per.get(owner, 0) + 1
    return min(sit.threat_cap, max(per.values(), default=0))


def targets(sit: Situation) -> list[str]:
    """Centres worth searching: those our units can reach or stand on, less the spared ones and
    our own centres that nobody threatens and no unit of ours stands on."""
    board, me = sit.board, sit.power
    reach = reachers(board)
    out = []
    for c in sorted(CENTRES):
        if c in sit.no_entry and (board.units.get(c) or ("",))[0] != me:
            continue
        occ = board.units.get(c)
        if occ is not None and occ[0] != me and occ[0] in sit.spared:
            continue
        owner = board.centres.get(c)
        if owner in sit.spared and (occ is None or occ[0] != me):
            continue
        mine_here = occ is not None and occ[0] == me
        if not mine_here and not any(board.units[p][0] == me for p in reach.get(c, ())):
            continue
        if owner == me and (board.season == "S" or threat(sit, c) == 0):
            continue  # ours whatever we do (in spring, left to the Order Finder's defence values)
        out.append(c)
    return out


def options(sit: Situation, c: str) -> list[Option]:
    """The ways of guaranteeing centre `c`, best first (at most a few per mover)."""
    board, me = sit.board, sit.power
    goal = sit.goals.get(c, 1.0) * (sit.defend if board.centres.get(c) == me else 1.0)
    need = threat(sit, c)
    occ = board.units.get(c)
    reach = reachers(board).get(c, [])
    own_sup = [p for p in reach if board.units[p][0] == me and p != c]
    foreign = [p for p in reach if board.units[p][0] in sit.helpers and p != c
               and board.units[p][0] != me]
    out: list[Option] = []
    if occ is not None and occ[0] == me:
        fixed = sit.fixed.get(c)
        order = fixed if fixed is not None else f"{occ[1]} {occ[2]} H"
        if fixed is not None and " - " in fixed.split(" S ")[0]:
            return []  # committed to leave
        out += _with_supports(sit, c, goal, max(0, need - 1), ((c, order),), own_sup, foreign, c, None)
    else:
        if c in sit.no_entry:
            return []
        for m in reach:
            if board.units[m][0] != me or (m in sit.fixed and sit.fixed[m] != _move_order(board, m, c)):
                continue
            order = _move_order(board, m, c)
            if order is None:
                continue
            sups = [p for p in own_sup if p != m]
            out += _with_supports(sit, c, goal, need, ((m, order),), sups, foreign, m, c)
    out.sort(key=lambda o: (-o.value, len(o.orders) + len(o.needs), o.orders, o.needs))
    return out


def _with_supports(sit: Situation, c: str, goal: float, k: int, base: tuple, own: list[str],
                   foreign: list[str], supported: str, target: str | None) -> list[Option]:
    """Options giving `supported` k supports: own units first; then, if short, other powers'."""
    board = sit.board
    mine: list[tuple[str, str]] = []
    for p in own:
        if len(mine) == k:
            break
        fixed = sit.fixed.get(p)
        order = _support(board, p, supported, target)
        if order is None or (fixed is not None and fixed != order):
            continue
        mine.append((p, order))
    if len(mine) >= k:
        return [Option(c, goal, base + tuple(mine))]
    short = k - len(mine)
    if short > MAX_FOREIGN:
        return []
    asks: list[tuple[float, str, str, str]] = []
    for p in foreign:
        power = board.units[p][0]
        order = _support(board, p, supported, target)
        if order is None:
            continue
        if sit.promised is not None and (power, p, order) not in sit.promised:
            continue
        asks.append((sit.trust.get(power, 1.0), power, p, order))
    asks.sort()
    if len(asks) < short:
        return []
    needs = tuple((pw, p, o) for _, pw, p, o in asks[:short])
    value = goal
    for pw in sorted({pw for pw, _, _ in needs}):
        value *= help_factor(sit.trust.get(pw, 1.0))
    return [Option(c, value, base + tuple(mine), needs)]


def search(sit: Situation, budget: int, keep: int = 4, foreign: bool = True) -> tuple[list[Move], int]:
    """Branch and bound over the targets' options: the `keep` best moves found within `budget`
    nodes (best first), and the nodes used."""
    table = []
    for c in targets(sit):
        opts = [o for o in options(sit, c) if foreign or not o.needs]
        if opts:
            table.append((c, opts))
    table.sort(key=lambda t: (-t[1][0].value, t[0]))
    suffix = [0.0] * (len(table) + 1)
    for i in range(len(table) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + table[i][1][0].value
    fixed_units = {p for p in sit.fixed}
    best: list[tuple[float, int, list[Option]]] = []  # (value, serial, chosen)
    nodes = 0
    serial = 0

    def record(value: float, chosen: list[Option]) -> None:
        nonlocal serial
        serial += 1
        best.append((value, serial, list(chosen)))
        best.sort(key=lambda b: (-b[0], b[1]))
        del best[keep:]

    def dfs(i: int, value: float, used: set[str], chosen: list[Option]) -> None:
        nonlocal nodes
        nodes += 1
        if i == len(table):
            record(value, chosen)
            return
        floor = best[-1][0] if len(best) >= keep else -1.0
        if value + suffix[i] <= floor:
            return
        _, opts = table[i]
        for o in opts:
            if nodes >= budget:
                break
            units = o.units()
            if units & used:
                continue
            if any(p in fixed_units and sit.fixed[p] != order for p, order in o.orders):
                continue
            chosen.append(o)
            dfs(i + 1, value + o.value, used | units, chosen)
            chosen.pop()
        if nodes < budget or not best:
            dfs(i + 1, value, used, chosen)

    dfs(0, 0.0, set(), [])
    moves = []
    for value, _, chosen in best:
        m = Move(value)
        for o in chosen:
            m.orders.update(dict(o.orders))
            m.needs += list(o.needs)
            m.centres.append(o.centre)
        for p, order in sit.fixed.items():
            m.orders.setdefault(p, order)
        moves.append(m)
    return moves, nodes


def own_goals(board: Board, power: str, aggressiveness: float, spared: Iterable[str] = ()) -> dict[str, float]:
    """This power's goal value per centre (thesis 5.1.1.1: 1 neutral): ours and unowned 1; others'
    0.5 + aggressiveness (1 at the neutral trait); a spared power's centres 0."""
    spared = set(spared)
    out = {}
    for c in sorted(CENTRES):
        owner = board.centres.get(c)
        if owner is None or owner == power:
            out[c] = 1.0
        elif owner in spared:
            out[c] = 0.0
        else:
            out[c] = 0.5 + aggressiveness
    return out


def attacks(order: str) -> str:
    """The province an order moves into or supports a move into ("" if none)."""
    parts = order.split()
    if len(parts) >= 4 and parts[2] == "-":
        return parts[3][:3]
    if len(parts) >= 7 and parts[2] == "S" and parts[5] == "-":
        return parts[6][:3]
    return ""


def can_enter(board: Board, prov: str, target: str) -> bool:
    _, utype, loc = board.units[prov]
    if utype == "A":
        return can_reach(utype, loc, target)
    return any(can_move(utype, loc, d) for d in FLEET_ADJ.get(loc, ()) if d[:3] == target)
