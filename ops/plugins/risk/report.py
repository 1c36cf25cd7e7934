"""Risk's sections of a tournament report: wins against draws at the round cap, per agent its
wins, leads at the cap and survival, the territories it ends with, and how long games last.

Counted in the store (DuckDB over the view `played`, the rules' outcome `extra`: rounds,
territories, eliminated), so only aggregates reach Python: a row per (label, kind of seat) and
per (rounds, won), never one per game."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ops.tournament.sections import Games, mean_of_counts, rate

DECADE = 10  # rounds per bar of the game-length histogram

_EXTRA = """from_json(extra, '{"territories": "INTEGER[]", "eliminated": "INTEGER[]"}')"""

# one row per kind of seat of a played game: its label, whether it won, whether it alone held the
# most territories of a drawn game (over every entry of the game's list), whether it was never
# eliminated, and the territories it ended with; a game without territories counts 0 for each
# seat (so a tie unless it had one seat), one without eliminations counts every seat survived
_SEATS = f"""
    select label, won, leads, survived, held, count(*) from (
        select seats[seat + 1] as label, list_contains(winners, seat) as won,
               len(winners) = 0 and t[seat + 1] = top and tops = 1 as leads,
               e[seat + 1] is null as survived, t[seat + 1] as held
        from (select *, list_max(t) as top, len(list_filter(t, lambda x: x = list_max(t))) as tops,
                     unnest(range(len(seats))) as seat
              from (select seats, winners, x.eliminated as e,
                           case when len(x.territories) > 0 then x.territories
                                else list_transform(range(len(seats)), lambda s: 0) end as t
                    from (select seats, winners, {_EXTRA} as x from played))))
    group by all"""

# one row per (rounds the game lasted, whether it was won): NULL rounds where the game recorded none
_GAMES = """
    select from_json(extra, '{"rounds": "BIGINT"}').rounds, len(winners) > 0, count(*)
    from played group by all"""


def report(games: Games) -> list[dict[str, Any]]:
    """Sections from the rules' outcome `extra` (rounds, territories, eliminated) of every game."""
    n = won = 0
    rounds: dict[int, int] = defaultdict(int)  # rounds -> games
    lengths: dict[int, int] = {}
    for last, was_won, count in games.sql(_GAMES).fetchall():
        n += count
        won += count if was_won else 0
        if last is not None:
            rounds[last] += count
            bar = -(-last // DECADE) * DECADE
            lengths[bar] = lengths.get(bar, 0) + count
    by_label: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # seats, won, leads at the cap, survived
    held: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))  # label -> territories -> seats
    for label, seat_won, leads, survived, territories, count in games.sql(_SEATS).fetchall():
        acc = by_label[label]
        acc[0] += count
        acc[1] += count if seat_won else 0
        acc[2] += count if leads else 0
        acc[3] += count if survived else 0
        held[label][territories] += count  # merged per value: split counts would round the variance differently
    agents = []
    for label, (seats, seat_won, leads, survived) in sorted(by_label.items()):
        agents.append(rate(f"{label}: won", seat_won, seats))
        agents.append(rate(f"{label}: leads at the cap", leads, seats))
        agents.append(rate(f"{label}: survived", survived, seats))
    return [
        {"title": "outcome (share of games [95% CI] (games))", "histogram": None,
         "rows": [rate("won", won, n), rate("drawn at the round cap", n - won, n)]},
        {"title": "per agent (share of seats played [95% CI] (seats)); leads: a drawn game's sole territory leader",
         "rows": agents, "histogram": None},
        {"title": "territories at the end, per agent (mean [95% CI] (seats))",
         "rows": [mean_of_counts(label, counts.items()) for label, counts in sorted(held.items())], "histogram": None},
        {"title": f"rounds played (mean [95% CI] (games)); games per {DECADE} rounds, by the last round",
         "rows": [mean_of_counts("rounds", rounds.items())] if rounds else [],
         "histogram": {str(bar): count for bar, count in sorted(lengths.items())} or None},
    ]
