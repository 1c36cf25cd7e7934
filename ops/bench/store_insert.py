"""The driver's store writes (issue 18): `Store.add`'s columnar insert (one list per column,
unnested by DuckDB) against the statement it replaced (one `?` per value of every row), side by
side in one process, CPU time, rounds interleaved; and what one Recorder turn costs (open, insert,
close) at the tournament's two-second interval.

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
from ops.tournament.store import _COLUMNS, _QUOTED, Store, row_values


def plain_add(store: Store, rows: list[dict]) -> int:
    """The insert `Store.add` made before (kept here to compare with): one parameter per value."""
    params = [v for r in rows for v in row_values(r)]
    marks = "(" + ", ".join("?" * len(_COLUMNS)) + ")"
    sql = f"insert or ignore into games ({_QUOTED}) values {', '.join([marks] * len(rows))} returning game_id"
    return len(store.db.execute(sql, params).fetchall())


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
        times: dict[str, list[float]] = {"plain": [], "columnar": [], "turn": []}
        next_idx = 0
        for r in range(args.rounds):
            for name in (["plain", "columnar"] if r % 2 == 0 else ["columnar", "plain"]) + ["turn"]:
                rows = [{**row, "game_id": game_id(i), "idx": i} for i in range(next_idx, next_idx + args.rows)]
                next_idx += args.rows
                folder = work / f"{name}-{r}"
                folder.mkdir()
                Store(folder).close()
                if name == "turn":  # what the Recorder does every 2 s: open (tables known), insert, close
                    c0 = time.process_time()
                    store = Store(folder, schema=False)
                    added = store.add(rows)
                    store.close()
                else:
                    store = Store(folder)
                    c0 = time.process_time()
                    added = plain_add(store, rows) if name == "plain" else store.add(rows)
                times[name].append(time.process_time() - c0)
                if name != "turn":
                    store.close()
                assert added == args.rows
        med = {k: statistics.median(v) for k, v in times.items()}
        ratios = [c / p for c, p in zip(times["columnar"], times["plain"])]
        print(f"{args.rows} rows a write, {args.rounds} interleaved rounds (CPU, medians):")
        print(f"  one ? per value (before)  : {med['plain'] * 1e3:7.1f} ms  ({med['plain'] / args.rows * 1e3:.3f} ms a row)")
        print(f"  columnar (Store.add now)  : {med['columnar'] * 1e3:7.1f} ms  ({med['columnar'] / args.rows * 1e3:.3f} ms a row)")
        print(f"  columnar / before         : {statistics.median(ratios):.2f} [{min(ratios):.2f}, {max(ratios):.2f}]")
        print(f"  a Recorder turn (open, insert, close): {med['turn'] * 1e3:.1f} ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
