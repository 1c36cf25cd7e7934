"""The append-only event log: a magic line, then frames `[length u32][crc32 u32][msgpack payload]`.

The first frame of a game is its header (a map with "format"); then its records; a game ends
with its `game_end` record. A file may hold several games one after another (segments). A reader
stops at the first bad frame (torn tail or checksum mismatch) and reports the byte offset; the
valid prefix stays readable.

A game may also be stored packed: one frame whose payload is the map {"packed": "zlib", "data":
<the game's frames, zlib-compressed>} (`PackedLogWriter`, used by tournament segments). The frames
inside are exactly those a plain writer would have written, so readers hand out the same headers,
records and payloads either way; a packed game's records all carry the offset of its one frame.
The same observation stored once per recipient (seven players and their offices) compresses
away: a long negotiation game packs to about a sixth of its bytes, a random game of few talkers ~5x (README figures).
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from bus.codec import FORMAT_VERSION, RecordCodec, pack, unpack

MAGIC = b"DETENTE-LOG\n"
_FRAME = struct.Struct("<II")
MAX_FRAME = 64 * 1024 * 1024
PACKED = "zlib"  # the one packing method: a game's frames, zlib-compressed


class LogError(Exception):
    """A log that cannot be read at all (missing, not a detente log)."""


def frame(payload: bytes) -> bytes:
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


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
        self._out.write(frame(pack({"format": FORMAT_VERSION, **header})))

    def record(self, payload: bytes) -> None:
        self._out.write(frame(payload))

    def end_game(self) -> None:
        self._out.flush()
        if self._fsync:
            os.fsync(self._out.fileno())

    def close(self) -> None:
        self._out.close()


class PackedLogWriter(LogWriter):
    """Keeps a game's frames in memory and writes them at game end as one packed frame.

    A game cut short (a crash before `end_game`) leaves nothing in the file."""

    def __init__(self, out: BinaryIO, fsync: bool = False, write_magic: bool = True, level: int = 1):
        super().__init__(out, fsync=fsync, write_magic=write_magic)
        self._level = level
        self._frames: list[bytes] = []

    def header(self, header: dict[str, Any]) -> None:
        self._frames.append(frame(pack({"format": FORMAT_VERSION, **header})))

    def record(self, payload: bytes) -> None:
        self._frames.append(frame(payload))

    def end_game(self) -> None:
        if self._frames:
            data = zlib.compress(b"".join(self._frames), self._level)
            self._frames = []
            self._out.write(frame(pack({"packed": PACKED, "data": data})))
        super().end_game()


@dataclass
class BadFrame:
    """Where and why reading stopped."""

    offset: int
    reason: str

    def __str__(self) -> str:
        return f"bad frame at byte offset {self.offset}: {self.reason}"


@dataclass
class GameLog:
    """One game as read from a log: header, record maps in seq order, their byte offsets."""

    header: dict[str, Any]
    records: list[dict[str, Any]] = field(default_factory=list)  # decoded: every field whole
    offsets: list[int] = field(default_factory=list)
    payloads: list[bytes] = field(default_factory=list)  # as stored (deltas included)
    codec: RecordCodec = field(default_factory=RecordCodec, repr=False)

    def add(self, record: dict[str, Any], offset: int, payload: bytes) -> None:
        self.records.append(self.codec.decode(record))
        self.offsets.append(offset)
        self.payloads.append(payload)

    @property
    def complete(self) -> bool:
        return bool(self.records) and self.records[-1]["msg"]["kind"] == "game_end"


@dataclass
class LogFile:
    games: list[GameLog]
    bad: BadFrame | None


def iter_frames(data: bytes, start: int) -> tuple[list[tuple[int, bytes]], BadFrame | None]:
    """All valid frames from `start`, and the first bad one if the data does not end cleanly."""
    frames: list[tuple[int, bytes]] = []
    pos, end = start, len(data)
    while pos < end:
        if end - pos < _FRAME.size:
            return frames, BadFrame(pos, f"torn frame header ({end - pos} of {_FRAME.size} bytes)")
        length, crc = _FRAME.unpack_from(data, pos)
        if length > MAX_FRAME:
            return frames, BadFrame(pos, f"frame length {length} exceeds limit")
        body = pos + _FRAME.size
        if body + length > end:
            return frames, BadFrame(pos, f"torn tail: frame needs {length} bytes, {end - body} left")
        payload = data[body : body + length]
        if zlib.crc32(payload) != crc:
            return frames, BadFrame(pos, "checksum mismatch")
        frames.append((pos, payload))
        pos = body + length
    return frames, None


def parse_log(data: bytes) -> LogFile:
    """Parse a whole log held in memory. Raises LogError if it is not a detente log."""
    if not data.startswith(MAGIC):
        raise LogError("not a detente log (bad magic)")
    frames, bad = iter_frames(data, len(MAGIC))
    log = _collect(frames)
    return LogFile(games=log.games, bad=log.bad or bad)


def _collect(frames: list[tuple[int, bytes]]) -> LogFile:
    """The games the frames hold, and the first frame that is not a valid header or record."""
    games: list[GameLog] = []
    bad = None
    for offset, payload, item in _items(frames):
        if isinstance(item, BadFrame):
            bad = item
            break
        if "format" in item:
            if item["format"] != FORMAT_VERSION:
                raise LogError(f"log format {item['format']} not supported (this is {FORMAT_VERSION})")
            games.append(GameLog(header=item))
        elif not games:
            bad = BadFrame(offset, "record before any header")
            break
        else:
            games[-1].add(item, offset, payload)
    return LogFile(games=games, bad=bad)


def _items(frames: list[tuple[int, bytes]]):
    """(offset, payload, map) for every record and header, packed games unpacked in place; a
    `BadFrame` in the map's place for the first frame that is not a valid map."""
    for offset, payload in frames:
        try:
            item = unpack(payload)
        except Exception as exc:  # a frame whose checksum matched but whose payload is not msgpack
            yield offset, payload, BadFrame(offset, f"undecodable payload ({type(exc).__name__})")
            return
        if not isinstance(item, dict):
            yield offset, payload, BadFrame(offset, "payload is not a map")
            return
        if "packed" not in item:
            yield offset, payload, item
            continue
        inner, why = _unpack_game(item)
        if why is not None:
            yield offset, payload, BadFrame(offset, why)
            return
        for _, inner_payload in inner:
            try:
                inner_item = unpack(inner_payload)
            except Exception as exc:
                yield offset, payload, BadFrame(offset, f"packed game holds an undecodable payload ({type(exc).__name__})")
                return
            yield offset, inner_payload, inner_item


