"""Where the debugger's games come from, and the game list with its filters.

- `LogSource`: one log file (one game or several);
- `FolderSource`: a folder of log files (`*.log`, `*.dlog`), read once for the list;
- `StoreSource`: a tournament folder, listed and filtered with SQL on its DuckDB store, each game
  loaded through the index (segment, offset).
Games are loaded only through these (never by a path from a request), decoded once and kept in a
small LRU cache; forks made by the server are added to the source they came from.

A view's first board (`Source.head`) comes from the start of its game alone (bus.log's
read_game_head: checked as every read is), so the viewer draws it before the game is read whole;
a log file's source reads only its first game's start when it opens, and the rest of the file
once, in the background, for the list and the games.

Filters (the same for every source): `agent` (a seat's label or agent name), `seat` (a seat
number or a role / power name; with `agent`, that agent in that seat), `winner` (a label or agent
name among the winners, or `none`), `min_steps` / `max_steps` (length), `errors` (`yes` / `no`),
`q` (part of the game id); `offset` / `limit` page through the list (sorted by game index).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from bus.log import MAGIC, GameLog, LogError, duplicate_in, duplicates, read_game_at, read_game_head, read_log
from ops.debugger.game import DebugError, DebugGame, head_of, head_until, spec_text

CACHE_GAMES = 8  # decoded games kept (a 7-power AlphaDip game of five years is ~100 MB decoded)
MAX_FILES = 2000  # log files a folder source reads for its list
MAX_LIMIT = 500  # rows of the list in one answer
FILTERS = ("agent", "seat", "winner", "min_steps", "max_steps", "errors", "q")


class SourceError(Exception):
    """The source cannot be opened at all (missing path, not a log, no store)."""


def open_source(path: str | Path) -> Source:
    """The source for a log file, a tournament folder or a folder of logs; raises SourceError."""
    path = Path(path)
    if path.is_dir():
        from ops.tournament.store import STORE

        if (path / STORE).is_file():
            return StoreSource(path)
        return FolderSource(path)
    if not path.exists():
        raise SourceError(f"no such log file or folder: {path}")
    return LogSource(path)


class Source:
    """A set of games: the list (with filters) and each game by id."""

    kind = "source"

    def __init__(self, root: Path):
        self.root = root
        self._lock = threading.RLock()
        self._cache: OrderedDict[str, DebugGame] = OrderedDict()
        self._extra: dict[str, Path] = {}  # forks made by this server: game id -> log file
        self._extra_rows: list[dict[str, Any]] = []
        self._loading: dict[str, threading.Lock] = {}

    # -- to implement ------------------------------------------------------------------------

    def _load(self, game_id: str) -> tuple[GameLog, LogError | None, str]:
        raise NotImplementedError

    def _rows(self, filters: dict[str, Any], offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        raise NotImplementedError

    def _where(self, game_id: str) -> tuple[Path, int] | None:
        """The file and offset a game's start can be read at now (None: load the whole game)."""
        return None

    def count(self) -> int | None:
        """How many games the source holds, if that is known without waiting."""
        return None

    # -- shared ------------------------------------------------------------------------------

    def head(self, game_id: str, seat: int | None, target: int | None = None) -> dict[str, Any]:
        """A view's first answer (the players, the board at `target` or at the view's first
        record) read from the start of the game alone, unless the game is loaded already."""
        if not isinstance(game_id, str) or not game_id or len(game_id) > 300:
            raise DebugError("no such game", 404)
        with self._lock:
            game = self._cache.get(game_id)
        where = None if game is not None or game_id in self._extra else self._where(game_id)
        if where is None:
            return (game or self.game(game_id)).head(seat, target)
        path, offset = where
        try:
            log, _ = read_game_head(path, offset, head_until(seat, target), game_id=game_id)
        except LogError as exc:
            raise DebugError(f"game {game_id} cannot be read: {exc}", 422) from None
        try:
            return head_of(log, seat, target)
        except DebugError:
            raise
        except Exception as exc:  # noqa: BLE001 - a record the rules refuse (hostile, or made by other code)
            raise DebugError(f"game {game_id} cannot be replayed: {type(exc).__name__}: {exc}", 422) from None

    def game(self, game_id: str) -> DebugGame:
        """The game `game_id`, decoded and indexed (cached); DebugError 404 if unknown, 422 if unreadable."""
        if not isinstance(game_id, str) or not game_id or len(game_id) > 300:
            raise DebugError("no such game", 404)
        with self._lock:
            if game_id in self._cache:
                self._cache.move_to_end(game_id)
                return self._cache[game_id]
            loading = self._loading.setdefault(game_id, threading.Lock())
        with loading:  # two requests for one game: it is read once, the second waits for it
            with self._lock:
                if game_id in self._cache:
                    return self._cache[game_id]
            try:
                return self._open(game_id)
            finally:
                with self._lock:
                    self._loading.pop(game_id, None)

    def _open(self, game_id: str) -> DebugGame:
        if game_id in self._extra:
            log, bad, origin = _read_one(self._extra[game_id], game_id)
        else:
            log, bad, origin = self._load(game_id)
        try:
            log.check()
        except AttributeError:  # readers without a separate check (they check as they read)
            pass
        except LogError as exc:
            raise DebugError(f"game {game_id} cannot be read: {exc}", 422) from None
        if not log.records:
            raise DebugError(f"game {game_id} has no records" + (f" ({bad})" if bad else ""), 422)
        try:
            game = DebugGame(log, warning=str(bad) if bad else None, origin=origin)
        except LogError as exc:
            raise DebugError(f"game {game_id} cannot be replayed: {exc}", 422) from None
        except Exception as exc:  # noqa: BLE001 - a record the rules refuse (hostile, or made by other code)
            raise DebugError(f"game {game_id} cannot be replayed: {type(exc).__name__}: {exc}", 422) from None
        with self._lock:
            self._cache[game_id] = game
            while len(self._cache) > CACHE_GAMES:
                self._cache.popitem(last=False)
        return game

    def games(self, filters: dict[str, Any] | None = None, offset: int = 0, limit: int = 100) -> dict[str, Any]:
        """The game list: {"total", "offset", "games": [row, ...]} after `filters`."""
        filters = clean_filters(filters or {})
        offset = max(0, int(offset))
        limit = max(1, min(int(limit), MAX_LIMIT))
        total, rows = self._rows(filters, offset, limit)
        extra = [r for r in self._extra_rows if row_matches(r, filters)]
        return {"kind": self.kind, "root": self.root.name, "total": total + len(extra), "offset": offset,
                "filters": filters, "games": rows + (extra if offset + len(rows) >= total else [])}

    def add_fork(self, game_id: str, path: Path) -> None:
        """A fork this server wrote: listed and loadable like the source's own games."""
        log, _, _ = _read_one(path, game_id)
        with self._lock:
            self._extra[game_id] = path
            self._extra_rows = [r for r in self._extra_rows if r["game_id"] != game_id] + [row_of(log)]

    def add_logs(self, path: Path) -> list[str]:
        """Every game of one more log file, served beside the source's own (the original of a fork,
        say); their ids. Raises SourceError for a file that is not a readable log."""
        try:
            logfile = read_log(path)
        except (OSError, LogError) as exc:
            raise SourceError(f"{path}: {exc}") from None
        if not logfile.games:
            raise SourceError(f"{path}: no game can be read" + (f" ({logfile.bad})" if logfile.bad else ""))
        ids = []
        with self._lock:
            for log in logfile.games:
                game_id = str(log.header.get("game_id"))
                self._extra[game_id] = path
                self._extra_rows = [r for r in self._extra_rows if r["game_id"] != game_id] + [row_of(log)]
                ids.append(game_id)
        return ids

    def first_game(self) -> str | None:
        rows = self.games({}, 0, 1)["games"]
        return rows[0]["game_id"] if rows else None


