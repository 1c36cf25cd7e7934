"""The append-only event log: a magic line, then frames `[length u32][crc32 u32][msgpack payload]`.

The first frame of a game is its header (a map with "format"); then its records; a game ends
with its `game_end` record. A file may hold several games one after another (segments). A reader
stops at the first bad frame and reports it (a typed `BadFrame` with its byte offset, and seq for
a record); the valid prefix stays readable.

A game may also be stored packed: one frame whose payload is the map {"packed": METHOD, "data":
<bytes>} (`PackedLogWriter`, used by tournament segments): "zlib", the game's frames
zlib-compressed; "zstd", the same frames as one Zstandard frame (its size declared; the
tournament's default: 0.33-0.55x zlib's CPU to pack, 0.56-0.87x its bytes); or "columns", its records
taken apart by field and LZMA2-compressed (bus.packed).
Either way the payloads inside are exactly those a plain writer would have written, so readers
hand out the same headers, records and payloads; a packed game's records all carry the offset of
its one frame.
The same observation stored once per recipient (seven players and their offices) compresses
away: a long negotiation game packs to about a sixth of its bytes, a random game of few talkers ~5x (README figures).

Readers trust nothing (the writers are unchanged). Always: frame lengths and checksums; payloads
decoded within caps (no ext types, containers of at most 65,536 entries) and in canonical form (a
payload re-encodes to its very bytes); one game per packed frame, inflated as a stream within the
limits below; deltas that apply to what came before; a "columns" blob within bus.packed's limits. With `check` (the default of `read_log` and
`read_game_at`, and what `GameLog.check` does for a game read without it): the typed header
(bus.header, the game's options validated by the game), every record a valid message of its game,
seqs strictly increasing, each cause before its effect, every record of the header's game.
`read_game_head` reads the start of one game only, with the same checks (a checked prefix).

LIMITS of one game, whatever a file claims (ours; real games are far below: the largest we know,
a 6-player Risk game of 200 rounds, is 9.4 MiB of frames and takes 80 MiB to read, 107 MiB charged):
- MAX_FRAME: one frame as stored (a record, a header, a packed game) and each frame inside a packed one;
- MAX_GAME_BYTES: all frames of one game (a packed game as inflated);
- MAX_GAME_MEMORY: the heap charged while reading one game (its payloads and everything decoded
  from them, bus.codec.Budget);
- so reading one game takes at most READ_MEMORY: a packed frame held while it inflates, the game's
  charged heap, the list slots msgpack sizes ahead (bus.codec.PRESIZE_SLOTS), and then for zlib an
  inflating frame; for zstd an inflating frame, what one feed of _ZSTD_FEED bytes inflates to (at
  most 33 blocks of 128 KiB) and the decoder's window (at most _ZSTD_WINDOW, refused beyond); for
  "columns" (bus.packed) its inflated blob (MAX_BLOB), its path tree (TREE_MEMORY), one record being
  rebuilt (RECORD_MEMORY) and its payload (bounded by the same).
"""

from __future__ import annotations

import io
import os
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterator

import zstandard

from bus import packed
from bus.codec import FORMAT_VERSION, FORMATS, PRESIZE_SLOTS, Budget, RecordCodec, pack
from bus.errors import (
    BadFrame,
    BadPacking,
    BadPayload,
    BadRecord,
    ChecksumMismatch,
    LogError,
    NotALog,
    OverLimit,
    TornFrame,
    UnsupportedFormat,
    WrongGame,
)
from bus.header import check_header, check_message, check_record

__all__ = ["MAGIC", "MAX_FRAME", "MAX_GAME_BYTES", "MAX_GAME_MEMORY", "READ_MEMORY", "METHODS", "LogError", "MemoryLog", "header_payload",
           "BadFrame", "frame", "LogWriter", "PackedLogWriter", "GameLog", "LogFile", "parse_log", "read_log", "read_game_at",
           "read_game_head"]

MAGIC = b"DETENTE-LOG\n"
_FRAME = struct.Struct("<II")
MAX_FRAME = 16 * 1024 * 1024  # a record is at most ~12 KB in real logs, a packed game ~3 MB
MAX_GAME_BYTES = 64 * 1024 * 1024  # 6x the largest real game
MAX_GAME_MEMORY = 192 * 1024 * 1024  # ~2x what the largest real game takes
READ_MEMORY = MAX_FRAME + MAX_GAME_MEMORY + 8 * PRESIZE_SLOTS + max(  # 256 MiB: the declared bound, <= 256 MiB
    MAX_FRAME, packed.MAX_BLOB + packed.TREE_MEMORY + 2 * packed.RECORD_MEMORY)
