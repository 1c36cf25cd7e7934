"""A trial's objective, read from its tournament's store, with its 95% interval.

Per game, over the seats labelled `label` (and, where `roles` is given, dealt one of them; a game
with no such seat is left out):

- mean_score: the mean of their scores; interval: normal approximation over games.
- hanabi_score: the same on Hanabi (every seat holds the table's score).
- win_rate: the share of them among the game's winners (a draw: no winner, 0); normal
  approximation, or Wilson's interval when the agent holds one seat (each game 0 or 1).
- team_win_rate: 1 when any of them is among the winners (partners win together), else 0; Wilson.

Aborted games count as losses with no score (left out of score means).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ops.tournament.report import mean_ci, wilson
from ops.tournament.store import Store


def game_values(rows: list[tuple[list[str], list[float | None], list[int], list[str]]], label: str,
                objective: str, roles: list[str] | None = None) -> list[float]:
    """One value per game (rows: seats' labels, scores, winners, roles)."""
    wanted = set(roles or ())
    values = []
    for seats, scores, winners, dealt in rows:
        mine = [s for s, name in enumerate(seats) if name == label
                and (not wanted or (s < len(dealt or ()) and dealt[s] in wanted))]
        if not mine:
            continue
        if objective in ("mean_score", "hanabi_score"):
            got = [scores[s] for s in mine if scores[s] is not None]
            if got:
                values.append(math.fsum(got) / len(got))
        elif objective == "win_rate":
            values.append(sum(1 for s in mine if s in winners) / len(mine))
        else:
            values.append(1.0 if any(s in winners for s in mine) else 0.0)
    return values


def summarise(values: list[float]) -> dict[str, Any]:
    """{value, lo, hi, n}: the mean and its 95% interval (Wilson for 0/1 values)."""
    n = len(values)
    if n and all(v in (0.0, 1.0) for v in values):
        mean, lo, hi = wilson(int(sum(values)), n)
    else:
        mean, lo, hi = mean_ci(values)
    return {"value": mean, "lo": lo, "hi": hi, "n": n}


def read_objective(out: str | Path, label: str, objective: str, roles: list[str] | None = None) -> dict[str, Any]:
    """The objective of `label` over every game recorded in the tournament folder `out`."""
    with Store(out, read_only=True) as store:
        rows = store.db.execute("select seats, scores, winners, roles from games order by idx").fetchall()
    return summarise(game_values(rows, label, objective, roles))


def rows_objective(rows: list[dict[str, Any]], label: str, objective: str,
                   roles: list[str] | None = None) -> dict[str, Any]:
    """The same from the runner's result rows of every game (what the store was given)."""
    ordered = sorted(rows, key=lambda r: r["idx"])
    return summarise(game_values([(r["seats"], r["scores"], r["winners"], r["roles"]) for r in ordered],
                                 label, objective, roles))


def apart(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two 95% intervals do not overlap."""
    return a["lo"] > b["hi"] or b["lo"] > a["hi"]
