"""Battle Line's sections of a tournament report: how games end (breakthrough, envelopment, a drawn
double pass), per agent its wins of each kind and the flags it claims, and the first mover's share.

Read off each game's outcome `extra` (games.battleline.rules: `games`, one entry a game of the
match, with its winner seat, how it ended, the flags each seat claimed and the seat that moved
first). In a series every game of the match counts once. Counted in the store (DuckDB over the
view `played`): only a row per kind of (game of a match, seat) reaches Python, never one per game.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ops.tournament.sections import Games, mean_of_counts, rate

ENDS = ("breakthrough", "envelopment", "double pass")  # 1.1 "Win": 3 adjacent or any 5; ours: two passes

_RESULTS = """from_json(extra, '{"games": [{"winner": "INTEGER", "how": "VARCHAR", "flags": "INTEGER[]", "first": "INTEGER"}]}')"""

# one row per kind of (game of a match, seat): the seat, its label, how that game ended, its winner
# seat (NULL: drawn), the seat that moved first, the flags this seat claimed
_SEATS = f"""
    select seat, seats[seat + 1], r.how, r.winner, r.first, r.flags[seat + 1], count(*)
    from (select *, unnest(range(len(seats))) as seat
          from (select seats, unnest({_RESULTS}.games) as r from played))
    group by all"""


def report(games: Games) -> list[dict[str, Any]]:
    """Sections from the rules' outcome `extra` of every played game, counted in the store."""
    ends: dict[str, int] = defaultdict(int)
    won: dict[tuple[str, str], int] = defaultdict(int)  # (agent, how) -> games it won so
    seats: dict[str, int] = defaultdict(int)  # agent -> games of Battle Line it played
    flags: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))  # agent -> flags -> games
    first_won = decided = 0
    for seat, label, how, winner, first, claimed, count in games.sql(_SEATS).fetchall():
        seats[label] += count
        flags[label][claimed] += count  # merged per value: split counts would round the variance differently
        if seat == winner:
            won[(label, how)] += count
        if seat == 0:  # each game of a match once
            ends[how] += count
            if winner is not None:
                decided += count
                first_won += count if winner == first else 0
    n = sum(ends.values())
    agents = []
    for label in sorted(seats):
        agents.append(rate(f"{label}: won by breakthrough", won[(label, "breakthrough")], seats[label]))
        agents.append(rate(f"{label}: won by envelopment", won[(label, "envelopment")], seats[label]))
    return [
        {"title": "how games end (share of games [95% CI] (games))", "histogram": None,
         "rows": [rate(how, ends.get(how, 0), n) for how in ENDS]
         + [rate(how, count, n) for how, count in sorted(ends.items()) if how not in ENDS]},
        {"title": "per agent (share of the games it played [95% CI] (games))", "rows": agents, "histogram": None},
        {"title": "flags claimed a game, per agent (mean [95% CI] (games))",
         "rows": [mean_of_counts(label, counts.items()) for label, counts in sorted(flags.items())], "histogram": None},
        {"title": "the first mover (share of decided games [95% CI] (games))", "histogram": None,
         "rows": [rate("won by the seat that moved first", first_won, decided)]},
    ]
