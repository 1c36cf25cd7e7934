"""Random Werewolves games/s inline on one core, through the whole stack (referee, Alpha
President + random Strategy Office per player, bus, msgpack log in memory), next to the rules
alone played by a plain loop. Goal (issue 2): at least 500 games/s through the stack.

    python -m ops.bench.werewolves_games [--seconds 5] [--option discussion_rounds=3]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from games.registry import get_game
from replay.conformance import play_to_bytes


def rules_only(options: dict, seconds: float) -> float:
    game = get_game("werewolves")
    opts = game.options(options)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        rng = random.Random(n)
        state = game.new_initial_state(opts)
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
        n += 1
    return n / (time.perf_counter() - t0)


def stack(options: dict, seconds: float) -> tuple[float, float, float]:
    """Games/s by wall clock and by this process's CPU time (the honest "one core" figure on a
    shared box), and mean log bytes per game."""
    n, size, t0, c0 = 0, 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        data = play_to_bytes("werewolves", n, options)
        size += len(data)
        n += 1
    return n / (time.perf_counter() - t0), n / (time.process_time() - c0), size / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    options = {k: json.loads(v) for k, _, v in (o.partition("=") for o in args.option)}
    rules = rules_only(options, args.seconds)
    wall, cpu, size = stack(options, args.seconds)
    print(f"options: {options or 'defaults (10 players, 3 discussion rounds)'}")
    print(f"rules only, plain loop : {rules:9,.0f} games/s (wall)")
    print(f"full stack, inline+log : {wall:9,.0f} games/s (wall), {cpu:,.0f} per CPU-second  "
          f"({size / 1024:.0f} KiB of log per game)  (goal >= 500)")
    print(f"ratio stack/rules      : {wall / rules:.3f}")


if __name__ == "__main__":
    main()
