"""The Diplomacy board for the debugger, as a schematic: per power its units and supply centres
(and dislodged units), the phase on top. The whole board is public, so every viewer sees it all."""

from __future__ import annotations

from games.api import State
from ops.svg import svg, text

COLOURS = {"AUSTRIA": "#c0392b", "ENGLAND": "#2c3e9e", "FRANCE": "#3498db", "GERMANY": "#555555",
           "ITALY": "#27ae60", "RUSSIA": "#8e44ad", "TURKEY": "#d4ac0d"}


def board(state: State, player: int | None = None) -> str:
    """SVG of the position: one column per power (the viewer's outlined)."""
    obs = state.observation(0 if player is None else player)
    powers = obs["powers"]
    col, width = 130, 130 * len(powers)
    tallest = max(len(obs["units"].get(p, ())) + len(obs["centres"].get(p, ())) for p in powers)
    height = 60 + 14 * (tallest + 3)
    parts = [text(8, 16, obs["phase"], 13)]
    for i, power in enumerate(powers):
        x = i * col
        outline = ' stroke="#000" stroke-width="2"' if player is not None and obs.get("power") == power else ""
        parts.append(f'<rect x="{x + 2}" y="24" width="{col - 4}" height="{height - 28}" fill="{COLOURS.get(power, "#999")}" '
                     f'fill-opacity="0.15"{outline}/>')
        centres = obs["centres"].get(power, [])
        parts.append(text(x + 8, 40, f"{power} ({len(centres)})", 11, fill=COLOURS.get(power, "#000")))
        lines = list(obs["units"].get(power, [])) + [f"dislodged {u}" for u in obs["dislodged"].get(power, {})]
        lines += ["centres:"] + [" ".join(centres[k:k + 4]) for k in range(0, len(centres), 4)]
        for j, line in enumerate(lines):
            parts.append(text(x + 8, 56 + 14 * j, line, 10))
    return svg(width, height, parts, f"diplomacy {obs['phase']}")
