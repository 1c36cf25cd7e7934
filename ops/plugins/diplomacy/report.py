"""Diplomacy's sections of a tournament report: solo, draw and survival; centres at the end."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ops.tournament.sections import mean, rate


def report(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Solo and draw rates; per agent label its solo and survival rates; per power its centres at the end."""
    n = len(games)
    solos = sum(1 for g in games if g["winners"])
    by_label: dict[str, list[tuple[bool, bool]]] = defaultdict(list)  # (solo, survived) per seat played
    centres: dict[str, list[int]] = defaultdict(list)
    for g in games:
        held = g["extra"].get("centres") or [0] * len(g["seats"])
        for seat, label in enumerate(g["seats"]):
            by_label[label].append((seat in g["winners"], held[seat] > 0))
            centres[(g["roles"] or [str(seat)] * len(g["seats"]))[seat]].append(held[seat])
    outcome = [rate("solo victory", solos, n), rate("draw", n - solos, n)]
    agents = []
    for label, seats in sorted(by_label.items()):
        agents.append(rate(f"{label}: solo", sum(s for s, _ in seats), len(seats)))
        agents.append(rate(f"{label}: survived", sum(v for _, v in seats), len(seats)))
    powers = [mean(power, values) for power, values in sorted(centres.items())]
    return [{"title": "outcome (share of games [95% CI] (games))", "rows": outcome, "histogram": None},
            {"title": "per agent (share of seats played [95% CI] (seats))", "rows": agents, "histogram": None},
            {"title": "supply centres at the end, per power (mean [95% CI] (games))", "rows": powers, "histogram": None}]
