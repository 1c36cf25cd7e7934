"""Tournament throughput on a Ray cluster of network namespaces on this machine (the harness of
tests/cluster): a head offering no CPU and one or two workers of one CPU each, every node started
with `ray start`, the driver `detente tournament run --address HEAD:6379` in the head's namespace.

The same spec is played --rounds times with one worker joined, then --rounds times once the
second has joined (a fresh output folder each time); each run's games/s is the driver's own count
over its own seconds (runner start-up included). Printed: the median and spread for one and two
workers, their ratio, and the CPU seconds the head's namespace spent (its Ray processes and the
driver) per thousand games, which shows whether the head is what limits the run.

    python -m ops.bench.cluster [--games 2000] [--rounds 2]

Needs root and `ip` (iproute2). On a machine of two cores shared with other work the ratio
mostly says that nothing serialises on the head; on a machine with a core per node to spare it
approaches the count of workers.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.cluster.harness import NetnsCluster, pids_in

EXAMPLE = Path("ops/examples/werewolves.toml")
_LAST = re.compile(r"([\d,]+)/[\d,]+ games recorded .*\(([\d,]+) now.*, ([\d.]+)s\)")
_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime
    return total


def _run(cluster: NetnsCluster, spec: Path, out: Path, games: int) -> tuple[float, float]:
    """One tournament run from the head's namespace: (games/s, the head's CPU seconds)."""
    head_before = _cpu_seconds(pids_in(cluster.head.ns))
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    argv = [sys.executable, "-m", "ops.cli", "tournament", "run", str(spec), "--out", str(out),
            "--games", str(games), "--address", cluster.address]
    proc = cluster.popen(cluster.head, argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = proc.communicate(timeout=900)
    if proc.returncode != 0:
        raise SystemExit(f"the driver failed ({proc.returncode}): {stderr[-2000:]}")
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the driver, once waited for
    driver = (children.ru_utime - children_before.ru_utime) + (children.ru_stime - children_before.ru_stime)
    head = _cpu_seconds(pids_in(cluster.head.ns)) - head_before + driver
    found = _LAST.search(stdout)
    if not found or int(found.group(2).replace(",", "")) != games:
        raise SystemExit(f"unexpected driver output: {stdout[-500:]}")
    return games / float(found.group(3)), head


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        raise SystemExit("needs root (network namespaces)")
    cluster = NetnsCluster(Path(tempfile.mkdtemp(prefix="dtc", dir="/tmp")))
    try:
        t0 = time.monotonic()
        cluster.make_network()
        cluster.start(workers=[cluster.workers[0]])
        spec = cluster.root / "werewolves.toml"
        spec.write_text(EXAMPLE.read_text().replace("seating = ", "batch = 10\nseating = ", 1))
        print(f"cluster up in {time.monotonic() - t0:.1f}s: head {cluster.address} (no CPU), "
              f"workers {', '.join(w.ip for w in cluster.workers)} (one CPU each); {args.games} Werewolves games a run")
        rates: dict[int, list[float]] = {}
        heads: dict[int, list[float]] = {}
        for workers in (1, 2):
            if workers == 2:
                cluster.start_node(cluster.workers[1])
                cluster.wait_for_nodes(2)
            for r in range(args.rounds):
                rate, head = _run(cluster, spec, cluster.root / f"out-{workers}-{r}", args.games)
                rates.setdefault(workers, []).append(rate)
                heads.setdefault(workers, []).append(head * 1000 / args.games)
                print(f"  {workers} worker(s), round {r + 1}: {rate:.0f} games/s, head CPU {head:.1f}s", flush=True)
        for workers in (1, 2):
            print(f"{workers} worker(s): {statistics.median(rates[workers]):.0f} games/s "
                  f"(runs {', '.join(f'{x:.0f}' for x in rates[workers])}); "
                  f"head CPU {statistics.median(heads[workers]):.2f}s per 1000 games")
        print(f"ratio 2 workers / 1: {statistics.median(rates[2]) / statistics.median(rates[1]):.2f}x "
              f"(cores on this machine: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f})")
    finally:
        cluster.close()
    left = cluster.leftovers()
    if left:
        raise SystemExit(f"left on the machine: {left}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
