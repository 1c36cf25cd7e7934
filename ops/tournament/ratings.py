"""openskill (Plackett-Luce) ratings of a tournament, rated in game order and kept with its store.

Every played game (not aborted) is rated one after another in the order of game indices (the
order of game ids, which are zero-padded). The ratings after the contiguous prefix of recorded
games (games 0..K-1 all recorded: no game can come before them any more) are stored in the
store: table `ratings` holds each label's mu and sigma as the model left them (doubles, exact),
table `rating_points` the history's points among those games, meta `ratings` K and the model.
A report rates only the games after K on top of them; games recorded after a gap are rated in
memory each time, and stored once the gap is filled. The stored state is all there is to a
rating, so rating on from it gives the same floats as `from_scratch` (tests check it bit for bit).

The history's points are every `stride(n)`-th of the n games (a power of two, at most `POINTS`
of them) and the last: a longer history's points are among a shorter one's, so those stored stay
usable as games are added.
"""

from __future__ import annotations

import functools
import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib.metadata import version
from typing import Any

import duckdb

POINTS = 200  # points of the rating history, at most (and the last game)
CHUNK = 20_000  # games read from the store at a time
META = "ratings"

# a game's teams (lists of seats); a store older than teams has every seat on its own
TEAMS = "(case when len(teams) > 0 then teams else list_transform(range(len(seats)), lambda s: [s]) end)"
# each team of a played game: its seats' labels, and its rank (the best of its seats')
_GAMES = (f"select idx, list_transform({TEAMS}, lambda t: list_transform(t, lambda s: seats[s + 1])), "
          f"list_transform({TEAMS}, lambda t: list_min(list_transform(t, lambda s: ranks[s + 1]))) "
          "from games where aborted is null and idx >= ? and idx < ? order by idx")


@functools.cache
def model_name() -> str:
    """What ratings depend on besides the games: the library, its version, the model and its
    parameters, and the interpreter's minor version (3.12 changed how `sum()` adds floats).
    Stored ratings made under another are rated again."""
    from openskill.models import PlackettLuce

    m = PlackettLuce()
    params = ", ".join(f"{k}={getattr(m, k)!r}" for k in ("mu", "sigma", "beta", "kappa", "tau", "limit_sigma", "balance"))
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    return f"openskill {version('openskill')} PlackettLuce({params}) on Python {python}"


def stride(n: int) -> int:
    """The history of n games has a point every stride(n) games: the least power of two with n
    <= POINTS * stride."""
    s = 1
    while s * POINTS < n:
        s *= 2
    return s


class Rater:
    """Rates games one at a time; its whole state is each label's (mu, sigma)."""

    def __init__(self, state: dict[str, tuple[float, float]] | None = None):
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.state = {label: self.model.rating(mu=mu, sigma=sigma, name=label) for label, (mu, sigma) in (state or {}).items()}

    def rate(self, team_labels: list[list[str]], ranks: list[float]) -> bool:
        """Rate one game: each team as its seats' labels, one rank per team. Several seats with
        the same label are separate players of one shared rating (their updates are averaged
        into it). A game of one team (a cooperative game) rates nobody: False."""
        if len(team_labels) < 2:
            return False
        model, state = self.model, self.state
        teams = [[state.setdefault(label, model.rating(name=label)) for label in team] for team in team_labels]
        rated = model.rate(teams, ranks=ranks)
        sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
        for labels, players in zip(team_labels, rated):
            for label, player in zip(labels, players):
                acc = sums[label]
                acc[0] += player.mu
                acc[1] += player.sigma
                acc[2] += 1
        for label, (mu, sigma, n) in sorted(sums.items()):
            state[label] = model.rating(mu=mu / n, sigma=sigma / n, name=label)
        return True

    def snapshot(self) -> dict[str, tuple[float, float]]:
        return {label: (r.mu, r.sigma) for label, r in sorted(self.state.items())}

    def point(self, position: int) -> dict[str, Any]:
        """The history's entry after the game at `position` (0-based): its number, each label's mu."""
        return {"game": position + 1, **{label: self.state[label].mu for label in sorted(self.state)}}

    def table(self) -> dict[str, dict[str, float]]:
        return {label: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma} for label, r in sorted(self.state.items())}


