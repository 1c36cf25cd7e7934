"""Run a tournament: long-lived runners play batches of games inline and write rolling log
segments; the driver records finished games in the store, one transaction every two seconds,
opening the store only for that, so `detente tournament report` can read it during the run.

Crash safety: a game counts once its row is in the store, and a row is written only after its
runner has flushed the game's log. Rerunning on the same folder plays exactly the games not yet
recorded (identity: game id), whether they were never started, lost with a dead runner, or
lost with a killed driver; a stale copy left in an old segment is never indexed (`detente
tournament compact` reclaims its bytes). A runner that dies mid-batch has its batch re-queued on a
fresh runner. The driver holds the folder lock (store.FolderLock) from start to end, so a second
driver on the same folder stops at once; a full disk stops the driver with one line (StorageError)
and the rerun plays what was not recorded.

A game over the spec's `max_game_seconds` is aborted where it stands (its log ends with the bus's
game_end and verifies like any other) and recorded as aborted, against the seat whose actors took
the most time; it ends its runner's batch, and the runner is replaced (the agent that overran may
have left it busy) while the batch's other games go back to the queue. A runner that gives no
answer for much longer than its games' budgets allow (an agent stuck where no signal reaches it)
is killed and replaced like a dead one.

On a cluster (`address`): runners are spread over the nodes (Ray's SPREAD strategy), each takes
work once it is up, and the driver appends where each one runs to OUT/runners.jsonl (runner id,
node, address, pid; a segment's name starts with its runner's id). A node that dies takes its
runners with it: their batches go back to the queue, whatever they had written of them stays
unindexed in their segments, and replacements are started; one that cannot be placed (the cluster
is smaller now) waits for room while the runners left play the rest.
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Callable, Iterator

import structlog

from actors.external.lineup import seat_labels
from actors.match import make_header, play
from actors.registry import AgentSpec
from bus.log import MAX_FRAME, LogWriter, PackedLogWriter, frames
from ops.logging import configure as configure_logging
from ops.tournament.llm import Cap, Tally, configure_endpoints, model_call_totals, recorded_answers, serve_endpoints, set_lane
from ops.tournament.spec import IDENTITY, SpecError, TournamentSpec, game_id
from ops.tournament.store import ByteBudget, FaultyFile, FolderLock, Recorder, Store, injected_faults, storage_error

RUNNERS = "runners.jsonl"  # one line per runner started: where it ran (the driver appends it)
_log = structlog.get_logger("detente.tournament")


def ranks_of(scores: list[float]) -> list[float]:
    """Rank 1 is the best score; tied players share the mean of the ranks they span."""
    # a score's rank is (the scores above it) + (its ties + 1) / 2: read off the scores sorted best
    # first, where a score's first place is the count above it
    above: dict[float, int] = {}
    tied: dict[float, int] = {}
    for i, s in enumerate(sorted(scores, reverse=True)):
        if s not in above:
            above[s] = i
        tied[s] = tied.get(s, 0) + 1
    return [above[s] + (tied[s] + 1) / 2 for s in scores]


def _seat_faults(result: Any, seats: int) -> list[dict[str, Any] | None] | None:
    """Per seat, its error events by category and the first one (None: a seat without), or None
    for a game without any."""
    faults = result.seat_faults or {}
    return [faults.get(s) for s in range(seats)] if faults else None


class BatchPlayer:
    """Plays games of one tournament, appending their logs to this runner's segment files."""

    def __init__(self, out: str, spec: dict[str, Any], runner_id: str, faults: dict[str, int] | None = None):
        configure_logging()  # runners are processes of their own: quiet unless DETENTE_LOG_LEVEL says
        # tests: a disk that fills up after this many segment bytes (store.injected_faults)
        self.budget = ByteBudget(faults["segment"]) if faults and "segment" in faults else None
        self.spec = TournamentSpec.model_validate(spec)
        self.dir = Path(out) / "logs"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.runner_id = runner_id
        self.limit = self.spec.segment_mib * 1024 * 1024
        self.segment_no = -1
        self.file = None
        self.writer: LogWriter | None = None
        self.placement = None
        self._pool = None  # the game threads (concurrent_games > 1), made on first use
        self._local = threading.local()
        self._lock = threading.Lock()
        self._placements: list[Any] = []
        configure_endpoints(self.spec, str(Path(out).absolute()))
        if self.spec.placement != "inline":
            from actors.ray_placement import RayPlacement

            self.placement = RayPlacement(self.spec.placement)

    def _roll(self) -> None:
        if self.file is not None:
            self.file.close()
        self.segment_no += 1
        self.segment = f"{self.runner_id}-{self.segment_no:04d}.dlog"
        self.file = open(self.dir / self.segment, "wb")
        if self.budget is not None:
            self.file = FaultyFile(self.file, self.budget)
        method = self.spec.packing()
        self.writer = _PackedWithin(self.file, fsync=self.spec.fsync, method=method) if method else LogWriter(self.file, fsync=self.spec.fsync)

    def play(self, indices: list[int]) -> list[dict[str, Any]]:
        """Play the games `indices`; one result row each (a crashed game's row has `error`). An
        aborted game (row `aborted`) ends the batch: the rows then cover the games up to it (with
        `concurrent_games`, the games already under way when it ended as well)."""
        if self.spec.concurrent_games > 1 and len(indices) > 1:
            return self._play_concurrently(indices)
        spec = self.spec
        rows = []
        for idx in indices:
            if self.file is None or self.file.tell() >= self.limit:
                self._roll()
            seed, seated = spec.game_plan(idx)
            agents = [AgentSpec(name=e.agent, options=e.options) for e in seated]
            header = make_header(spec.game, seed, agents, spec.options, game_id=game_id(idx))
            offset = self.file.tell()
            t0 = time.perf_counter()
            tally = Tally(self.writer)
            try:
                tally.header(header)
                with recorded_answers(spec, header):
                    result = play(header, tally, runtime=spec.placement, placement=self.placement,
                                  game_seconds=spec.max_game_seconds)
                tally.end_game()
            except OSError:  # the segment cannot be written (disk full): the driver stops, not the game
                raise
            except Exception as exc:  # a rules or referee bug: reported, not fatal to the run
                rows.append({"game_id": game_id(idx), "idx": idx, "error": f"{type(exc).__name__}: {exc}"})
                self._roll()  # the segment now ends in a partial game: start a clean one
                continue
            row = self._row(idx, seed, seated, header, result, t0, tally.calls)
            row["segment"] = self.segment  # where its log lies: the row's last three keys
            row["offset"] = offset
            row["nbytes"] = self.file.tell() - offset
            rows.append(row)
            if result.aborted is not None:
                break  # this runner is replaced: the batch's other games go back to the queue
        self.file.flush()
        if spec.fsync:
            os.fsync(self.file.fileno())
        return rows

    def _row(self, idx: int, seed: int, seated: list[Any], header: dict[str, Any], result: Any,
             t0: float, calls: list[dict[str, Any]]) -> dict[str, Any]:
        """A finished game's result row, but for where its log lies."""
        end = result.end
        scores = list(end.returns) if result.aborted is None else [None] * len(seated)  # an abort has no result
        # a game may rank players itself (e.g. by centres held, then by when eliminated); an
        # abort ranks the seat to blame last
        ranks = [float(r) for r in end.ranks] if end.ranks is not None else ranks_of(scores)
        return {
            "game_id": game_id(idx),
            "idx": idx,
            "seed": seed,
            "seats": [e.name for e in seated],
            "agents": header["agents"],
            "scores": scores,
            "ranks": ranks,
            "winners": list(end.winners),
            "roles": [str(r) for r in end.roles or ()],
            "teams": [list(t) for t in end.teams] if end.teams else [[s] for s in range(len(scores))],
            "extra": end.extra,  # the game's own facts (centres, fireworks...) for its report
            "steps": end.steps,
            "records": result.records,
            "summary": end.summary,
            "errors": result.errors,
            "seat_errors": [errors.get(s, 0) for s in range(len(seated))] if (errors := result.seat_errors) else [0] * len(seated),
            "seat_faults": _seat_faults(result, len(seated)),
            "said": seat_labels(header) if "external" in header else None,
            "aborted": result.aborted,
            "blame": result.blame,
            "duration_ms": (time.perf_counter() - t0) * 1000,
            "runner": self.runner_id,
            **model_call_totals(calls, len(seated), self.spec),
        }

    # -- concurrent games: threads, each game written to memory, appended whole to the segment ----

    def _play_concurrently(self, indices: list[int]) -> list[dict[str, Any]]:
        """The games `indices`, up to `concurrent_games` at once, each in a thread of its own (an
        agent that waits on a socket or a pipe releases the GIL). Each game's log is made in
        memory by its own writer and appended to the segment whole, by this thread, as it ends:
        the segment holds whole games only, in the order they ended, each at the offset its row
        names. An aborted game stops new games from starting; those under way finish."""
        from concurrent.futures import FIRST_COMPLETED, wait

        pool = self._threads()
        queue = list(indices)
        running: dict[Any, int] = {}
        rows: list[dict[str, Any]] = []
        stop = False
        while queue or running:
            while queue and not stop and len(running) < self.spec.concurrent_games:
                idx = queue.pop(0)
                running[pool.submit(self._game_in_memory, idx)] = idx
            if not running:
                break
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: running[f]):
                running.pop(future)
                row, data = future.result()
                if data is not None:
                    if self.file is None or self.file.tell() >= self.limit:
                        self._roll()
                    offset = self.file.tell()
                    self.file.write(data)
                    row = {**row, "segment": self.segment, "offset": offset, "nbytes": len(data)}
                rows.append(row)
                stop = stop or row.get("aborted") is not None
        if self.file is not None:
            self.file.flush()
            if self.spec.fsync:
                os.fsync(self.file.fileno())
        return sorted(rows, key=lambda r: r["idx"])

    def _threads(self) -> Any:
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            lanes = iter(range(1, self.spec.concurrent_games + 1))
            self._pool = ThreadPoolExecutor(self.spec.concurrent_games, thread_name_prefix="game",
                                            initializer=lambda: set_lane(next(lanes)))
        return self._pool

    def _game_in_memory(self, idx: int) -> tuple[dict[str, Any], bytes | None]:
        """Play game `idx` into memory: (its row, its bytes in the segment's format); a crashed
        game has an `error` row and no bytes."""
        import io

        spec = self.spec
        seed, seated = spec.game_plan(idx)
        agents = [AgentSpec(name=e.agent, options=e.options) for e in seated]
        buffer = io.BytesIO()
        method = spec.packing()
        writer = _PackedWithin(buffer, write_magic=False, method=method) if method else LogWriter(buffer, write_magic=False)
        tally = Tally(writer)
        t0 = time.perf_counter()
        try:
            header = make_header(spec.game, seed, agents, spec.options, game_id=game_id(idx))
            tally.header(header)
            with recorded_answers(spec, header):
                result = play(header, tally, runtime=spec.placement, placement=self._placement(),
                              game_seconds=spec.max_game_seconds)
            tally.end_game()
        except Exception as exc:  # a rules or referee bug: reported, not fatal to the run
            return {"game_id": game_id(idx), "idx": idx, "error": f"{type(exc).__name__}: {exc}"}, None
        return self._row(idx, seed, seated, header, result, t0, tally.calls), buffer.getvalue()

    def _placement(self) -> Any:
        """The placement a game thread uses: one per thread for the Ray placements, none inline."""
        if self.spec.placement == "inline":
            return None

        from actors.ray_placement import RayPlacement

        local = self._local
        if not hasattr(local, "placement"):
            local.placement = RayPlacement(self.spec.placement)
            with self._lock:
                self._placements.append(local.placement)
        return local.placement

    def close(self) -> None:
        from actors.external.connection import close_all

        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self.file is not None:
            self.file.close()
        if self.placement is not None:
            self.placement.close()
        for placement in self._placements:
            placement.close()
        close_all()  # the external agents this runner started: bye, and their processes end


