"""Our Diplomacy engine next to the `diplomacy` package (AGPL; used here only as the measured
reference, never by product code), on the same random orders in one run:

1. adjudication: phases/s of `resolve(board, orders)` vs the package's `process()` (movement
   phases, and all phases), same positions and orders (goal >= 10x);
2. the whole random-play loop: legal orders + random choice + parse + adjudicate, vs the
   package's `get_all_possible_orders()` + `set_orders()` + `process()` (goal >= 5x);
3. cloning a state after 20 years of random play (ours: `DiplomacyState.clone()`, and the
   package's `Game` through `copy.deepcopy`).

    python -m ops.bench.diplomacy_engine [--games 3] [--last-year 1920]
"""

from __future__ import annotations

import argparse
import copy
import gc
import random
import time

from games.diplomacy.adjudicator import resolve
from games.diplomacy.board import ARMY_ADJ, POWERS, Board, parse_order
from games.registry import get_game


def _random_orders(board: Board, rng: random.Random) -> dict[str, list[str]]:
    from games.diplomacy.board import build_orders, disband_orders, movement_orders, retreat_orders

    out: dict[str, list[str]] = {}
    for power in POWERS:
        mine: list[str] = []
        if board.phase_kind == "M":
            mine = [rng.choice(movement_orders(board, p)) for p in sorted(board.units) if board.units[p][0] == power]
        elif board.phase_kind == "R":
            mine = [rng.choice(retreat_orders(board, p)) for p in sorted(board.dislodged) if board.dislodged[p][0] == power]
        else:
            n, taken = board.adjustment(power), set()
            for _ in range(abs(n)):
                o = rng.choice((build_orders if n > 0 else disband_orders)(board, power, frozenset(taken)))
                if o != "WAIVE":
                    taken.add(o.split()[1][:3])
                mine.append(o)
        if mine:
            out[power] = mine
    return out


def _plain(order: str) -> str:
    w = order.split()
    return " ".join(w[:-1]) if w[-1] == "VIA" and w[3] not in ARMY_ADJ.get(w[1], ()) else order


def adjudication(games: int, last_year: int) -> dict[str, float]:
    """Same random games in both engines; time only adjudication (garbage collection off in
    the timed calls of both, so one engine's garbage is not collected on the other's clock)."""
    import diplomacy

    ours = {"M": 0.0, "all": 0.0}
    ref = {"M": 0.0, "all": 0.0}
    count = {"M": 0, "all": 0}
    for seed in range(games):
        rng = random.Random(seed)
        game, board = diplomacy.Game(), Board.initial()
        while board.year <= last_year:
            orders = _random_orders(board, rng)
            typed = {p: [parse_order(board, p, o) for o in os] for p, os in orders.items()}
            kind = board.phase_kind
            gc.disable()
            t0 = time.perf_counter()
            res = resolve(board, typed)
            t1 = time.perf_counter()
            for power, os in orders.items():
                game.set_orders(power, [_plain(o) for o in os])
            t2 = time.perf_counter()
            game.process()
            t3 = time.perf_counter()
            gc.enable()
            board = res.after
            for key in ("all", "M") if kind == "M" else ("all",):
                ours[key] += t1 - t0
                ref[key] += t3 - t2
                count[key] += 1
    return {
        "movement_phases": count["M"],
        "ours_movement_per_s": count["M"] / ours["M"],
        "ref_movement_per_s": count["M"] / ref["M"],
        "all_phases": count["all"],
        "ours_all_per_s": count["all"] / ours["all"],
        "ref_all_per_s": count["all"] / ref["all"],
    }


def loop_ours(games: int, last_year: int) -> tuple[float, Board]:
    phases, t0 = 0, time.perf_counter()
    for seed in range(games):
        rng, board = random.Random(seed), Board.initial()
        while board.year <= last_year:
            orders = _random_orders(board, rng)
            typed = {p: [parse_order(board, p, o) for o in os] for p, os in orders.items()}
            board = resolve(board, typed).after
            phases += 1
    return phases / (time.perf_counter() - t0), board


def loop_reference(games: int, last_year: int):
    import diplomacy

    phases, t0, game = 0, time.perf_counter(), None
    for seed in range(games):
        rng, game = random.Random(seed), diplomacy.Game()
        while int(game.get_current_phase()[1:5]) <= last_year:
            possible = game.get_all_possible_orders()
            for power in game.powers.values():
                locs = game.get_orderable_locations(power.name)
                game.set_orders(power.name, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
            game.process()
            phases += 1
    return phases / (time.perf_counter() - t0), game


def cloning(last_year: int, ref_game) -> dict[str, float]:
    game = get_game("diplomacy")
    state = game.new_initial_state({"max_year": last_year + 1})
    rng = random.Random(0)
    while state.board.year <= last_year:
        state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
    n, t0 = 20000, time.perf_counter()
    for _ in range(n):
        state.clone()
    ours = (time.perf_counter() - t0) / n
    out = {"ours_clone_us": ours * 1e6}
    if ref_game is not None:
        m, t0 = 20, time.perf_counter()
        for _ in range(m):
            copy.deepcopy(ref_game)
        out["ref_deepcopy_us"] = (time.perf_counter() - t0) / m * 1e6
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--last-year", type=int, default=1920)
    args = ap.parse_args()
    a = adjudication(args.games, args.last_year)
    print(f"adjudication, movement phases ({a['movement_phases']}): ours {a['ours_movement_per_s']:,.0f}/s, "
          f"package process() {a['ref_movement_per_s']:,.0f}/s, ratio "
          f"{a['ours_movement_per_s'] / a['ref_movement_per_s']:.1f}x (goal >= 10x)")
    print(f"adjudication, all phases ({a['all_phases']}): ours {a['ours_all_per_s']:,.0f}/s, "
          f"package process() {a['ref_all_per_s']:,.0f}/s, ratio {a['ours_all_per_s'] / a['ref_all_per_s']:.1f}x")
    ours, _ = loop_ours(args.games, args.last_year)
    ref, ref_game = loop_reference(args.games, args.last_year)
    print(f"random-play loop (legal orders + parse + adjudicate): ours {ours:,.0f} phases/s, package "
          f"{ref:,.0f} phases/s, ratio {ours / ref:.1f}x (goal >= 5x)")
    c = cloning(args.last_year, ref_game)
    line = f"clone after 20 years: ours {c['ours_clone_us']:.1f} us"
    if "ref_deepcopy_us" in c:
        line += f", package deepcopy {c['ref_deepcopy_us']:,.0f} us ({c['ref_deepcopy_us'] / c['ours_clone_us']:,.0f}x)"
    print(line)


if __name__ == "__main__":
    main()
