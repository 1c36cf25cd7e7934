"""Hanabi's course as numbers: score, hint tokens and lives."""

from __future__ import annotations

from games.api import State


def course(state: State) -> dict[str, float] | None:
    """Score (cards on the fireworks), hint tokens and lives left."""
    data = state.to_json()
    return {"score": sum(data["fireworks"]), "hint tokens": data["hints"], "lives": data["lives"]}