class _PackedWithin(PackedLogWriter):
    """Packs each game into one frame, unless the packed frame would be longer than readers accept
    (MAX_FRAME: possible only for a game of near-incompressible records, which the limits allow
    up to their game_bytes); then the game's frames are written as they are (each within limits)."""

    def end_game(self) -> None:
        payloads = self._payloads
        if payloads:
            packed = self.packed_frame(payloads)
            self._out.write(packed if len(packed) <= MAX_FRAME else frames(payloads))
            payloads.clear()  # the same list: `record` appends to it
        LogWriter.end_game(self)


def _remote_runner():
    import ray

    @ray.remote(num_cpus=1, max_restarts=0)
    class RayRunner:
        def __init__(self, out: str, spec: dict[str, Any], runner_id: str, faults: dict[str, int]):
            self.player = BatchPlayer(out, spec, runner_id, faults)

        def where(self) -> dict[str, Any]:
            """The node and process this runner runs in (answered once it is up)."""
            context = ray.get_runtime_context()
            return {"node": context.get_node_id(), "ip": ray.util.get_node_ip_address(),
                    "host": socket.gethostname(), "pid": os.getpid()}

        def play(self, indices: list[int]) -> list[dict[str, Any]]:
            return self.player.play(indices)

    return RayRunner


