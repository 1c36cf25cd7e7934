"""The results store: one DuckDB file in the output folder, written only by the driver.

Table `games`: one row per recorded game (identity: game_id), with the index into the log
segments; a game aborted over its wall-clock budget has its reason in `aborted` and the seat it
counts against in `blame` (its log ends there, with the bus's game_end). View `seats`: one row per
(game, seat), where an aborted game keeps only the seat to blame (a loss; the others had no game). Table `meta`: the spec the folder was made
with, so a rerun can check it is the same tournament. Query it with SQL:
`duckdb OUT/results.duckdb "select label, avg(rank) from seats group by label"`.

Tables `ratings` and `rating_points`, with meta key `ratings`: the openskill ratings after the
contiguous prefix of game indices and the points of their history (ops/tournament/ratings.py), so a
report rates only the games after them.

Also here: `load_game` (one game by id, through the lookup slots beside the store when they hold
it, ops/tournament/lookup.py), the folder lock (`FolderLock`: one driver, or one `compact`, per
folder at a time), `compact` (stale segment bytes reclaimed, the index rewritten in one
transaction) and the disk-full fault hook (`DETENTE_FAULTS`) that tests use on the segment writer
and the store.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO

from ops.tournament import lookup

STORE = "results.duckdb"
LOCK = "driver.lock"
LOGS = "logs"

_COLUMNS = (
    "game_id", "idx", "seed", "seats", "agent_names", "agents", "scores", "ranks", "winners", "roles", "steps",
    "records", "summary", "errors", "duration_ms", "segment", "offset", "nbytes", "runner", "teams", "extra",
    "aborted", "blame", "seat_errors", "model_calls", "seat_faults", "said",
)

# Each column's type in `games` (as _SCHEMA makes it), for the columnar insert below.
_TYPES = (
    "varchar", "bigint", "ubigint", "varchar[]", "varchar[]", "json", "double[]", "double[]", "integer[]", "varchar[]",
    "integer", "integer", "varchar", "integer", "double", "varchar", "bigint", "bigint", "varchar", "integer[][]",
    "json", "varchar", "integer", "integer[]", "json", "json", "varchar[]",
)
assert len(_TYPES) == len(_COLUMNS)
# One statement for any number of rows: parameter i is column i's values, one per row, in row
# order; unnest zips the lists (all the same length) back into rows. Each list is bound as one
# JSON text, cast by DuckDB (_INSERT: ~0.8x the CPU of binding the Python lists, whose values the
# binding converts one by one; `python -m ops.bench.store_insert`), or, for values JSON has no
# text for (NaN, infinities), as the Python lists (_INSERT_LISTS). The `json` columns' values are
# JSON texts already: bound as strings.
_QUOTED = ", ".join('"' + c + '"' for c in _COLUMNS)
_INSERT_LISTS = (
    f"insert or ignore into games ({_QUOTED}) select "
    + ", ".join(f"unnest(${i + 1}::{t}[])" for i, t in enumerate(_TYPES))
    + " returning game_id"
)
_INSERT = (
    f"insert or ignore into games ({_QUOTED}) select "
    + ", ".join(f"unnest(${i + 1}::json::{'varchar' if t == 'json' else t}[])" for i, t in enumerate(_TYPES))
    + " returning game_id"
)

_SCHEMA = [
    """create table if not exists meta (key varchar primary key, value varchar)""",
    """create table if not exists games (
        game_id varchar primary key, idx bigint, seed ubigint, seats varchar[], agent_names varchar[], agents json,
        scores double[], ranks double[], winners integer[], roles varchar[], steps integer,
        records integer, summary varchar, errors integer, duration_ms double,
        segment varchar, "offset" bigint, nbytes bigint, runner varchar, teams integer[][], extra json,
        aborted varchar, blame integer, seat_errors integer[])""",
    # stores made before teams (and the games' extra facts) were recorded: the columns added, NULL for their games
    """alter table games add column if not exists teams integer[][]""",
    """alter table games add column if not exists extra json""",
    # stores made before aborts and per-seat errors were recorded: NULL (played; errors per seat unknown)
    """alter table games add column if not exists aborted varchar""",
    """alter table games add column if not exists blame integer""",
    """alter table games add column if not exists seat_errors integer[]""",
    # per seat, the game's model calls (ops/tournament/llm.py); NULL for a game without any
    """alter table games add column if not exists model_calls json""",
    # per seat, its error events by category and the first one (actors.match: seat_faults), NULL for
    # a game without any; and each seat's agent as its external agents named themselves in their
    # handshakes (actors.external.lineup.seat_labels), NULL for a game without external agents
    """alter table games add column if not exists seat_faults json""",
    """alter table games add column if not exists said varchar[]""",
    # one row per (game, seat), derived: nothing to keep in step
    """create or replace view seats as
        select game_id, idx, seat, label, agent, role, score, rank, list_contains(winners, seat) as win,
               aborted is not null as aborted, errors
        from (select game_id, idx, winners, aborted, blame, unnest(range(len(seats))) as seat, unnest(seats) as label,
                     unnest(agent_names) as agent, unnest(roles) as role, unnest(scores) as score,
                     unnest(ranks) as rank, unnest(seat_errors) as errors
              from games)
        where aborted is null or seat = blame""",
    # the ratings after the games of the stored prefix (ops/tournament/ratings.py): each label's
    # mu and sigma, exactly as the model left them, and the ratings at the history's points
    """create table if not exists ratings (label varchar primary key, mu double, sigma double)""",
    """create table if not exists rating_points (game bigint, label varchar, mu double)""",
]


def row_values(r: dict[str, Any]) -> tuple[Any, ...]:
    """A result row's values in `_COLUMNS` order, as the table stores them (agents and extra as
    JSON text; teams filled in for rows without them)."""
    return (
        r["game_id"], r["idx"], r["seed"], r["seats"], [a["name"] for a in r["agents"]], json.dumps(r["agents"]),
        r["scores"], r["ranks"], r["winners"], r["roles"], r["steps"], r["records"], r["summary"], r["errors"],
        r["duration_ms"], r["segment"], r["offset"], r["nbytes"], r["runner"],
        r.get("teams") or [[s] for s in range(len(r["seats"]))], json.dumps(r.get("extra") or {}),
        r.get("aborted"), r.get("blame"), r.get("seat_errors"),
        None if r.get("model_calls") is None else json.dumps(r["model_calls"]),
        None if not r.get("seat_faults") else json.dumps(r["seat_faults"]), r.get("said"),
    )


class StoreError(Exception):
    """The store cannot be opened or does not belong to this tournament."""


class FolderBusy(StoreError):
    """Another driver (or a compaction) holds the folder's lock; the message names it."""


