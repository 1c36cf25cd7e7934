"""Differential play against the `diplomacy` package (test-only reference engine, AGPL; never
imported by product code). Both engines get the same random orders, drawn from our legal orders;
after every phase the positions must agree: phase name, units, dislodged units and their retreat
options, centre owners, builds allowed. A mismatch is reported as a minimal reproducible case:
the position before the phase and the orders given.

Run directly for many games: `python -m tests.diplomacy.differential 1000`.
"""

from __future__ import annotations

import random
import sys
import time

from games.diplomacy.adjudicator import resolve
from games.diplomacy.board import (
    ARMY_ADJ,
    POWERS,
    Board,
    build_orders,
    disband_orders,
    movement_orders,
    parse_order,
    retreat_orders,
)
from tests.bounds import bounded


class Mismatch(AssertionError):
    pass


def random_orders(board: Board, rng: random.Random) -> dict[str, list[str]]:
    """One uniformly random legal order per unit / build slot, per power."""
    out: dict[str, list[str]] = {}
    kind = board.phase_kind
    for power in POWERS:
        mine: list[str] = []
        if kind == "M":
            for p in sorted(board.units):
                if board.units[p][0] == power:
                    mine.append(rng.choice(movement_orders(board, p)))
        elif kind == "R":
            for p in sorted(board.dislodged):
                if board.dislodged[p][0] == power:
                    mine.append(rng.choice(retreat_orders(board, p)))
        else:
            n = board.adjustment(power)
            taken: set[str] = set()
            for _ in range(abs(n)):
                legal = (build_orders if n > 0 else disband_orders)(board, power, frozenset(taken))
                o = rng.choice(legal)
                if o != "WAIVE":
                    taken.add(o.split()[1][:3])
                mine.append(o)
        if mine:
            out[power] = mine
    if kind == "M":
        _dodge_reference_bug(board, out)
    return out


def _dodge_reference_bug(board: Board, orders: dict[str, list[str]]) -> None:
    """Replace with a hold any support for an attack on a fleet of the supporter's own power that
    is convoying this phase. The reference counts such a support when it decides whether the
    convoy is disrupted (it is not: a power's support never helps dislodge its own unit, DATC
    6.D.12-6.D.14, which our tables cover), so it wrongly cancels the convoy (seed 922)."""
    convoying = {o.split()[1] for os in orders.values() for o in os if " C " in o}
    for power, os in orders.items():
        for i, o in enumerate(os):
            w = o.split()
            if len(w) == 7 and w[2] == "S" and w[5] == "-":
                target = board.units.get(w[6][:3])
                if target is not None and target[0] == power and target[2] in convoying:
                    os[i] = f"{w[0]} {w[1]} H"


def _skip_empty_retreats(game) -> None:
    """The reference keeps occupied provinces in a dislodged unit's retreat list (it drops them
    only when listing orders), so it may open a retreat phase whose units can only disband; we
    disband such units at once. Process that phase (every unit disbands) to compare positions."""
    phase = game.get_current_phase()
    if phase.endswith("R"):
        occupied = {u[2:5] for p in game.powers.values() for u in p.units}
        if all(o[:3] in occupied for p in game.powers.values() for opts in p.retreats.values() for o in opts):
            game.process()


def _for_reference(order: str) -> str:
    """The same order as the reference engine reads it best: a convoyed move to a province the
    army cannot reach by land is written without VIA (same meaning; the reference mishandles
    supports of `... VIA` moves, e.g. it lets the attacked power's own support dislodge it)."""
    w = order.split()
    if w[-1] == "VIA" and w[3] not in ARMY_ADJ.get(w[1], ()):
        return " ".join(w[:-1])
    return order