def _read_one(path: Path, game_id: str | None) -> tuple[GameLog, LogError | None, str]:
    try:
        logfile = read_log(path)
    except LogError as exc:
        raise DebugError(f"{path.name}: {exc}", 422) from None
    twice = duplicate_in(path.name, logfile.games, game_id) if game_id is not None else None
    if twice is not None:
        raise DebugError(str(twice), 409)
    for i, log in enumerate(logfile.games):
        if game_id is None or log.header.get("game_id") == game_id:
            bad = logfile.bad if i == len(logfile.games) - 1 else None
            return log, bad, path.name
    if logfile.bad is not None and not logfile.games:
        raise DebugError(f"{path.name}: no game can be read ({logfile.bad})", 422)
    raise DebugError(f"no game {game_id!r} in {path.name}", 404)


def _place(root: Path, file: Path, offset: int | None) -> str:
    return f"{file.relative_to(root)} at byte offset {offset}"


def row_of(log: GameLog) -> dict[str, Any]:
    """The list row of one game read from a log."""
    header = log.header
    end = log.records[-1]["msg"] if log.complete else {}
    agents = header.get("agents") or []
    labels = [spec_text(a) for a in agents]
    return {"game_id": str(header.get("game_id")), "game": header.get("game"), "seed": header.get("seed"),
            "seats": labels, "agents": [a.get("name") if isinstance(a, dict) else str(a) for a in agents],
            "winners": list(end.get("winners") or ()), "roles": [str(r) for r in end.get("roles") or ()],
            "steps": end.get("steps"), "records": len(log.records),
            "errors": sum(1 for r in log.records if r["msg"].get("kind") == "error"),
            "summary": end.get("summary") or ("(incomplete)" if not log.complete else ""),
            "fork": bool(header.get("fork"))}


