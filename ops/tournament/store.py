"""The results store: one DuckDB file in the output folder, written only by the driver.

Table `games`: one row per recorded game (identity: game_id), with the index into the log
segments. Table `seats`: one row per (game, seat). Table `meta`: the spec the folder was made
with, so a rerun can check it is the same tournament. Query it with SQL:
`duckdb OUT/results.duckdb "select label, avg(rank) from seats group by label"`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import duckdb

STORE = "results.duckdb"

_COLUMNS = (
    "game_id", "idx", "seed", "seats", "agent_names", "agents", "scores", "ranks", "winners", "roles", "steps",
    "records", "summary", "errors", "duration_ms", "segment", "offset", "nbytes", "runner", "teams",
)

_SCHEMA = [
    """create table if not exists meta (key varchar primary key, value varchar)""",
    """create table if not exists games (
        game_id varchar primary key, idx bigint, seed ubigint, seats varchar[], agent_names varchar[], agents json,
        scores double[], ranks double[], winners integer[], roles varchar[], steps integer,
        records integer, summary varchar, errors integer, duration_ms double,
        segment varchar, "offset" bigint, nbytes bigint, runner varchar, teams integer[][])""",
    # stores made before teams were recorded: the column added, NULL for their games
    """alter table games add column if not exists teams integer[][]""",
    # one row per (game, seat), derived: nothing to keep in step
    """create or replace view seats as
        select game_id, idx, seat, label, agent, role, score, rank, list_contains(winners, seat) as win
        from (select game_id, idx, winners, unnest(range(len(seats))) as seat, unnest(seats) as label,
                     unnest(agent_names) as agent, unnest(roles) as role, unnest(scores) as score,
                     unnest(ranks) as rank
              from games)""",
]


class StoreError(Exception):
    """The store cannot be opened or does not belong to this tournament."""


class Store:
    """Open (or create) the store of an output folder.

    DuckDB lets one process write a file or many read it, never both at once, so a running
    tournament holds the store only while it records a batch (`Recorder`), and opening waits up to
    `wait` seconds for such a moment: a report or a lookup works while a run goes on."""

    def __init__(self, out: str | Path, read_only: bool = False, wait: float = 10.0):
        path = Path(out) / STORE
        if read_only and not path.exists():
            raise StoreError(f"{out}: no tournament results here ({STORE} missing)")
        deadline = time.monotonic() + wait
        while True:
            try:
                self.db = duckdb.connect(str(path), read_only=read_only)
                break
            except duckdb.IOException as exc:
                if time.monotonic() >= deadline:
                    raise StoreError(
                        f"{path}: cannot open ({str(exc).splitlines()[0]}); another process holds it"
                    ) from None
                time.sleep(0.05)
        if not read_only:
            for statement in _SCHEMA:
                self.db.execute(statement)

    def close(self) -> None:
        self.db.close()

    # -- meta -------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("select value from meta where key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("insert or replace into meta values (?, ?)", [key, value])

    # -- games ------------------------------------------------------------------------------

    def recorded(self) -> set[int]:
        return {row[0] for row in self.db.execute("select idx from games").fetchall()}

    def count(self) -> int:
        return self.db.execute("select count(*) from games").fetchone()[0]

    def add(self, rows: list[dict[str, Any]]) -> int:
        """Record finished games in one statement; games already recorded are skipped."""
        if not rows:
            return 0
        params: list[Any] = []
        for r in rows:
            params += [
                r["game_id"], r["idx"], r["seed"], r["seats"], [a["name"] for a in r["agents"]], json.dumps(r["agents"]),
                r["scores"], r["ranks"], r["winners"], r["roles"], r["steps"], r["records"], r["summary"], r["errors"],
                r["duration_ms"], r["segment"], r["offset"], r["nbytes"], r["runner"],
                r.get("teams") or [[s] for s in range(len(r["seats"]))],
            ]
        marks = "(" + ", ".join("?" * len(_COLUMNS)) + ")"
        before = self.count()
        columns = ", ".join(f'"{c}"' for c in _COLUMNS)
        self.db.execute(f"insert or ignore into games ({columns}) values {', '.join([marks] * len(rows))}", params)
        return self.count() - before

    def locate(self, game_id: str) -> tuple[str, int] | None:
        row = self.db.execute('select segment, "offset" from games where game_id = ?', [game_id]).fetchone()
        return (row[0], row[1]) if row else None


class Recorder:
    """The driver's side of the store during a run: rows are buffered and written every
    `interval` seconds in one transaction, opening the file just for that, so readers get in
    between. `flush` at the end waits for the file as long as it takes (up to `wait` seconds).
    A game counts once its row is written: rows still buffered when the driver dies are played
    again by the next run."""

    def __init__(self, out: str | Path, interval: float = 2.0, wait: float = 120.0):
        self.out = out
        self.interval = interval
        self.wait = wait
        self.pending: list[dict[str, Any]] = []
        self.written = 0  # rows this recorder inserted (duplicates by game id not counted)
        self._last = time.monotonic()

    def add(self, rows: list[dict[str, Any]]) -> None:
        self.pending += rows
        if time.monotonic() - self._last >= self.interval:
            self._write(wait=0.0)

    def flush(self) -> None:
        if self.pending:
            self._write(wait=self.wait)

    def _write(self, wait: float) -> None:
        self._last = time.monotonic()
        try:
            store = Store(self.out, wait=wait)
        except StoreError:
            if wait:
                raise
            return  # a reader has it now: the rows wait for the next turn
        try:
            self.written += store.add(self.pending)
            self.pending = []
        finally:
            store.close()
