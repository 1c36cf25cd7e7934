"""Risk's sections of a tournament report: wins against draws at the round cap, per agent its
wins, leads at the cap and survival, the territories it ends with, and how long games last."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ops.tournament.sections import mean, rate

DECADE = 10  # rounds per bar of the game-length histogram


def report(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sections from the rules' outcome `extra` (rounds, territories, eliminated) of every game."""
    n = len(games)
    won = sum(1 for g in games if g["winners"])
    seats: dict[str, list[tuple[bool, bool, bool]]] = defaultdict(list)  # (won, leads at the cap, survived)
    held: dict[str, list[int]] = defaultdict(list)
    rounds, lengths = [], {}
    for g in games:
        extra = g["extra"] or {}
        territories = extra.get("territories") or [0] * len(g["seats"])
        gone = extra.get("eliminated") or [None] * len(g["seats"])
        top = max(territories, default=0)
        for seat, label in enumerate(g["seats"]):
            leads = not g["winners"] and territories[seat] == top and territories.count(top) == 1
            seats[label].append((seat in g["winners"], leads, gone[seat] is None))
            held[label].append(territories[seat])
        if "rounds" in extra:
            rounds.append(extra["rounds"])
            bar = str(-(-extra["rounds"] // DECADE) * DECADE)
            lengths[bar] = lengths.get(bar, 0) + 1
    agents = []
    for label, rows in sorted(seats.items()):
        agents.append(rate(f"{label}: won", sum(w for w, _, _ in rows), len(rows)))
        agents.append(rate(f"{label}: leads at the cap", sum(lead for _, lead, _ in rows), len(rows)))
        agents.append(rate(f"{label}: survived", sum(s for _, _, s in rows), len(rows)))
    return [
        {"title": "outcome (share of games [95% CI] (games))", "histogram": None,
         "rows": [rate("won", won, n), rate("drawn at the round cap", n - won, n)]},
        {"title": "per agent (share of seats played [95% CI] (seats)); leads: a drawn game's sole territory leader",
         "rows": agents, "histogram": None},
        {"title": "territories at the end, per agent (mean [95% CI] (seats))",
         "rows": [mean(label, values) for label, values in sorted(held.items())], "histogram": None},
        {"title": f"rounds played (mean [95% CI] (games)); games per {DECADE} rounds, by the last round",
         "rows": [mean("rounds", rounds)] if rounds else [],
         "histogram": dict(sorted(lengths.items(), key=lambda kv: int(kv[0]))) or None},
    ]
