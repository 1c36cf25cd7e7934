"""Hanabi's section of a tournament report: how games end (a cooperative game: no ranks)."""

from __future__ import annotations

from typing import Any

from ops.tournament.sections import Games, rate


def report(games: Games) -> list[dict[str, Any]]:
    """Perfect games (25), bomb-outs (third life lost) and deck-outs, with Wilson intervals."""
    ends = dict(games.sql("select extra->>'$.end', count(*) from played group by all").fetchall())
    n = sum(ends.values())
    return [{"title": "how games end (share of games [95% CI] (games))", "histogram": None,
             "rows": [rate("perfect (25)", ends.get("perfect", 0), n), rate("bombed out", ends.get("bombed out", 0), n),
                      rate("deck out", ends.get("deck out", 0), n)]}]
