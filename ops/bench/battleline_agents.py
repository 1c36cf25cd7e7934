"""Battle Line agents against each other: win rates with Wilson 95%
intervals, tactics on and off, and Deep Barca's decision time per move.

    python -m ops.bench.battleline_agents --games 200                 # every pairing, both variants
    python -m ops.bench.battleline_agents --games 1000 --workers 2    # the full size
    python -m ops.bench.battleline_agents --pairings io --games 4000 --workers 2 --progress 100
                                                      # the IO comparison, running tallies on stderr
    python -m ops.bench.battleline_agents --timing 10 --games 0       # decision time, whole stack
    python -m ops.bench.battleline_agents --pairings naive --tactics off --param game='"symmetric"'
    python -m ops.bench.battleline_agents --pairings naive --tactics off --games 400 \
        --variant '{}' --variant '{"five_weight_floor": 0.3}'    # side by side on the same games

Pairings: `random` (deep-barca vs random), `naive` (deep-barca vs naive), `io` (deep-barca with
its Intelligence Office vs without), `naive-random`. Games are played in pairs on one deal (the
same seed), the first agent in seat 0 and then in seat 1 (as `permute_deal` seating does). The
agents' decisions are played straight on the rules (actors.battleline.direct, the functions the
offices run), so these are not the games the bus would play for the same seeds; the score counts a
drawn game (double pass) as half. `--variant JSON` (repeated) plays the same games once per set of
Deep Barca's constants and reports each, with the paired difference from the first variant (its
mean per game and standard error over the deals). `--timing K` plays K games of deep-barca vs naive through the
whole stack (referee, bus, President and offices, log in memory) and reports the CPU time of the
agent's actors per decision (median, p99) and the whole game's CPU time per decision.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool
from typing import Any, Self

from actors.battleline.direct import make_policy, play_direct
from actors.battleline.params import DeepBarcaParams
from ops.tournament.report import wilson

PAIRINGS = {
    "random": ("deep-barca", "random"),
    "naive": ("deep-barca", "naive"),
    "io": ("deep-barca+io", "deep-barca"),
    "naive-random": ("naive", "random"),
}
BASE_SEED = 1000


def one_game(task: tuple[str, bool, int, dict[str, Any]]) -> tuple[str, bool, str, float, list[float]]:
    """(pairing, tactics, game index, Deep Barca's params) -> (pairing, tactics, result of the first
    agent, CPU s, its decision times)."""
    pairing, tactics, g, params = task[:4]
    first, second = (make_policy(name, DeepBarcaParams(**params)) for name in PAIRINGS[pairing])
    seat = g % 2  # the first agent's seat: games in pairs on one deal
    seats = [first, second] if seat == 0 else [second, first]
    t0 = time.process_time()
    last = play_direct(seats, BASE_SEED + g // 2, {"tactics": tactics}).outcome().extra["games"][-1]
    spent = time.process_time() - t0
    result = "D" if last["winner"] is None else ("W" if last["winner"] == seat else "L")
    return pairing, tactics, result, spent, list(getattr(first, "times", []))


class _Serial:
    """A one-process stand-in for multiprocessing.Pool (its imap and context)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, fn, tasks, chunksize: int = 1):
        return map(fn, tasks)


def _tally_line(pairing: str, tactics: bool, results: list[tuple]) -> str:
    n = len(results)
    score = sum({"W": 1.0, "D": 0.5, "L": 0.0}[r[2]] for r in results)
    rate, lo, hi = wilson(score, n) if n else (0.0, 0.0, 1.0)  # type: ignore[arg-type]
    return f"{pairing} {'on' if tactics else 'off'} {n}: {rate:.3f} [{lo:.3f}, {hi:.3f}]"