_FRAME_COST = 128  # heap per frame besides its payload: the bytes object, its offset, three list slots
PACKED = "zlib"  # the first packing method (PackedLogWriter's default): a game's frames, zlib-compressed
ZSTD = "zstd"  # a game's frames as one Zstandard frame (the tournament's default)
METHODS = (PACKED, packed.METHOD, ZSTD)  # "columns": bus.packed
_PACKED_HEADS = {m: pack({"packed": m, "data": b""})[:-2] for m in METHODS}  # the map and keys as the writer lays them out, up to the bin
_IN_CHUNK = 1 << 16  # compressed bytes fed to the inflater at a time
_OUT_CHUNK = 1 << 18  # the most it hands back at a time
_ZSTD_LEVEL = 1  # 1.0-1.08x level 3's bytes at ~0.6x its CPU (measured); zstd's table gives it a window of at most 512 KiB
_ZSTD_WINDOW = 1 << 23  # the largest window a reader allows (the decoder holds one)
_ZSTD_FEED = 128  # compressed bytes fed to the zstd decoder at a time: a block takes >= 4 bytes
# (an RLE block: header and byte) and inflates to <= 128 KiB, so one feed yields <= 33 blocks


def frame(payload: bytes) -> bytes:
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


def header_payload(header: dict[str, Any]) -> bytes:
    """A game's header as its first frame holds it: the map packed, with this code's `format`
    unless the header names one."""
    return pack({"format": FORMAT_VERSION, **header})


def frames(payloads: list[bytes]) -> bytes:
    """`b"".join(frame(p) for p in payloads)`, without a copy of each payload (~0.8x its CPU: a
    packed game frames its ~200 records at once)."""
    parts: list[bytes] = []
    add, head, crc = parts.append, _FRAME.pack, zlib.crc32
    for p in payloads:
        add(head(len(p), crc(p)))
        add(p)
    return b"".join(parts)


class LogWriter:
    """Appends frames to a binary file; flushes (and optionally fsyncs) at game end."""

    def __init__(self, out: BinaryIO, fsync: bool = False, write_magic: bool = True):
        self._out = out
        self._fsync = fsync
        if write_magic:
            out.write(MAGIC)

    @classmethod
    def open(cls, path: str | Path, fsync: bool = False) -> "LogWriter":
        return cls(open(path, "wb"), fsync=fsync)

    def header(self, header: dict[str, Any]) -> None:
        self._out.write(frame(header_payload(header)))

    def record(self, payload: bytes) -> None:
        self._out.write(_FRAME.pack(len(payload), zlib.crc32(payload)) + payload)  # frame(payload)

    def end_game(self) -> None:
        self._out.flush()
        if self._fsync:
            os.fsync(self._out.fileno())

    def close(self) -> None:
        self._out.close()


class MemoryLog:
    """One game's log kept in memory and framed once it is whole (`log()`): the same bytes as a
    `LogWriter` over a `BytesIO` (magic, header, records), for a caller that wants the whole game
    or nothing (a game that raises leaves no log to read). A record is kept by the payload list's
    own append, with no Python call, and all are framed at the end in one pass (`frames`)."""

    def __init__(self) -> None:
        self._payloads: list[bytes] = []
        self.record = self._payloads.append  # the sink's `record`: a payload as the bus stamped it

    def header(self, header: dict[str, Any]) -> None:
        self._payloads.append(header_payload(header))

    def log(self) -> bytes:
        """Magic, then every frame: the header's and each record's, in the order they came."""
        return MAGIC + frames(self._payloads)


