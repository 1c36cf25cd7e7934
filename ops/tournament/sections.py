"""Helpers for the report sections a game's plugin declares (see games/plugin.py `report`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ops.tournament.report import mean_ci, mean_ci_counts, wilson

_FIELDS = ("game_id", "seats", "scores", "ranks", "winners", "roles", "teams", "extra", "summary", "errors", "steps",
           "aborted")
_CHUNK = 10_000


class Games:
    """The played (not aborted) games of a tournament, as a report section reads them.

    `len(games)`; iteration: each game a dict of its row (the fields of `_FIELDS`, `extra`
    parsed, `teams` filled in for stores older than teams), in game order, read a chunk at a time
    (a million games are never in memory at once, but each is still a Python dict: slow there);
    `games.sql(query, params)`: a DuckDB query over the view `played` (the store's `games` table,
    its played rows), for sections counted in the store, which stay fast at any size."""

    def __init__(self, db: Any):
        self.db = db
        db.execute("create or replace temp view played as select * from games where aborted is null")
        self._n: int | None = None
        self.reading: str | None = None  # the game id iteration is at (named when a section fails there)

    def sql(self, query: str, params: list[Any] | None = None) -> Any:
        """Run `query` (it may read the view `played`); a DuckDB result: `.fetchall()`, `.fetchone()`."""
        return self.db.execute(query, params or [])

    def __len__(self) -> int:
        if self._n is None:
            self._n = self.db.execute("select count(*) from games where aborted is null").fetchone()[0]
        return self._n

    def __iter__(self) -> Iterator[dict[str, Any]]:
        cursor = self.db.cursor()
        try:
            cursor.execute(f"select {', '.join(_FIELDS)} from games where aborted is null order by idx")  # a cursor: no temp view
            while rows := cursor.fetchmany(_CHUNK):
                for row in rows:
                    game = dict(zip(_FIELDS, row))
                    game["teams"] = game["teams"] or [[s] for s in range(len(game["seats"]))]
                    extra = game["extra"]
                    game["extra"] = json.loads(extra) if isinstance(extra, str) else (extra or {})
                    self.reading = str(game["game_id"])
                    yield game
        finally:
            cursor.close()


def rate(label: str, hits: int, n: int) -> dict[str, Any]:
    """A row: the share of `n` that hit, with its Wilson 95% interval."""
    value, lo, hi = wilson(hits, n)
    return {"label": label, "value": value, "ci": [lo, hi], "n": n}


def mean(label: str, values: Iterable[float]) -> dict[str, Any]:
    """A row: the mean of `values`, with its 95% interval (normal approximation)."""
    values = list(values)
    m, lo, hi = mean_ci(values)
    return {"label": label, "value": m, "ci": [lo, hi], "n": len(values)}


def mean_of_counts(label: str, counts: Iterable[tuple[float, int]]) -> dict[str, Any]:
    """A row: the mean of values given as (value, how many), with its 95% interval."""
    counts = list(counts)
    m, lo, hi = mean_ci_counts(counts)
    return {"label": label, "value": m, "ci": [lo, hi], "n": sum(n for _, n in counts)}
