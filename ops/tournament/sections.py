"""Helpers for the report sections a game's plugin declares (see games/plugin.py `report`)."""

from __future__ import annotations

from typing import Any, Iterable

from ops.tournament.report import mean_ci, wilson


def rate(label: str, hits: int, n: int) -> dict[str, Any]:
    """A row: the share of `n` that hit, with its Wilson 95% interval."""
    value, lo, hi = wilson(hits, n)
    return {"label": label, "value": value, "ci": [lo, hi], "n": n}


def mean(label: str, values: Iterable[float]) -> dict[str, Any]:
    """A row: the mean of `values`, with its 95% interval (normal approximation)."""
    values = list(values)
    m, lo, hi = mean_ci(values)
    return {"label": label, "value": m, "ci": [lo, hi], "n": len(values)}