@dataclass
class RunSummary:
    total: int
    recorded_before: int
    recorded_now: int
    failed: list[dict[str, Any]]
    runners: int
    restarts: int
    seconds: float
    placement: dict[str, dict[str, Any]] = field(default_factory=dict)  # runner id -> where it ran
    capped: str | None = None  # why no more games were handed out (a token or cost cap), if one was reached

    @property
    def nodes(self) -> int:
        """How many nodes this run's runners ran on."""
        return len({where["node"] for where in self.placement.values()})


def _check_meta(store: Store, spec: TournamentSpec) -> None:
    """A folder holds one tournament: the same spec (the game count may grow)."""
    mine = spec.identity()
    theirs = store.get_meta("spec")
    if theirs is None:
        store.set_meta("spec", json.dumps(spec.model_dump(mode="json", exclude={"games"}), sort_keys=True))
    elif {k: v for k, v in json.loads(theirs).items() if k in IDENTITY} != mine:
        raise SpecError("output folder holds a different tournament (spec differs); use another --out")


def run_tournament(
    spec: TournamentSpec,
    out: str | Path,
    runners: int | None = None,
    address: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    max_restarts: int = 8,
    on_rows: Callable[[list[dict[str, Any]]], None] | None = None,
) -> RunSummary:
    """Play every game of `spec` not yet recorded in `out`; returns what happened. Raises
    FolderBusy at once if another driver holds `out`, StorageError if `out` cannot be written.
    `runners`: how many runner actors (default: one per CPU of the cluster); 0 plays every game
    in this process, with the same runner code, segments and store (a tuning trial does).
    `on_rows` hears the rows of the games this run records, batch by batch, as the store gets them."""
    out = Path(out).absolute()  # runners on other nodes (other working folders) write there too
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise storage_error(str(out), exc) from None
    with FolderLock(out):
        return _run_locked(spec, out, runners, address, on_progress, max_restarts, on_rows)


