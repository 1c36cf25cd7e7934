"""Risk's and Battle Line's report sections on a large store ("a million games"): the
sections counted in the store (ops/plugins/{risk,battleline}/report.py, DuckDB) against the
per-game Python count they replaced (each game a dict, its `extra` parsed; kept as the reference
`python_report` in tests/{risk,battleline}/test_report.py), side by side in one process, rounds
interleaved, CPU time (DuckDB's threads included) and wall time, best of rounds.

    python -m ops.bench.report_sections [--games 100000] [--rounds 3] [--only risk|battleline]

Run from the repository root (the references are imported from tests/). The store holds real
played rows (Risk: 2-player games with the neutral and 3-player games, caps low enough for draws;
Battle Line: single games and series of three) copied under fresh game ids and indices, added
with Store.add in chunks of 10,000; both counts are checked equal before they are timed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ops.tournament.runner import BatchPlayer, _check_meta
from ops.tournament.sections import Games
from ops.tournament.spec import game_id, parse_spec
from ops.tournament.store import Store

CHUNK = 10_000

# (spec, games played) per game: the real rows the store repeats
SAMPLES: dict[str, list[tuple[dict[str, Any], int]]] = {
    "risk": [({"game": "risk", "games": 12, "seed": 5, "options": {"players": 2, "max_rounds": 8}, "seating": "rotate",
               "lineup": [{"agent": "heuristic", "count": 1}, {"agent": "random", "count": 1}]}, 12),
             ({"game": "risk", "games": 12, "seed": 7, "options": {"players": 3, "max_rounds": 10}, "seating": "rotate",
               "lineup": [{"agent": "heuristic", "count": 2}, {"agent": "random", "count": 1}]}, 12)],
    "battleline": [({"game": "battleline", "games": 12, "seed": 3, "options": {"tactics": False},
                     "seating": "permute_deal", "lineup": [{"agent": "naive", "count": 1}, {"agent": "random", "count": 1}]}, 12),
                   ({"game": "battleline", "games": 6, "seed": 4, "options": {"tactics": False, "series": 3},
                     "seating": "permute_deal", "lineup": [{"agent": "naive", "count": 1}, {"agent": "deep-barca", "count": 1}]}, 6)],
}


def played_rows(work: Path, game: str) -> list[dict[str, Any]]:
    rows = []
    for k, (spec, n) in enumerate(SAMPLES[game]):
        folder = work / f"{game}-play-{k}"
        folder.mkdir()
        parsed = parse_spec(spec)
        store = Store(folder)
        _check_meta(store, parsed)
        store.close()
        player = BatchPlayer(str(folder), parsed.model_dump(mode="json"), "b-r001")
        rows += player.play(list(range(n)))
        player.close()
    return rows


def filled_store(folder: Path, rows: list[dict[str, Any]], games: int) -> Store:
    """A store of `games` rows: `rows` repeated in turn, each under a fresh game id and index."""
    folder.mkdir()
    store = Store(folder)
    for start in range(0, games, CHUNK):
        chunk = [{**rows[i % len(rows)], "game_id": game_id(i), "idx": i} for i in range(start, min(games, start + CHUNK))]
        assert store.add(chunk) == len(chunk)
    return store


def timed(count: Callable[[Games], Any], db: Any) -> tuple[float, float, Any]:
    c0, w0 = time.process_time(), time.perf_counter()
    sections = count(Games(db))
    return time.process_time() - c0, time.perf_counter() - w0, sections


def bench(game: str, work: Path, games: int, rounds: int) -> None:
    from importlib import import_module

    new = import_module(f"ops.plugins.{game}.report").report
    old = import_module(f"tests.{game}.test_report").python_report
    t0 = time.perf_counter()
    store = filled_store(work / f"{game}-store", played_rows(work, game), games)
    print(f"{game}: {games:,} games stored in {time.perf_counter() - t0:.1f} s (wall)")
    cpu: dict[str, list[float]] = {"python": [], "store": []}
    wall: dict[str, list[float]] = {"python": [], "store": []}
    results = {}
    for r in range(rounds):
        for name in ("python", "store") if r % 2 == 0 else ("store", "python"):
            c, w, results[name] = timed(old if name == "python" else new, store.db)
            cpu[name].append(c)
            wall[name].append(w)
        assert json.dumps(results["python"]) == json.dumps(results["store"]), "the two counts differ"
    store.close()
    b_old, b_new = min(cpu["python"]), min(cpu["store"])
    print(f"  per-game Python count (before): {b_old:8.2f} s CPU  {min(wall['python']):8.2f} s wall")
    print(f"  counted in the store (now)    : {b_new:8.3f} s CPU  {min(wall['store']):8.3f} s wall")
    print(f"  report sections counted in the store: {b_old:.2f} s -> {b_new:.3f} s at {games:,} games"
          f" (CPU, best of {rounds}; {b_old / b_new:.0f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=sorted(SAMPLES))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="detente-sections-"))
    try:
        for game in [args.only] if args.only else sorted(SAMPLES):
            bench(game, work, args.games, args.rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
