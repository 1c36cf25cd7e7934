"""AlphaDip and DipBlue: speed, and quick mean ranks without the tournament runner.

1. `speed`: CPU seconds per phase (`time.process_time`, whole stack inline: referee, Presidents,
   offices, bus, msgpack log) for seven players of one agent type, per type; and games/s of the
   table 6.1 lineup (2 AlphaDip PR+SO+FO+IO + 5 DumbBot).
2. `ranks`: play a lineup inline with seats rotated game by game (as the tournament's
   `seating = "rotate"`), seeds SEED.., and print each label's mean rank with a 95% CI.

    python -m ops.bench.diplomacy_alpha speed [--games 2] [--max-year 1920]
    python -m ops.bench.diplomacy_alpha ranks --lineup "alphadip:offices=so*2,dumbbot*5" --games 14
"""

from __future__ import annotations

import argparse
import io
import math
import statistics
import time

from actors.match import make_header, play
from actors.registry import AgentSpec, parse_spec
from bus.log import LogWriter

TYPES = {
    "random": "random",
    "dumbbot": "dumbbot",
    "dipblue": "dipblue",
    "dipblue-naive": "dipblue:archetype=naive",
    "alphadip-so": "alphadip:offices=so",
    "alphadip-so-fo": "alphadip:offices=so+fo",
    "alphadip-so-fo-io": "alphadip",
}
LINEUP_61 = "alphadip*2,dumbbot*5"


def lineup(text: str) -> list[tuple[str, AgentSpec]]:
    """`spec*count,...` -> (label, spec) per seat; the label is the spec text."""
    out = []
    for part in text.split(","):
        spec, _, count = part.partition("*")
        out += [(spec, parse_spec(spec))] * int(count or 1)
    return out


def play_one(seats: list[AgentSpec], seed: int, options: dict) -> tuple[object, int]:
    header = make_header("diplomacy", seed, seats, options)
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    result = play(header, writer)
    return result.end, len(buf.getvalue())


def speed(games: int, max_year: int) -> None:
    options = {"max_year": max_year}
    for name, text in TYPES.items():
        spec = parse_spec(text)
        t0, phases = time.process_time(), 0
        for seed in range(games):
            end, _ = play_one([spec] * 7, seed, options)
            phases += _phases(end)
        cpu = time.process_time() - t0
        print(f"{name:<18} {cpu / phases * 1000 / 7:7.2f} ms CPU per phase and player "
              f"({cpu / games:.2f} s per game of 7)")
    seats = [s for _, s in lineup(LINEUP_61)]
    t0 = time.process_time()
    for seed in range(games):
        play_one(seats, seed, options)
    cpu = time.process_time() - t0
    print(f"table 6.1 lineup ({LINEUP_61}): {games / cpu:.3f} games/s per core")


def _phases(end: object) -> int:
    phase = end.extra["phase"]  # the phase after the last: years played x (S, F, W) + retreats
    return 3 * (int(phase[1:5]) - 1901) + 3


def ranks(text: str, games: int, seed: int, options: dict) -> None:
    seats = lineup(text)
    n = len(seats)
    got: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    for g in range(games):
        k = g % n
        rotated = seats[n - k:] + seats[: n - k]
        end, _ = play_one([s for _, s in rotated], seed + g, options)
        for (label, _), r in zip(rotated, end.ranks):
            got.setdefault(label, []).append(r)
    wall = time.perf_counter() - t0
    for label, rs in got.items():
        m = statistics.fmean(rs)
        half = 1.96 * statistics.stdev(rs) / math.sqrt(len(rs)) if len(rs) > 1 else float("nan")
        print(f"{label:<40} mean rank {m:.2f} +- {half:.2f} ({len(rs)} seat-games)")
    print(f"{games} games in {wall:.1f}s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--games", type=int, default=2)
    sp.add_argument("--max-year", type=int, default=1920)
    rp = sub.add_parser("ranks")
    rp.add_argument("--lineup", required=True)
    rp.add_argument("--games", type=int, default=14)
    rp.add_argument("--seed", type=int, default=1)
    rp.add_argument("--max-year", type=int, default=1920)
    args = ap.parse_args()
    if args.cmd == "speed":
        speed(args.games, args.max_year)
    else:
        ranks(args.lineup, args.games, args.seed, {"max_year": args.max_year})


if __name__ == "__main__":
    main()
