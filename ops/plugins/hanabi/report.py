"""Hanabi's section of a tournament report: how games end (a cooperative game: no ranks)."""

from __future__ import annotations

from typing import Any

from ops.tournament.sections import rate


def report(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Perfect games (25), bomb-outs (third life lost) and deck-outs, with Wilson intervals."""
    n = len(games)
    ends = [g["extra"].get("end") for g in games]
    return [{"title": "how games end (share of games [95% CI] (games))", "histogram": None,
             "rows": [rate("perfect (25)", ends.count("perfect"), n), rate("bombed out", ends.count("bombed out"), n),
                      rate("deck out", ends.count("deck out"), n)]}]