class PackedLogWriter(LogWriter):
    """Keeps a game's frames in memory and writes them at game end as one packed frame, by
    `method`: "zlib" (the frames, zlib-compressed at `level`), "zstd" (the frames as one
    Zstandard frame, level 1, its content size declared) or "columns" (bus.packed; a game it
    cannot take, for the readers' limits, is packed with zlib).

    A game cut short (a crash before `end_game`) leaves nothing in the file."""

    def __init__(self, out: BinaryIO, fsync: bool = False, write_magic: bool = True, level: int = 1,
                 method: str = PACKED):
        super().__init__(out, fsync=fsync, write_magic=write_magic)
        if method not in METHODS:
            raise ValueError(f"unknown packing {method!r} (one of {', '.join(METHODS)})")
        self._level = level
        self._method = method
        self._zstd = zstandard.ZstdCompressor(level=_ZSTD_LEVEL, write_content_size=True) if method == ZSTD else None
        self._payloads: list[bytes] = []
        # a record is kept as it comes until the game ends: the list's own append, no call of ours
        self.record = self._payloads.append  # type: ignore[method-assign]

    def header(self, header: dict[str, Any]) -> None:
        self._payloads.append(header_payload(header))

    def record(self, payload: bytes) -> None:  # what the instance's `record` does (the list's append)
        self._payloads.append(payload)

    def packed_frame(self, payloads: list[bytes]) -> bytes:
        """The one frame these payloads (a header, then its records) are packed into."""
        if self._zstd is not None:
            return frame(pack({"packed": ZSTD, "data": self._zstd.compress(frames(payloads))}))
        blob = packed.encode(payloads[0], payloads[1:]) if self._method == packed.METHOD else None
        if blob is not None:
            return frame(pack({"packed": packed.METHOD, "data": packed.compress(blob)}))
        return frame(pack({"packed": PACKED, "data": zlib.compress(frames(payloads), self._level)}))

    def end_game(self) -> None:
        payloads = self._payloads
        if payloads:
            self._out.write(self.packed_frame(payloads))
            payloads.clear()  # the same list: `record` appends to it
        super().end_game()


@dataclass
class GameLog:
    """One game as read from a log: header, record maps in seq order, their byte offsets."""

    header: dict[str, Any]
    records: list[dict[str, Any]] = field(default_factory=list)  # decoded: every field whole
    offsets: list[int] = field(default_factory=list)
    payloads: list[bytes] = field(default_factory=list)  # as stored (deltas included)
    codec: RecordCodec = field(default_factory=RecordCodec, repr=False)
    header_offset: int | None = field(default=None, repr=False, compare=False)
    budget: Budget = field(default_factory=lambda: Budget(MAX_GAME_MEMORY), repr=False, compare=False)
    nbytes: int = field(default=0, repr=False, compare=False)  # frame bytes read (a packed game: inflated)
    checked: bool = field(default=False, repr=False, compare=False)  # header and every record checked

    def add(self, record: dict[str, Any], offset: int, payload: bytes) -> None:
        self.records.append(self.codec.decode(record, self.budget))
        self.offsets.append(offset)
        self.payloads.append(payload)

    @property
    def complete(self) -> bool:
        if not self.records:
            return False
        msg = self.records[-1].get("msg")
        return isinstance(msg, dict) and msg.get("kind") == "game_end"

    def check(self) -> None:
        """Raise the first problem of the header or of a record (typed LogError, with its offset
        and seq): what a reader with `check` stops at. Done once per game."""
        if self.checked:
            return
        _checked_header(self.header, self.header_offset)
        last, game_id = -1, self.header["game_id"]
        for i, (record, offset) in enumerate(zip(self.records, self.offsets)):
            if i and _is_end(self.records[i - 1]):
                raise BadRecord(offset, "record after game_end", seq=record.get("seq") if isinstance(record, dict) else None)
            last = check_record(record, offset, last, game_id)
            check_message(record["msg"], offset, last)
        self.checked = True


def _is_end(record: dict[str, Any]) -> bool:
    msg = record.get("msg")
    return isinstance(msg, dict) and msg.get("kind") == "game_end"


def _checked_header(header: Any, offset: int | None) -> None:
    try:
        check_header(header)
    except BadFrame as exc:
        raise exc.at(offset) from None


@dataclass
class LogFile:
    games: list[GameLog]
    bad: BadFrame | None


# --- frames ------------------------------------------------------------------------------------

