"""Shared helpers of the hostile-log tests: real logs and segments, frames taken apart and put
back (checksums recomputed, so only the reader's own checks stand between a forgery and a
verdict), the outcome every reading must have, and peak memory."""

from __future__ import annotations

import itertools
import tracemalloc
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from bus.codec import pack, unpack
from bus.errors import LogError
from bus.log import MAGIC, READ_MEMORY, GameLog, duplicates, frame, iter_frames, parse_game_offsets, parse_log

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SMALL = "hanabi-random-2"  # 33 records, 8 KB: cheap to verify thousands of times
TALKY = "werewolves-random-8p"  # 158 records with talk, deltas to many recipients


@lru_cache(maxsize=None)
def golden(stem: str) -> bytes:
    return (GOLDEN / f"{stem}.log").read_bytes()


def payloads_of(data: bytes) -> list[bytes]:
    """The payloads of a plain log's frames, in file order (header first)."""
    frames, bad = iter_frames(data, len(MAGIC))
    assert bad is None
    return [p for _, p in frames]


def plain(payloads: list[bytes]) -> bytes:
    """A plain log of these payloads, each framed with a correct checksum."""
    return MAGIC + b"".join(frame(p) for p in payloads)


def packed_frame(payloads: list[bytes], level: int = 1) -> bytes:
    """One packed frame holding these payloads' frames, as PackedLogWriter lays it out."""
    return frame(pack({"packed": "zlib", "data": zlib.compress(b"".join(frame(p) for p in payloads), level)}))


def packed(games: list[list[bytes]]) -> bytes:
    return MAGIC + b"".join(packed_frame(g) for g in games)


@dataclass(frozen=True)
class Original:
    """What verify vouches for: a game's identity (game, id, seed, fork point) and every record as
    stored. The header's other fields are the inputs verify replays the game from: options and
    agents spelled otherwise (a default written out) that reproduce every record byte for byte
    describe the same game. Its `code_version` is a note that nothing replays: verify cannot vouch
    for it (binding it would take a record carrying the header's digest: a change of bytes)."""

    identity: bytes
    payloads: tuple[bytes, ...]

    @classmethod
    def of(cls, game: GameLog) -> "Original":
        h = game.header
        fork = h.get("fork")
        at = fork.get("at") if isinstance(fork, dict) else fork
        return cls(pack([h.get("format"), h.get("game"), h.get("game_id"), h.get("seed"), "fork" in h, at]),
                   tuple(game.payloads))


def originals(*datas: bytes) -> set[Original]:
    return {Original.of(g) for data in datas for g in parse_log(data).games}


@dataclass
class Outcome:
    error: LogError | None = None  # raised by the reader
    games: int = 0
    bad: LogError | None = None
    verified: int = 0  # games that verified ok


def judge(data: bytes, known: set[Original] | frozenset[Original], verify: bool = True, show: bool = True) -> Outcome:
    """Read `data` as the CLI would (checked), verify every changed game and show every game.
    Holds the invariants: nothing but a LogError escapes, reading stays under the declared memory
    bound, and no game verifies ok unless it is one of the `known` ones."""
    from replay.show import show as show_game
    from replay.verify import verify_game

    measure = peak_memory if next(_judged) % TRACE_EVERY == 0 else rss_rise
    try:
        log, peak = measure(lambda: parse_log(data, check=True))
    except LogError as exc:
        return Outcome(error=exc)
    assert peak < READ_MEMORY, f"reading took {peak >> 20} MiB"
    assert log.bad is None or isinstance(log.bad, LogError)
    # the scan verify and show run for a game held twice finds every one the whole read finds
    read_twice = duplicates([(g.header.get("game_id"), g.header_offset) for g in log.games])
    scanned_twice = duplicates(parse_game_offsets(data)[0])
    assert all(scanned_twice.get(gid, [])[: len(offsets)] == offsets for gid, offsets in read_twice.items()), \
        (read_twice, scanned_twice)
    out = Outcome(games=len(log.games), bad=log.bad)
    for i, game in enumerate(log.games):
        bad = log.bad if i == len(log.games) - 1 else None
        changed = Original.of(game) not in known
        if verify and (changed or bad is not None):  # an unchanged, whole game may verify or not: no matter
            verdict = verify_game(game, bad)
            if verdict.ok:
                assert bad is None and not changed, "a changed game verifies as ok"
                out.verified += 1
        if show:
            try:
                show_game(game)
            except LogError:
                pass
    return out


def judge_unchecked(data: bytes) -> Outcome:
    """`parse_log` without checks, then what a consumer does first (GameLog.check): typed errors only."""
    try:
        log = parse_log(data)
    except LogError as exc:
        return Outcome(error=exc)
    for game in log.games:
        try:
            game.check()
        except LogError:
            pass
    return Outcome(games=len(log.games), bad=log.bad)


def peak_memory(fn: Callable[[], Any]) -> tuple[Any, int]:
    """fn's result and the peak of Python's heap while it ran (tracemalloc), in bytes."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def rss_rise(fn: Callable[[], Any]) -> tuple[Any, int]:
    """fn's result and how far the process's resident memory rose while it ran (the kernel's peak,
    reset first through /proc/self/clear_refs), in bytes: a tenth of tracemalloc's cost, so every
    fuzz case can be measured. Falls back to tracemalloc where the kernel does not offer it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        before = _status("VmRSS")
    except OSError:
        return peak_memory(fn)
    result = fn()
    return result, max(0, _status("VmHWM") - before)


def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise OSError(f"no {key} in /proc/self/status")


TRACE_EVERY = 8  # every 8th judged case is also measured with tracemalloc
_judged = itertools.count()


def record_of(payload: bytes) -> dict[str, Any]:
    return unpack(payload)


SEGMENT_SPEC = {  # small Hanabi games: a segment of a few games is made in well under a second
    "game": "hanabi",
    "games": 6,
    "seed": 11,
    "segment_mib": 64,
    "lineup": [{"agent": "random", "label": "r", "count": 2}],
}


def tournament_folder(out: Path, games: int = 4, compress: bool = True) -> list[dict[str, Any]]:
    """A recorded tournament folder (segments made by the tournament's BatchPlayer, the index in
    its store); the rows as recorded."""
    from ops.tournament.runner import BatchPlayer
    from ops.tournament.spec import parse_spec
    from ops.tournament.store import Store

    spec = parse_spec({**SEGMENT_SPEC, "games": games, "compress": compress})
    player = BatchPlayer(str(out), spec.model_dump(mode="json"), "h-r001")
    try:
        rows = player.play(list(range(games)))
    finally:
        player.close()
    store = Store(out)
    try:
        store.add(rows)
    finally:
        store.close()
    return rows


__all__ = ["GOLDEN", "SMALL", "TALKY", "READ_MEMORY", "golden", "payloads_of", "plain", "packed_frame", "packed",
           "Original", "originals", "Outcome", "judge", "judge_unchecked", "peak_memory", "rss_rise", "record_of",
           "tournament_folder"]