def _unpack_game(item: dict[str, Any]) -> tuple[list[tuple[int, bytes]], str | None]:
    """The frames inside a packed game, or the reason they cannot be had."""
    if item.get("packed") != PACKED or not isinstance(item.get("data"), bytes):
        return [], f"unknown packing {item.get('packed')!r}"
    try:
        data = zlib.decompress(item["data"])
    except zlib.error as exc:
        return [], f"packed game does not decompress ({exc})"
    inner, bad = iter_frames(data, 0)
    if bad is not None:
        return [], f"packed game holds a bad frame at its byte {bad.offset}: {bad.reason}"
    return inner, None


def read_log(path: str | Path) -> LogFile:
    """Read a log file. Raises LogError for a missing, unreadable or foreign file."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise LogError(f"no such log file: {path}") from None
    except IsADirectoryError:
        raise LogError(f"{path} is a directory, not a log file") from None
    except OSError as exc:
        raise LogError(f"cannot read {path}: {exc.strerror}") from None
    return parse_log(data)


def read_game_at(path: str | Path, offset: int) -> tuple[GameLog, BadFrame | None]:
    """The one game whose header frame starts at `offset` of a segment file (index lookups)."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        raise LogError(f"no such log segment: {path}") from None
    with f:
        f.seek(offset)
        game: GameLog | None = None
        pos = offset
        while True:
            head = f.read(_FRAME.size)
            if not head:
                return _need(game, path, offset), BadFrame(pos, "segment ends before game_end")
            if len(head) < _FRAME.size:
                return _need(game, path, offset), BadFrame(pos, "torn frame header")
            length, crc = _FRAME.unpack(head)
            payload = f.read(length) if length <= MAX_FRAME else b""
            if len(payload) != length or zlib.crc32(payload) != crc:
                return _need(game, path, offset), BadFrame(pos, "torn tail or checksum mismatch")
            item = unpack(payload)
            if "packed" in item:
                if game is not None:
                    return game, BadFrame(pos, "next game starts before game_end")
                return _packed_game(path, offset, pos, payload)
            if "format" in item:
                if game is not None:
                    return game, BadFrame(pos, "next game starts before game_end")
                game = GameLog(header=item)
            elif game is None:
                raise LogError(f"{path}: offset {offset} is not the start of a game")
            else:
                game.add(item, pos, payload)
                if item["msg"]["kind"] == "game_end":
                    return game, None
            pos += _FRAME.size + length


def _packed_game(path: str | Path, offset: int, pos: int, payload: bytes) -> tuple[GameLog, BadFrame | None]:
    log = _collect([(pos, payload)])
    if log.bad is not None and not log.games:
        raise LogError(f"{path}: the packed game at offset {offset} is unreadable: {log.bad.reason}")
    if len(log.games) != 1:
        raise LogError(f"{path}: the packed frame at offset {offset} holds {len(log.games)} games, not one")
    game = log.games[0]
    if log.bad is None and not game.complete:
        return game, BadFrame(pos, "packed game ends before game_end")
    return game, log.bad


def _need(game: GameLog | None, path: str | Path, offset: int) -> GameLog:
    if game is None:
        raise LogError(f"{path}: no game at offset {offset}")
    return game
