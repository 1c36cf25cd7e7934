"""Battle Line's sections of a tournament report: how games end (breakthrough, envelopment, a drawn
double pass), per agent its wins of each kind and the flags it claims, and the first mover's share.

Read off each game's outcome `extra` (games.battleline.rules: `games`, one entry a game of the
match, with its winner seat, how it ended, the flags each seat claimed and the seat that moved
first). In a series every game of the match counts once.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ops.tournament.sections import mean, rate

ENDS = ("breakthrough", "envelopment", "double pass")  # 1.1 "Win": 3 adjacent or any 5; ours: two passes


def report(games: Any) -> list[dict[str, Any]]:
    """Sections from the rules' outcome `extra` of every played game (iterated)."""
    ends: dict[str, int] = defaultdict(int)
    won: dict[tuple[str, str], int] = defaultdict(int)  # (agent, how) -> games it won so
    seats: dict[str, int] = defaultdict(int)  # agent -> games of Battle Line it played
    flags: dict[str, list[int]] = defaultdict(list)
    first_won = decided = 0
    for g in games:
        labels = g["seats"]
        for result in (g["extra"] or {}).get("games", []):
            how, winner = result["how"], result["winner"]
            ends[how] += 1
            for seat, label in enumerate(labels):
                seats[label] += 1
                flags[label].append(result["flags"][seat])
            if winner is not None:
                won[(labels[winner], how)] += 1
                decided += 1
                first_won += winner == result["first"]
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
         "rows": [mean(label, values) for label, values in sorted(flags.items())], "histogram": None},
        {"title": "the first mover (share of decided games [95% CI] (games))", "histogram": None,
         "rows": [rate("won by the seat that moved first", first_won, decided)]},
    ]
