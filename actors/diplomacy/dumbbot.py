"""DumbBot (David Norman, 2002) for standard Diplomacy, reimplemented from the published
description of its algorithm and constants (/work/shared/references/diplomacy-bots.md, 3.1; the
C++ is non-commercial: none of it is used here).

Stage 1 values every location a unit can stand on ("coast": `A PAR`, `F SPA/NC`) for one power:
power sizes `A n^2 + B n + C`; attack values of others' centres, defence values of our own;
proximity maps (the attack/defence blend, blurred ten times over the unit's adjacency, /5);
strength and competition of provinces; and a destination value per coast for the season.
Stage 2 turns values into orders with a randomised walk down the candidates.

Choices where the description leaves room or names a quirk (all switchable in `DumbBotParams`
unless noted):
- Unowned centres belong to a pseudo neutral power: attack = size(#unowned) (208 at the start), as
  the C++ does (`neutral_attack="size"`); the Python port of diplomacy/research gives 0 ("zero").
- Strength/competition add 1 per adjacent *coast* (`coast_double_count=True`, the C++ quirk): a
  fleet in MAO counts twice for SPA, one in CON twice for BUL.
- The own coast enters the movement candidates with value + 1 (so a hold wins a tie), as described.
- The walk: from candidate i go on to i+1 when rand(100) < PLAY_ALTERNATIVE and rand(100) >=
  |v_i - v_i+1| * ALTERNATIVE_DIFFERENCE_MODIFIER / |v_i| (C-style truncating integer division;
  two draws, the second only when the first passes, as the description's `and`). Magnitudes are
  used so the walk behaves the same with negative values and on the ascending removal list; with
  v_i = 0 the second test always passes (the C++ would divide by zero; the Python port does this).
- Equal values keep every tied unit in the removal list (the C++ `remove_map`, keyed by value,
  keeps only one of them: not replicated). Ties sort in insertion order (own coast first, then
  the adjacency in sorted order; units and build sites in province order).
- Postponing: a unit whose chosen province holds our unordered unit goes back into the queue just
  after that unit. Provinces of units waiting (directly or through others) on the unit being
  ordered are left out of its candidates, so two units cannot wait on each other forever, and a
  unit is postponed at most `len(units)` times (then that candidate is rejected) as a safety net.
- Only units on the board (not dislodged ones) count for defence, strength and competition.
- Wasted holds: a unit left holding supports the friendly move into an adjacent province (if its
  competition > 0) or the friendly non-moving unit in one (if competition > 1) with the highest
  destination value there; holders are visited in province order.
- Retreats are valued with the season's movement weights; builds and removals with the winter
  values (spring attack/defence pair, build/remove proximity weights, defence weight).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from games.diplomacy.board import ARMY_ADJ, CENTRES, COASTS, FLEET_ADJ, KIND, POWERS, Board

NEUTRAL = "NEUTRAL"
_DEPTH = 10  # PROXIMITY_DEPTH: proximity maps 0..9
_BLUR = 5  # each deeper map is (own + neighbours) / 5


class DumbBotParams(BaseModel):
    """DumbBot's constants; defaults are the original constructor's (reference 3.1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    size_a: int = 1  # power size A n^2 + B n + C (the 2019 refactor's A = -1 is a bug)
    size_b: int = 4
    size_c: int = 16
    spring_attack: int = 700  # proximity[0] = attack * AW + defence * DW; winter uses spring's
    spring_defence: int = 300
    fall_attack: int = 600
    fall_defence: int = 400
    spring_proximity: tuple[int, ...] = (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1)
    fall_proximity: tuple[int, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    build_proximity: tuple[int, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    remove_proximity: tuple[int, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    spring_strength: int = 1000
    spring_competition: int = 1000
    fall_strength: int = 1000
    fall_competition: int = 1000
    build_defence: int = 1000
    remove_defence: int = 1000
    play_alternative: int = Field(50, ge=0, le=100)  # % chance to consider the next candidate
    alternative_difference_modifier: int = Field(500, ge=0)
    neutral_attack: Literal["size", "zero"] = "size"
    coast_double_count: bool = True

    @field_validator("spring_proximity", "fall_proximity", "build_proximity", "remove_proximity")
    @classmethod
    def _ten(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if len(value) != _DEPTH:
            raise ValueError(f"proximity weights: {_DEPTH} numbers, one per proximity map (got {len(value)})")
        return value


DEFAULT_PARAMS = DumbBotParams()


# -- the map as coasts: where a unit can stand, and what it is next to ------------------------

def _coasts() -> tuple[dict[str, str], dict[str, tuple[tuple[str, ...], ...]]]:
    prov: dict[str, str] = {}
    adj: dict[str, list[str]] = {}
    for p, dests in sorted(ARMY_ADJ.items()):
        prov[f"A {p}"] = p
        adj[f"A {p}"] = [f"A {d}" for d in sorted(dests)]
    for loc, dests in sorted(FLEET_ADJ.items()):
        prov[f"F {loc}"] = loc[:3]
        adj[f"F {loc}"] = [f"F {d}" for d in sorted(dests)]
    grouped = {}
    for node, nodes in adj.items():
        by_prov: dict[str, list[str]] = {}
        for n in nodes:
            by_prov.setdefault(prov[n], []).append(n)
        grouped[node] = tuple(tuple(ns) for _, ns in sorted(by_prov.items()))
    return prov, grouped


# coast -> its province; coast -> adjacent coasts grouped by province (two coasts of one province
# are one neighbour for the proximity blur, two for strength/competition with the quirk on)
PROVINCE_OF, NEIGHBOURS = _coasts()
COAST_NAMES = tuple(sorted(PROVINCE_OF))
# the blur by position in COAST_NAMES (the hot loop of `evaluate`): per coast, its single-coast
# neighbours and its groups of two coasts of one province
_AT = {n: i for i, n in enumerate(COAST_NAMES)}
_BLUR_PLAN = tuple(
    (i, tuple(_AT[g[0]] for g in NEIGHBOURS[n] if len(g) == 1),
     tuple(tuple(_AT[x] for x in g) for g in NEIGHBOURS[n] if len(g) > 1))
    for i, n in enumerate(COAST_NAMES)
)


def unit_coast(utype: str, loc: str) -> str:
    """The coast name of a unit: `A PAR`, `F STP/NC`."""
    return f"{utype} {loc}"


def _cdiv(a: int, b: int) -> int:
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


# -- stage 1: values ------------------------------------------------------------------------

@dataclass
class Evaluation:
    """DumbBot's stage-1 numbers for one power on one board."""

    power: str
    size: dict[str, int]  # power (and NEUTRAL) -> size
    attack: dict[str, int]  # province -> attack value (centres not ours)
    defence: dict[str, int]  # province -> defence value (our centres)
    proximity: list[dict[str, int]]  # depth -> coast -> value
    strength: dict[str, int]  # province -> our units next to / in it
    competition: dict[str, int]  # province -> most units of one other power next to / in it
    value: dict[str, int] = field(default_factory=dict)  # coast -> destination value


def evaluate(board: Board, power: str, params: DumbBotParams = DEFAULT_PARAMS) -> Evaluation:
    """Stage 1 for `power`: sizes, attack/defence, proximity maps, strength, competition, values."""
    owned: dict[str, int] = {p: 0 for p in POWERS}
    for c in CENTRES:
        owner = board.centres.get(c)
        if owner is not None:
            owned[owner] = owned.get(owner, 0) + 1
    owned[NEUTRAL] = len(CENTRES) - sum(owned.values())
    a, b, c_ = params.size_a, params.size_b, params.size_c
    size = {p: a * n * n + b * n + c_ for p, n in owned.items()}

    reach = _reach(board)  # province -> power -> units that could move in (per coast if quirk on)
    attack: dict[str, int] = {}
    defence: dict[str, int] = {}
    for c in sorted(CENTRES):
        owner = board.centres.get(c)
        if owner == power:
            enemies = [q for q in reach["move"].get(c, ()) if q != power]
            defence[c] = max((size[q] for q in enemies), default=0)
        elif owner is not None:
            attack[c] = size[owner]
        elif params.neutral_attack == "size":
            attack[c] = size[NEUTRAL]

    spring_pair = (params.spring_attack, params.spring_defence)
    aw, dw = (params.fall_attack, params.fall_defence) if board.season == "F" else spring_pair
    prox = [{n: attack.get(p, 0) * aw + defence.get(p, 0) * dw for n, p in PROVINCE_OF.items()}]
    # each deeper map: (own + the max over each neighbouring province's coasts) // 5, in integers
    cur = [prox[0][n] for n in COAST_NAMES]
    levels = [cur]
    for _ in range(1, _DEPTH):
        prev = cur
        cur = [(prev[i] + sum([prev[j] for j in ones]) + sum([max([prev[x] for x in g]) for g in twos])) // _BLUR
               for i, ones, twos in _BLUR_PLAN]
        levels.append(cur)
        prox.append(dict(zip(COAST_NAMES, cur)))

    counts = reach["count" if params.coast_double_count else "once"]
    strength = {p: pw.get(power, 0) for p, pw in counts.items()}
    competition = {p: max((k for q, k in pw.items() if q != power), default=0) for p, pw in counts.items()}
    ev = Evaluation(power, size, attack, defence, prox, strength, competition)

    if board.phase_kind == "A":
        building = board.adjustment(power) >= 0
        weights = params.build_proximity if building else params.remove_proximity
        defw = params.build_defence if building else params.remove_defence
        ev.value = {n: _weighted(levels, i, weights) + defence.get(PROVINCE_OF[n], 0) * defw
                    for i, n in enumerate(COAST_NAMES)}
    else:
        fall = board.season == "F"
        weights = params.fall_proximity if fall else params.spring_proximity
        sw = params.fall_strength if fall else params.spring_strength
        cw = params.fall_competition if fall else params.spring_competition
        ev.value = {n: _weighted(levels, i, weights)
                    + strength.get(PROVINCE_OF[n], 0) * sw - competition.get(PROVINCE_OF[n], 0) * cw
                    for i, n in enumerate(COAST_NAMES)}
    return ev


def _weighted(levels: list[list[int]], i: int, weights: tuple[int, ...]) -> int:
    """Sum over the proximity maps of coast i's value times the map's weight."""
    return sum([level[i] * w for level, w in zip(levels, weights)])


def _reach(board: Board) -> dict[str, dict[str, dict[str, int]]]:
    """Per province and power: "move" (any unit able to move in), "count" (1 per unit in it plus
    1 per adjacent coast of each unit: the C++ counting) and "once" (1 per unit in or next to it)."""
    move: dict[str, dict[str, int]] = {}
    count: dict[str, dict[str, int]] = {}
    once: dict[str, dict[str, int]] = {}
    for p, (pw, utype, loc) in sorted(board.units.items()):
        node = unit_coast(utype, loc)
        for table, provs in ((count, [p] + [PROVINCE_OF[x] for g in NEIGHBOURS[node] for x in g]),
                             (once, [p] + [PROVINCE_OF[g[0]] for g in NEIGHBOURS[node]]),
                             (move, [PROVINCE_OF[g[0]] for g in NEIGHBOURS[node]])):
            for q in provs:
                row = table.setdefault(q, {})
                row[pw] = row.get(pw, 0) + 1
    return {"move": move, "count": count, "once": once}


# -- stage 2: orders -------------------------------------------------------------------------

def walk(rng: random.Random, values: list[int], params: DumbBotParams = DEFAULT_PARAMS) -> int:
    """Index of the candidate chosen walking down `values` (ordered, the preferred first)."""
    i = 0
    while i + 1 < len(values):
        if rng.randrange(100) >= params.play_alternative:
            break
        cur, nxt = values[i], values[i + 1]
        threshold = _cdiv(abs(cur - nxt) * params.alternative_difference_modifier, abs(cur)) if cur else 0
        if rng.randrange(100) < threshold:
            break
        i += 1
    return i


@dataclass
class Plan:
    """A power's orders for one phase, with the ranked alternatives each was chosen from.

    `orders`: unit (`A PAR`) -> order in movement and retreat phases; `adjustments`: the build
    or removal orders in the order chosen (WAIVE fills unused builds). `ranked`: unit -> list of
    (order, utility), best first, the chosen order on top (movement and retreats)."""

    phase: str
    orders: dict[str, str] = field(default_factory=dict)
    adjustments: list[tuple[str, float]] = field(default_factory=list)
    ranked: dict[str, list[tuple[str, float]]] = field(default_factory=dict)

    def order_set(self) -> list[str]:
        """Every order of the phase (for a whole-power adjudication)."""
        return [o for _, o in sorted(self.orders.items())] + [o for o, _ in self.adjustments]


def plan(board: Board, power: str, rng: random.Random, params: DumbBotParams = DEFAULT_PARAMS,
         ev: Evaluation | None = None) -> Plan:
    """DumbBot's orders for `power` in the board's phase; a pure function of its arguments
    (`rng` is advanced)."""
    ev = ev or evaluate(board, power, params)
    out = Plan(board.phase)
    if board.phase_kind == "M":
        _movement(board, power, rng, params, ev, out)
    elif board.phase_kind == "R":
        _retreats(board, power, rng, params, ev, out)
    else:
        n = board.adjustment(power)
        if n > 0:
            _builds(board, power, n, rng, params, ev, out)
        elif n < 0:
            _removals(board, power, -n, rng, params, ev, out)
    return out


def _ranked(cands: list[tuple[int, str]], chosen: str, order_of) -> list[tuple[str, float]]:
    top = max(v for v, _ in cands) + 1
    rest = [(order_of(n), float(v)) for v, n in cands if order_of(n) != chosen]
    return [(chosen, float(top))] + rest


def _movement(board: Board, power: str, rng: random.Random, params: DumbBotParams, ev: Evaluation,
              out: Plan) -> None:
    value, competition = ev.value, ev.competition
    mine = {p: unit_coast(u[1], u[2]) for p, u in sorted(board.units.items()) if u[0] == power}
    order_of_units = sorted(mine)
    rng.shuffle(order_of_units)
    queue = deque(order_of_units)
    ordered: dict[str, str] = {}  # province -> order
    moving: dict[str, str] = {}  # destination province -> province of our unit moving there
    moves_from: set[str] = set()
    waits_on: dict[str, str] = {}  # unordered province -> province it waits for
    postponed: dict[str, int] = {}
    considered: dict[str, list[tuple[int, str]]] = {}  # unit -> its candidates when it was ordered
    while queue:
        p = queue.popleft()
        me = mine[p]
        waiting = _waiters(p, waits_on, ordered)
        cands = [(value[me] + 1, me)] + [(value[n], n) for group in NEIGHBOURS[me] for n in group
                                         if PROVINCE_OF[n] not in waiting]
        cands.sort(key=lambda c: -c[0])
        all_cands = list(cands)
        while True:
            i = walk(rng, [v for v, _ in cands], params)
            dest = cands[i][1]
            dp = PROVINCE_OF[dest]
            order = None
            if dp == p:
                order = f"{me} H"
            elif dp in mine and dp not in ordered:
                if postponed.get(p, 0) < len(mine):
                    postponed[p] = postponed.get(p, 0) + 1
                    waits_on[p] = dp
                    queue.insert(queue.index(dp) + 1, p)
                    break
            elif dp in mine and dp not in moves_from:
                if competition.get(dp, 0) > 1:
                    order = f"{me} S {mine[dp]}"
            elif dp in moving:
                if competition.get(dp, 0) > 0:
                    order = f"{me} S {mine[moving[dp]]} - {dp}"
            else:
                order = f"{me} - {dest[2:]}"
                moving[dp] = p
                moves_from.add(p)
            if order is not None:
                ordered[p] = order
                waits_on.pop(p, None)
                considered[me] = all_cands
                break
            cands.pop(i)  # rejected: walk again from the top of what is left
    _wasted_holds(mine, ordered, moving, moves_from, ev)
    for p, order in sorted(ordered.items()):
        unit = mine[p]
        out.orders[unit] = order
        out.ranked[unit] = _ranked(considered[unit], order, lambda n, me=unit: _move_text(me, n))


def _move_text(unit: str, dest: str) -> str:
    return f"{unit} H" if dest == unit else f"{unit} - {dest[2:]}"


def _waiters(p: str, waits_on: dict[str, str], ordered: dict[str, str]) -> set[str]:
    """Unordered provinces whose chain of waiting reaches `p`."""
    found: set[str] = set()
    for q in sorted(waits_on):
        seen, cur = set(), q
        while cur in waits_on and cur not in ordered and cur not in seen:
            seen.add(cur)
            cur = waits_on[cur]
            if cur == p:
                found.add(q)
                break
    return found


def _wasted_holds(mine: dict[str, str], ordered: dict[str, str], moving: dict[str, str],
                  moves_from: set[str], ev: Evaluation) -> None:
    for p in sorted(ordered):
        if not ordered[p].endswith(" H"):
            continue
        me = mine[p]
        best: tuple[int, str] | None = None
        for group in NEIGHBOURS[me]:
            dp = PROVINCE_OF[group[0]]
            comp = ev.competition.get(dp, 0)
            if dp in moving and comp > 0:
                src = moving[dp]
                dest = ordered[src].split(" - ")[1]
                v, order = ev.value[f"{mine[src][0]} {dest}"], f"{me} S {mine[src]} - {dp}"
            elif dp in mine and dp not in moves_from and comp > 1:
                v, order = ev.value[mine[dp]], f"{me} S {mine[dp]}"
            else:
                continue
            if best is None or v > best[0]:
                best = (v, order)
        if best is not None:
            ordered[p] = best[1]


def _retreats(board: Board, power: str, rng: random.Random, params: DumbBotParams, ev: Evaluation,
              out: Plan) -> None:
    mine = sorted(p for p, d in board.dislodged.items() if d[0] == power)
    rng.shuffle(mine)
    taken: set[str] = set()
    for p in mine:
        _, utype, loc, options = board.dislodged[p]
        me = unit_coast(utype, loc)
        cands = sorted(((ev.value[unit_coast(utype, d)], unit_coast(utype, d)) for d in options),
                       key=lambda c: -c[0])
        all_cands = list(cands)
        order = f"{me} D"
        while cands:
            i = walk(rng, [v for v, _ in cands], params)
            dest = cands[i][1]
            if PROVINCE_OF[dest] in taken:
                cands.pop(i)
                continue
            taken.add(PROVINCE_OF[dest])
            order = f"{me} R {dest[2:]}"
            break
        out.orders[me] = order
        ranked = [(f"{me} R {n[2:]}", float(v)) for v, n in all_cands]
        top = max((v for _, v in ranked), default=0.0) + 1
        out.ranked[me] = [(order, top)] + [r for r in ranked if r[0] != order] + (
            [(f"{me} D", min((v for _, v in ranked), default=0.0) - 1)] if order != f"{me} D" else [])


def _builds(board: Board, power: str, n: int, rng: random.Random, params: DumbBotParams, ev: Evaluation,
            out: Plan) -> None:
    cands: list[tuple[int, str]] = []
    for c in board.build_sites(power):
        if KIND[c] != "WATER":
            cands.append((ev.value[f"A {c}"], f"A {c}"))
        if KIND[c] == "COAST":
            for loc in COASTS.get(c, (c,)):
                cands.append((ev.value[f"F {loc}"], f"F {loc}"))
    cands.sort(key=lambda x: -x[0])
    while len(out.adjustments) < n and cands:
        i = walk(rng, [v for v, _ in cands], params)
        v, node = cands[i]
        out.adjustments.append((f"{node} B", float(v)))
        cands = [x for x in cands if PROVINCE_OF[x[1]] != PROVINCE_OF[node]]
    out.adjustments += [("WAIVE", 0.0)] * (n - len(out.adjustments))


def _removals(board: Board, power: str, n: int, rng: random.Random, params: DumbBotParams, ev: Evaluation,
              out: Plan) -> None:
    cands = sorted(((ev.value[unit_coast(u[1], u[2])], unit_coast(u[1], u[2]))
                    for _, u in sorted(board.units.items()) if u[0] == power), key=lambda x: x[0])
    while len(out.adjustments) < n and cands:
        i = walk(rng, [v for v, _ in cands], params)
        v, node = cands.pop(i)
        out.adjustments.append((f"{node} D", float(-v)))  # the least valuable is the best removal
