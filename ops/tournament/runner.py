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
"""

from __future__ import annotations

import json
import os
import time
import uuid
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from actors.match import make_header, play
from actors.registry import AgentSpec
from bus.codec import pack
from bus.log import MAX_FRAME, PACKED, LogWriter, PackedLogWriter, frame
from ops.logging import configure as configure_logging
from ops.tournament.spec import IDENTITY, SpecError, TournamentSpec, game_id
from ops.tournament.store import ByteBudget, FaultyFile, FolderLock, Recorder, Store, injected_faults, storage_error


def ranks_of(scores: list[float]) -> list[float]:
    """Rank 1 is the best score; tied players share the mean of the ranks they span."""
    ranks = []
    for s in scores:
        better = sum(1 for t in scores if t > s)
        tied = sum(1 for t in scores if t == s)
        ranks.append(better + (tied + 1) / 2)
    return ranks


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
        writer = _PackedWithin if self.spec.compress else LogWriter
        self.writer = writer(self.file, fsync=self.spec.fsync)

    def play(self, indices: list[int]) -> list[dict[str, Any]]:
        """Play the games `indices`; one result row each (a crashed game's row has `error`). An
        aborted game (row `aborted`) ends the batch: the rows then cover the games up to it."""
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
            try:
                self.writer.header(header)
                result = play(header, self.writer, runtime=spec.placement, placement=self.placement,
                              game_seconds=spec.max_game_seconds)
                self.writer.end_game()
            except OSError:  # the segment cannot be written (disk full): the driver stops, not the game
                raise
            except Exception as exc:  # a rules or referee bug: reported, not fatal to the run
                rows.append({"game_id": game_id(idx), "idx": idx, "error": f"{type(exc).__name__}: {exc}"})
                self._roll()  # the segment now ends in a partial game: start a clean one
                continue
            end = result.end
            scores = list(end.returns) if result.aborted is None else [None] * len(seated)  # an abort has no result
            # a game may rank players itself (e.g. by centres held, then by when eliminated); an
            # abort ranks the seat to blame last
            ranks = [float(r) for r in end.ranks] if end.ranks is not None else ranks_of(scores)
            rows.append(
                {
                    "game_id": game_id(idx),
                    "idx": idx,
                    "seed": seed,
                    "seats": [e.name for e in seated],
                    "agents": header["agents"],
                    "scores": scores,
                    "ranks": ranks,
                    "winners": list(end.winners),
                    "roles": [str(r) for r in end.roles or ()],
                    "teams": [list(t) for t in end.teams or [[s] for s in range(len(scores))]],
                    "extra": end.extra,  # the game's own facts (centres, fireworks...) for its report
                    "steps": end.steps,
                    "records": result.records,
                    "summary": end.summary,
                    "errors": result.errors,
                    "seat_errors": [result.seat_errors.get(s, 0) for s in range(len(seated))],
                    "aborted": result.aborted,
                    "blame": result.blame,
                    "duration_ms": (time.perf_counter() - t0) * 1000,
                    "segment": self.segment,
                    "offset": offset,
                    "nbytes": self.file.tell() - offset,
                    "runner": self.runner_id,
                }
            )
            if result.aborted is not None:
                break  # this runner is replaced: the batch's other games go back to the queue
        self.file.flush()
        if spec.fsync:
            os.fsync(self.file.fileno())
        return rows

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
        if self.placement is not None:
            self.placement.close()


class _PackedWithin(PackedLogWriter):
    """Packs each game into one frame, unless the packed frame would be longer than readers accept
    (MAX_FRAME: possible only for a game of near-incompressible records, which the limits allow
    up to their game_bytes); then the game's frames are written as they are (each within limits)."""

    def end_game(self) -> None:
        frames, self._frames = self._frames, []
        if frames:
            packed = frame(pack({"packed": PACKED, "data": zlib.compress(b"".join(frames), self._level)}))
            self._out.write(packed if len(packed) <= MAX_FRAME else b"".join(frames))
        LogWriter.end_game(self)


def _remote_runner():
    import ray

    @ray.remote(num_cpus=1, max_restarts=0)
    class RayRunner:
        def __init__(self, out: str, spec: dict[str, Any], runner_id: str, faults: dict[str, int]):
            self.player = BatchPlayer(out, spec, runner_id, faults)

        def pid(self) -> int:
            return os.getpid()

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
) -> RunSummary:
    """Play every game of `spec` not yet recorded in `out`; returns what happened. Raises
    FolderBusy at once if another driver holds `out`, StorageError if `out` cannot be written."""
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise storage_error(str(out), exc) from None
    with FolderLock(out):
        return _run_locked(spec, out, runners, address, on_progress, max_restarts)