def from_scratch(games: list[tuple[list[list[str]], list[float]]]) -> tuple[dict[str, dict[str, float]], list[dict[str, Any]]]:
    """The ratings table and history of `games` (each its teams' labels and ranks), all rated in order."""
    rater, every = Rater(), stride(len(games))
    history = []
    for position, (teams, ranks) in enumerate(games):
        if rater.rate(teams, ranks) and (position % every == 0 or position == len(games) - 1):
            history.append(rater.point(position))
    return rater.table(), history


@dataclass
class Checkpoint:
    """Ratings after games 0..through-1: `positions` of them played (the next game's place in
    the order), the last of those rated or not, each label's (mu, sigma)."""

    through: int = 0
    positions: int = 0
    last_rated: bool = False
    state: dict[str, tuple[float, float]] = field(default_factory=dict)


def load(db: duckdb.DuckDBPyConnection) -> Checkpoint:
    """The stored checkpoint; an empty one when there is none, it was made under another model,
    or the games it covers are not those the store holds (the store was edited)."""
    try:
        meta = db.execute("select value from meta where key = ?", [META]).fetchone()
        rows = db.execute("select label, mu, sigma from ratings").fetchall() if meta else []
    except duckdb.CatalogException:  # a store made before ratings were kept (opened read-only)
        return Checkpoint()
    if meta is None:
        return Checkpoint()
    info = json.loads(meta[0])
    if info.get("model") != model_name():
        return Checkpoint()
    cp = Checkpoint(info["through"], info["positions"], info["last_rated"], {l: (mu, sigma) for l, mu, sigma in rows})
    held = db.execute("select count(*), count(*) filter (where aborted is null) from games where idx < ?",
                      [cp.through]).fetchone()
    return cp if held == (cp.through, cp.positions) else Checkpoint()


def prefix(db: duckdb.DuckDBPyConnection) -> int:
    """K such that games 0..K-1 are all recorded and game K is not."""
    count, top = db.execute("select count(*), coalesce(max(idx), -1) from games").fetchone()
    if count == top + 1:
        return count
    return db.execute("select min(n) from (select idx, row_number() over (order by idx) - 1 as n from games) "
                      "where idx <> n").fetchone()[0]


def played(db: duckdb.DuckDBPyConnection, lo: int = 0, hi: int | None = None) -> int:
    """Played (not aborted) games among games lo..hi-1."""
    return db.execute("select count(*) from games where aborted is null and idx >= ? and idx < ?",
                      [lo, _end(hi)]).fetchone()[0]


def games(db: duckdb.DuckDBPyConnection, lo: int, hi: int | None = None) -> Iterator[tuple[int, list[list[str]], list[float]]]:
    """(index, teams' labels, teams' ranks) of each played game among games lo..hi-1, in order,
    read a chunk at a time."""
    cursor = db.cursor()
    try:
        cursor.execute(_GAMES, [lo, _end(hi)])
        while rows := cursor.fetchmany(CHUNK):
            yield from rows
    finally:
        cursor.close()


def _end(hi: int | None) -> int:
    return (1 << 62) if hi is None else hi


@dataclass
class Rated:
    """Games rated on top of a checkpoint: the checkpoint before game `keep` with the history's
    stride points before it (what may be stored), and after every game the table and all points."""

    kept: Checkpoint
    kept_points: list[dict[str, Any]]
    table: dict[str, dict[str, float]]
    points: list[dict[str, Any]]


def advance(cp: Checkpoint, rows: Iterable[tuple[int, list[list[str]], list[float]]], total: int, keep: int) -> Rated:
    """Rate `rows` (the played games after `cp.through`, in order) on top of `cp`, as games of a
    history of `total` played games; the checkpoint kept is the one before game `keep`."""
    rater, every = Rater(cp.state), stride(total)
    position, last_rated = cp.positions, cp.last_rated
    kept: Checkpoint | None = None
    points: list[dict[str, Any]] = []
    kept_points: list[dict[str, Any]] = []
    for idx, teams, ranks in rows:
        if kept is None and idx >= keep:
            kept = Checkpoint(keep, position, last_rated, rater.snapshot())
        last_rated = rater.rate(teams, ranks)
        if last_rated and (position % every == 0 or position == total - 1):
            points.append(rater.point(position))
            if kept is None and position % every == 0:
                kept_points.append(points[-1])
        position += 1
    if kept is None:
        kept = Checkpoint(keep, position, last_rated, rater.snapshot())
    return Rated(kept, kept_points, rater.table(), points)