def package_view(game) -> dict:
    """The reference engine's position in our terms."""
    phase = game.get_current_phase()
    units = {p.name: sorted(p.units) for p in game.powers.values() if p.units}
    centres = {p.name: sorted(p.centers) for p in game.powers.values() if p.centers}
    occupied = {u[2:5] for p in game.powers.values() for u in p.units}
    # the reference keeps occupied provinces in its retreat lists and drops them when listing orders
    # (and a unit left with no option there is one we disband at once: not listed)
    dislodged = {u: sorted(o for o in opts if o[:3] not in occupied)
                 for p in game.powers.values() for u, opts in p.retreats.items()}
    dislodged = {u: opts for u, opts in dislodged.items() if opts}
    builds = {}
    if phase.endswith("A"):
        for p in game.powers.values():
            diff = len(p.centers) - len(p.units)
            if diff > 0:
                diff = min(diff, len(game._build_sites(p)))
            if diff:
                builds[p.name] = diff
    return {"phase": phase, "units": units, "centres": centres, "dislodged": dislodged, "builds": builds}


def our_view(board: Board | None, phase: str) -> dict:
    units: dict[str, list[str]] = {}
    for _, (pw, t, loc) in sorted(board.units.items()):
        units.setdefault(pw, []).append(f"{t} {loc}")
    centres: dict[str, list[str]] = {}
    for c, pw in sorted(board.centres.items()):
        centres.setdefault(pw, []).append(c)
    dislodged = {f"{d[1]} {d[2]}": sorted(d[3]) for d in board.dislodged.values()}
    builds = {}
    if board.phase_kind == "A":
        builds = {p: board.adjustment(p) for p in POWERS if board.adjustment(p)}
    return {"phase": phase, "units": {k: sorted(v) for k, v in units.items()}, "centres": centres,
            "dislodged": dislodged, "builds": builds}


def play_one(seed: int, last_year: int = 1920) -> int:
    """One random game to the end of `last_year`; returns phases compared; raises Mismatch."""
    import diplomacy  # test-only reference engine

    rng = random.Random(seed)
    game = diplomacy.Game()
    board = Board.initial()
    phases = 0
    for _ in bounded(5 * (last_year - 1900) + 5):
        if board.year > last_year:
            break
        before = board
        orders = random_orders(board, rng)
        typed = {p: [parse_order(board, p, o) for o in os] for p, os in orders.items()}
        res = resolve(board, typed)
        for power, os in orders.items():
            game.set_orders(power, [_for_reference(o) for o in os])
        if game.error:
            raise Mismatch(_case(seed, before, orders, f"reference rejected orders: {game.error}"))
        game.process()
        board = res.after
        phases += 1
        _skip_empty_retreats(game)
        mine, ref = our_view(board, board.phase), package_view(game)
        if mine != ref:
            diff = {k: (mine[k], ref[k]) for k in mine if mine[k] != ref[k]}
            raise Mismatch(_case(seed, before, orders, f"after {before.phase}: ours vs reference {diff}"))
    return phases


def _case(seed: int, board: Board, orders: dict[str, list[str]], what: str) -> str:
    lines = [f"seed {seed}: {what}", f"  position {board.phase}:"]
    for power in POWERS:
        units = [f"{t} {loc}" for _, (pw, t, loc) in sorted(board.units.items()) if pw == power]
        dis = [f"{d[1]} {d[2]} (retreats {list(d[3])})" for d in board.dislodged.values() if d[0] == power]
        centres = board.centres_of(power)
        lines.append(f"    {power}: units {units} dislodged {dis} centres {centres}")
    for power, os in orders.items():
        lines.append(f"  {power} orders: {os}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    games = int(argv[1]) if len(argv) > 1 else 100
    first = int(argv[2]) if len(argv) > 2 else 0
    t0, phases, bad = time.perf_counter(), 0, 0
    for seed in range(first, first + games):
        try:
            phases += play_one(seed)
        except Mismatch as exc:
            bad += 1
            print(exc, flush=True)
    dt = time.perf_counter() - t0
    print(f"{games} games, {phases} phases compared, {bad} mismatching games, {dt:.0f}s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