def run(pairings: list[str], variants: list[bool], games: int, workers: int,
        params: dict[str, Any] | None = None, progress: int = 0, first: int = 0) -> list[dict[str, Any]]:
    # deal by deal across pairings and variants, so that a run cut short has played each the same
    # deals; `first` > 0 plays only games first..games-1 (the rest of a run cut short after them)
    tasks = [(p, t, g, params or {}) for g in range(first, games) for p in pairings for t in variants]
    tally: dict[tuple[str, bool], dict[str, Any]] = {
        (p, t): {"W": 0, "D": 0, "L": 0, "cpu": 0.0, "times": []} for p in pairings for t in variants}
    t0 = time.perf_counter()
    results = []
    with Pool(workers) if workers > 1 else _Serial() as pool:
        for done, result in enumerate(pool.imap(one_game, tasks, chunksize=2), 1):
            results.append(result)
            if progress and done % progress == 0:
                print(f"[{done}/{len(tasks)} games, {time.perf_counter() - t0:.0f} s] " + "; ".join(
                    _tally_line(p, t, [r for r in results if r[:2] == (p, t)]) for p in pairings for t in variants),
                    file=sys.stderr, flush=True)
    wall = time.perf_counter() - t0
    for pairing, tactics, result, spent, times in results:
        row = tally[(pairing, tactics)]
        row[result] += 1
        row["cpu"] += spent
        row["times"] += times
    rows = []
    for (pairing, tactics), row in tally.items():
        n = row["W"] + row["D"] + row["L"]
        score = row["W"] + row["D"] / 2
        rate, lo, hi = wilson(score, n)  # type: ignore[arg-type]  # a half-win per drawn game
        times = sorted(row["times"])
        rows.append({"pairing": pairing, "agents": " vs ".join(PAIRINGS[pairing]), "tactics": tactics,
                     "games": n, "W": row["W"], "D": row["D"], "L": row["L"], "score": rate, "ci": (lo, hi),
                     "cpu_per_game": row["cpu"] / max(1, n),
                     "median_ms": 1000 * statistics.median(times) if times else None,
                     "p99_ms": 1000 * times[int(0.99 * (len(times) - 1))] if times else None})
    print(f"{len(tasks)} games in {wall:.0f} s wall ({workers} worker{'s' if workers > 1 else ''})")
    return rows


def _variant_game(task: tuple[int, str, bool, int, dict[str, Any]]) -> tuple[int, str, bool, int, float]:
    """(variant, pairing, tactics, game index, params) -> the same with the first agent's score."""
    v, pairing, tactics, g, params = task
    result = one_game((pairing, tactics, g, params))[2]
    return v, pairing, tactics, g, {"W": 1.0, "D": 0.5, "L": 0.0}[result]


def compare(pairings: list[str], variants: list[bool], games: int, workers: int,
            sets: list[dict[str, Any]]) -> str:
    """The same games once per set of constants: each set's score and 95% interval, and its
    paired difference from the first set (mean per game, standard error over the deals)."""
    tasks = [(v, p, t, g, sets[v]) for p in pairings for t in variants for g in range(games)
             for v in range(len(sets))]
    t0 = time.perf_counter()
    if workers > 1:
        with Pool(workers) as pool:
            results = list(pool.imap_unordered(_variant_game, tasks, chunksize=2))
    else:
        results = [_variant_game(task) for task in tasks]
    wall = time.perf_counter() - t0
    scores = {(v, p, t, g): s for v, p, t, g, s in results}
    lines = [f"{len(tasks)} games in {wall:.0f} s wall",
             "| agents | tactics | variant | games | score | 95% CI | paired diff (s.e.) |",
             "|---|---|---|---|---|---|---|"]
    for p in pairings:
        for t in variants:
            for v, params in enumerate(sets):
                mine = [scores[(v, p, t, g)] for g in range(games)]
                rate, lo, hi = wilson(sum(mine), games)  # type: ignore[arg-type]
                # one deal = a pair of games with sides swapped: the unit of the paired difference
                deals = [(mine[g] + mine[g + 1] - scores[(0, p, t, g)] - scores[(0, p, t, g + 1)]) / 2
                         for g in range(0, games - 1, 2)]
                mean = statistics.fmean(deals) if deals else 0.0
                se = statistics.stdev(deals) / len(deals) ** 0.5 if len(deals) > 1 else 0.0
                lines.append(f"| {' vs '.join(PAIRINGS[p])} | {'on' if t else 'off'} | {json.dumps(params)} | "
                             f"{games} | {rate:.3f} | [{lo:.3f}, {hi:.3f}] | {mean:+.3f} ({se:.3f}) |")
    return "\n".join(lines)


