"""Random Werewolves games/s inline on one core, through the whole stack (referee, bus, msgpack
log in memory), next to the rules alone played by a plain loop, for two random players: the
`random` agent as it comes (a President asking a random Strategy Office: four messages an act)
and a bare President (`random:offices=`, which draws a uniform legal action itself: two messages
an act). Goal (issue 2): at least 500 games/s through the stack.

    python -m ops.bench.werewolves_games [--seconds 5] [--option discussion_rounds=3]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from actors.match import make_header, record
from actors.registry import AgentSpec
from games.registry import get_game


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


def stack(options: dict, seconds: float, offices: str) -> tuple[float, float, float]:
    """Games/s by wall clock and by this process's CPU time (the honest "one core" figure on a
    shared box), and mean log bytes per game."""
    players = get_game("werewolves").num_players(get_game("werewolves").options(options))
    agents = [AgentSpec(name="random", options={"offices": offices})] * players
    n, size, t0, c0 = 0, 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        data = record(make_header("werewolves", n, agents, options))
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
    print(f"options: {options or 'defaults (10 players, 3 discussion rounds)'}")
    print(f"rules only, plain loop      : {rules:9,.0f} games/s (wall)")
    for label, offices in (("PR + random SO", "so"), ("bare President", "")):
        wall, cpu, size = stack(options, args.seconds, offices)
        print(f"stack, {label:15s}      : {wall:9,.0f} games/s (wall), {cpu:,.0f} per CPU-second  "
              f"({size / 1024:.0f} KiB of log per game; ratio to rules {wall / rules:.3f}; goal >= 500)")


if __name__ == "__main__":
    main()