def clean_filters(raw: dict[str, Any]) -> dict[str, Any]:
    """The known filters with usable values (ints for lengths); unknown keys dropped; bad values a 400."""
    out: dict[str, Any] = {}
    for key in FILTERS:
        value = raw.get(key)
        if value is None or value == "":
            continue
        value = str(value)
        if len(value) > 200:
            raise DebugError(f"filter {key} is too long", 400)
        if key in ("min_steps", "max_steps"):
            if not value.isdigit():
                raise DebugError(f"filter {key} must be a non-negative integer, not {value!r}", 400)
            out[key] = int(value)
        elif key == "errors":
            if value not in ("yes", "no"):
                raise DebugError("filter errors must be yes or no", 400)
            out[key] = value
        else:
            out[key] = value
    return out


def row_matches(row: dict[str, Any], f: dict[str, Any]) -> bool:
    """Whether a list row passes the filters (the file sources' version of the store's SQL)."""
    seats, names, roles = row["seats"], row["agents"], row.get("roles") or []

    def who(s: int, label: str) -> bool:
        return seats[s] == label or names[s] == label

    def where(s: int, seat: str) -> bool:
        return str(s) == seat or (s < len(roles) and roles[s] == seat)

    n = len(seats)
    if "agent" in f and not any(who(s, f["agent"]) and ("seat" not in f or where(s, f["seat"])) for s in range(n)):
        return False
    if "seat" in f and "agent" not in f and not any(where(s, f["seat"]) for s in range(n)):
        return False
    if "winner" in f:
        if f["winner"] == "none":
            if row["winners"]:
                return False
        elif not any(who(s, f["winner"]) for s in row["winners"] if 0 <= s < n):
            return False
    steps = row.get("steps") or 0
    if "min_steps" in f and steps < f["min_steps"]:
        return False
    if "max_steps" in f and steps > f["max_steps"]:
        return False
    if "errors" in f and (row["errors"] > 0) != (f["errors"] == "yes"):
        return False
    return "q" not in f or f["q"] in row["game_id"]


