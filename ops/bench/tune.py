"""Ray Tune's cost per trial against the tournament a trial plays, measured side by side in one run.

    python -m ops.bench.tune [--trials 16] [--games 200] [--game hanabi] [--agent random]

One local Ray. First the same tournament (GAMES quick games: random agents, `traits.risk`
0..1 searched) played `trials` times straight through the tournament runner in this process
(`run_tournament(runners=0)`, after one untimed run that pays the imports), then a search of
`trials` trials of `detente tune` (concurrency 1, one runner a trial: each trial plays in Tune's
trial process, as on any machine where trials get one CPU each; no check) on the same game, each
the same size. Printed:

- the search's start: from the call to the first trial's start (Ray Tune's controller, the trial's
  process and its imports), paid once a search;
- Tune's cost of each trial after the first: the wait between the previous trial's end and its
  start (Tune's step, the searcher's proposal, its state snapshot, the trial's start on the kept
  process) plus its time outside its tournament (its result), against the straight tournament;
  the goal is under 5% for 200 games;
- the search's whole wall time per trial against the straight tournament.
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
    parser.add_argument("--trials", type=int, default=16)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", default="hanabi")
    parser.add_argument("--agent", default="random")
    args = parser.parse_args()
    if args.trials < 2:
        parser.error("--trials must be at least 2 (the first trial pays the search's start)")
    configure()
    import ray

    from ops.tournament.runner import _join, run_tournament
    from ops.tune.search import run_search
    from ops.tune.spec import parse_tune_spec

    spec = parse_tune_spec({"game": args.game, "games": args.games, "seed": 1, "trials": args.trials, "concurrency": 1,
                            "runners": 1, "objective": "mean_score", "batch": 50,
                            "agent": {"name": args.agent, "count": 2}, "search": {"traits.risk": [0.0, 1.0]},
                            "check_games": 0})
    _join(None)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    with tempfile.TemporaryDirectory() as tmp:
        straight: list[float] = []

        def play_straight(first: int, n: int) -> None:
            for i in range(first, first + n):
                tournament = spec.tournament({"traits.risk": (i % args.trials) / args.trials}, spec.search_seed(), spec.games)
                t0 = time.perf_counter()
                run_tournament(tournament, Path(tmp) / f"straight{i}", runners=0)
                if i:  # the first pays this process's imports
                    straight.append(time.perf_counter() - t0)

        play_straight(0, args.trials // 2 + 1)  # half before the search, half after (Ray's start settles)
        called = time.time()
        report = run_search(spec, Path(tmp) / "tune")
        play_straight(args.trials // 2 + 1, args.trials - args.trials // 2)
    trials = sorted(report["trials"], key=lambda t: t["started"])
    start = trials[0]["started"] - called
    # Tune's cost of a trial after the first: the wait before it started (Tune's step, the
    # searcher's proposal, the trial's start on the kept process) and its time outside its tournament
    cost = [(b["started"] - a["ended"]) + (b["ended"] - b["started"] - b["tournament_s"]) for a, b in zip(trials, trials[1:])]
    base = statistics.mean(straight)
    inside = statistics.mean(t["tournament_s"] for t in trials)
    per_trial = report["search_seconds"] / len(trials)
    print(f"{args.game} {args.agent}: {len(trials)} trials of {args.games} games, one at a time, each on one CPU "
          f"({cpus} CPUs)")
    print(f"the tournament straight (this process):   {base:.3f} s (mean of {len(straight)})")
    print(f"the same tournament inside a trial:       {inside:.3f} s (mean of {len(trials)})")
    print(f"the search's start, once a search:        {start:.2f} s")
    print(f"Tune's cost of each trial after the first: mean {statistics.mean(cost):.3f} s, median "
          f"{statistics.median(cost):.3f} s, largest {max(cost):.3f} s (trial {cost.index(max(cost)) + 2})")
    print(f"  -> mean / the straight tournament: {statistics.mean(cost) / base:.3f} (goal under 0.05); "
          f"/ the tournament inside a trial: {statistics.mean(cost) / inside:.3f}")
    print(f"the search's wall time per trial, everything included: {per_trial:.2f} s -> "
          f"{per_trial / base:.2f}x the straight tournament")

if __name__ == "__main__":
    main()
