"""Random Werewolves games through the whole stack (referee, bus, msgpack log in memory) against the
rules alone played by a plain loop, in CPU time, in interleaved rounds: the `random` agent as it
comes (a President asking a random Strategy Office: four messages an act), a bare President
(`random:offices=`, two messages an act) and, with --alphawolf N, full AlphaWolf games.
Goals: 500 games/s per core through the stack; stack / rules >= 0.15.

    python -m ops.bench.werewolves_games [--rounds 9] [--option discussion_rounds=3]
        [--alphawolf 3] [--against REV] [--instructions]

Each round plays a chunk of each workload and takes its CPU time (process time: the honest "one
core" figure on a shared box); the ratio is the rules' CPU per game over the stack's, per round,
reported as the median of the rounds with their range. `--against REV` exports REV (git archive)
and runs the same chunks there, in a second process, alternating with this tree chunk by chunk, so
both see the same load. `--instructions` counts machine instructions instead (valgrind's
cachegrind, no cache simulation: the same count every run, whatever the box's load), per game.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from ops.bench.instructions import count as instructions_of

ROOT = Path(__file__).resolve().parents[2]

# Runs in a tree given by PYTHONPATH, using only what every tree has (make_header, record,
# parse_lineup, get_game): commands on stdin, CPU seconds on stdout.
_WORKER = r'''
import json, random, sys, time
from actors.match import make_header, record
from actors.registry import parse_lineup
from games.registry import get_game
OPTIONS = json.loads(sys.argv[1])
game = get_game("werewolves")
opts = game.options(OPTIONS)
players = game.num_players(opts)
LINEUPS = {}
def rules(a, b):
    for n in range(a, b):
        rng = random.Random(n)
        state = game.new_initial_state(opts)
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
def stack(agent, a, b):
    agents = LINEUPS.get(agent) or LINEUPS.setdefault(agent, parse_lineup(agent, players))
    size = 0
    for n in range(a, b):
        size += len(record(make_header("werewolves", n, agents, OPTIONS)))
    return size
def run(cmd):
    if cmd[0] == "rules":
        rules(int(cmd[1]), int(cmd[2]))
        return 0
    return stack(cmd[1], int(cmd[2]), int(cmd[3]))
rules(0, 10)
stack("random", 10**6, 10**6 + 2)
if len(sys.argv) > 2:  # one command, for an instruction count (valgrind)
    run(sys.argv[2:])
    sys.exit(0)
print("ready", flush=True)
for line in sys.stdin:
    c0 = time.process_time()
    size = run(line.split())
    print(json.dumps([time.process_time() - c0, size]), flush=True)
'''

WORKLOADS = {"PR + random SO": "random", "bare President": "random:offices="}


class Worker:
    """One tree's worker process."""

    def __init__(self, tree: Path, options: dict):
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER, json.dumps(options)], cwd=tree, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.proc.stdout.readline().strip() != "ready":
            raise SystemExit(f"the worker in {tree} did not start")

    def ask(self, *cmd: object) -> tuple[float, int]:
        self.proc.stdin.write(" ".join(map(str, cmd)) + "\n")
        self.proc.stdin.flush()
        cpu, size = json.loads(self.proc.stdout.readline())
        return cpu, size

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def export(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def rounds(workers: dict[str, Worker], n: int, rules_games: int, stack_games: int, alphawolf: int) -> dict:
    """CPU seconds per game of every workload in every round, trees alternating chunk by chunk."""
    res = {label: {"rules": [], **{w: [] for w in WORKLOADS}, "alphawolf": [], "bytes": {}} for label in workers}
    for r in range(n):
        order = list(workers) if r % 2 == 0 else list(reversed(workers))
        base = (r % 10) * rules_games, (r % 10) * stack_games
        for label in order:
            w, out = workers[label], res[label]
            out["rules"].append(w.ask("rules", base[0], base[0] + rules_games)[0] / rules_games)
            for name, agent in WORKLOADS.items():
                cpu, size = w.ask("stack", agent, base[1], base[1] + stack_games)
                out[name].append(cpu / stack_games)
                out["bytes"][name] = size / stack_games
            if alphawolf:
                out["alphawolf"].append(w.ask("stack", "alphawolf", r * alphawolf, (r + 1) * alphawolf)[0] / alphawolf)
    return res


def report(res: dict) -> None:
    med = statistics.median
    for label, out in res.items():
        print(f"[{label}] rules alone, plain loop: {1 / med(out['rules']):,.0f} games per CPU-second "
              f"({med(out['rules']) * 1e3:.3f} ms a game)")
        for name in WORKLOADS:
            ratios = [r / s for r, s in zip(out["rules"], out[name])]
            print(f"[{label}] stack, {name:15s}: {1 / med(out[name]):,.0f} games per CPU-second  "
                  f"({out['bytes'][name] / 1024:.0f} KiB of log per game); stack / rules {med(ratios):.3f} "
                  f"[{min(ratios):.3f}, {max(ratios):.3f}] over {len(ratios)} rounds")
        if out["alphawolf"]:
            print(f"[{label}] full AlphaWolf: {1 / med(out['alphawolf']):.2f} games per CPU-second "
                  f"({med(out['alphawolf']) * 1e3:.0f} ms a game, median of {len(out['alphawolf'])} rounds)")
    if len(res) == 2:
        (b, before), (a, after) = res.items()
        parts = [f"{k} {med(after[k]) / med(before[k]):.3f}" for k in ("rules", *WORKLOADS, "alphawolf") if before[k]]
        print(f"CPU per game, {a} / {b}: " + ", ".join(parts))


def instructions(trees: dict[str, Path], options: dict, games: int, alphawolf: int) -> None:
    """Machine instructions per game (valgrind cachegrind), each workload less the start-up."""
    def count(tree: Path, *cmd: object) -> int:
        return instructions_of(_WORKER, json.dumps(options), *cmd, tree=tree)

    for label, tree in trees.items():
        base = count(tree, "rules", 0, 0)
        rules = (count(tree, "rules", 0, 10 * games) - base) / (10 * games)
        line = f"[{label}] instructions per game: rules alone {rules / 1e6:.3f}M"
        for name, agent in WORKLOADS.items():
            stack = (count(tree, "stack", agent, 0, games) - base) / games
            line += f"; {name} {stack / 1e6:.2f}M (stack / rules {rules / stack:.4f})"
        if alphawolf:
            line += f"; full AlphaWolf {(count(tree, 'stack', 'alphawolf', 0, alphawolf) - base) / alphawolf / 1e6:.0f}M"
        print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--rules-games", type=int, default=100, help="rules-alone games a round")
    parser.add_argument("--stack-games", type=int, default=10, help="stack games a round, each workload")
    parser.add_argument("--alphawolf", type=int, default=0, metavar="N", help="full AlphaWolf games a round")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--against", metavar="REV", help="also run the committed tree REV, interleaved")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead")
    args = parser.parse_args(argv)
    options = {k: json.loads(v) for k, _, v in (o.partition("=") for o in args.option)}
    print(f"options: {options or 'defaults (10 players, 3 discussion rounds)'}")
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT}
        if args.against:
            trees = {args.against: export(args.against, Path(tmp)), "this tree": ROOT}
        if args.instructions:
            instructions(trees, options, args.stack_games, args.alphawolf)
            return 0
        workers = {label: Worker(tree, options) for label, tree in trees.items()}
        try:
            report(rounds(workers, args.rounds, args.rules_games, args.stack_games, args.alphawolf))
        finally:
            for w in workers.values():
                w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
