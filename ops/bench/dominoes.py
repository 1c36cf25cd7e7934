"""Random four-player Dominoes hands per second: our rules against the `dominoes` package (test-only,
MIT) in the same run, and through the whole stack (referee, bus, log in memory).

    python -m ops.bench.dominoes [--seconds 5]

Each side plays uniformly random legal moves until the hand ends (a player goes out or nobody can
play). Ours: `Dominoes` with target=1, so a match is one scored hand (deal, the [6|6] opening, play).
The package: `dominoes.Game.new()` (it deals and lays [6|6] itself). Rates are hands per CPU-second,
measured interleaved (ours, theirs, ours, ...) and the best of each kept. Goal: ours at
least as fast (the package takes ~0.26 ms a hand on its authors' machine).
"""

from __future__ import annotations

import argparse
import random
import time


def ours(seconds: float) -> float:
    from games.dominoes.rules import Dominoes

    game = Dominoes()
    opts = game.options({"target": 1})
    n, t0 = 0, time.process_time()
    rng = random.Random(1)
    while time.process_time() - t0 < seconds:
        state = game.new_initial_state(opts)
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
        n += 1
    return n / (time.process_time() - t0)


def theirs(seconds: float) -> float | None:
    try:
        import dominoes
    except ImportError:
        return None
    random.seed(1)  # the package draws its deals from the global generator
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        g = dominoes.Game.new()
        while g.result is None:
            moves = g.valid_moves
            g.make_move(*moves[random.randrange(len(moves))])
        n += 1
    return n / (time.process_time() - t0)


def stack(seconds: float) -> float:
    from actors.match import make_header, record
    from actors.registry import parse_lineup

    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        record(make_header("dominoes", n, parse_lineup("random", 4), {"target": 1}))
        n += 1
    return n / (time.process_time() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measurement")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    best = {"ours": 0.0, "theirs": 0.0, "stack": 0.0}
    for _ in range(args.rounds):
        best["ours"] = max(best["ours"], ours(args.seconds))
        t = theirs(args.seconds)
        best["theirs"] = max(best["theirs"], t or 0.0)
        best["stack"] = max(best["stack"], stack(args.seconds))
    print(f"rules alone: {best['ours']:,.0f} hands/s ({1000 / best['ours']:.3f} ms a hand)")
    if best["theirs"]:
        print(f"dominoes package: {best['theirs']:,.0f} hands/s ({1000 / best['theirs']:.3f} ms a hand); "
              f"ours / package {best['ours'] / best['theirs']:.2f}")
    else:
        print("dominoes package: not installed (pip install dominoes, a test-only reference)")
    print(f"through the stack (random agents, log in memory): {best['stack']:,.0f} hands/s")


if __name__ == "__main__":
    main()
