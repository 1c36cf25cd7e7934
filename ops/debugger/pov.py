"""Point of view: what one seat observed of a logged game, decided on the server from the log.

The rule (the only one; every answer for a seat goes through it):
- a record is observed by seat N when N's President (`pN`) or one of its offices (`pN/...`) sent
  it or is its recipient: the act requests and talk turns it was sent (with their observations),
  the talk it heard, its own acts and talk, its offices' traffic and its own KB changes;
- and the error records about N's own actors (what N did wrong and the default applied);
- nothing else: not the referee's step, chance and talk-round records, not other seats' traffic,
  not the game_end record (whose roles may name what N never saw);
- the board for N is the game's own renderer asked for N's view (`board(state, N)`), drawn on the
  server, and the belief series are N's own Intelligence Office's;
- and of the records N did not observe, an answer for N names nothing, not even their seqs (a
  cause, a phase mark, a deal event, a position: game.py says how each is placed on N's records),
  nor the seed (which replays every hidden card and role).
"""

from __future__ import annotations

from typing import Any

from actors.address import seat_of


def observed(record: dict[str, Any], seat: int | None) -> bool:
    """Whether seat `seat` observed `record` (None: the omniscient view observes everything)."""
    if seat is None:
        return True
    msg = record.get("msg")
    if not isinstance(msg, dict):
        return False
    if _seat(msg.get("sender")) == seat or _seat(msg.get("to")) == seat:
        return True
    return msg.get("kind") == "error" and _seat(msg.get("actor")) == seat


def _seat(address: Any) -> int | None:
    return seat_of(address) if isinstance(address, str) else None
