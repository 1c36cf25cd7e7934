"""The same workloads on two trees of detente, interleaved in one run: a refactor's cost in ratios.

    python -m ops.bench.before_after [--rev 319d7fd] [--rounds 3] [--only NAME ...]

`--rev` is exported (git archive) to a temporary folder; each workload then runs in a fresh
process under PYTHONPATH=that tree and under PYTHONPATH=this tree, alternating which goes first,
after one warm-up game outside the timing (imports, first-use caches), and reports the CPU seconds each took (process time, best of the rounds, to shed the shared box's
noise) and the ratio after / before (below 1: faster now). The workloads use only the API both
trees have (make_header, record, parse_lineup, parse_log, verify_game, transcript).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PLAY = """
import time
WARM = []
from actors.match import make_header, record
from actors.registry import parse_lineup
def play(game, agents, players, options, seeds):
    global t0
    if not WARM:  # imports and first-use caches outside the timing (the trees load games at different times)
        WARM.append(record(make_header(game, 10**6, parse_lineup(agents, players), options)))
        t0 = time.process_time()
    out = []
    for seed in seeds:
        out.append(record(make_header(game, seed, parse_lineup(agents, players), options)))
    return out
"""

WORKLOADS = {
    "werewolves random x150": "play('werewolves', 'random', 10, {}, range(150))",
    "werewolves alphawolf x12": "play('werewolves', 'alphawolf', 10, {}, range(12))",
    "hanabi alpha x20": "play('hanabi', 'alpha', 3, {'players': 3}, range(20))",
    "hanabi rational x60": "play('hanabi', 'rational', 2, {}, range(60))",
    "diplomacy dumbbot to 1906 x2": "play('diplomacy', 'dumbbot', 7, {'max_year': 1906}, range(2))",
    "diplomacy alphadip to 1903 x2": "play('diplomacy', 'alphadip,alphadip,dumbbot,dumbbot,dumbbot,dumbbot,dumbbot', 7, {'max_year': 1903}, range(2))",
    "verify + transcript alphawolf x6": (
        "logs = play('werewolves', 'alphawolf', 10, {}, range(6))\n"
        "from bus.log import parse_log\nfrom replay.verify import verify_game\nfrom replay.transcript import transcript\n"
        "t0 = time.process_time()\n"
        "for data in logs:\n    g = parse_log(data).games[0]\n    assert verify_game(g).ok\n    transcript(g)\n"
        "WORK = time.process_time() - t0"),
}


def _script(body: str) -> str:
    return (_PLAY + "t0 = time.process_time()\nWORK = None\n" + body +
            "\nimport json\nprint(json.dumps(WORK if WORK is not None else time.process_time() - t0))\n")


def run_one(tree: Path, body: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-c", _script(body)], cwd=tree, env=env, capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise SystemExit(f"workload failed in {tree}:\n{done.stderr[-2000:]}")
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def export(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="319d7fd", help="the tree to compare with (default: before the plugin refactor)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None, help="workload names (substrings)")
    args = parser.parse_args(argv)
    names = [n for n in WORKLOADS if not args.only or any(o in n for o in args.only)]
    with tempfile.TemporaryDirectory() as tmp:
        before = export(args.rev, Path(tmp))
        print(f"before = {args.rev}, after = working tree; CPU s, best of {args.rounds} interleaved rounds")
        print(f"{'workload':<34}{'before':>9}{'after':>9}{'after/before':>14}")
        for name in names:
            times = {"before": [], "after": []}
            for r in range(args.rounds):
                order = [("before", before), ("after", ROOT)] if r % 2 == 0 else [("after", ROOT), ("before", before)]
                for label, tree in order:
                    times[label].append(run_one(tree, WORKLOADS[name]))
            b, a = min(times["before"]), min(times["after"])
            print(f"{name:<34}{b:>9.3f}{a:>9.3f}{a / b:>14.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