def timing(games: int, tactics: bool) -> dict[str, float]:
    """Deep Barca's CPU time per decision through the whole stack (games of deep-barca vs naive)."""
    from actors.battleline import offices
    from actors.match import make_header, record
    from actors.registry import parse_lineup
    from bus.log import parse_log

    spent: dict[tuple[int, int], float] = {}  # (game, decision turn) -> CPU s of seat 0's actors
    current = [0]
    originals = {cls: cls.handle for cls in (offices.BattleLinePresident, offices.DeepBarcaStrategyOffice,
                                             offices.DeepBarcaIntelligenceOffice)}

    def timed(cls):
        inner = originals[cls]

        def handle(self, message):
            t0 = time.process_time()
            try:
                return inner(self, message)
            finally:
                seat = int(self.address[1:].split("/")[0])
                if seat == 0 and getattr(message, "turn", None) is not None:
                    key = (current[0], message.turn)
                    spent[key] = spent.get(key, 0.0) + time.process_time() - t0
        return handle

    decisions, total = 0, 0.0
    try:
        for cls in originals:
            cls.handle = timed(cls)
        for g in range(games):
            current[0] = g
            header = make_header("battleline", BASE_SEED + g, parse_lineup("deep-barca,naive", 2), {"tactics": tactics})
            t0 = time.process_time()
            data = record(header)
            total += time.process_time() - t0
            log = parse_log(data).games[0]
            decisions += sum(1 for r in log.records if r["msg"]["kind"] == "act_request")
    finally:
        for cls, handle in originals.items():
            cls.handle = handle
    times = sorted(spent.values())
    return {"decisions": len(times), "median_ms": 1000 * statistics.median(times),
            "p99_ms": 1000 * times[int(0.99 * (len(times) - 1))], "max_ms": 1000 * times[-1],
            "game_cpu_per_decision_ms": 1000 * total / max(1, decisions), "games_cpu_s": total / max(1, games)}


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| agents | tactics | games | W-D-L | score | 95% CI | CPU s/game | decision median / p99 ms |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        times = "-" if r["median_ms"] is None else f"{r['median_ms']:.1f} / {r['p99_ms']:.1f}"
        lines.append(f"| {r['agents']} | {'on' if r['tactics'] else 'off'} | {r['games']} | "
                     f"{r['W']}-{r['D']}-{r['L']} | {r['score']:.3f} | [{r['ci'][0]:.3f}, {r['ci'][1]:.3f}] | "
                     f"{r['cpu_per_game']:.2f} | {times} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing and variant (even)")
    parser.add_argument("--pairings", nargs="+", default=["random", "naive", "io"], choices=sorted(PAIRINGS))
    parser.add_argument("--tactics", choices=("on", "off", "both"), default="both")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timing", type=int, default=0, metavar="K", help="K games through the whole stack")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=JSON",
                        help="a Deep Barca constant (actors/battleline/params.py) for every deep-barca seat")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="every N games, the running tallies on stderr (a long run cut short still says something)")
    parser.add_argument("--from", dest="first", type=int, default=0, metavar="G",
                        help="play only games G.. of --games (even G: the rest of a run cut short after G games)")
    parser.add_argument("--variant", action="append", default=[], metavar="JSON",
                        help="a set of Deep Barca's constants; repeated: the same games for each, side by side")
    args = parser.parse_args()
    params = {k: json.loads(v) for k, _, v in (p.partition("=") for p in args.param)}
    DeepBarcaParams(**params)  # refuse a bad constant before playing
    sets = [dict(params, **json.loads(v)) for v in args.variant]
    for s in sets:
        DeepBarcaParams(**s)
    variants = {"on": [True], "off": [False], "both": [True, False]}[args.tactics]
    if sets and args.games:
        print(compare(args.pairings, variants, args.games, args.workers, sets))
    elif args.games:
        if args.first % 2 or not 0 <= args.first < args.games:
            parser.error("--from must be even and below --games (games come in pairs on one deal)")
        print(table(run(args.pairings, variants, args.games, args.workers, params, args.progress, args.first)))
    if args.timing:
        for tactics in variants:
            t = timing(args.timing, tactics)
            print(f"whole stack, tactics {'on' if tactics else 'off'}: {t['decisions']} deep-barca decisions, "
                  f"median {t['median_ms']:.1f} ms, p99 {t['p99_ms']:.1f} ms, max {t['max_ms']:.1f} ms "
                  f"(its President and offices); a whole game {t['games_cpu_s']:.2f} s CPU, "
                  f"{t['game_cpu_per_decision_ms']:.1f} ms per decision of either seat")


if __name__ == "__main__":
    main()