class StorageError(Exception):
    """The folder cannot be written (disk full, read-only, permission): one line. What was
    recorded before stays recorded; a rerun plays the rest."""


def storage_error(what: str, exc: BaseException) -> StorageError:
    """One line for an OS (or DuckDB) write failure of `what`."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).splitlines()[0]
    return StorageError(f"cannot write {what}: {reason}")


class Store:
    """Open (or create) the store of an output folder.

    DuckDB lets one process write a file or many read it, never both at once, so a running
    tournament holds the store only while it records a batch (`Recorder`), and opening waits up to
    `wait` seconds for such a moment: a report or a lookup works while a run goes on."""

    def __init__(self, out: str | Path, read_only: bool = False, wait: float = 10.0, budget: "ByteBudget | None" = None,
                 schema: bool = True, threads: int | None = None):
        """`schema=False`: the tables are known to be there and current (the Recorder's opens,
        after the driver's first one made them), so the statements that make them are skipped.
        `threads`: DuckDB's worker threads (default: one a CPU); the Recorder's small inserts use
        one (they gain nothing from more: `python -m ops.bench.store_insert`), leaving the cores to
        the runners."""
        import duckdb  # here, not at the top: runner processes use this module's fault hooks, never DuckDB

        path = self.path = Path(out) / STORE
        self.out, self.budget, self.read_only = Path(out), budget, read_only
        if read_only and not path.is_file():
            raise StoreError(f"{out}: no tournament results here ({STORE} missing)")
        if not path.parent.is_dir():  # not worth the wait below: no process will make it
            raise StoreError(f"{out}: no such folder")
        new = not path.exists()
        deadline = time.monotonic() + wait
        while True:
            try:
                self.db = duckdb.connect(str(path), read_only=read_only, config={} if threads is None else {"threads": threads})
                break
            except duckdb.IOException as exc:
                if _no_space(exc):
                    raise storage_error(str(path), exc) from None
                if time.monotonic() >= deadline:
                    raise StoreError(
                        f"{path}: cannot open ({str(exc).splitlines()[0]}); another process holds it"
                    ) from None
                time.sleep(0.05)
            except duckdb.Error as exc:  # not a DuckDB file, a damaged one
                raise StoreError(f"{path}: cannot open ({str(exc).splitlines()[0]})") from None
        if new:
            lookup.clear_slots(out)  # slots left from a store that is gone name none of this one's games
        if not read_only and (schema or new):
            try:
                for statement in _SCHEMA:
                    self.db.execute(statement)
            except duckdb.Error as exc:
                self.db.close()
                raise storage_error(str(path), exc) from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- meta -------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("select value from meta where key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("insert or replace into meta values (?, ?)", [key, value])

    # -- games ------------------------------------------------------------------------------

    def recorded(self) -> set[int]:
        return {row[0] for row in self.db.execute("select idx from games").fetchall()}

    def recorded_below(self, games: int) -> int:
        """How many of the games 0..games-1 are recorded (one aggregate: no row leaves DuckDB)."""
        return self.db.execute("select count(*) from games where idx < ?", [games]).fetchone()[0]

    def count(self) -> int:
        return self.db.execute("select count(*) from games").fetchone()[0]

    def add(self, rows: list[dict[str, Any]]) -> int:
        """Record finished games in one statement; games already recorded are skipped.

        The rows go in as one list per column, unnested by DuckDB (`_INSERT`): binding 24 lists
        as JSON texts costs ~0.3x binding 24 parameters a row (`python -m ops.bench.store_insert`)."""
        import duckdb

        if not rows:
            return 0
        columns: list[list[Any]] = [[] for _ in _COLUMNS]
        for r in rows:
            for column, value in zip(columns, row_values(r)):
                column.append(value)
        try:
            if self.budget is not None:  # the injected disk-full: nothing of this statement is written
                self.budget.spend(sum(len(str(v)) for column in columns for v in column), str(self.path))
            try:
                statement, params = _INSERT, [json.dumps(c, ensure_ascii=False, allow_nan=False) for c in columns]
            except ValueError:  # a NaN or an infinity: no JSON text for it
                statement, params = _INSERT_LISTS, columns
            added = {gid for (gid,) in self.db.execute(statement, params).fetchall()}
        except (duckdb.Error, OSError) as exc:  # a full disk, a read-only file: the transaction is rolled back
            raise storage_error(f"{self.path} ({len(rows)} games not recorded)", exc) from None
        lookup.write_slots(self.out, [(r["idx"], r["segment"], r["offset"], r["nbytes"]) for r in rows
                                      if r["game_id"] in added])  # after the commit: the store is the truth
        return len(added)

    def locate(self, game_id: str) -> tuple[str, int] | None:
        row = self.db.execute('select segment, "offset" from games where game_id = ?', [game_id]).fetchone()
        return (row[0], row[1]) if row else None

    def rewrite_slots(self) -> None:
        """Write the lookup slots of every recorded game again, from the index."""
        rows = self.db.execute('select idx, segment, "offset", nbytes from games').fetchall()
        lookup.clear_slots(self.out)
        lookup.write_slots(self.out, rows)


def load_game(out: str | Path, game_id: str) -> "tuple[Any, Any] | None":
    """The recorded game `game_id` of a tournament folder and the first bad frame if it stops
    early (as `bus.log.read_game_at` returns them), or None when the store has no such game.
    Found through its lookup slot when that holds the game whole, else through the store's index
    (which raises LogError for a game that cannot be read)."""
    from bus.log import LogError, read_game_at

    logs = Path(out) / LOGS
    hint = lookup.find(out, game_id)
    if hint is not None:
        try:
            game, bad = read_game_at(logs / hint[0], hint[1], game_id=game_id)
            if bad is None and game.complete:
                return game, bad
        except LogError:
            pass  # a stale or torn slot: the index decides
    with Store(out, read_only=True) as store:
        where = store.locate(game_id)
    return None if where is None else read_game_at(logs / where[0], where[1], game_id=game_id)


class Recorder:
    """The driver's side of the store during a run: rows are buffered and written every
    `interval` seconds in one transaction, opening the file just for that, so readers get in
    between. `flush` at the end waits for the file as long as it takes (up to `wait` seconds).
    A game counts once its row is written: rows still buffered when the driver dies are played
    again by the next run. The store must exist (the driver opens it first, which makes its
    tables)."""

    def __init__(self, out: str | Path, interval: float = 2.0, wait: float = 120.0, budget: "ByteBudget | None" = None):
        self.out = out
        self.interval = interval
        self.wait = wait
        self.budget = budget
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
            store = Store(self.out, wait=wait, budget=self.budget, schema=False, threads=1)  # the driver's first open made it
        except StoreError:
            if wait:
                raise
            return  # a reader has it now: the rows wait for the next turn
        try:
            self.written += store.add(self.pending)
            self.pending = []
        finally:
            store.close()


def _no_space(exc: BaseException) -> bool:
    text = str(exc)
    return "No space left" in text or "Disk quota exceeded" in text


# -- the folder lock ----------------------------------------------------------------------------


class FolderLock:
    """One driver per folder: an exclusive `flock` on DIR/driver.lock, held while the driver runs.

    The kernel drops the lock when its holder dies (SIGKILL included), so a killed driver never
    blocks the resume; the file is never removed (removing it would let two drivers lock two
    different files). The holder writes its pid, host, start time and command into the file, so
    the one refused can name it. The descriptor is not inherited by child processes."""

    def __init__(self, out: str | Path, command: str = "tournament run"):
        self.out, self.command = Path(out), command
        self.path = self.out / LOCK
        self.fd: int | None = None

    def __enter__(self) -> "FolderLock":
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise storage_error(str(self.path), exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _holder(fd) if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN) else None
            os.close(fd)
            if holder is None:
                raise StoreError(f"{self.path}: cannot lock the folder ({exc.strerror}); see the docs on network storage (reference: tournaments)") from None
            raise FolderBusy(
                f"{self.out} is in use: {holder} holds {self.path}; wait for it to end or stop it"
            ) from None
        self.fd = fd
        info = {"pid": os.getpid(), "host": socket.gethostname(), "command": self.command,
                "started": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        except OSError as exc:
            self.__exit__()
            raise storage_error(str(self.path), exc) from None
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.fd is not None:
            try:
                os.ftruncate(self.fd, 0)  # not running any more (a killed holder leaves its line)
            except OSError:
                pass
            os.close(self.fd)  # closing drops the lock
            self.fd = None


def _holder(fd: int) -> str:
    """Who holds the lock, from what it wrote (it may be writing it right now: a short wait)."""
    deadline = time.monotonic() + 1.0
    while True:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
        try:
            info = json.loads(text)
            return (f"pid {info['pid']} on host {info['host']} ({info.get('command', 'a driver')}, "
                    f"started {info['started']})")
        except (ValueError, KeyError, TypeError):
            if time.monotonic() >= deadline:
                return "another process (it wrote no pid)"
            time.sleep(0.05)


# -- disk-full fault injection (tests) ----------------------------------------------------------

FAULTS_ENV = "DETENTE_FAULTS"  # e.g. "segment=200000,store=5000,log=1000": ENOSPC at that byte
FAULT_TARGETS = ("segment", "store", "log")


def injected_faults(text: str | None = None) -> dict[str, int]:
    """The faults `DETENTE_FAULTS` asks for: target -> the byte at which writes fail with ENOSPC.
    Testing only: the segment writer counts the bytes a runner writes into its segments, the
    store the bytes of the rows it records, `log` the bytes the CLI writes into an output file."""
    text = os.environ.get(FAULTS_ENV, "") if text is None else text
    faults: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        if key not in FAULT_TARGETS or not value.isdigit():
            raise StoreError(f"{FAULTS_ENV}: bad entry {part!r} (expected {'|'.join(FAULT_TARGETS)}=BYTES)")
        faults[key] = int(value)
    return faults


class ByteBudget:
    """A disk with `limit` bytes free: `spend` past it raises ENOSPC, as a full disk would."""

    def __init__(self, limit: int):
        self.left = limit

    def spend(self, n: int, name: str) -> None:
        if n > self.left:
            self.left = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), name)
        self.left -= n

    def fits(self, n: int) -> int:
        return min(n, self.left)


class FaultyFile:
    """A binary file whose writes stop at the budget's end: the bytes that fit are written (a
    short write, as on a real full disk), then OSError(ENOSPC)."""

    def __init__(self, file: BinaryIO, budget: ByteBudget):
        self._file, self._budget = file, budget

    def write(self, data: bytes) -> int:
        fits = self._budget.fits(len(data))
        if fits < len(data):
            self._file.write(data[:fits])
            self._file.flush()
        self._budget.spend(len(data), getattr(self._file, "name", "?"))
        return self._file.write(data)

    def __getattr__(self, name: str) -> Any:  # tell, flush, fileno, close, name
        return getattr(self._file, name)


# -- compaction ---------------------------------------------------------------------------------


@dataclass
class Compaction:
    """What `compact` did."""

    games: int  # recorded games (all still indexed)
    moved: int  # games copied into new segments
    rewritten: int  # segments with stale bytes, their live games moved out
    removed: int  # segments that held no recorded game
    new_segments: int
    bytes_before: int
    bytes_after: int


def compact(out: str | Path, segment_mib: int | None = None) -> Compaction:
    """Reclaim the segment bytes no index entry points at (games of killed runners played again
    elsewhere, torn tails), under the folder lock.

    Crash-safe in this order: the live games of every segment with stale bytes are copied
    verbatim (byte for byte, so every log stays the same) into new segments, which are fsynced
    and read back; then one transaction points the index at the copies; only then are the old
    segments removed. A crash before the commit leaves the old index and new unreferenced
    segments; after it, old unreferenced segments: either way every index entry points at an
    intact copy, and the next `compact` removes what is left over."""
    out = Path(out)
    logs = out / LOGS
    if not (out / STORE).is_file():
        raise StoreError(f"{out}: no tournament results here ({STORE} missing)")
    with FolderLock(out, "tournament compact"):
        store = Store(out)
        try:
            rows = store.db.execute('select game_id, segment, "offset", nbytes from games order by game_id').fetchall()
            spec = json.loads(store.get_meta("spec") or "{}")
            files = {p.name: p.stat().st_size for p in logs.glob("*.dlog")} if logs.is_dir() else {}
            stale, dead = _plan(rows, files)
            limit = (segment_mib or spec.get("segment_mib") or 64) * 1024 * 1024
            moved = [r for r in rows if r[1] in stale]
            try:
                where, made = _copy_games(logs, moved, limit)
            except OSError as exc:  # a full disk while copying: the index was not touched
                raise storage_error(f"{logs} (compaction stopped; the index is unchanged)", exc) from None
            _repoint(store, where)
            store.rewrite_slots()
        finally:
            store.close()
        if logs.is_dir():
            for name in sorted(stale | dead):
                (logs / name).unlink()
            for leftover in logs.glob("*.dlog.tmp"):  # a compaction that stopped while writing
                leftover.unlink()
            _fsync_dir(logs)
    after = sum(p.stat().st_size for p in logs.glob("*.dlog")) if logs.is_dir() else 0
    return Compaction(len(rows), len(moved), len(stale), len(dead), made, sum(files.values()), after)


def _plan(rows: list[tuple], files: dict[str, int]) -> tuple[set[str], set[str]]:
    """(segments with stale bytes, segments with no recorded game); raises StoreError if the
    index points outside the segments (nothing is changed then)."""
    from bus.log import MAGIC

    live: dict[str, list[tuple[int, int]]] = {}
    for gid, segment, offset, nbytes in rows:
        if segment not in files:
            raise StoreError(f"game {gid} is indexed in segment {segment}, which is missing; nothing changed")
        if offset < len(MAGIC) or nbytes <= 0 or offset + nbytes > files[segment]:
            raise StoreError(f"game {gid}: index entry ({segment}, {offset}, {nbytes} bytes) lies outside its segment; nothing changed")
        live.setdefault(segment, []).append((offset, nbytes))
    stale = set()
    for segment, spans in live.items():
        spans.sort()
        pos = len(MAGIC)
        for offset, nbytes in spans:
            if offset < pos:
                raise StoreError(f"{segment}: two indexed games overlap at byte {offset}; nothing changed")
            pos = offset + nbytes
        if sum(n for _, n in spans) + len(MAGIC) != files[segment]:
            stale.add(segment)
    return stale, set(files) - set(live)


def _copy_games(logs: Path, moved: list[tuple], limit: int) -> tuple[dict[str, tuple[str, int]], int]:
    """Copy each moved game's bytes into new rolling segments; game id -> (segment, offset)."""
    from bus.log import MAGIC

    tag, where, made = uuid.uuid4().hex[:8], {}, 0
    faults = injected_faults()  # tests: a disk that fills up while compacting
    budget = ByteBudget(faults["segment"]) if "segment" in faults else None
    target = None
    for gid, segment, offset, nbytes in moved:
        with open(logs / segment, "rb") as f:
            f.seek(offset)
            data = f.read(nbytes)
        if target is None or (target.tell() + len(data) > limit and target.tell() > len(MAGIC)):
            if target is not None:
                _seal(target, logs)
            name = f"compact-{tag}-{made:04d}.dlog"
            made += 1
            target = open(logs / (name + ".tmp"), "wb")
            if budget is not None:
                target = FaultyFile(target, budget)
            target.write(MAGIC)
        where[gid] = (Path(target.name).name[: -len(".tmp")], target.tell())
        target.write(data)
    if target is not None:
        _seal(target, logs)
    for gid, (segment, offset) in where.items():
        _check_copy(logs / segment, offset, gid)
    return where, made