def _frames(f: BinaryIO, pos: int) -> Iterator[tuple[int, bytes]]:
    """(offset, payload) of every frame of `f` from `pos`; raises a BadFrame at the first bad one."""
    while True:
        head = f.read(_FRAME.size)
        if not head:
            return
        if len(head) < _FRAME.size:
            raise TornFrame(pos, f"torn frame header ({len(head)} of {_FRAME.size} bytes)")
        length, crc = _FRAME.unpack(head)
        if length > MAX_FRAME:
            raise OverLimit(pos, f"frame length {length} exceeds limit ({MAX_FRAME})")
        payload = f.read(length)
        if len(payload) < length:
            raise TornFrame(pos, f"torn tail: frame needs {length} bytes, {len(payload)} left")
        if zlib.crc32(payload) != crc:
            raise ChecksumMismatch(pos, "checksum mismatch")
        yield pos, payload
        pos += _FRAME.size + length


def iter_frames(data: bytes, start: int) -> tuple[list[tuple[int, bytes]], BadFrame | None]:
    """All valid frames from `start`, and the first bad one if the data does not end cleanly."""
    frames: list[tuple[int, bytes]] = []
    stream = io.BytesIO(data)
    stream.seek(start)
    try:
        frames.extend(_frames(stream, start))
    except BadFrame as bad:
        return frames, bad
    return frames, None


_HEADER, _RECORD, _PACKED_GAME = "header", "record", "packed"


def _kind(payload: bytes) -> str:
    """What a payload is, from its first bytes (payloads are canonical: a header's first key is
    "format", a packed game's "packed")."""
    if payload.startswith(b"\x82\xa6packed"):
        return _PACKED_GAME
    first = payload[:1]
    if first and (0x81 <= first[0] <= 0x8F and payload[1:8] == b"\xa6format" or first[0] == 0xDE and payload[3:10] == b"\xa6format"):
        return _HEADER
    return _RECORD


# --- games -------------------------------------------------------------------------------------

class _Enough(Exception):
    """A reader asked for the start of a game only (`until`) has read it: not a BadFrame."""


class _Reader:
    """Builds games from frames in file order, checking each frame as it comes (raises BadFrame)."""

    def __init__(self, check: bool, expect: str | None = None,
                 until: Callable[[dict[str, Any]], bool] | None = None):
        self.check = check
        self.expect = expect  # the game id the index promised (read_game_at)
        self.until = until  # read_game_head: _Enough after the first record (checked) it is true of
        self.games: list[GameLog] = []
        self.open: GameLog | None = None  # the plain game records go to

    def frame(self, offset: int, payload: bytes) -> str:
        """Take one frame; its kind."""
        kind = _kind(payload)
        if kind == _PACKED_GAME:
            self.open = None  # nothing follows a packed game: it holds all of its frames
            self._packed(offset, payload)
        elif kind == _HEADER:
            self.open = self._start(offset, payload)
        elif self.open is None:
            raise BadRecord(offset, "record after a packed game" if self.games else "record before any header")
        else:
            self._record(self.open, offset, payload)
        return kind

    def _start(self, offset: int, payload: bytes) -> GameLog:
        game = GameLog(header={}, header_offset=offset)
        self._count(game, offset, payload)
        item = _map(game.budget, payload, offset)
        version = item.get("format")
        if type(version) is not int or version not in FORMATS:
            raise UnsupportedFormat(offset, f"log format {version!r} not supported (this reads {', '.join(map(str, FORMATS))})")
        if self.check:
            _checked_header(item, offset)
        if self.expect is not None and item.get("game_id") != self.expect:
            raise WrongGame(offset, f"the index points at game {_short(item.get('game_id'))}, not {self.expect!r}")
        game.header = item
        game.codec = RecordCodec(version)
        game.checked = self.check
        self.games.append(game)
        return game

    def _record(self, game: GameLog, offset: int, payload: bytes) -> None:
        self._count(game, offset, payload)
        item = _map(game.budget, payload, offset)
        if not self.check:
            try:
                game.add(item, offset, payload)
            except BadFrame as exc:
                raise exc.at(offset, item.get("seq") if type(item.get("seq")) is int else None) from None
            if self.until is not None and self.until(game.records[-1]):
                raise _Enough
            return
        if game.complete:
            raise BadRecord(offset, "record after game_end", seq=item.get("seq") if type(item.get("seq")) is int else None)
        last = game.records[-1]["seq"] if game.records else -1
        seq = check_record(item, offset, last, game.header["game_id"])
        try:
            record = game.codec.decode(item, game.budget)
        except BadFrame as exc:
            raise exc.at(offset, seq) from None
        check_message(record["msg"], offset, seq)
        game.records.append(record)
        game.offsets.append(offset)
        game.payloads.append(payload)
        if self.until is not None and self.until(record):
            raise _Enough

    @staticmethod
    def _count(game: GameLog, offset: int, payload: bytes) -> None:
        game.nbytes += _FRAME.size + len(payload)
        if game.nbytes > MAX_GAME_BYTES:
            raise OverLimit(offset, f"game is longer than {MAX_GAME_BYTES >> 20} MiB of frames (limit of one game)")
        try:
            game.budget.charge(len(payload) + _FRAME_COST)
        except BadFrame as exc:
            raise exc.at(offset) from None

    def _packed(self, offset: int, payload: bytes) -> None:
        """One packed frame: exactly one game, its frames inflated and read one by one."""
        method, data = _packed_data(offset, payload)
        game: GameLog | None = None
        inner = 0
        try:
            frames = _inflate(data) if method == PACKED else _unzstd(data) if method == ZSTD else _columns(data)
            for inner, framed in frames:
                kind = _kind(framed)
                if game is None:
                    if kind != _HEADER:
                        raise BadPacking(offset, "packed frame does not start with a game's header")
                    game = self._start(offset, framed)
                elif kind != _RECORD:
                    again = kind == _HEADER and _same_game(framed, game)
                    raise WrongGame(offset, f"packed frame holds {'the same game twice' if again else 'more than one game'}")
                else:
                    self._record(game, offset, framed)
        except BadFrame as exc:  # named by the packed frame's offset, and where inside it
            if exc.offset is None or not (exc.reason.startswith("packed") or isinstance(exc, WrongGame)):
                reason = exc.reason if exc.reason.startswith("packed") else f"packed game, its byte {inner}: {exc.reason}"
                raise type(exc)(offset, reason, exc.seq) from None
            raise
        if game is None:
            raise BadPacking(offset, "packed frame holds no game")


