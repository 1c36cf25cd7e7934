"""Risk speed: random games of the rules alone and through the whole stack, the td
agent's decision time, and TD training games/s with 1 and 2 workers.

    python -m ops.bench.risk                     # everything, a few minutes on 2 cores
    python -m ops.bench.risk --only rules stack  # parts: rules, before, stack, td, training
    python -m ops.bench.risk --games 50 --rounds 3
    python -m ops.bench.risk --only before --rev 72a80c1

- rules: 3-player games (the default variant: drafted start, no cards, 200-round cap) where every
  decision is uniform over the legal actions (`legal[int(rng.random() * len(legal))]`, the least
  the caller can add) and every chance node samples the rules' own dice; the same games every
  round, CPU time, the best round kept. Goal: <= 20 ms a game.
- before: the rules games on the rules committed at `--rev` (default 72a80c1, the rules before
  this speed work) and on this tree's, loaded side by side in one process
  (the old `games` package imported from a `git archive` in a temporary folder), game by game in
  turns, which side goes first alternating; CPU time, the best round of each side and the ratio
  after / before of every round (the games must come out the same on both sides: their lengths
  are compared; `python -m ops.bench.risk_lockstep --rev REV` compares every step).
- stack: the same kind of games with the `random` agent through referee, bus and an in-memory log.
- td: CPU per decision of `td` (the shipped net) in three-player games with itself, per phase,
  played straight on the rules (actors.risk.direct: the same decisions as through the bus), after
  one warm-up game (the simulated odds are drawn once per matchup, on first use).
- training: `detente risk train`'s games (3 to 6 players, 60-round cap, batches of 10) from the
  random network, wall time on 1 worker (this process) and on 2 worker processes (pool started
  before the clock), and the ratio; the same weights both ways (checked).
"""

from __future__ import annotations

import argparse
import importlib
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def rules_game(seed: int, players: int = 3, risk: Any = None) -> tuple[int, int, int]:
    """One random game straight on the rules (`risk`: a Risk game, by default this tree's):
    (decisions, chance outcomes, rounds)."""
    if risk is None:
        from games.risk.rules import Risk

        risk = Risk()
    state = risk.new_initial_state({"players": players})
    rng, dice = random.Random(seed), random.Random(f"bench-dice/{seed}")
    pick = rng.random
    decisions = chances = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance(state.sample_chance(dice))
            chances += 1
        else:
            legal = state.legal_actions(state.current_players()[0])
            state.apply_action(legal[int(pick() * len(legal))])
            decisions += 1
    return decisions, chances, state.outcome().extra["rounds"]


def rules(games: int, rounds: int) -> dict[str, Any]:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        steps = [rules_game(g) for g in range(games)]
        best = min(best, (time.process_time() - t0) / games)
    return {"ms_per_game": 1000 * best, "games_per_s": 1 / best,
            "decisions": sum(s[0] for s in steps) / games, "chance": sum(s[1] for s in steps) / games,
            "rounds": sum(s[2] for s in steps) / games}


