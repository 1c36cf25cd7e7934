"""Bytes per game: plain and packed by each method (bus.log.METHODS), the CPU
of packing and of reading back, for random Werewolves, full AlphaWolf, the Hanabi alpha agent and
full AlphaDip (thesis table 6.1: 2 AlphaDip PR+SO+FO+IO + 5 DumbBot, to winter 1920). With
`--experiments`, the structural changes we tried, bytes only (README, Benchmarks).

    python -m ops.bench.bytes [--games 3] [--alphadip-games 1] [--cache DIR] [--rounds 3] [--experiments]

AlphaDip games are slow to play: they are cached under DIR (default: the temp dir's
detente-bytes-cache) by seed, lineup and code version, with the CPU they took to play (delete DIR after
changing an agent: the code version names a release, not a commit). CPU is
`time.process_time`, the best of `--rounds` (the box is shared); the figures are means per game.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import lzma
import statistics
import tempfile
import time
import zlib
from pathlib import Path

from actors.match import CODE_VERSION, make_header, play
from actors.registry import parse_lineup
from bus import packed
from bus.codec import pack, unpack
from bus.log import MAGIC, METHODS, LogWriter, PackedLogWriter, frame, iter_frames, parse_log
from games.registry import get_game
from ops.tournament.spec import check_options

KINDS = {  # name: (game, lineup, options, first seed)
    "random Werewolves": ("werewolves", "random", {}, 1),
    "full AlphaWolf": ("werewolves", "alphawolf", {}, 7),
    "Hanabi alpha": ("hanabi", "alpha", {}, 1),
    "full AlphaDip (6.1)": ("diplomacy", "alphadip,alphadip,dumbbot,dumbbot,dumbbot,dumbbot,dumbbot", {"max_year": 1920}, 1),
}
SLOW = "full AlphaDip (6.1)"


def play_game(game: str, lineup: str, options: dict, seed: int) -> tuple[bytes, float]:
    """A plain log of one game, and the CPU it took to play."""
    players = get_game(game).num_players(check_options(game, options))
    header = make_header(game, seed, parse_lineup(lineup, players), options)
    buf = io.BytesIO()
    writer = LogWriter(buf)
    t0 = time.process_time()
    writer.header(header)
    play(header, writer)
    return buf.getvalue(), time.process_time() - t0


def cached_game(cache: Path, game: str, lineup: str, options: dict, seed: int) -> tuple[bytes, float]:
    spec = json.dumps([lineup, options, CODE_VERSION], sort_keys=True).encode()
    key = f"{game}-{seed}-{hashlib.sha256(spec).hexdigest()[:12]}"
    log, meta = cache / f"{key}.log", cache / f"{key}.json"
    if log.exists() and meta.exists():
        return log.read_bytes(), json.loads(meta.read_text())["cpu_s"]
    data, cpu = play_game(game, lineup, options, seed)
    cache.mkdir(parents=True, exist_ok=True)
    log.write_bytes(data)
    meta.write_text(json.dumps({"cpu_s": cpu}))
    return data, cpu


def payloads_of(data: bytes) -> list[bytes]:
    frames, bad = iter_frames(data, len(MAGIC))
    assert bad is None, bad
    return [p for _, p in frames]


def packed_game(payloads: list[bytes], method: str) -> bytes:
    buf = io.BytesIO()
    writer = PackedLogWriter(buf, method=method, write_magic=False)
    writer._payloads = list(payloads)  # the game as the bus wrote it: header payload first
    writer.end_game()
    return buf.getvalue()


def best(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def measure(data: bytes, rounds: int) -> dict[str, float]:
    """Bytes and CPU of one game: plain, and each method."""
    payloads = payloads_of(data)
    out = {"plain": len(data), "read plain": best(lambda: parse_log(data), rounds)}
    for method in METHODS:
        blob = packed_game(payloads, method)
        whole = MAGIC + blob
        log = parse_log(whole, check=True)
        assert log.bad is None and log.games[0].payloads == payloads[1:], f"{method} does not give the game back"
        out[method] = len(blob)
        out[f"pack {method}"] = best(lambda m=method: packed_game(payloads, m), rounds)
        out[f"read {method}"] = best(lambda w=whole: parse_log(w), rounds)
    return out


# --- structural experiments (bytes only) --------------------------------------------------------

def _lzma(data: bytes) -> int:
    return len(lzma.compress(data, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "preset": 6}]))


def _varint(n: int) -> bytes:
    out = bytearray()
    packed._varint(n, out)
    return bytes(out)


def experiments(data: bytes) -> dict[str, int]:
    """Each structural change we tried, as the bytes of one game (every message kept)."""
    payloads = payloads_of(data)
    frames = b"".join(frame(p) for p in payloads)
    no_crc = b"".join(_varint(len(p)) + p for p in payloads)
    records = [unpack(p) for p in payloads[1:]]
    order = sorted(range(len(records)), key=lambda i: (records[i]["msg"].get("kind", ""), records[i]["msg"].get("to", ""), i))
    by_kind = _varint(len(payloads[0])) + payloads[0] + b"".join(_varint(i) for i in order) + b"".join(
        _varint(len(payloads[i + 1])) + payloads[i + 1] for i in order)
    seen: dict[bytes, int] = {}
    once = bytearray()  # a message body (all but its recipient) stored once; again: (first, to, seq, cause)
    for i, r in enumerate(records):
        msg = r["msg"]
        body = pack({k: v for k, v in msg.items() if k != "to"})
        if body in seen:
            item = pack([seen[body], msg.get("to"), r["seq"], r["cause"]])
        else:
            seen[body] = i
            item = payloads[i + 1]
        once += _varint(len(item)) + item
    return {
        "zlib-1 frames (format 2)": len(zlib.compress(frames, 1)),
        "lzma-6 frames": _lzma(frames),
        "lzma-6 without inner checksums": _lzma(no_crc),
        "sorted by kind, recipient": _lzma(by_kind),
        "broadcast once": _lzma(payloads[0] + bytes(once)),
        "columns": len(packed.compress(packed.encode(payloads[0], payloads[1:]))),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="games of each kind but AlphaDip")
    ap.add_argument("--alphadip-games", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "detente-bytes-cache")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--experiments", action="store_true")
    args = ap.parse_args(argv)
    print("| games | n | plain KB | " + " | ".join(f"{m} KB" for m in METHODS) + " | play CPU ms | "
          + " | ".join(f"pack {m} ms" for m in METHODS) + " | read plain ms | "
          + " | ".join(f"read {m} ms" for m in METHODS) + " |")
    print("|" + " --- |" * (5 + 3 * len(METHODS)))
    tried: dict[str, list[dict[str, int]]] = {}
    for name, (game, lineup, options, seed) in KINDS.items():
        n = args.alphadip_games if name == SLOW else args.games
        rows, plays = [], []
        for s in range(seed, seed + n):
            data, cpu = cached_game(args.cache, game, lineup, options, s) if name == SLOW else play_game(game, lineup, options, s)
            rows.append(measure(data, args.rounds))
            plays.append(cpu)
            if args.experiments:
                tried.setdefault(name, []).append(experiments(data))
        mean = {k: statistics.fmean(r[k] for r in rows) for k in rows[0]}
        print(f"| {name} | {n} | {mean['plain'] / 1000:.1f} | " + " | ".join(f"{mean[m] / 1000:.1f}" for m in METHODS)
              + f" | {statistics.fmean(plays) * 1000:.0f} | " + " | ".join(f"{mean['pack ' + m] * 1000:.1f}" for m in METHODS)
              + f" | {mean['read plain'] * 1000:.1f} | " + " | ".join(f"{mean['read ' + m] * 1000:.1f}" for m in METHODS) + " |")
    if args.experiments:
        names = list(next(iter(tried.values()))[0])
        print("\n| KB per game | " + " | ".join(tried) + " |")
        print("|" + " --- |" * (1 + len(tried)))
        for e in names:
            print(f"| {e} | " + " | ".join(f"{statistics.fmean(r[e] for r in rs) / 1000:.1f}" for rs in tried.values()) + " |")


if __name__ == "__main__":
    main()