def _run_locked(spec: TournamentSpec, out: Path, runners: int | None, address: str | None,
                on_progress: Callable[[int, int], None] | None, max_restarts: int,
                on_rows: Callable[[list[dict[str, Any]]], None] | None = None) -> RunSummary:
    faults = injected_faults()
    if spec.answers_from:  # runners elsewhere (other working folders) read it too
        spec = spec.model_copy(update={"answers_from": str(Path(spec.answers_from).absolute())})
    store = Store(out)
    try:
        _check_meta(store, spec)
        before = store.recorded_below(spec.games)  # one aggregate: a finished run reads no rows
        done = store.recorded() if before < spec.games else set()
        cap = Cap(spec, store.db)
    finally:
        store.close()  # held only while recording a batch from here on: reports can read meanwhile
    recorder = Recorder(out, budget=ByteBudget(faults["store"]) if "store" in faults else None)
    pool = None
    try:
        t0 = time.perf_counter()
        if on_progress:
            on_progress(before, spec.games)
        if before == spec.games:
            cap.note(out, before)
            return RunSummary(spec.games, before, 0, [], 0, 0, 0.0)
        if cap.reached():
            cap.stopped = cap.why()
            cap.note(out, before)
            return RunSummary(spec.games, before, 0, [], 0, 0, 0.0, capped=cap.stopped)
        if runners == 0:  # played here: no runner process to start (see _LocalPool)
            k = 1
            pool: Any = _LocalPool(str(out), spec.model_dump(mode="json"), faults, on_start=_placement_log(out))
        else:
            import ray

            _join(address)
            gates = serve_endpoints(spec, str(out))  # noqa: F841 (held: the named gate actors live while the driver does)
            k = runners or max(1, int(ray.cluster_resources().get("CPU", 1)))
            k = min(k, -(-(spec.games - before) // spec.batch))
            pool = _Pool(_remote_runner(), str(out), spec.model_dump(mode="json"), k, max_restarts, faults,
                         on_start=_placement_log(out))
        failed: list[dict[str, Any]] = []
        for rows in pool.results(cap.batches(pending_batches(spec.games, done, spec.batch))):
            failed += [r for r in rows if "error" in r]
            recorded = [r for r in rows if "error" not in r]
            cap.add(recorded)
            recorder.add(recorded)
            if on_rows:
                on_rows(recorded)
            if on_progress:
                on_progress(before + recorder.written + len(recorder.pending), spec.games)
        recorder.flush()
        cap.note(out, before + recorder.written)
        return RunSummary(spec.games, before, recorder.written, failed, k, pool.restarts, time.perf_counter() - t0,
                          pool.placement, capped=cap.stopped)
    finally:
        if pool is not None:
            pool.close()
        recorder.flush()


def _join(address: str | None) -> None:
    """Start a local Ray, or join the cluster at `address`. Ray swaps a loopback host in an
    address for this machine's network address, where a cluster bound to loopback (several Ray
    nodes on one machine) does not listen; so for such an address Ray is told, for the join only,
    that this machine has loopback alone."""
    from ray._private import ray_constants

    from actors.ray_placement import ensure_ray

    if address is None or not _loopback(address):
        ensure_ray(address=address)
        return
    saved = ray_constants.ENABLE_RAY_CLUSTER
    ray_constants.ENABLE_RAY_CLUSTER = False  # read by ray._private.services.get_node_ip_address
    try:
        ensure_ray(address=address)
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = saved


def _loopback(address: str) -> bool:
    host = address.split("://", 1)[-1].rpartition(":")[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _placement_log(out: Path) -> Callable[[str, dict[str, Any]], None]:
    """Appends one line to OUT/runners.jsonl per runner as it comes up: where it runs."""
    path = out / RUNNERS

    def note(runner_id: str, where: dict[str, Any]) -> None:
        line = {"runner": runner_id, **where, "started": datetime.now(UTC).isoformat(timespec="seconds")}
        try:
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(line, sort_keys=True) + "\n")
        except OSError as exc:
            raise storage_error(str(path), exc) from None

    return note


def pending_batches(games: int, done: set[int], batch: int) -> Iterator[list[int]]:
    """The games not in `done`, in order, `batch` at a time: made as they are handed out, so
    planning a billion games takes no memory."""
    current: list[int] = []
    for i in range(games):
        if i not in done:
            current.append(i)
            if len(current) == batch:
                yield current
                current = []
    if current:
        yield current


class _LocalPool:
    """The runner's work done in this process (`runners=0`): the same BatchPlayer, segments and
    rows as a runner actor's, without a process to start or results to ship, for a caller that is
    itself one CPU's worth of work (a tuning trial, which Ray Tune already runs in a process of its
    own). Batches are played one after the other; a batch that ends in an aborted game gets a
    fresh player for the rest (as _Pool replaces such a runner; a thread the abort left behind
    stays in this process until the game it plays ends)."""

    def __init__(self, out: str, spec_data: dict[str, Any], faults: dict[str, int] | None,
                 on_start: Callable[[str, dict[str, Any]], None] | None):
        self.out, self.spec_data, self.faults, self.on_start = out, spec_data, dict(faults or {}), on_start
        self.run_tag = uuid.uuid4().hex[:8]  # segment names only; never part of a log
        self.serial = self.restarts = 0
        self.placement: dict[str, dict[str, Any]] = {}
        self.player = self._start()

    def _start(self) -> BatchPlayer:
        self.serial += 1
        runner_id = f"{self.run_tag}-h{self.serial:03d}"
        player = BatchPlayer(self.out, self.spec_data, runner_id, self.faults)
        where = {"node": _node_id(), "ip": "127.0.0.1", "host": socket.gethostname(), "pid": os.getpid()}
        self.placement[runner_id] = where
        if self.on_start is not None:
            self.on_start(runner_id, where)
        return player

    def results(self, batches: Iterator[list[int]]):
        requeue: list[list[int]] = []
        while True:
            batch = requeue.pop(0) if requeue else next(batches, None)
            if batch is None:
                return
            try:
                rows = self.player.play(batch)
            except OSError as exc:  # its segment cannot be written (a full disk): as a runner's
                raise storage_error(str(exc.filename or Path(self.out) / "logs"), exc) from None
            played = {r["idx"] for r in rows}
            rest = [i for i in batch if i not in played]
            if rest or any(r.get("aborted") for r in rows):
                self.player.close()
                self.player = self._start()
                if rest:
                    requeue.insert(0, rest)
            yield rows

    def close(self) -> None:
        self.player.close()


def _node_id() -> str:
    """The Ray node this process runs on, where Ray is up ("local" where it is not)."""
    try:
        import ray

        if ray.is_initialized():
            return ray.get_runtime_context().get_node_id()
    except Exception:
        pass
    return "local"


class _Pool:
    """Runner actors fed batches, at most two in flight each, spread over the cluster's nodes;
    a runner gets work once it answers where it runs (`on_start` hears it). A runner that dies
    (its process, or its node) is replaced and its batches re-queued (up to `max_restarts` times
    in a run); a replacement the cluster has no room for waits while the others play on. A
    runner whose batch ended in an aborted game is replaced too (not counted as a restart): it
    gets no more work, a fresh one takes its slot, the games it did not play go back first, and
    it is killed once its last batch is in. With a game budget, a runner silent for longer than
    `STALL_GAMES` of its budgets a game (plus `STALL_GRACE` seconds to start) is taken for dead.
    Nothing in flight and no runner up for `START_WAIT` seconds: the cluster cannot hold one.

    Every game index is in exactly one place: not yet handed out, re-queued, in one batch in
    flight, or yielded once; a batch is re-queued only when its rows were not read."""

    STALL_GAMES = 3.0
    STALL_GRACE = 120.0
    START_WAIT = 600.0

    def __init__(self, runner_cls: Any, out: str, spec_data: dict[str, Any], k: int, max_restarts: int,
                 faults: dict[str, int] | None = None, on_start: Callable[[str, dict[str, Any]], None] | None = None):
        self.runner_cls, self.out, self.spec_data, self.max_restarts = runner_cls, out, spec_data, max_restarts
        self.faults = dict(faults or {})
        self.on_start = on_start
        self.requeue: list[list[int]] = []  # batches of dead runners, played again first
        self.exhausted = False  # every batch of the run has been handed out once
        self.run_tag = uuid.uuid4().hex[:8]  # segment names only; never part of a log
        self.serial = self.restarts = self.renewed = 0
        budget = spec_data.get("max_game_seconds")
        self.stall = None if budget is None else self.STALL_GRACE + self.STALL_GAMES * budget * spec_data.get("batch", 1)
        self.heard: dict[int, float] = {}  # id(runner) -> when it was started or last answered
        self.placement: dict[str, dict[str, Any]] = {}  # runner id -> where it ran
        self.names: dict[int, str] = {}  # id(runner) -> runner id
        self.starting: dict[Any, tuple[Any, int, str]] = {}  # where() ref -> (runner, slot, runner id)
        self.idle: dict[int, int] = {}
        self.inflight: dict[Any, tuple[Any, list[int], int]] = {}  # ref -> (runner, batch, slot)
        self.progress = time.monotonic()  # when a runner last started or answered
        self.pool = [self._start(slot) for slot in range(k)]

    def _start(self, slot: int) -> Any:
        """A fresh runner for `slot`, placed where the cluster has the fewest; no work until it is up."""
        self.serial += 1
        runner_id = f"{self.run_tag}-r{self.serial:03d}"
        handle = self.runner_cls.options(scheduling_strategy="SPREAD").remote(self.out, self.spec_data, runner_id, self.faults)
        self.starting[handle.where.remote()] = (handle, slot, runner_id)
        self.names[id(handle)] = runner_id
        self.idle[slot] = 0
        self.heard[id(handle)] = time.monotonic()
        return handle

    def results(self, batches: Iterator[list[int]]):
        """Rows of every batch of `batches` as each finishes. Raises StorageError when a runner
        cannot write its segment (a full disk): what was recorded stays, the rerun plays the rest."""
        import ray

        lost = _lost_errors()
        while True:
            self._dispatch(batches)
            if not self.inflight and not self.requeue and self.exhausted:
                return
            timeout = None if self.stall is None and self.inflight else 5.0
            ready, _ = ray.wait([*self.inflight, *self.starting], num_returns=1, timeout=timeout)
            if not ready:
                self._waited()
                continue
            self.progress = time.monotonic()
            ref = ready[0]
            if ref in self.starting:
                self._started(ref)
                continue
            handle, batch, slot = self.inflight.pop(ref)
            try:
                rows = ray.get(ref)
            except lost as exc:  # its process or its node died, or its answer went with the node
                self._replace(handle, batch, slot, exc)
                continue
            except ray.exceptions.RayTaskError as exc:
                if isinstance(exc.cause, OSError):
                    raise storage_error(str(exc.cause.filename or Path(self.out) / "logs"), exc.cause) from None
                raise
            self.heard[id(handle)] = time.monotonic()
            played = {r["idx"] for r in rows}
            rest = [i for i in batch if i not in played]
            if self.pool[slot] is not handle:  # a runner being replaced: its last batches come in
                if rest:
                    self.requeue.insert(0, rest)
                self._drop_if_done(handle)
            elif rest or any(r.get("aborted") for r in rows):
                self._renew(handle, slot, rest)
            else:
                self.idle[slot] += 1
            yield rows

    def _dispatch(self, batches: Iterator[list[int]]) -> None:
        """Up to two batches in flight on every runner that is up; re-queued batches first."""
        for slot in sorted(self.idle):
            while self.idle[slot] > 0:
                batch = self.requeue.pop(0) if self.requeue else next(batches, None)
                if batch is None:
                    self.exhausted = True
                    return
                handle = self.pool[slot]
                self.inflight[handle.play.remote(batch)] = (handle, batch, slot)
                self.idle[slot] -= 1

    def _started(self, ref: Any) -> None:
        """A runner answered where it runs: it takes work (or died starting: replaced)."""
        import ray

        handle, slot, runner_id = self.starting.pop(ref)
        try:
            where = ray.get(ref)
        except _lost_errors() as exc:  # its node died before it was up, or its constructor raised
            self._replace(handle, None, slot, exc)
            return
        self.placement[runner_id] = where
        if self.on_start is not None:
            self.on_start(runner_id, where)
        self.heard[id(handle)] = time.monotonic()
        if self.pool[slot] is handle:
            self.idle[slot] = 2
        else:
            _kill(handle)

    def _waited(self) -> None:
        """Nothing answered for a while: stalled runners are taken for dead; no runner up and
        nothing in flight for START_WAIT seconds stops the run."""
        if self.inflight:
            if self.stall is not None:
                self._stalled()
        elif time.monotonic() - self.progress > self.START_WAIT:
            raise RuntimeError(f"no runner could start in {self.START_WAIT:.0f}s: the cluster has no free CPU for one")

    def _renew(self, handle: Any, slot: int, rest: list[int]) -> None:
        """A batch ended in an aborted game: a fresh runner takes the slot; `rest` goes back first."""
        self.renewed += 1
        if rest:
            self.requeue.insert(0, rest)
        self.pool[slot] = self._start(slot)
        self._drop_if_done(handle)

    def _drop_if_done(self, handle: Any) -> None:
        if not any(h is handle for h, _, _ in self.inflight.values()):
            _kill(handle)
            self.heard.pop(id(handle), None)

    def _stalled(self) -> None:
        """Runners silent past the stall limit are taken for dead (killed, their batches re-queued)."""
        now = time.monotonic()
        for ref, (handle, batch, slot) in list(self.inflight.items()):
            if ref in self.inflight and now - self.heard.get(id(handle), now) > self.stall:
                _kill(handle)
                self.inflight.pop(ref)
                self._replace(handle, batch, slot, None)

    def _replace(self, handle: Any, batch: list[int] | None, slot: int, exc: BaseException | None) -> None:
        """The runner died: `batch` and its other batches go back to the front of the queue, a
        fresh runner takes its slot. Whatever it wrote of them stays unindexed in its segments."""
        self.restarts += 1
        if self.restarts > self.max_restarts:
            why = "" if exc is None else f" (last: {type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''})"
            raise RuntimeError(f"runners died {self.restarts} times; giving up{why}") from None
        if batch is not None:
            self.requeue.insert(0, batch)
        self.heard.pop(id(handle), None)
        _kill(handle)  # dead already, unless only its answer was lost
        again = [] if batch is None else [batch]
        if self.pool[slot] is handle:
            for ref in [r for r, (h, _, _) in self.inflight.items() if h is handle]:
                again.append(self.inflight.pop(ref)[1])
                self.requeue.insert(0, again[-1])
            self.pool[slot] = self._start(slot)
        name = self.names.get(id(handle), "?")
        _log.warning("runner lost; its games go back to the queue", runner=name,
                     node=self.placement.get(name, {}).get("node"), games=sum(len(b) for b in again),
                     error=type(exc).__name__ if exc is not None else "stalled")

    def close(self) -> None:
        runners = [*self.pool, *(h for h, _, _ in self.inflight.values()), *(h for h, _, _ in self.starting.values())]
        for handle in {id(h): h for h in runners}.values():
            _kill(handle)


def _kill(handle: Any) -> None:
    import ray

    ray.kill(handle)  # a no-op for a runner that is gone already


def _lost_errors() -> tuple[type[BaseException], ...]:
    """What the driver gets for a call whose runner is gone: its process or node died, or the
    answer was held on a node that died."""
    import ray.exceptions as e

    return (e.RayActorError, e.ObjectLostError, e.NodeDiedError, e.WorkerCrashedError)
