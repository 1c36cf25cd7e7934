"""The results store at scale: a store of N games (default 10^6) built from a few thousand really
played games replicated with fresh ids, then the figures of the store's goals:

1. load one game by id (a fresh read-only open of the store, the index lookup, the segment read
   with every record checked), median and p95 over random ids (goal: p95 <= 20 ms);
2. `detente tournament report DIR` as a command, wall time: cold (no ratings kept: every game
   rated), warm (ratings kept up to date: goal <= 10 s), and after 1% more games were added;
3. the resume scan of the finished run (`run_tournament` on the folder, nothing left to play:
   goal <= 5 s).

A replica is a played game's log with its game id rewritten in the header and in every record
(the id is a fixed-width string, so every record keeps its length), framed and packed again by the
log writer, so it reads, checks and verifies like the game it copies; its results row is the
source's row with the new id, index and segment position. No game is played to make a replica.

    python -m ops.bench.store [--games 1000000] [--sources 3000] [--workers 2] [--keep DIR]

With `--keep DIR` the store stays in DIR; run again with the same DIR to measure it again without
building it (each run adds its 1% of games).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import msgpack

from bus.log import PackedLogWriter, read_game_at
from ops.tournament import lookup
from ops.tournament.spec import DEFAULT_PACKING, TournamentSpec, game_id, parse_spec
from ops.tournament.store import LOGS, Store, load_game

SPEC: dict[str, Any] = {  # small games (~3 KB packed), five labels so ratings and head to head have work
    "game": "werewolves",
    "games": 3000,
    "seed": 18,
    "seating": "rotate",
    "options": {"players": 5, "werewolves": 1, "seers": 1, "doctors": 0, "discussion_rounds": 0},
    "lineup": [{"agent": "random", "label": "so-a"}, {"agent": "random", "label": "so-b"},
               {"agent": "random", "label": "so-c"},
               {"agent": "random", "label": "pr-a", "options": {"offices": ""}},
               {"agent": "random", "label": "pr-b", "options": {"offices": ""}}],
}
SEGMENT_BYTES = 64 * 1024 * 1024  # the tournament default (segment_mib = 64)

_SOURCES: list[tuple[dict[str, Any], list[bytes], bytes]] = []  # (header, record payloads, packed id): read by forked workers


def spec_of(games: int) -> TournamentSpec:
    """The bench tournament's spec with `games` games (the store's identity does not depend on the count)."""
    return parse_spec({**SPEC, "games": games})


def play_sources(out: Path, sources: int) -> None:
    """Really play games 0..sources-1 of the spec (in this process) and record them."""
    from ops.tournament.runner import BatchPlayer, _check_meta

    spec = spec_of(sources)
    player = BatchPlayer(str(out), spec.model_dump(mode="json"), "source")
    try:
        rows = [r for start in range(0, sources, 500) for r in player.play(list(range(start, min(sources, start + 500))))]
    finally:
        player.close()
    if any("error" in r for r in rows):
        raise RuntimeError(f"a source game failed: {next(r for r in rows if 'error' in r)}")
    store = Store(out)
    try:
        _check_meta(store, spec)
        store.add(rows)
    finally:
        store.close()


def replicate(out: Path, first: int, last: int, workers: int = 1) -> None:
    """Games first..last-1 as replicas of the played games (game i copies source i mod S, where
    S is the number of games played), written into new segments and recorded in the store."""
    store = Store(out, read_only=True)
    try:
        sources = store.db.execute('select idx, game_id, segment, "offset" from games where runner = ? order by idx',
                                   ["source"]).fetchall()
    finally:
        store.close()
    _SOURCES.clear()
    for idx, gid, segment, offset in sources:
        game, bad = read_game_at(out / LOGS / segment, offset, game_id=gid)
        assert bad is None and idx == len(_SOURCES)
        header = {k: v for k, v in game.header.items() if k != "format"}
        _SOURCES.append((header, game.payloads, msgpack.packb(gid)))
    bounds = [first + (last - first) * w // workers for w in range(workers + 1)]
    jobs = [(out, bounds[w], bounds[w + 1], f"replica-{first}-w{w}") for w in range(workers) if bounds[w] < bounds[w + 1]]
    with ProcessPoolExecutor(len(jobs), mp_context=get_context("fork")) as pool:
        tables = list(pool.map(_replicate_range, jobs))
    _record_replicas(out, tables, first, last)


def _replicate_range(job: tuple[Path, int, int, str]) -> str:
    """Write the replicas of games lo..hi-1 into rolling segments `tag`-NNNN.dlog; the path of a
    CSV of their index rows (idx, source idx, segment, offset, bytes)."""
    out, lo, hi, tag = job
    logs = out / LOGS
    table = out / f"{tag}.csv"
    lines, number, file, writer = [], -1, None, None
    for idx in range(lo, hi):
        if file is None or file.tell() >= SEGMENT_BYTES:
            if file is not None:
                file.close()
            number += 1
            segment = f"{tag}-{number:04d}.dlog"
            file = open(logs / segment, "wb")  # noqa: SIM115 (a rolling segment: closed when the next one starts)
            writer = PackedLogWriter(file, method=DEFAULT_PACKING)  # as the tournament packs its games
        src = idx % len(_SOURCES)
        header, payloads, old = _SOURCES[src]
        gid = game_id(idx)
        new = msgpack.packb(gid)
        assert len(new) == len(old)  # g%08d: every copy keeps its records' lengths
        offset = file.tell()
        writer.header({**header, "game_id": gid})
        for payload in payloads:
            writer.record(payload.replace(old, new))
        writer.end_game()
        lines.append(f"{idx},{src},{segment},{offset},{file.tell() - offset}\n")
    if file is not None:
        file.close()
    table.write_text("".join(lines))
    return str(table)


def _record_replicas(out: Path, tables: list[str], first: int, last: int) -> None:
    """One statement: each replica's row is its source's row with its own id, index and place."""
    files = ", ".join("'" + t.replace("'", "''") + "'" for t in tables)
    store = Store(out)
    try:
        store.db.execute(f"""
            insert into games select printf('g%08d', m.idx), m.idx, s.seed, s.seats, s.agent_names, s.agents,
                s.scores, s.ranks, s.winners, s.roles, s.steps, s.records, s.summary, s.errors, s.duration_ms,
                m.segment, m."offset", m.nbytes, 'replica', s.teams, s.extra, s.aborted, s.blame, s.seat_errors, s.model_calls, s.seat_faults, s.said
            from read_csv([{files}], header = false,
                          columns = {{'idx': 'BIGINT', 'src': 'BIGINT', 'segment': 'VARCHAR', 'offset': 'BIGINT',
                                     'nbytes': 'BIGINT'}}) m
            join games s on s.idx = m.src and s.runner = 'source'
            order by m.idx""")
        store.db.execute("checkpoint")
        lookup.write_slots(out, store.db.execute('select idx, segment, "offset", nbytes from games where idx >= ? and idx < ?',
                                                 [first, last]).fetchall())  # as Store.add does after its commit
    finally:
        store.close()
    for t in tables:
        os.unlink(t)


def build(out: Path, games: int, sources: int, workers: int) -> dict[str, float]:
    """A store of `games` games in `out`: `sources` played, the rest replicas. Seconds per step."""
    (out / LOGS).mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    play_sources(out, min(sources, games))
    t1 = time.perf_counter()
    if games > sources:
        replicate(out, sources, games, workers)
    return {"play": t1 - t0, "replicate": time.perf_counter() - t1}


def load_times(out: Path, games: int, samples: int = 200, seed: int = 1, through_store: bool = False) -> list[float]:
    """Milliseconds to load each of `samples` random games by id as `detente replay show DIR
    --game ID` does (`load_game`: the lookup slot, else the store), or with `through_store` by
    a fresh read-only open of the store and its index each time."""
    rng = random.Random(seed)
    times = []
    for _ in range(samples):
        gid = game_id(rng.randrange(games))
        t = time.perf_counter()
        if through_store:
            with Store(out, read_only=True) as store:
                segment, offset = store.locate(gid)
            game, bad = read_game_at(out / LOGS / segment, offset, game_id=gid)
        else:
            game, bad = load_game(out, gid)
        times.append((time.perf_counter() - t) * 1000)
        assert bad is None and game.complete and game.header["game_id"] == gid
    return times


def percentile(values: list[float], share: float) -> float:
    """The value a share of `values` is at or below (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, -(-int(share * 1000) * len(ordered) // 1000) - 1)]


def resume_scan(out: Path, games: int) -> tuple[float, Any]:
    """Seconds `run_tournament` takes on the finished folder (nothing left to play), and its summary."""
    from ops.tournament.runner import run_tournament

    t = time.perf_counter()
    summary = run_tournament(spec_of(games), out)
    return time.perf_counter() - t, summary


def report_command(out: Path, fmt: str = "text") -> float:
    """Wall seconds of `detente tournament report DIR --format FMT` as its own process."""
    cmd = [sys.executable, "-m", "ops.cli", "tournament", "report", str(out), "--format", fmt]
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.strip()[-500:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--sources", type=int, default=3000, help="games really played; the rest are replicas")
    parser.add_argument("--workers", type=int, default=2, help="processes writing replicas")
    parser.add_argument("--samples", type=int, default=200, help="games loaded by id")
    parser.add_argument("--keep", type=Path, default=None,
                        help="build the store in DIR and keep it; a DIR holding one is measured again, not rebuilt "
                             "(default: a temp folder, removed)")
    args = parser.parse_args()
    out = args.keep or Path(tempfile.mkdtemp(prefix="detente-store-"))
    try:
        games = _build_or_reuse(out, args)
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        for through_store, how in ((False, "load_game: lookup slot, checked"), (True, "fresh store open + index")):
            times = load_times(out, games, args.samples, through_store=through_store)
            print(f"load one game by id, {how} ({args.samples} random ids): median {statistics.median(times):.1f} ms, "
                  f"p95 {percentile(times, 0.95):.1f} ms  (goal p95 <= 20 ms)")
        scans = [resume_scan(out, games)[0] for _ in range(3)]
        print(f"resume scan of the finished run: median {statistics.median(scans):.2f} s, max {max(scans):.2f} s "
              f"of 3  (goal <= 5 s)")
        with Store(out, read_only=True) as store:
            kept = store.get_meta("ratings") is not None
        if not kept:
            print(f"tournament report, cold (no ratings kept, all {games:,} games rated): {report_command(out):.1f} s")
        warm = [report_command(out) for _ in range(3)]
        print(f"tournament report, warm (ratings kept): median {statistics.median(warm):.1f} s, max {max(warm):.1f} s "
              f"of 3  (goal <= 10 s)")
        print(f"tournament report --format html, warm: {report_command(out, 'html'):.1f} s")
        more = games // 100
        t = time.perf_counter()
        replicate(out, games, games + more, args.workers)
        print(f"{more:,} more games replicated in {time.perf_counter() - t:.0f} s; "
              f"tournament report rating only them: {report_command(out):.1f} s")
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        if args.keep is None:
            shutil.rmtree(out, ignore_errors=True)


def _build_or_reuse(out: Path, args: argparse.Namespace) -> int:
    """The games in the store of `out`, built first unless it holds one."""
    if (out / "results.duckdb").exists():
        with Store(out, read_only=True) as store:
            games = store.count()
        if store_prefix(out) != games:
            raise SystemExit(f"{out} holds a store whose games are not 0..{games - 1}: not one this benchmark built")
        print(f"store of {games:,} games in {out} (kept from an earlier run: not rebuilt)")
        return games
    steps = build(out, args.games, args.sources, args.workers)
    size = sum(p.stat().st_size for p in (out / LOGS).glob("*.dlog"))
    print(f"store of {args.games:,} games ({args.sources:,} played in {steps['play']:.0f} s, the rest replicated "
          f"in {steps['replicate']:.0f} s); segments {size / 2**30:.2f} GiB, "
          f"results.duckdb {(out / 'results.duckdb').stat().st_size / 2**20:.0f} MiB")
    return args.games


def store_prefix(out: Path) -> int:
    from ops.tournament.ratings import prefix

    with Store(out, read_only=True) as store:
        return prefix(store.db)


if __name__ == "__main__":
    main()
