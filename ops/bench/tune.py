"""Ray Tune's cost per trial against the tournament a trial plays, measured side by side in one run.

    python -m ops.bench.tune [--trials 4] [--games 200] [--game hanabi] [--agent random]

One local Ray. First the same tournament (GAMES quick games: random agents, `traits.risk` 0..1 searched)
played `trials` times straight through the tournament runner (`run_tournament`, one runner),
then `trials` trials of `detente tune` (concurrency 1, one runner a trial, no check) on the same
game, each the same size. Tune's overhead per trial = (the search's wall time - the time its
trials spent in their tournaments) / trials; printed as a ratio to the tournament's time, and
the tournament inside a trial against the straight one (goal: overhead under 5% for 200 games).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from ops.logging import configure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", default="hanabi")
    parser.add_argument("--agent", default="random")
    args = parser.parse_args()
    configure()
    import ray

    from ops.tournament.runner import _join, run_tournament
    from ops.tune.search import run_search
    from ops.tune.spec import parse_tune_spec

    spec = parse_tune_spec({"game": args.game, "games": args.games, "seed": 1, "trials": args.trials, "concurrency": 1,
                            "objective": "mean_score", "batch": 50, "agent": {"name": args.agent, "count": 2},
                            "search": {"traits.risk": [0.0, 1.0]}, "check_games": 0})
    _join(None)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    with tempfile.TemporaryDirectory() as tmp:
        straight = []
        for i in range(args.trials):
            tournament = spec.tournament({"traits.risk": i / max(1, args.trials - 1)}, spec.search_seed(), spec.games)
            t0 = time.perf_counter()
            run_tournament(tournament, Path(tmp) / f"straight{i}", runners=max(1, cpus // spec.concurrency))
            straight.append(time.perf_counter() - t0)
        report = run_search(spec, Path(tmp) / "tune")
    inside = [t["tournament_s"] for t in report["trials"]]
    per_trial = report["search_seconds"] / len(inside)
    overhead = (report["search_seconds"] - sum(inside)) / len(inside)
    print(f"{args.game} {args.agent}: {len(inside)} trials of {args.games} games on {cpus} CPUs")
    print(f"straight tournament:       {statistics.mean(straight):.2f} s (each: {', '.join(f'{s:.2f}' for s in straight)})")
    print(f"tournament inside a trial: {statistics.mean(inside):.2f} s (each: {', '.join(f'{s:.2f}' for s in inside)})")
    print(f"search wall time per trial: {per_trial:.2f} s; Tune's overhead per trial: {overhead:.2f} s")
    print(f"overhead / tournament: {overhead / statistics.mean(inside):.3f} "
          f"(trial wall / straight tournament: {per_trial / statistics.mean(straight):.3f})")


if __name__ == "__main__":
    main()