def _same_game(payload: bytes, game: GameLog) -> bool:
    try:
        return Budget(MAX_GAME_MEMORY).unpack(payload).get("game_id") == game.header.get("game_id")
    except (BadFrame, AttributeError):
        return False


def _map(budget: Budget, payload: bytes, offset: int) -> dict[str, Any]:
    try:
        item = budget.unpack(payload)
    except BadFrame as exc:
        raise exc.at(offset) from None
    if not isinstance(item, dict):
        raise BadPayload(offset, "payload is not a map")
    return item


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _packed_data(offset: int, payload: bytes) -> tuple[str, memoryview]:
    """The method and compressed bytes of a packed frame laid out exactly as the writer lays it out."""
    method = ""
    if len(payload) > 8 and 0xA0 <= payload[8] <= 0xBF:  # the method, a short string
        method = payload[9 : 9 + (payload[8] & 0x1F)].decode("utf-8", "replace")
    head_bytes = _PACKED_HEADS.get(method)
    if head_bytes is not None and payload.startswith(head_bytes) and len(payload) > len(head_bytes):
        head = len(head_bytes)
        width = {0xC4: 1, 0xC5: 2, 0xC6: 4}.get(payload[head], 0)
        size = int.from_bytes(payload[head + 1 : head + 1 + width], "big") if width else -1
        start = head + 1 + width
        canonical = size < 256 and width == 1 or 256 <= size < 65536 and width == 2 or size >= 65536 and width == 4
        if width and canonical and len(payload) - start == size:
            return method, memoryview(payload)[start:]
    if method and head_bytes is None:
        raise BadPacking(offset, f"unknown packing {_short(method)}")
    raise BadPacking(offset, f"packed frame is not {{'packed': {_short(method or PACKED)}, 'data': <bytes>}} as the writer lays it out")


def _columns(data: memoryview) -> Iterator[tuple[int, bytes]]:
    """(byte in the game as plain frames, payload) of each frame of a "columns" packed game
    (bus.packed), within the same limits as `_inflate`. Raises BadFrame without an offset."""
    blob = packed.inflate(data)
    at = 0
    for payload in packed.decode(blob):
        if len(payload) > MAX_FRAME:
            raise OverLimit(None, f"packed game holds a frame of {len(payload)} bytes at its byte {at}")
        yield at, payload
        at += _FRAME.size + len(payload)
        if at > MAX_GAME_BYTES:
            raise OverLimit(None, f"packed game inflates past {MAX_GAME_BYTES >> 20} MiB (limit of one game)")


