"""Hanabi speed: random 2-player games/s of our rules against OpenSpiel's Hanabi (C++ behind
pybind11) in the same run and the same plain Python loop, then games/s of each strategy on the
rules alone and through the whole stack (referee, Presidents and offices, bus, msgpack log).
Goal: our random games at least half OpenSpiel's speed, in pure Python.

    python -m ops.bench.hanabi [--seconds 3] [--stack-games 20]
"""

from __future__ import annotations

import argparse
import random
import time

from actors.hanabi.policies import POLICIES, play_direct
from actors.match import make_header, record
from actors.registry import AgentSpec
from games.hanabi.rules import Hanabi


def ours_random(seconds: float) -> float:
    game = Hanabi()
    opts = game.options({"players": 2})
    rng = random.Random(0)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state(opts)
        state.apply_chance(state.sample_chance(rng))
        while not state.is_terminal():
            p = state.current_players()[0]
            state.apply_actions({p: rng.choice(state.legal_actions(p))})
        n += 1
    return n / (time.perf_counter() - t0)


def openspiel_random(seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hanabi", {"players": 2})
    rng = random.Random(0)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return n / (time.perf_counter() - t0)


def direct(agent: str, seconds: float) -> float:
    opts = {"players": 2, "reveal_own_cards": agent == "full-information"}
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        play_direct(POLICIES[agent], opts, n)
        n += 1
    return n / (time.perf_counter() - t0)


def stack(agent: str, games: int) -> tuple[float, float]:
    options = {"players": 2, "reveal_own_cards": agent == "full-information"}
    size, t0 = 0, time.perf_counter()
    for seed in range(games):
        header = make_header("hanabi", seed, [AgentSpec(name=agent)] * 2, options)
        size += len(record(header))
    return games / (time.perf_counter() - t0), size / games


def main() -> None:
    from ops.logging import configure

    configure()  # operational logs at WARNING (debug lines per message would be timed too)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--stack-games", type=int, default=20)
    args = parser.parse_args()
    ours = ours_random(args.seconds)
    theirs = openspiel_random(args.seconds)
    print(f"random 2-player games, plain loop: ours {ours:9,.0f} games/s", end="")
    if theirs is None:
        print("  (OpenSpiel not installed: pip install open-spiel)")
    else:
        print(f"  OpenSpiel {theirs:9,.0f} games/s  ratio {ours / theirs:.2f} (goal >= 0.5)")
    print("\n| agent | rules only (games/s) | full stack inline + log (games/s) | log per game |")
    print("|---|---|---|---|")
    for agent in ("random", "osawa-random", "rational", "self-estimation", "full-information", "alpha"):
        rules = direct(agent, args.seconds) if agent in POLICIES else ours
        games = args.stack_games if agent != "random" else 10 * args.stack_games
        full, size = stack(agent, games)
        print(f"| {agent} | {rules:,.0f} | {full:,.1f} | {size / 1024:.0f} KiB |", flush=True)


if __name__ == "__main__":
    main()
