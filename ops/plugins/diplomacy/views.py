"""Diplomacy's course and beliefs as numbers: supply centres per power, and each Alpha player's
trust ratio in every other power after each Intelligence Office update."""

from __future__ import annotations

from typing import Any

from games.api import State

TRUST_RATIO = "trust ratio"


def beliefs(msg: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(power, quantity, value) of one IO update: DipBlue's / AlphaDip's trust ratio per power."""
    for update in msg["updates"]:
        if tuple(update["path"]) == ("trust",) and update["value"]:
            return [(power, TRUST_RATIO, float(t)) for power, t in sorted(update["value"].items())]
    return []


def centres(state: State) -> dict[str, float] | None:
    """Supply centres held by each power."""
    obs = state.observation(0)  # public part: the board
    return {power: len(obs["centres"].get(power, ())) for power in obs["powers"]}
