"""The Risk board for the debugger: the 42 territories as a schematic, one block per continent,
each territory coloured by its owner with its code and armies; for a seat's view, its cards."""

from __future__ import annotations

from games.api import State
from games.risk.mapdata import CODES, CONTINENT_BONUS, CONTINENT_MEMBERS, CONTINENT_NAMES, NAMES
from ops.svg import COLOURS, svg, text

NEUTRAL, FREE = "#9e9e9e", "#eeeeee"
# Where each continent's block sits (column, row) and how many territories a block row holds.
_BLOCKS = ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1))
_PER_ROW = 3
_CELL_W, _CELL_H, _BLOCK_W, _BLOCK_H = 64, 34, 210, 170


def owner_colour(owner: int, neutral: int | None) -> str:
    if owner < 0:
        return FREE
    if owner == neutral:
        return NEUTRAL
    return COLOURS[owner % len(COLOURS)]


def board(state: State, player: int | None = None) -> str:
    """SVG of the board at this state (every view sees the same board; a seat also its cards)."""
    data = state.observation(player if player is not None else 0)
    owner, armies, neutral = data["owner"], data["armies"], data["neutral"]
    parts = [text(10, 16, _headline(data), 12)]
    for c, (col, row) in enumerate(_BLOCKS):
        x0, y0 = 10 + col * _BLOCK_W, 28 + row * _BLOCK_H
        parts.append(text(x0, y0 + 12, f"{CONTINENT_NAMES[c]} (+{CONTINENT_BONUS[c]})", 11))
        for k, t in enumerate(CONTINENT_MEMBERS[c]):
            x, y = x0 + (k % _PER_ROW) * (_CELL_W + 4), y0 + 18 + (k // _PER_ROW) * (_CELL_H + 4)
            o = owner[t]
            who = "unclaimed" if o < 0 else "neutral" if o == neutral else f"p{o}"
            parts.append(f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}" rx="3" '
                         f'fill="{owner_colour(o, neutral)}"><title>{NAMES[t]}: {who}, {armies[t]} armies</title></rect>')
            parts.append(text(x + _CELL_W / 2, y + 14, CODES[t], 10, "middle", "#fff" if o >= 0 else "#000"))
            parts.append(text(x + _CELL_W / 2, y + 28, str(armies[t]), 11, "middle", "#fff" if o >= 0 else "#000"))
    y = 30 + 2 * _BLOCK_H
    seats = range(data["players"])
    legend = "  ".join(f"p{s}: {owner.count(s)} terr., {sum(a for a, o in zip(armies, owner) if o == s)} armies"
                       + ("" if data["alive"][s] else " (out)") for s in seats)
    parts.append(text(10, y, legend, 11))
    if player is not None and data["rules"]["cards"]:
        parts.append(text(10, y + 16, f"p{player}'s cards: {', '.join(data['cards']) or 'none'}", 11))
    return svg(10 + 3 * _BLOCK_W, y + 26, parts, f"risk board, {_headline(data)}")


def _headline(data: dict) -> str:
    if data["phase"] == "over":
        return "game over" + (f": p{data['winner']} wins" if data["winner"] is not None else ": draw")
    if not data["turn"]:
        return f"set-up ({data['phase']})"
    return f"round {data['round']}, turn {data['turn']}: p{data['turn_player']} {data['phase']}"