def _run_locked(spec: TournamentSpec, out: Path, runners: int | None, address: str | None,
                on_progress: Callable[[int, int], None] | None, max_restarts: int) -> RunSummary:
    faults = injected_faults()
    store = Store(out)
    try:
        _check_meta(store, spec)
        done = store.recorded()
    finally:
        store.close()  # held only while recording a batch from here on: reports can read meanwhile
    recorder = Recorder(out, budget=ByteBudget(faults["store"]) if "store" in faults else None)
    pool = None
    try:
        before = sum(1 for i in done if i < spec.games)
        t0 = time.perf_counter()
        if on_progress:
            on_progress(before, spec.games)
        if before == spec.games:
            return RunSummary(spec.games, before, 0, [], 0, 0, 0.0)
        import ray

        from actors.ray_placement import ensure_ray

        ensure_ray(address=address)
        k = runners or max(1, int(ray.cluster_resources().get("CPU", 1)))
        k = min(k, -(-(spec.games - before) // spec.batch))
        pool = _Pool(_remote_runner(), str(out), spec.model_dump(mode="json"), k, max_restarts, faults)
        failed: list[dict[str, Any]] = []
        for rows in pool.results(pending_batches(spec.games, done, spec.batch)):
            failed += [r for r in rows if "error" in r]
            recorder.add([r for r in rows if "error" not in r])
            if on_progress:
                on_progress(before + recorder.written + len(recorder.pending), spec.games)
        recorder.flush()
        return RunSummary(spec.games, before, recorder.written, failed, k, pool.restarts, time.perf_counter() - t0)
    finally:
        if pool is not None:
            pool.close()
        recorder.flush()


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


class _Pool:
    """Runner actors fed batches, at most two in flight each; a runner that dies is replaced and
    its batches re-queued (up to `max_restarts` times in a run). A runner whose batch ended in an
    aborted game is replaced too (not counted as a restart): it gets no more work, a fresh one takes
    its slot, the games it did not play go back first, and it is killed once its last batch is in.
    With a game budget, a runner silent for longer than `STALL_GAMES` of its budgets a game (plus
    `STALL_GRACE` seconds to start) is taken for dead."""

    STALL_GAMES = 3.0
    STALL_GRACE = 120.0

    def __init__(self, runner_cls: Any, out: str, spec_data: dict[str, Any], k: int, max_restarts: int,
                 faults: dict[str, int] | None = None):
        self.runner_cls, self.out, self.spec_data, self.max_restarts = runner_cls, out, spec_data, max_restarts
        self.faults = dict(faults or {})
        self.requeue: list[list[int]] = []  # batches of dead runners, played again first
        self.run_tag = uuid.uuid4().hex[:8]  # segment names only; never part of a log
        self.serial = self.restarts = self.renewed = 0
        budget = spec_data.get("max_game_seconds")
        self.stall = None if budget is None else self.STALL_GRACE + self.STALL_GAMES * budget * spec_data.get("batch", 1)
        self.heard: dict[int, float] = {}  # id(runner) -> when it was started or last answered
        self.pool = [self._start() for _ in range(k)]
        self.idle = {i: 2 for i in range(k)}
        self.inflight: dict[Any, tuple[Any, list[int], int]] = {}  # ref -> (runner, batch, slot)

    def _start(self) -> Any:
        self.serial += 1
        handle = self.runner_cls.remote(self.out, self.spec_data, f"{self.run_tag}-r{self.serial:03d}", self.faults)
        self.heard[id(handle)] = time.monotonic()
        return handle

    def results(self, batches: Iterator[list[int]]):
        """Rows of every batch of `batches` as each finishes. Raises StorageError when a runner
        cannot write its segment (a full disk): what was recorded stays, the rerun plays the rest."""
        import ray

        while True:
            for slot in sorted(self.idle):
                while self.idle[slot] > 0:
                    batch = self.requeue.pop(0) if self.requeue else next(batches, None)
                    if batch is None:
                        break
                    self.inflight[self.pool[slot].play.remote(batch)] = (self.pool[slot], batch, slot)
                    self.idle[slot] -= 1
            if not self.inflight:
                return
            ready, _ = ray.wait(list(self.inflight), num_returns=1, timeout=None if self.stall is None else 5.0)
            if not ready:
                self._stalled()
                continue
            for ref in ready:
                handle, batch, slot = self.inflight.pop(ref)
                try:
                    rows = ray.get(ref)
                except ray.exceptions.RayActorError:
                    self._replace(handle, batch, slot, self.requeue)
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

    def _renew(self, handle: Any, slot: int, rest: list[int]) -> None:
        """A batch ended in an aborted game: a fresh runner takes the slot; `rest` goes back first."""
        self.renewed += 1
        if rest:
            self.requeue.insert(0, rest)
        self.pool[slot] = self._start()
        self.idle[slot] = 2
        self._drop_if_done(handle)

    def _drop_if_done(self, handle: Any) -> None:
        import ray

        if not any(h is handle for h, _, _ in self.inflight.values()):
            ray.kill(handle)
            self.heard.pop(id(handle), None)

    def _stalled(self) -> None:
        """Runners silent past the stall limit are taken for dead (killed, their batches re-queued)."""
        import ray

        now = time.monotonic()
        for ref, (handle, batch, slot) in list(self.inflight.items()):
            if ref in self.inflight and now - self.heard.get(id(handle), now) > self.stall:
                ray.kill(handle)
                self.inflight.pop(ref)
                self._replace(handle, batch, slot, self.requeue)

    def _replace(self, handle: Any, batch: list[int], slot: int, queue: list[list[int]]) -> None:
        """The runner died: its batches go back to the front of the queue, a fresh runner takes its slot."""
        self.restarts += 1
        if self.restarts > self.max_restarts:
            raise RuntimeError(f"runners died {self.restarts} times; giving up") from None
        queue.insert(0, batch)
        self.heard.pop(id(handle), None)
        if self.pool[slot] is handle:
            self.pool[slot] = self._start()
            for ref in [r for r, (h, _, _) in self.inflight.items() if h is handle]:
                queue.insert(0, self.inflight.pop(ref)[1])
            self.idle[slot] = 2

    def close(self) -> None:
        import ray

        for handle in {id(h): h for h in [*self.pool, *(h for h, _, _ in self.inflight.values())]}.values():
            ray.kill(handle)