def _inflate(data: memoryview) -> Iterator[tuple[int, bytes]]:
    """(byte in the inflated game, payload) of each frame inside a zlib-packed game, inflated a
    chunk at a time: never more than MAX_GAME_BYTES, never a frame over MAX_FRAME. Raises BadFrame
    (without an offset: the caller's is the packed frame's)."""
    return _split(_zlib_chunks(data))


def _unzstd(data: memoryview) -> Iterator[tuple[int, bytes]]:
    """The same of a zstd-packed game: one Zstandard frame, its content size declared (as the
    writer makes it) and within MAX_GAME_BYTES, no dictionary, a window within _ZSTD_WINDOW,
    nothing after it; fed _ZSTD_FEED bytes at a time, so what one feed inflates to is bounded."""
    return _split(_zstd_chunks(data))


def _zlib_chunks(data: memoryview) -> Iterator[bytes]:
    inflater = zlib.decompressobj()
    fed = 0  # compressed bytes fed
    while not inflater.eof:
        chunk = inflater.unconsumed_tail
        if not chunk:
            if fed >= len(data):
                raise BadPacking(None, "compressed data ends before its stream does")
            chunk, fed = data[fed : fed + _IN_CHUNK], fed + _IN_CHUNK
        try:
            out = inflater.decompress(chunk, _OUT_CHUNK)
        except zlib.error as exc:
            raise BadPacking(None, f"packed game does not decompress ({exc})") from None
        yield out
    if inflater.unused_data or fed < len(data):
        raise BadPacking(None, "packed frame has bytes after its compressed stream")


def _zstd_chunks(data: memoryview) -> Iterator[bytes]:
    try:
        params = zstandard.get_frame_parameters(data)
    except zstandard.ZstdError as exc:
        raise BadPacking(None, f"packed game does not decompress ({exc})") from None
    size = params.content_size
    if size == zstandard.CONTENTSIZE_UNKNOWN:
        raise BadPacking(None, "packed game's zstd frame does not declare its size")
    if size > MAX_GAME_BYTES:
        raise OverLimit(None, f"packed game declares {size} bytes, past {MAX_GAME_BYTES >> 20} MiB (limit of one game)")
    if params.dict_id:
        raise BadPacking(None, f"packed game's zstd frame needs dictionary {params.dict_id} (none is used)")
    if params.window_size > _ZSTD_WINDOW:
        raise OverLimit(None, f"packed game's zstd window of {params.window_size} bytes is past {_ZSTD_WINDOW >> 20} MiB")
    # a decoder of its own (a ZstdDecompressor's context is not to be shared by two reads at once)
    decoder = zstandard.ZstdDecompressor(max_window_size=_ZSTD_WINDOW).decompressobj()
    fed = total = 0
    while not decoder.eof:
        if fed >= len(data):
            raise BadPacking(None, "compressed data ends before its stream does")
        chunk, fed = data[fed : fed + _ZSTD_FEED], fed + _ZSTD_FEED
        try:
            out = decoder.decompress(chunk)
        except zstandard.ZstdError as exc:
            raise BadPacking(None, f"packed game does not decompress ({exc})") from None
        total += len(out)
        if total > size:  # the decoder checks it at the end; stop at once
            raise BadPacking(None, f"packed game inflates past the {size} bytes it declares")
        if out:
            yield out
    if decoder.unused_data or fed < len(data):
        raise BadPacking(None, "packed frame has bytes after its compressed stream")
    if total != size:
        raise BadPacking(None, f"packed game inflates to {total} bytes, not the {size} it declares")


