"""Diplomacy's sections of a tournament report: solo, draw and survival; centres at the end."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ops.tournament.sections import Games, mean_of_counts, rate

# one row per seat of a played game: its label, its power (the seat's number where the game named
# none), whether it won alone, the centres it held at the end (0 where the game recorded none)
_SEATS = """
    select label, power, solo, held, count(*) from (
        select seats[seat + 1] as label,
               case when len(roles) > 0 then roles[seat + 1] else cast(seat as varchar) end as power,
               list_contains(winners, seat) as solo,
               coalesce(cast(extra->'$.centres' as integer[])[seat + 1], 0) as held
        from (select *, unnest(range(len(seats))) as seat from played))
    group by all"""


def report(games: Games) -> list[dict[str, Any]]:
    """Solo and draw rates; per agent label its solo and survival rates; per power its centres at the end."""
    n, solos = games.sql("select count(*), count(*) filter (where len(winners) > 0) from played").fetchone()
    by_label: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # seats played, solos, survived
    centres: dict[str, list[tuple[int, int]]] = defaultdict(list)  # (centres, seats)
    for label, power, solo, held, seats in games.sql(_SEATS).fetchall():
        acc = by_label[label]
        acc[0] += seats
        acc[1] += seats if solo else 0
        acc[2] += seats if held > 0 else 0
        centres[power].append((held, seats))
    outcome = [rate("solo victory", solos, n), rate("draw", n - solos, n)]
    agents = []
    for label, (seats, solo, survived) in sorted(by_label.items()):
        agents.append(rate(f"{label}: solo", solo, seats))
        agents.append(rate(f"{label}: survived", survived, seats))
    powers = [mean_of_counts(power, counts) for power, counts in sorted(centres.items())]
    return [{"title": "outcome (share of games [95% CI] (games))", "rows": outcome, "histogram": None},
            {"title": "per agent (share of seats played [95% CI] (seats))", "rows": agents, "histogram": None},
            {"title": "supply centres at the end, per power (mean [95% CI] (games))", "rows": powers, "histogram": None}]
