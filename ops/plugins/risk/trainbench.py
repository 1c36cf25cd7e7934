"""What logging costs a training game: the same games played straight on the rules and through the
stack (logged), side by side in one process.

    python -m ops.plugins.risk.trainbench --games 20 --rounds 3

Games 0..N-1 of the shipped run's first batch settings (seed 1, default options: 3 to 6 players,
60 rounds at most), every one from the seed's random network; each game is played unlogged, then
logged, then verified (`replay.verify`, what `detente replay verify` does), round after round,
and each figure is the best of the rounds' CPU times for that game (the box is shared: CPU
time, not wall time, and the best of rounds). Prints games/s of each way, their ratio, the
packed log's bytes per game and the records per game.
"""

from __future__ import annotations

import argparse
import time

from actors.risk.network import random_net
from actors.risk.params import LearnParams, TDParams
from actors.risk.train import train_game
from bus.log import MAGIC, parse_log
from replay.verify import verify_game


def measure(games: int, rounds: int, seed: int = 1) -> dict[str, float]:
    """Best-of-rounds CPU seconds per way, summed over the games; log bytes and records."""
    learn, params, net = LearnParams(), TDParams(), random_net(seed)
    best = {"direct": [float("inf")] * games, "logged": [float("inf")] * games, "verify": [float("inf")] * games}
    size = records = 0
    for r in range(rounds):
        for g in range(games):
            t = time.process_time()
            plain = train_game(net, g, seed, learn, params)
            best["direct"][g] = min(best["direct"][g], time.process_time() - t)
            t = time.process_time()
            logged = train_game(net, g, seed, learn, params, log=True)
            best["logged"][g] = min(best["logged"][g], time.process_time() - t)
            if plain[:2] != logged[:2]:
                raise AssertionError(f"game {g}: the logged game is not the unlogged one")
            game = parse_log(MAGIC + logged[2]).games[0]
            t = time.process_time()
            if not verify_game(game).ok:
                raise AssertionError(f"game {g}: its log does not verify")
            best["verify"][g] = min(best["verify"][g], time.process_time() - t)
            if r == 0:
                size += len(logged[2])
                records += len(game.records)
    out = {way: sum(times) for way, times in best.items()}
    return {**out, "games": games, "bytes": size / games, "records": records / games}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    m = measure(args.games, args.rounds)
    n = m["games"]
    print(f"{n} games, best of {args.rounds} rounds (CPU time)")
    print(f"  straight on the rules: {n / m['direct']:.2f} games/s")
    print(f"  through the stack, logged: {n / m['logged']:.2f} games/s ({m['logged'] / m['direct']:.2f}x the time)")
    print(f"  verify: {n / m['verify']:.2f} games/s")
    print(f"  a game's packed log: {m['bytes'] / 1e3:.0f} KB, {m['records']:.0f} records")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