def _split(chunks: Iterator[bytes]) -> Iterator[tuple[int, bytes]]:
    """(byte in the inflated game, payload) of each frame in a packed game's inflated chunks."""
    buf = bytearray()
    base = total = 0  # inflated byte at buf[0]; bytes inflated
    for out in chunks:
        total += len(out)
        if total > MAX_GAME_BYTES:
            raise OverLimit(None, f"packed game inflates past {MAX_GAME_BYTES >> 20} MiB (limit of one game)")
        buf += out
        pos = 0
        while len(buf) - pos >= _FRAME.size:
            length, crc = _FRAME.unpack_from(buf, pos)
            if length > MAX_FRAME:
                raise OverLimit(None, f"packed game holds a frame of {length} bytes at its byte {base + pos}")
            if len(buf) - pos - _FRAME.size < length:
                break
            payload = bytes(buf[pos + _FRAME.size : pos + _FRAME.size + length])
            if zlib.crc32(payload) != crc:
                raise BadPacking(None, f"packed game holds a bad frame at its byte {base + pos}: checksum mismatch")
            yield base + pos, payload
            pos += _FRAME.size + length
        del buf[:pos]
        base += pos
    if buf:
        raise BadPacking(None, f"packed game holds a bad frame at its byte {base}: torn ({len(buf)} bytes)")


# --- reading files -------------------------------------------------------------------------------

def _read(f: BinaryIO, check: bool) -> LogFile:
    if f.read(len(MAGIC)) != MAGIC:
        raise NotALog("not a detente log (bad magic)")
    reader = _Reader(check)
    try:
        for offset, payload in _frames(f, len(MAGIC)):
            reader.frame(offset, payload)
    except BadFrame as bad:
        return LogFile(games=reader.games, bad=bad)
    return LogFile(games=reader.games, bad=None)


def parse_log(data: bytes, check: bool = False) -> LogFile:
    """Parse a whole log held in memory. Raises LogError if it is not a detente log. `check`:
    also the typed header and records (see the module doc); off by default for bytes our own
    writer just made, on for `read_log`."""
    return _read(io.BytesIO(data), check)


def _open(path: str | Path, what: str) -> BinaryIO:
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise LogError(f"no such {what}: {path}") from None
    except IsADirectoryError:
        raise LogError(f"{path} is a directory, not a {what}") from None
    except OSError as exc:
        raise LogError(f"cannot read {path}: {exc.strerror}") from None


def read_log(path: str | Path, check: bool = True) -> LogFile:
    """Read a log file, checked. Raises LogError for a missing, unreadable or foreign file."""
    with _open(path, "log file") as f:
        try:
            return _read(f, check)
        except OSError as exc:
            raise LogError(f"cannot read {path}: {exc.strerror}") from None


def read_game_at(path: str | Path, offset: int, game_id: str | None = None,
                 check: bool = True) -> tuple[GameLog, BadFrame | None]:
    """The one game whose header frame starts at `offset` of a segment file (index lookups).
    With `game_id`, the frame there must be that game's (WrongGame otherwise). Raises LogError
    when no game can be had there; returns the game and the first bad frame if it stops early."""
    with _open(path, "log segment") as f:
        try:
            return _game_at(f, Path(path).name, offset, game_id, check)
        except OSError as exc:
            raise LogError(f"cannot read {path}: {exc.strerror}") from None


def read_game_head(path: str | Path, offset: int, until: Callable[[dict[str, Any]], bool],
                   game_id: str | None = None) -> tuple[GameLog, BadFrame | None]:
    """The start of the game at `offset`, found and checked exactly as `read_game_at` finds and
    checks it, read up to and including its first record `until(record)` is true of (all of the
    game if none is). For showing a long game's start before the rest is read: the records are a
    checked prefix; the frames after them are not read, so a bad one there is not reported (the
    returned BadFrame is one met before `until` was)."""
    with _open(path, "log file") as f:
        try:
            return _game_at(f, Path(path).name, offset, game_id, True, until)
        except OSError as exc:
            raise LogError(f"cannot read {path}: {exc.strerror}") from None