def _seal(target: BinaryIO, logs: Path) -> None:
    """Flush and fsync a new segment, then give it its real name."""
    target.flush()
    os.fsync(target.fileno())
    target.close()
    tmp = Path(target.name)
    tmp.rename(tmp.with_suffix(""))
    _fsync_dir(logs)


def _check_copy(path: Path, offset: int, gid: str) -> None:
    from bus.log import LogError, read_game_at

    try:
        game, bad = read_game_at(path, offset, game_id=gid)
    except LogError as exc:
        raise StoreError(f"game {gid}: its copy does not read back ({exc}); the index is unchanged") from None
    if bad is not None or not game.complete or game.header.get("game_id") != gid:
        raise StoreError(f"game {gid}: its copy in {path.name} at {offset} does not read back whole ({bad}); the index is unchanged")


def _repoint(store: Store, where: dict[str, tuple[str, int]]) -> None:
    """Point the index at the copies: one transaction, all or nothing."""
    if not where:
        return
    db = store.db
    db.execute("begin transaction")
    try:
        db.execute('create temp table moved (game_id varchar primary key, segment varchar, "offset" bigint)')
        db.executemany("insert into moved values (?, ?, ?)", [(g, s, o) for g, (s, o) in sorted(where.items())])
        db.execute('update games set segment = moved.segment, "offset" = moved."offset" from moved where games.game_id = moved.game_id')
        db.execute("drop table moved")
        db.execute("commit")
    except BaseException:
        db.execute("rollback")
        raise
    db.execute("checkpoint")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
