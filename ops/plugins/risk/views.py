"""Risk's course and beliefs as numbers: territories and armies per player, and what each
Intelligence Office believes of the others (strength, aggression)."""

from __future__ import annotations

from typing import Any

from actors.address import player_address
from games.api import State

STRENGTH, AGGRESSION = "strength", "aggression"  # their scales: the plugin's `quantities`


def _seats(data: dict[str, Any]) -> list[tuple[str, int]]:
    out = [(f"p{s}", s) for s in range(data["options"]["players"])]
    if data["options"]["players"] == 2:
        out.append(("neutral", 2))
    return out


def territories(state: State) -> dict[str, float] | None:
    """Territories held per player (and the neutral), once the board is claimed."""
    data = state.to_json()
    if -1 in data["owner"]:
        return None
    return {label: float(data["owner"].count(s)) for label, s in _seats(data)}


def armies(state: State) -> dict[str, float] | None:
    """Armies on the board per player (and the neutral)."""
    data = state.to_json()
    if -1 in data["owner"]:
        return None
    return {label: float(sum(a for a, o in zip(data["armies"], data["owner"]) if o == s))
            for label, s in _seats(data)}


def beliefs(msg: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(subject, quantity, value) of one Intelligence Office update: strength and aggression per seat."""
    points: list[tuple[str, str, float]] = []
    for update in msg["updates"]:
        if tuple(update["path"]) == ("beliefs",) and update["value"]:
            for seat, model in sorted(update["value"].items(), key=lambda kv: int(kv[0])):
                points += [(player_address(int(seat)), q, float(model[q])) for q in (STRENGTH, AGGRESSION) if q in model]
    return points