def _game_at(f: BinaryIO, name: str, offset: int, game_id: str | None, check: bool,
             until: Callable[[dict[str, Any]], bool] | None = None) -> tuple[GameLog, BadFrame | None]:
    if f.read(len(MAGIC)) != MAGIC:
        raise NotALog(f"{name}: not a detente log segment (bad magic)")
    if type(offset) is not int or offset < len(MAGIC):
        raise WrongGame(None, f"{name}: offset {offset} is not the start of a game")
    f.seek(offset)
    reader = _Reader(check, expect=game_id, until=until)
    pos = offset
    try:
        for pos, payload in _frames(f, offset):
            kind = _kind(payload)
            if not reader.games and kind == _RECORD:
                raise WrongGame(pos, f"{name}: offset {offset} is not the start of a game")
            if reader.games and kind != _RECORD:
                return reader.games[0], BadFrame(pos, "next game starts before game_end")
            reader.frame(pos, payload)
            game = reader.games[0]
            if kind == _PACKED_GAME:
                return game, None if game.complete else BadFrame(pos, "packed game ends before game_end")
            if game.complete:
                return game, None
    except _Enough:  # read_game_head: the start asked for is read (and checked)
        return reader.games[0], None
    except BadFrame as bad:
        if not reader.games:
            raise type(bad)(bad.offset, f"{bad.reason} (in {name})" if name not in bad.reason else bad.reason, bad.seq) from None
        return reader.games[0], bad
    if not reader.games:
        raise LogError(f"{name}: no game at offset {offset}")
    return reader.games[0], BadFrame(pos, "segment ends before game_end")


# --- a game id held twice --------------------------------------------------------------------------

class DuplicateGame(WrongGame):
    """A log or a segment holding the same game id more than once (a frame duplicated, two copies
    concatenated, a packed game written twice): readers name every copy and pick none."""

    def __init__(self, name: str, game_id: Any, offsets: list[int]):
        self.name, self.game_id, self.offsets = name, game_id, list(offsets)
        where = ", ".join(str(o) for o in offsets)
        super().__init__(offsets[-1], f"{name} holds game {_short(game_id)} {len(offsets)} times "
                                      f"(headers at byte offsets {where}): no copy is picked")

    def __str__(self) -> str:
        return self.reason


def duplicates(placed: list[tuple[Any, int | None]]) -> dict[str, list[int]]:
    """Of (game id, header offset) pairs in file order: every game id held more than once, with
    the offsets of all its copies (ids in the order of their first copy)."""
    seen: dict[str, list[int]] = {}
    for game_id, offset in placed:
        seen.setdefault(str(game_id), []).append(-1 if offset is None else offset)
    return {gid: offsets for gid, offsets in seen.items() if len(offsets) > 1}


def duplicate_in(name: str, games: list[GameLog], game_id: str | None = None) -> DuplicateGame | None:
    """The DuplicateGame of `games` (read from the file `name`): of `game_id` when given, else of
    the first id held twice; None when there is none."""
    found = duplicates([(g.header.get("game_id"), g.header_offset) for g in games])
    if game_id is not None:
        found = {k: v for k, v in found.items() if k == str(game_id)}
    for gid, offsets in found.items():
        return DuplicateGame(name, gid, offsets)
    return None


def game_offsets(path: str | Path) -> tuple[list[tuple[Any, int]], BadFrame | None]:
    """(game id, header offset) of every game of a log or segment file, from its header frames
    alone (a packed game: its first inner frame; records are not decoded): the cheap scan that
    finds a game id held twice. Stops at the first bad frame (returned)."""
    with _open(path, "log file") as f:
        try:
            return _game_offsets(f, Path(path).name)
        except OSError as exc:
            raise LogError(f"cannot read {path}: {exc.strerror}") from None


def parse_game_offsets(data: bytes) -> tuple[list[tuple[Any, int]], BadFrame | None]:
    """`game_offsets` of a log held in memory."""
    return _game_offsets(io.BytesIO(data), "log")


def _game_offsets(f: BinaryIO, name: str) -> tuple[list[tuple[Any, int]], BadFrame | None]:
    placed: list[tuple[Any, int]] = []
    if f.read(len(MAGIC)) != MAGIC:
        raise NotALog(f"{name}: not a detente log (bad magic)")
    try:
        for offset, payload in _frames(f, len(MAGIC)):
            kind = _kind(payload)
            if kind == _RECORD:
                continue
            if kind == _PACKED_GAME:
                method, data = _packed_data(offset, payload)
                frames = _inflate(data) if method == PACKED else _unzstd(data) if method == ZSTD else _columns(data)
                try:
                    payload = next(iter(frames))[1]
                except StopIteration:
                    raise BadPacking(offset, "packed frame holds no game") from None
                except BadFrame as exc:
                    raise type(exc)(offset, exc.reason, exc.seq) from None
            item = _map(Budget(MAX_GAME_MEMORY), payload, offset)
            placed.append((item.get("game_id"), offset))
    except BadFrame as bad:
        return placed, bad
    return placed, None