class LogSource(Source):
    """One log file: its first game's start read when it opens (a file with none is refused), the
    whole file read once, in the background, for the list and the games."""

    kind = "log"

    def __init__(self, path: Path):
        super().__init__(path.parent)
        self.path = path
        try:
            first, _ = read_game_head(path, len(MAGIC), lambda record: True)
        except LogError as exc:
            raise SourceError(f"{path}: no game in log ({exc})") from None
        self._first = str(first.header.get("game_id"))
        self._read = threading.Event()
        self._failed: LogError | None = None
        self._all: list[dict[str, Any]] = []
        self._offsets: dict[str, int] = {}
        self._pending: dict[str, tuple[GameLog, LogError | None]] = {}
        self._twice: dict[str, LogError | None] = {}
        self.bad: LogError | None = None
        threading.Thread(target=self._read_all, name="detente-debugger-read", daemon=True).start()

    def _read_all(self) -> None:
        try:
            logfile = read_log(self.path)
        except LogError as exc:
            self._failed = exc
        else:
            self.bad = logfile.bad
            self._all = [row_of(g) for g in logfile.games]
            self._offsets = {str(g.header.get("game_id")): g.header_offset for g in logfile.games
                             if g.header_offset is not None}
            # a game id held twice: listed, but opened as neither copy (a 409 naming both offsets)
            self._twice = {gid: duplicate_in(self.path.name, logfile.games, gid)
                           for gid in duplicates([(g.header.get("game_id"), g.header_offset) for g in logfile.games])}
            # the file was just read: its first games are kept rather than read again when opened
            self._pending = {str(g.header.get("game_id")): (g, logfile.bad if g is logfile.games[-1] else None)
                             for g in logfile.games[:CACHE_GAMES]}
        finally:
            self._read.set()

    def _wait(self) -> None:
        self._read.wait()
        if self._failed is not None:
            raise DebugError(f"{self.path.name}: {self._failed}", 422)

    def first_game(self) -> str | None:
        return self._first

    def count(self) -> int | None:
        return len(self._all) if self._read.is_set() and self._failed is None else None

    def _where(self, game_id: str) -> tuple[Path, int] | None:
        if game_id in self._twice:
            raise DebugError(str(self._twice[game_id]), 409)
        if game_id == self._first:
            return self.path, len(MAGIC)
        offset = self._offsets.get(game_id) if self._read.is_set() else None
        return None if offset is None else (self.path, offset)

    def _load(self, game_id: str) -> tuple[GameLog, LogError | None, str]:
        self._wait()
        if game_id in self._twice:
            raise DebugError(str(self._twice[game_id]), 409)
        with self._lock:
            pending = self._pending.pop(game_id, None)
        if pending is not None:
            log, bad = pending
            return log, bad, self.path.name
        return _read_one(self.path, game_id)

    def _rows(self, filters: dict[str, Any], offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        self._wait()
        rows = [r for r in self._all if row_matches(r, filters)]
        return len(rows), rows[offset : offset + limit]


class FolderSource(Source):
    """A folder of log files (not a tournament): every game of every `*.log` / `*.dlog` in it."""

    kind = "folder"

    def __init__(self, path: Path):
        super().__init__(path)
        self._files: dict[str, tuple[Path, int | None]] = {}
        self._twice: dict[str, list[str]] = {}  # game id -> "file at byte offset N" of every copy
        self._all: list[dict[str, Any]] = []
        self.skipped: list[str] = []
        root = path.resolve()
        # a link that leads out of the folder is not followed: only files inside it are read
        files = sorted(p for p in path.rglob("*") if p.suffix in (".log", ".dlog") and p.is_file()
                       and p.resolve().is_relative_to(root))
        for file in files[:MAX_FILES]:
            try:
                logfile = read_log(file)
            except LogError as exc:
                self.skipped.append(f"{file.relative_to(path)}: {exc}")
                continue
            for log in logfile.games:
                gid = str(log.header.get("game_id"))
                if gid not in self._files:
                    self._files[gid] = (file, log.header_offset)
                    self._all.append(row_of(log))
                else:  # a game id held twice (in one file or two): opened as neither copy
                    first = self._twice.setdefault(gid, [_place(path, *self._files[gid])])
                    first.append(_place(path, file, log.header_offset))
            if logfile.bad is not None:
                self.skipped.append(f"{file.relative_to(path)}: {logfile.bad}")
        if not self._all:
            raise SourceError(f"{path}: no readable game in this folder" + (f" ({self.skipped[0]})" if self.skipped else ""))

    def count(self) -> int | None:
        return len(self._all)

    def _where(self, game_id: str) -> tuple[Path, int] | None:
        if game_id not in self._files:
            raise DebugError(f"no game {game_id!r} in {self.root.name}", 404)
        self._not_twice(game_id)
        file, offset = self._files[game_id]
        return None if offset is None else (file, offset)

    def _not_twice(self, game_id: str) -> None:
        if game_id in self._twice:
            copies = self._twice[game_id]
            raise DebugError(f"{self.root.resolve().name} holds game {game_id!r} {len(copies)} times ({'; '.join(copies)}): "
                             "no copy is picked", 409)

    def _load(self, game_id: str) -> tuple[GameLog, LogError | None, str]:
        if game_id not in self._files:
            raise DebugError(f"no game {game_id!r} in {self.root.name}", 404)
        self._not_twice(game_id)
        return _read_one(self._files[game_id][0], game_id)

    def _rows(self, filters: dict[str, Any], offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        rows = [r for r in self._all if row_matches(r, filters)]
        return len(rows), rows[offset : offset + limit]


class StoreSource(Source):
    """A tournament folder: the list from its store, each game through the index."""

    kind = "tournament"

    def __init__(self, path: Path):
        super().__init__(path)
        from ops.tournament.store import Store, StoreError

        try:
            store = Store(path, read_only=True, wait=5.0)
        except StoreError as exc:
            raise SourceError(str(exc)) from None
        try:
            spec = store.get_meta("spec")
        finally:
            store.close()
        try:
            self.game_name = json.loads(spec).get("game") if spec else None
        except (ValueError, AttributeError):
            self.game_name = None

    def _query(self, *queries: tuple[str, list[Any]]) -> list[list[tuple]]:
        """Run queries on the store, opened read-only just for them (a running tournament's
        driver may need it between two requests)."""
        from ops.tournament.store import Store, StoreError

        try:
            store = Store(self.root, read_only=True, wait=5.0)
        except StoreError as exc:
            raise DebugError(f"the tournament store cannot be opened now: {exc}", 503) from None
        try:
            out = []
            for sql, params in queries:
                out.append(store.db.execute(sql, params).fetchall())
                if out[-1]:  # the page query counts its matches too: no second scan needed
                    break
            return out
        finally:
            store.close()

    def _locate(self, game_id: str) -> tuple[Path, Any, str]:
        """The segment file and offset the index gives a game (inside the logs folder only)."""
        from ops.tournament.store import LOGS

        found = self._query(('select segment, "offset" from games where game_id = ?', [game_id]))[0]
        if not found:
            raise DebugError(f"no game {game_id!r} in this tournament", 404)
        segment, offset = found[0]
        logs = (self.root / LOGS).resolve()
        path = (logs / str(segment)).resolve()
        if path.parent != logs:  # the index names a file outside the logs folder: refused
            raise DebugError(f"game {game_id!r}: its index entry points outside the logs folder", 422)
        return path, offset, f"{segment}@{offset}"

    def _where(self, game_id: str) -> tuple[Path, int] | None:
        path, offset, _ = self._locate(game_id)
        return path, offset

    def _load(self, game_id: str) -> tuple[GameLog, LogError | None, str]:
        path, offset, origin = self._locate(game_id)
        try:
            log, bad = read_game_at(path, offset, game_id=game_id)
        except TypeError:  # readers without the game id check
            log, bad = read_game_at(path, offset)
        except LogError as exc:
            raise DebugError(f"game {game_id!r} cannot be read: {exc}", 422) from None
        if log.header.get("game_id") != game_id:
            raise DebugError(f"the index points at another game than {game_id!r}", 422)
        return log, bad, origin

    def _rows(self, filters: dict[str, Any], offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        where, params = _sql_filters(filters)
        clause = f" where {' and '.join(where)}" if where else ""
        found = self._query(
            (("select game_id, seed, seats, agent_names, winners, roles, steps, records, errors, summary, "
              f"count(*) over () from games{clause} order by idx limit ? offset ?"), params + [limit, offset]),
            (f"select count(*) from games{clause}", params))  # only when the page is past the end
        rows = found[0]
        total = rows[0][10] if rows else found[1][0][0]
        out = [{"game_id": r[0], "game": self.game_name, "seed": r[1], "seats": list(r[2] or ()), "agents": list(r[3] or ()),
                "winners": list(r[4] or ()), "roles": list(r[5] or ()), "steps": r[6], "records": r[7], "errors": r[8],
                "summary": r[9], "fork": False} for r in rows]
        return total, out


def _sql_filters(f: dict[str, Any]) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    params: list[Any] = []
    if "agent" in f and "seat" in f:
        where.append("game_id in (select game_id from seats where (label = ? or agent = ?) "
                     "and (cast(seat as varchar) = ? or role = ?))")
        params += [f["agent"], f["agent"], f["seat"], f["seat"]]
    elif "agent" in f:
        where.append("(list_contains(seats, ?) or list_contains(agent_names, ?))")
        params += [f["agent"], f["agent"]]
    elif "seat" in f:
        where.append("game_id in (select game_id from seats where cast(seat as varchar) = ? or role = ?)")
        params += [f["seat"], f["seat"]]
    if "winner" in f:
        if f["winner"] == "none":
            where.append("len(winners) = 0")
        else:
            where.append("game_id in (select game_id from seats where win and (label = ? or agent = ?))")
            params += [f["winner"], f["winner"]]
    if "min_steps" in f:
        where.append("steps >= ?")
        params.append(f["min_steps"])
    if "max_steps" in f:
        where.append("steps <= ?")
        params.append(f["max_steps"])
    if "errors" in f:
        where.append("errors > 0" if f["errors"] == "yes" else "errors = 0")
    if "q" in f:
        where.append("contains(game_id, ?)")
        params.append(f["q"])
    return where, params
