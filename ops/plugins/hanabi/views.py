"""Hanabi's course and beliefs as numbers: score, hint tokens and lives after every step, and what
the Alpha agent's Intelligence Office holds of its own hand after every update."""

from __future__ import annotations

from typing import Any

from games.api import State

# The Alpha IO (actors/hanabi/offices.py) writes `beliefs`: own slot -> the card identities still
# possible there (hints, counting, the hint protocol). 1 is a card known exactly; 25 knows nothing.
CANDIDATES = "candidates"  # its scale: the plugin's `quantities`


def beliefs(msg: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(subject, quantity, value) of one Intelligence Office update: for each own slot ("slot 0",
    ...), the number of identities the Alpha IO still holds possible there. Self-estimation's IO
    writes one guessed card per slot, not candidates: it has no such number, so none is read."""
    points: list[tuple[str, str, float]] = []
    for update in msg["updates"]:
        value = update["value"]
        if list(update["path"]) != ["beliefs"] or not isinstance(value, dict):
            continue
        for slot, cards in sorted(value.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else 1 << 30):
            if isinstance(cards, list):
                points.append((f"slot {slot}", CANDIDATES, float(len(cards))))
    return points


def course(state: State) -> dict[str, float] | None:
    """Score (cards on the fireworks), hint tokens and lives left."""
    data = state.to_json()
    return {"score": sum(data["fireworks"]), "hint tokens": data["hints"], "lives": data["lives"]}
