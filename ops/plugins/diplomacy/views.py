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


# where a phase starts within its year, for charts whose x-axis is the game's phases
_SEASON = {("S", "M"): 0.0, ("S", "R"): 0.25, ("F", "M"): 0.5, ("F", "R"): 0.65, ("W", "A"): 0.8}


def phase_x(state: State) -> float:
    """The phase the state stands at as a number: S1901M -> 1901.0, F1901M -> 1901.5, W1901A -> 1901.8."""
    phase = state.observation(0)["phase"]  # e.g. "F1901M"; a finished game stands at its next phase
    return int(phase[1:5]) + _SEASON.get((phase[0], phase[-1]), 0.0)
