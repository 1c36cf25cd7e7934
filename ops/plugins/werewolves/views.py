"""Werewolves' course and beliefs as numbers: living players by side, and what each AlphaWolf
Intelligence Office believes of the others after every update."""

from __future__ import annotations

from typing import Any

from actors.address import player_address
from games.api import State

# AlphaWolf's trust (thesis 5.2.4): 0 none, 1 neutral (the neutral `trust` trait), capped at
# WolfParams.trust_max = 2 (ours). Declared as its own quantity, not the shared 0..1 scale.
TRUST = "trust"
WEREWOLF = "P(werewolf)"


def beliefs(msg: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(subject, quantity, value) of one Intelligence Office KB update: trust and P(werewolf) per seat."""
    points: list[tuple[str, str, float]] = []
    for update in msg["updates"]:
        path, value = tuple(update["path"]), update["value"]
        if path == ("trust",) and value:
            points += [(player_address(int(seat)), TRUST, float(t)) for seat, t in sorted(value.items(), key=lambda kv: int(kv[0]))]
        elif path == ("beliefs",) and value:
            points += [(player_address(int(seat)), WEREWOLF, float(roles.get("werewolf", 0.0)))
                       for seat, roles in sorted(value.items(), key=lambda kv: int(kv[0])) if roles]
    return points


def alive(state: State) -> dict[str, float] | None:
    """Living werewolves and living others (None before the roles are dealt)."""
    data = state.to_json()
    if data["roles"] is None:
        return None
    wolves = sum(1 for r, a in zip(data["roles"], data["alive"]) if a and r == "werewolf")
    return {"werewolves alive": wolves, "others alive": sum(data["alive"]) - wolves}
