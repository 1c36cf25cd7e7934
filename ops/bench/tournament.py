"""Tournament benchmarks, measured side by side in one run on a local Ray:

1. games/s with 1 runner and with 2 runners (goal: 2 runners >= 1.8x on a 2-core box);
2. tournament overhead against a bare inline loop playing the same games in this process with
   the log in memory (goal: <= 5%);
   each as the median of --rounds interleaved runs (order rotated) with its spread, over the whole
   run (runner start-up included) and after the first batch's results, plus each runner's CPU
   seconds (sampled from /proc) and the driver's;
3. bytes of log per game (packed in segments, and plain);
4. time to load one game by id (index lookup + segment read) from a store of N games
   (default 100,000 small 5-player games; goal <= 50 ms).

    python -m ops.bench.tournament [--games 3000] [--rounds 5] [--store-games 100000] [--skip-store] [--fresh-ray]
    python -m ops.bench.tournament --instructions [--games 300]

`--instructions` measures the runner's own cost the box's noise cannot move: machine instructions
(valgrind cachegrind) of a runner's work in one process, `BatchPlayer.play` over the games, its
segment written and its rows pickled as Ray returns them, against the bare loop over the same games,
each less its start-up; Ray's hand-over itself (a task call and its reply a batch) is left out.

By default every tournament run reuses the one local Ray started at the beginning; Ray prestarts a
worker process a CPU only when it starts, so after the first run each runner waits for a fresh
worker process (~2 s here). `--fresh-ray` starts a local Ray for each tournament run, outside the
timing, as `detente tournament run` has one started for it: its runners take the prestarted workers.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Self

from actors.match import make_header, record
from actors.registry import AgentSpec
from bus.log import read_game_at
from ops.bench.instructions import count as instructions_of
from ops.tournament.runner import run_tournament
from ops.tournament.spec import game_id, load_spec, parse_spec
from ops.tournament.store import Store

EXAMPLE = "ops/examples/werewolves.toml"


def bare_loop(spec) -> dict[str, float]:
    """The same games, played one after another in this process, plain logs in memory: games/s
    (wall and CPU) and mean plain log bytes per game (the tournament's segments pack each game)."""
    t0, c0, size = time.perf_counter(), time.process_time(), 0
    for idx in range(spec.games):
        seed, seated = spec.game_plan(idx)
        header = make_header(
            spec.game, seed, [AgentSpec(name=e.agent, options=e.options) for e in seated], spec.options, game_id(idx)
        )
        size += len(record(header))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"rate": spec.games / wall, "cpu_s": cpu, "plain": size // spec.games}


class RunnerCPU:
    """CPU seconds of each of a run's Ray runner processes, sampled from /proc while the run goes
    (Linux only; a runner's last <= `every` seconds before it exits are missed). A runner is a Ray
    worker process whose title names RayRunner; one that already did at the start (a runner of the
    run before, not yet gone) is not this run's. A prestarted worker that becomes a runner counts
    from the run's start, what it spent idle before left out. A sample reads every process's
    command line (~1.5 ms of this process's CPU with Ray's), hence a quarter of a second apart."""

    def __init__(self, every: float = 0.25):
        import threading

        self.every = every
        self.seen: dict[int, float] = {}  # pid -> CPU seconds at the latest sample, of Ray workers
        self.runners: set[int] = set()  # pids seen named RayRunner
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._tick = os.sysconf("SC_CLK_TCK")

    def _sample(self) -> None:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    title = f.read()
                if not title.startswith(b"ray::"):
                    continue
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            self.seen[int(pid)] = (int(fields[11]) + int(fields[12])) / self._tick  # utime + stime
            if b"RayRunner" in title:
                self.runners.add(int(pid))

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            self._sample()

    def __enter__(self) -> Self:
        self._sample()
        self.before, self.old = dict(self.seen), set(self.runners)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def per_runner(self) -> list[float]:
        """CPU seconds each of this run's runners used during the run."""
        return sorted(self.seen[pid] - self.before.get(pid, 0.0) for pid in self.runners - self.old)


def tournament_rate(spec, runners: int) -> dict[str, Any]:
    """One tournament run on the local Ray: games/s over the whole run (runner start-up included)
    and from the first batch's results to the end (steady state), the driver's CPU seconds, each
    runner's CPU seconds, and the mean packed bytes per game."""
    out = Path(tempfile.mkdtemp(prefix="detente-bench-"))
    marks: list[tuple[float, int]] = []
    try:
        with RunnerCPU() as cpu:
            t0, c0 = time.perf_counter(), time.process_time()
            run_tournament(spec, out, runners=runners, on_progress=lambda n, _t: marks.append((time.perf_counter(), n)))
            wall, driver = time.perf_counter() - t0, time.process_time() - c0
        first = next((t, n) for t, n in marks if n > 0)
        steady = (spec.games - first[1]) / (marks[-1][0] - first[0]) if marks[-1][0] > first[0] else float("nan")
        store = Store(out, read_only=True)
        mean_bytes = store.db.execute("select avg(nbytes) from games").fetchone()[0]
        store.close()
        return {
            "rate": spec.games / wall,
            "steady": steady,
            "driver_cpu_s": driver,
            "runner_cpu_s": cpu.per_runner(),
            "packed": int(mean_bytes),
        }
    finally:
        shutil.rmtree(out, ignore_errors=True)


# one workload, run once in a fresh process under valgrind: "bare" or "runner", over games [0, n)
_COUNTED = r'''
import pickle, sys, tempfile
from ops.bench.tournament import EXAMPLE, bare_loop
from ops.tournament.runner import BatchPlayer
from ops.tournament.spec import load_spec
mode, n = sys.argv[1], int(sys.argv[2])
spec = load_spec(EXAMPLE, games=max(n, 1))
if mode == "bare" and n:
    bare_loop(spec.model_copy(update={"games": n}))
elif mode == "runner":
    with tempfile.TemporaryDirectory(prefix="detente-count-") as out:
        player = BatchPlayer(out, spec.model_dump(), "r0")
        pickle.dumps(player.play(list(range(n))) if n else [], protocol=5)
        player.close()
'''


def instructions(games: int) -> None:
    """Instructions a game of the runner's work and of the bare loop, each less its start-up."""
    root = Path(__file__).resolve().parents[2]

    def count(mode: str, n: int) -> int:
        return instructions_of(_COUNTED, mode, n, tree=root)

    per_game = {}
    for mode in ("bare", "runner"):
        base = count(mode, 0)
        per_game[mode] = (count(mode, games) - base) / games
        print(f"{mode:6s}: {per_game[mode] / 1e6:.3f}M instructions a game over {games} games", flush=True)
    ratio = per_game["runner"] / per_game["bare"]
    print(f"runner / bare, instructions a game: {ratio:.4f} (overhead {100 * (ratio - 1):.1f}%; goal <= 5%)")


def spread(values: list[float]) -> str:
    """median [min, max] of `values`."""
    return f"{statistics.median(values):8.1f} [{min(values):.1f}, {max(values):.1f}]"


def load_times(n_games: int, samples: int = 200) -> tuple[float, float, float]:
    """Build a store of n small games, then time loading random games by id (fresh open each)."""
    spec = parse_spec(
        {
            "game": "werewolves",
            "games": n_games,
            "seed": 9,
            "batch": 200,
            "options": {"players": 5, "werewolves": 1, "seers": 1, "doctors": 0, "discussion_rounds": 0},
            "lineup": [{"agent": "random", "count": 5}],
        }
    )
    out = Path(tempfile.mkdtemp(prefix="detente-store-"))
    try:
        t0 = time.perf_counter()
        run_tournament(spec, out)
        build = time.perf_counter() - t0
        rng = random.Random(1)
        times = []
        for _ in range(samples):
            gid = game_id(rng.randrange(n_games))
            t = time.perf_counter()
            store = Store(out, read_only=True)
            segment, offset = store.locate(gid)
            store.close()
            game, bad = read_game_at(out / "logs" / segment, offset)
            times.append((time.perf_counter() - t) * 1000)
            assert bad is None and game.header["game_id"] == gid
        times.sort()
        return build, statistics.median(times), times[int(0.95 * len(times)) - 1]
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--store-games", type=int, default=100_000)
    parser.add_argument("--skip-store", action="store_true")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved repetitions; medians and spreads reported")
    parser.add_argument("--fresh-ray", action="store_true", help="a local Ray started for each tournament run (untimed)")
    parser.add_argument("--instructions", action="store_true",
                        help="count the runner's instructions against the bare loop's (valgrind) instead")
    args = parser.parse_args()
    if args.instructions:
        return instructions(args.games)
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    def start_ray() -> None:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")

    def in_ray(runners: int) -> dict[str, Any]:
        if args.fresh_ray:
            ray.shutdown()
            start_ray()
        return tournament_rate(spec, runners)

    start_ray()
    spec = load_spec(EXAMPLE, games=args.games)
    tournament_rate(load_spec(EXAMPLE, games=20), 2)  # warm-up: worker processes, imports
    bare, one, two = [], [], []
    for r in range(args.rounds):  # interleaved, the order rotated: the box is shared and noisy
        runs = [
            ("bare", lambda: bare.append(bare_loop(spec))),
            ("one", lambda: one.append(in_ray(1))),
            ("two", lambda: two.append(in_ray(2))),
        ]
        for _name, go in runs[r % 3 :] + runs[: r % 3]:
            go()
        print(
            f"round {r + 1}: bare {bare[-1]['rate']:.1f}, 1 runner {one[-1]['rate']:.1f} "
            f"(steady {one[-1]['steady']:.1f}), 2 runners {two[-1]['rate']:.1f} (steady {two[-1]['steady']:.1f}) games/s",
            flush=True,
        )
    overhead = [100 * (1 - o["rate"] / b["rate"]) for o, b in zip(one, bare)]
    overhead_steady = [100 * (1 - o["steady"] / b["rate"]) for o, b in zip(one, bare)]
    speedup = [t["rate"] / o["rate"] for t, o in zip(two, one)]
    speedup_steady = [t["steady"] / o["steady"] for t, o in zip(two, one)]
    ray_note = "a fresh local Ray for each run" if args.fresh_ray else "one local Ray for all runs"
    print(f"\n{args.games} games of {EXAMPLE}, {args.rounds} interleaved rounds ({ray_note}): median [min, max]")
    print(
        f"bare inline loop, this process     : {spread([b['rate'] for b in bare])} games/s, "
        f"CPU {spread([b['cpu_s'] for b in bare])} s"
    )
    print(
        f"tournament, 1 runner               : {spread([o['rate'] for o in one])} games/s whole run, "
        f"{spread([o['steady'] for o in one])} after the first batch"
    )
    print(
        f"tournament, 2 runners              : {spread([t['rate'] for t in two])} games/s whole run, "
        f"{spread([t['steady'] for t in two])} after the first batch"
    )
    print(
        f"1 runner overhead vs bare, %       : {spread(overhead)} whole run, {spread(overhead_steady)} after the first batch  (goal <= 5%)"
    )
    print(
        f"2 runners / 1 runner               : {statistics.median(speedup):.2f}x [{min(speedup):.2f}, {max(speedup):.2f}] whole run, "
        f"{statistics.median(speedup_steady):.2f}x [{min(speedup_steady):.2f}, {max(speedup_steady):.2f}] after the first batch  (goal >= 1.8x)"
    )
    print(
        f"CPU s per runner, 1 runner         : {spread([sum(o['runner_cpu_s']) for o in one])} (driver {spread([o['driver_cpu_s'] for o in one])})"
    )
    print(
        f"CPU s per runner, 2 runners        : {spread([c for t in two for c in t['runner_cpu_s']])} (driver {spread([t['driver_cpu_s'] for t in two])})"
    )
    per_game = lambda cpu: 1000 * statistics.median(cpu) / args.games
    print(
        f"CPU ms per game                    : bare {per_game([b['cpu_s'] for b in bare]):.2f}, 1 runner "
        f"{per_game([sum(o['runner_cpu_s']) for o in one]):.2f}, 2 runners {per_game([sum(t['runner_cpu_s']) for t in two]):.2f} "
        f"(runners' start-up included; the driver's not)"
    )
    size, plain = one[-1]["packed"], bare[-1]["plain"]
    print(
        f"log per game                       : {size:,} bytes packed in segments ({plain:,} plain, {plain / size:.1f}x)"
    )
    if not args.skip_store:
        build, median, p95 = load_times(args.store_games)
        print(
            f"store of {args.store_games:,} games built in {build:.0f}s; load one game by id: "
            f"median {median:.1f} ms, p95 {p95:.1f} ms  (goal <= 50 ms)"
        )
    ray.shutdown()


if __name__ == "__main__":
    main()
