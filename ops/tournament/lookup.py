"""Where each recorded game lies, in a file a reader can seek without opening the store.

Opening a DuckDB file costs ~20 ms of CPU (measured with duckdb 2.0.1, whatever the store's
size) before any query, which alone misses a 20 ms budget for loading one game by id. So beside
the store lie two plain files: DIR/lookup.slots, one 16-byte slot per game index (the segment's
number + 1, 0 for none; the game's bytes; its offset), and DIR/lookup.segments, the segment names
one a line (number n is line n + 1). A lookup is one `pread` of a slot and a read of the names.

The store stays the truth. The slots are written after the store's commit (`Store.add`, and
`compact` rewrites them all after repointing), by the one process that holds the store for
writing; readers take no lock. A slot is a hint: `load_game` takes the game it points at only if
it is whole and is the game asked for (`read_game_at(game_id=...)`), and otherwise (no slot, a
torn or stale one, a store made before the slots) asks the store's index.
"""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Iterable
from pathlib import Path

SLOTS = "lookup.slots"
NAMES = "lookup.segments"
SLOT = struct.Struct("<IIQ")  # segment number + 1 (0: empty), bytes, offset
_GAME_ID = re.compile(r"g(\d{8,10})")  # ops.tournament.spec.game_id: g%08d


def index_of(game_id: str) -> int | None:
    """The game index a tournament game id names (None for any other id)."""
    match = _GAME_ID.fullmatch(game_id)
    return int(match.group(1)) if match else None


def write_slots(out: str | Path, rows: Iterable[tuple[int, str, int, int]]) -> None:
    """Record where games lie: rows of (game index, segment, offset, bytes). The writer of the
    store calls this after its commit; a failure (a full disk) leaves slots missing or stale,
    which readers notice and pass over, so it is not raised."""
    out = Path(out)
    try:
        _drop_torn_name(out)
        names = _names(out)
        number = {name: i for i, name in enumerate(names)}
        new = sorted({segment for _, segment, _, _ in rows if segment not in number})
        if new:
            with open(out / NAMES, "a", encoding="utf-8") as f:  # the names before any slot naming them
                f.write("".join(f"{name}\n" for name in new))
            number.update({name: len(names) + i for i, name in enumerate(new)})
        fd = os.open(out / SLOTS, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            for idx, segment, offset, nbytes in sorted(rows):
                os.pwrite(fd, SLOT.pack(number[segment] + 1, nbytes, offset), idx * SLOT.size)
        finally:
            os.close(fd)
    except (OSError, ValueError, struct.error):
        pass


def clear_slots(out: str | Path) -> None:
    """Remove the slots (before writing them all again)."""
    for name in (SLOTS, NAMES):
        try:
            os.unlink(Path(out) / name)
        except FileNotFoundError:
            pass


def find(out: str | Path, game_id: str) -> tuple[str, int] | None:
    """(segment, offset) the slot of `game_id` names, or None; to be checked by reading it."""
    idx = index_of(game_id)
    if idx is None:
        return None
    try:
        with open(Path(out) / SLOTS, "rb") as f:
            raw = os.pread(f.fileno(), SLOT.size, idx * SLOT.size)
    except OSError:
        return None
    if len(raw) < SLOT.size:
        return None
    number, _, offset = SLOT.unpack(raw)
    names = _names(Path(out)) if number else []
    return (names[number - 1], offset) if 0 < number <= len(names) else None


def _drop_torn_name(out: Path) -> None:
    """A name written without its newline (the writer stopped there) is cut off, so the next
    names start on their own lines."""
    try:
        with open(out / NAMES, "r+b") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)
    except FileNotFoundError:
        pass


def _names(out: Path) -> list[str]:
    try:
        text = (out / NAMES).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    lines = text.split("\n")
    return lines[:-1]  # a line without its newline is torn: not a name yet
