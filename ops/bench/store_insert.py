"""The driver's store writes: `Store.add`'s columnar insert (one list per column,
unnested by DuckDB, each bound as one JSON text) against the statements before it (the lists
bound as Python lists; one `?` per value of every row), side by side in one process, CPU time,
rounds interleaved; and what one Recorder turn costs (open, insert, close) at the tournament's
two-second interval.

    python -m ops.bench.store_insert [--rows 400] [--rounds 7]

The rows are one real result row (a random 10-player Werewolves game played by the runner's
BatchPlayer) copied under fresh game ids, so the values are what a tournament stores.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from ops.tournament.runner import BatchPlayer
from ops.tournament.spec import game_id, load_spec
from ops.tournament.store import _COLUMNS, _INSERT_LISTS, _QUOTED, Store, row_values


def plain_add(store: Store, rows: list[dict]) -> int:
    """The insert `Store.add` made before (kept here to compare with): one parameter per value."""
    params = [v for r in rows for v in row_values(r)]
    marks = "(" + ", ".join("?" * len(_COLUMNS)) + ")"
    sql = f"insert or ignore into games ({_QUOTED}) values {', '.join([marks] * len(rows))} returning game_id"
    return len(store.db.execute(sql, params).fetchall())


def lists_add(store: Store, rows: list[dict]) -> int:
    """`Store.add` before the JSON texts: each column's values bound as a Python list."""
    columns: list[list] = [[] for _ in _COLUMNS]
    for r in rows:
        for column, value in zip(columns, row_values(r)):
            column.append(value)
    return len(store.db.execute(_INSERT_LISTS, columns).fetchall())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=400, help="rows a write (a 2 s turn of a 2-runner run: ~400)")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="detente-insert-"))
    try:
        spec = load_spec("ops/examples/werewolves.toml", games=1)
        player = BatchPlayer(str(work / "play"), spec.model_dump(mode="json"), "b-r001")
        (row,) = player.play([0])
        player.close()
        times: dict[str, list[float]] = {"plain": [], "lists": [], "columnar": [], "turn": [], "turn-threads": []}
        sides = ["plain", "lists", "columnar"]
        next_idx = 0
        for r in range(args.rounds):
            for name in sides[r % 3:] + sides[:r % 3] + (["turn", "turn-threads"] if r % 2 else ["turn-threads", "turn"]):
                rows = [{**row, "game_id": game_id(i), "idx": i} for i in range(next_idx, next_idx + args.rows)]
                next_idx += args.rows
                folder = work / f"{name}-{r}"
                folder.mkdir()
                Store(folder).close()
                if name.startswith("turn"):  # what the Recorder does every 2 s: open (tables known), insert, close
                    c0 = time.process_time()  # with one DuckDB thread, as the Recorder opens it, or the default
                    store = Store(folder, schema=False, threads=1 if name == "turn" else None)
                    added = store.add(rows)
                    store.close()
                else:
                    store = Store(folder)
                    c0 = time.process_time()
                    added = {"plain": plain_add, "lists": lists_add, "columnar": Store.add}[name](store, rows)
                times[name].append(time.process_time() - c0)
                if not name.startswith("turn"):
                    store.close()
                assert added == args.rows
        med = {k: statistics.median(v) for k, v in times.items()}
        ratios = [c / p for c, p in zip(times["columnar"], times["plain"])]
        to_lists = [c / p for c, p in zip(times["columnar"], times["lists"])]
        print(f"{args.rows} rows a write, {args.rounds} interleaved rounds (CPU, medians):")
        print(f"  one ? per value (before)  : {med['plain'] * 1e3:7.1f} ms  ({med['plain'] / args.rows * 1e3:.3f} ms a row)")
        print(f"  columns as Python lists   : {med['lists'] * 1e3:7.1f} ms  ({med['lists'] / args.rows * 1e3:.3f} ms a row)")
        print(f"  columns as JSON (now)     : {med['columnar'] * 1e3:7.1f} ms  ({med['columnar'] / args.rows * 1e3:.3f} ms a row)")
        print(f"  now / one ? per value     : {statistics.median(ratios):.2f} [{min(ratios):.2f}, {max(ratios):.2f}]")
        print(f"  now / Python lists        : {statistics.median(to_lists):.2f} [{min(to_lists):.2f}, {max(to_lists):.2f}]")
        threads = [a / b for a, b in zip(times["turn"], times["turn-threads"])]
        print(f"  a Recorder turn (open, insert, close): {med['turn'] * 1e3:.1f} ms with one DuckDB thread, "
              f"{med['turn-threads'] * 1e3:.1f} ms with the default (one a CPU); ratio {statistics.median(threads):.2f} "
              f"[{min(threads):.2f}, {max(threads):.2f}]")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
