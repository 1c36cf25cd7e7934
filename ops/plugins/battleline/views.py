"""Battle Line's course and beliefs as numbers: flags claimed and decks left after every step, and
what Deep Barca's Intelligence Office (ours) reads of the opponent's hand after every update."""

from __future__ import annotations

from typing import Any

from actors.address import player_address, seat_of
from games.api import State

# 1 - H(beliefs) / H(even prior) over the unseen troops (actors/battleline/intelligence.py):
# 0 knows nothing beyond the counts, 1 knows the opponent's hand exactly.
INFORMATION = "hand information"


def beliefs(msg: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(subject, quantity, value) of one Intelligence Office update: its information on the
    opponent's hand, the subject being the opponent."""
    seat = seat_of(msg["sender"])
    if seat is None:
        return []
    return [(player_address(1 - seat), INFORMATION, float(u["value"]["information"]))
            for u in msg["updates"] if tuple(u["path"]) == ("beliefs",) and u["value"]]


def course(state: State) -> dict[str, float] | None:
    """Flags claimed by each seat, and the troop and tactics cards left in the decks."""
    data = state.to_json()
    claimed = [fl["claimed"] for fl in data["flags"]]
    return {"p0 flags": claimed.count(0), "p1 flags": claimed.count(1),
            "troop deck": len(data["decks"]["troops"]), "tactics deck": len(data["decks"]["tactics"])}
