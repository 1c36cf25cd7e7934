"""Dominoes' course and beliefs as numbers: the pairs' scores, and what each Intelligence Office
holds of the other seats (numbers known lacking; for the Alpha pair, the expected pips in hand)."""

from __future__ import annotations

from typing import Any

from games.api import State
from games.dominoes.tiles import INDEX, PIPS

LACKED = "numbers lacked"
PIPS_HELD = "expected pips"


def scores(state: State) -> dict[str, float] | None:
    """The pairs' points so far."""
    s0, s1 = state.scores()
    return {"pair 0&2": s0, "pair 1&3": s1}


def beliefs(msg: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(subject, quantity, value) of one Intelligence Office update of a Dominoes agent."""
    points: list[tuple[str, str, float]] = []
    for update in msg["updates"]:
        if list(update["path"]) != ["beliefs"] or not isinstance(update["value"], dict):
            continue
        value = update["value"]
        seats = sorted(set(value.get("lacks", {})) | set(value.get("tiles", {})))
        for seat in seats:
            points.append((seat, LACKED, float(len(value.get("lacks", {}).get(seat, ())))))
        for seat, tiles in sorted(value.get("tiles", {}).items()):
            points.append((seat, PIPS_HELD, round(sum(p * PIPS[INDEX[t]] for t, p in sorted(tiles.items())), 3)))
    return points