def stored_points(db: duckdb.DuckDBPyConnection, cp: Checkpoint, total: int) -> list[dict[str, Any]]:
    """The history's points among the checkpoint's games for a history of `total` played games,
    with the checkpoint's last game when it is the last of all and rated."""
    every = stride(total)
    try:
        rows = db.execute("select game, label, mu from rating_points where game <= ? and (game - 1) % ? = 0 "
                          "order by game", [cp.positions, every]).fetchall()
    except duckdb.CatalogException:
        rows = []
    by_game: dict[int, dict[str, float]] = defaultdict(dict)
    for game, label, mu in rows:
        by_game[game][label] = mu
    points = [{"game": g, **dict(sorted(by_game[g].items()))} for g in sorted(by_game)]
    last = cp.positions - 1
    if cp.positions == total and cp.last_rated and last % every != 0:
        points.append({"game": cp.positions, **{label: mu for label, (mu, _) in sorted(cp.state.items())}})
    return points


def save(db: duckdb.DuckDBPyConnection, base: Checkpoint, cp: Checkpoint, points: list[dict[str, Any]]) -> None:
    """Store checkpoint `cp` (made on top of `base`) and the history's points between them, in
    one transaction."""
    info = {"through": cp.through, "positions": cp.positions, "last_rated": cp.last_rated, "model": model_name()}
    db.execute("begin transaction")
    try:
        db.execute("delete from ratings")
        if cp.state:
            db.executemany("insert into ratings values (?, ?, ?)", [(l, mu, s) for l, (mu, s) in cp.state.items()])
        db.execute("delete from rating_points where game > ?", [base.positions])  # a discarded checkpoint's too
        rows = [(p["game"], label, mu) for p in points for label, mu in p.items() if label != "game"]
        if rows:
            db.executemany("insert into rating_points values (?, ?, ?)", rows)
        db.execute("insert or replace into meta values (?, ?)", [META, json.dumps(info, sort_keys=True)])
        db.execute("commit")
    except BaseException:
        db.execute("rollback")
        raise


def rate_store(db: duckdb.DuckDBPyConnection, writable: bool) -> tuple[dict[str, dict[str, float]], list[dict[str, Any]]]:
    """The ratings table and history of every played game of the store, equal to `from_scratch`
    over them: the stored checkpoint, then the games after it. With `writable`, the checkpoint is
    moved up to the end of the contiguous prefix."""
    cp = load(db)
    through = max(cp.through, prefix(db))
    total = cp.positions + played(db, cp.through)
    history = stored_points(db, cp, total)
    rated = advance(cp, games(db, cp.through), total, keep=through)
    if writable and rated.kept.through > cp.through:
        save(db, cp, rated.kept, rated.kept_points)
    return rated.table, history + rated.points


def update(out: Any, chunk: int = 100_000) -> int:
    """Move the stored checkpoint up to the end of the contiguous prefix, `chunk` games at a
    time, holding the store only to read a chunk's games and to store what they gave (a run going
    on records in between). Returns the games rated. Raises StoreError when the store cannot be
    opened for writing."""
    from ops.tournament.store import Store

    rated = 0
    while True:
        with Store(out) as store:
            cp = load(store.db)
            through = prefix(store.db)
            if through <= cp.through:
                return rated
            hi = min(through, cp.through + chunk)
            total = cp.positions + played(store.db, cp.through)
            rows = list(games(store.db, cp.through, hi))
        step = advance(cp, rows, total, keep=hi)
        with Store(out) as store:
            if load(store.db) != cp:  # another report moved it meanwhile: go on from there
                continue
            save(store.db, cp, step.kept, step.kept_points)
        rated += len(rows)