def risk_at(rev: str, into: Path) -> Any:
    """A Risk game of the rules as committed at `rev` (its games/ exported into `into`), imported
    beside this tree's: the `games` modules are loaded from there, kept by the classes that use
    them, and taken out of sys.modules again, so later imports get this tree's."""
    data = subprocess.run(["git", "archive", rev, "games"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    ours = {k: m for k, m in sys.modules.items() if k == "games" or k.startswith("games.")}
    for k in ours:
        del sys.modules[k]
    sys.path.insert(0, str(into))
    try:
        old = importlib.import_module("games.risk.rules").Risk()
    finally:
        sys.path.remove(str(into))
        for k in [k for k in sys.modules if k == "games" or k.startswith("games.")]:
            del sys.modules[k]
        sys.modules.update(ours)
    return old


def before_after(rev: str, games: int, rounds: int) -> dict[str, Any]:
    """The rules games on `rev`'s rules and on this tree's, game by game in turns (which goes first
    alternates), CPU time; per side the best round, and the ratio after / before of each round."""
    from games.risk.rules import Risk

    with tempfile.TemporaryDirectory() as tmp:
        sides = {"before": risk_at(rev, Path(tmp)), "after": Risk()}
        for risk in sides.values():
            rules_game(10**6, risk=risk)  # first-use caches outside the timing
        best = {"before": float("inf"), "after": float("inf")}
        ratios = []
        for _ in range(rounds):
            cpu = {"before": 0.0, "after": 0.0}
            steps: dict[str, list[tuple[int, int, int]]] = {"before": [], "after": []}
            for g in range(games):
                for side in (("before", "after") if g % 2 == 0 else ("after", "before")):
                    t0 = time.process_time()
                    steps[side].append(rules_game(g, risk=sides[side]))
                    cpu[side] += time.process_time() - t0
            assert steps["before"] == steps["after"], f"the games differ from {rev}'s"
            for side, b in best.items():
                best[side] = min(b, cpu[side] / games)
            ratios.append(cpu["after"] / cpu["before"])
    return {"rev": rev, "before_ms": 1000 * best["before"], "after_ms": 1000 * best["after"],
            "ratio": best["after"] / best["before"], "ratios": ratios}


def stack(games: int, rounds: int) -> dict[str, Any]:
    from actors.match import make_header, record
    from actors.registry import parse_lineup

    best, size = float("inf"), 0
    for _ in range(rounds):
        t0 = time.process_time()
        size = sum(len(record(make_header("risk", g, parse_lineup("random", 3), {}))) for g in range(games))
        best = min(best, (time.process_time() - t0) / games)
    return {"ms_per_game": 1000 * best, "games_per_s": 1 / best, "log_bytes": size / games}


def td(games: int) -> dict[str, Any]:
    from actors.risk.board import Board
    from actors.risk.direct import play
    from actors.risk.network import get_net
    from actors.risk.params import TDParams
    from actors.risk.td import suggest

    net, params = get_net("trained"), TDParams()
    cpu: Counter[str] = Counter()
    count: Counter[str] = Counter()

    def policy(obs: dict[str, Any], legal: list[str]) -> str:
        t0 = time.process_time()
        action = suggest(Board(obs), legal, net, params)[0]
        cpu[obs["phase"]] += time.process_time() - t0
        count[obs["phase"]] += 1
        return action

    play([lambda obs, legal: suggest(Board(obs), legal, net, params)[0]] * 3, {"players": 3, "max_rounds": 60},
         "bench-td/warm-up")  # the odds tables fill on first use
    rounds = 0
    for g in range(games):
        rounds += play([policy] * 3, {"players": 3, "max_rounds": 60}, f"bench-td/{g}")[1].extra["rounds"]
    total = sum(count.values())
    return {"ms_per_decision": 1000 * sum(cpu.values()) / total, "decisions": total / games,
            "rounds": rounds / games,
            "by_phase": {p: {"ms": 1000 * cpu[p] / count[p], "n": count[p] / games} for p in sorted(count)}}


def training(games: int) -> dict[str, Any]:
    from actors.risk.params import LearnParams, TDParams
    from actors.risk.train import InProcess, Processes, train

    learn, params = LearnParams(), TDParams()
    games -= games % learn.batch
    t0 = time.perf_counter()
    one = train(games, 1, learn, params, workers=InProcess(1, learn, params))
    wall1 = time.perf_counter() - t0
    pool = Processes(2, 1, learn, params)
    try:
        for f in [pool.pool.submit(int) for _ in range(2)]:  # start both workers before the clock
            f.result()
        t0 = time.perf_counter()
        two = train(games, 1, learn, params, workers=pool)
        wall2 = time.perf_counter() - t0
    finally:
        pool.close()
    return {"games": games, "one_worker_games_per_s": games / wall1, "two_workers_games_per_s": games / wall2,
            "ratio": wall1 / wall2, "same_weights": one == two}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30, help="games per measurement (training: rounded to batches)")
    ap.add_argument("--rounds", type=int, default=3, help="repeats of the rules and stack games (best kept)")
    ap.add_argument("--only", nargs="*", default=None, choices=("rules", "before", "stack", "td", "training"))
    ap.add_argument("--rev", default="72a80c1", help="before: the rules to compare with (default: before the speed work)")
    args = ap.parse_args(argv)
    parts = args.only or ["rules", "before", "stack", "td", "training"]
    if "rules" in parts:
        r = rules(args.games, args.rounds)
        print(f"rules alone: {r['ms_per_game']:.1f} ms a 3-player random game ({r['games_per_s']:.1f} games/s; "
              f"{r['decisions']:.0f} decisions, {r['chance']:.0f} dice rolls, {r['rounds']:.0f} rounds a game); "
              f"goal <= 20 ms", flush=True)
    if "before" in parts:
        b = before_after(args.rev, args.games, args.rounds)
        spread = ", ".join(f"{r:.3f}" for r in b["ratios"])
        print(f"rules before/after, game by game in one process: {b['rev']} {b['before_ms']:.1f} ms, this tree "
              f"{b['after_ms']:.1f} ms a game (best rounds), after/before {b['ratio']:.3f} (rounds: {spread}; "
              f"the same games both sides)", flush=True)
    if "stack" in parts:
        s = stack(max(1, args.games // 3), args.rounds)
        print(f"through the stack (random agents, log in memory): {s['ms_per_game']:.0f} ms a game "
              f"({s['games_per_s']:.2f} games/s, {s['log_bytes'] / 1e6:.1f} MB of log a game)", flush=True)
    if "td" in parts:
        t = td(max(1, args.games // 6))
        phases = ", ".join(f"{p} {v['ms']:.2f} ms x {v['n']:.0f}" for p, v in t["by_phase"].items())
        print(f"td decisions: {t['ms_per_decision']:.2f} ms each ({t['decisions']:.0f} a 3-player game of "
              f"{t['rounds']:.0f} rounds; {phases})", flush=True)
    if "training" in parts:
        tr = training(max(20, args.games))
        print(f"training: {tr['one_worker_games_per_s']:.2f} games/s on 1 worker, "
              f"{tr['two_workers_games_per_s']:.2f} on 2 ({tr['ratio']:.2f}x; {tr['games']} games, "
              f"same weights: {tr['same_weights']})", flush=True)


if __name__ == "__main__":
    main()
