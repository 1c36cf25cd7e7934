"""The Werewolves board for the debugger: the players in a circle, the dead crossed out, each
role as the viewer knows it (every role for the whole-game view)."""

from __future__ import annotations

import math

from games.api import State
from ops.svg import svg, text

COLOURS = {"werewolf": "#b22222", "seer": "#4169e1", "doctor": "#2e8b57", "villager": "#c8a165", None: "#bbbbbb"}


def board(state: State, player: int | None = None) -> str:
    """SVG of the village at this state, seen by `player` (None: everything)."""
    data = state.to_json()
    n = data["options"]["players"]
    if player is None:
        roles = {q: r for q, r in enumerate(data["roles"] or [])}
    else:
        roles = {int(q): r for q, r in state.observation(player)["known_roles"].items()}
    alive = set(data["alive"])
    size, r = 320, 120
    parts = [text(size / 2, 18, f"{data['phase']} {data['day']}", 13, "middle")]
    for q in range(n):
        a = 2 * math.pi * q / n - math.pi / 2
        x, y = size / 2 + r * math.cos(a), size / 2 + 10 + r * math.sin(a)
        role = roles.get(q)
        ring = ' stroke="#000" stroke-width="3"' if q == player else ""
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="18" fill="{COLOURS.get(role, "#bbbbbb")}"{ring}>'
                     f"<title>p{q} {role or 'unknown'}{'' if q in alive else ' (dead)'}</title></circle>")
        parts.append(text(x, y + 4, f"p{q}", 11, "middle", "#fff"))
        parts.append(text(x, y + 32, role or "?", 9, "middle"))
        if q not in alive:
            parts.append(f'<path d="M{x - 14:.1f},{y - 14:.1f} L{x + 14:.1f},{y + 14:.1f} M{x + 14:.1f},{y - 14:.1f} '
                         f'L{x - 14:.1f},{y + 14:.1f}" stroke="#000" stroke-width="3"/>')
    return svg(size, size + 30, parts, f"village, {len(alive)} of {n} alive")
