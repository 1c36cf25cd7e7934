"""Reading a Diplomacy observation back into a `Board` (the position is public)."""

from __future__ import annotations

from typing import Any

from games.diplomacy.board import Board


def board_from_observation(obs: dict[str, Any]) -> Board:
    """The board of an observation (`games.diplomacy.rules.DiplomacyState.observation`)."""
    phase = obs["phase"]
    board = Board(int(phase[1:5]), phase[0], phase[5])
    for power, units in sorted(obs["units"].items()):
        for unit in units:
            utype, loc = unit.split()
            board.units[loc[:3]] = (power, utype, loc)
    board.centres = {c: power for power, cs in sorted(obs["centres"].items()) for c in cs}
    for power, dislodged in sorted(obs.get("dislodged", {}).items()):
        for unit, options in sorted(dislodged.items()):
            utype, loc = unit.split()
            board.dislodged[loc[:3]] = (power, utype, loc, tuple(options))
    return board


def nothing_to_plan(obs: dict) -> bool:
    """True when a planning Strategy Office has no movement orders to plan for this power now."""
    return bool(obs.get("over")) or obs["phase"][5] != "M" or not obs["units"].get(obs["power"])
