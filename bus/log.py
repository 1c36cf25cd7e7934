"""The append-only event log: a magic line, then frames `[length u32][crc32 u32][msgpack payload]`.

The first frame of a game is its header (a map with "format"); then its records; a game ends
with its `game_end` record. A file may hold several games one after another (segments). A reader
stops at the first bad frame (torn tail or checksum mismatch) and reports the byte offset; the
valid prefix stays readable.
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
    games: list[GameLog] = []
    for offset, payload in frames:
        try:
            item = unpack(payload)
        except Exception as exc:  # a frame whose checksum matched but whose payload is not msgpack
            bad = BadFrame(offset, f"undecodable payload ({type(exc).__name__})")
            break
        if not isinstance(item, dict):
            bad = BadFrame(offset, "payload is not a map")
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


def _need(game: GameLog | None, path: str | Path, offset: int) -> GameLog:
    if game is None:
        raise LogError(f"{path}: no game at offset {offset}")
    return game
