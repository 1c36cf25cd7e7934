"""The Dominoes board for the debugger: the line of tiles with its two ends, and the four hands
as the viewer sees them (its own tiles, the others face down with their counts; every hand in the
whole-game view), with the numbers each seat is known to lack."""

from __future__ import annotations

from games.api import State
from ops.svg import svg, text

TILE_W, TILE_H, GAP = 40, 22, 4
PER_ROW = 14  # tiles of the line per row
PAIR_COLOURS = ("#1f77b4", "#d62728")  # pair 0 & 2, pair 1 & 3


def board(state: State, player: int | None = None) -> str:
    """SVG of the table at this state, seen by `player` (None: every hand shown)."""
    data = state.to_json()
    seen = None if player is None else state.observation(player)
    phase, scores, target = data["phase"], data["scores"], data["options"]["target"]
    line = data["line"]
    width = 20 + PER_ROW * (TILE_W + GAP)
    head = f"hand {len(data['past']) + (phase != 'end')}: pairs 0&2 {scores[0]}, 1&3 {scores[1]} (to {target})"
    who = {"deal": "dealing", "choose": f"p{data['current']} chooses who opens",
           "play": f"p{data['current']} to play", "end": "match over"}.get(phase, phase)
    parts = [text(10, 18, f"{head}; {who}", 12)]
    y = 30
    ends = f"ends {data['ends'][0]} and {data['ends'][1]}" if data["ends"] else "empty line"
    parts.append(text(10, y + 12, f"line ({len(line)} tiles), {ends}", 11))
    y += 20
    rows = max(1, -(-len(line) // PER_ROW))
    for i, (a, b) in enumerate(line):
        parts.append(_tile(10 + (i % PER_ROW) * (TILE_W + GAP), y + (i // PER_ROW) * (TILE_H + GAP), f"{a}|{b}"))
    y += rows * (TILE_H + GAP) + 14
    for seat in range(4):
        hand = data["hands"][seat] if player is None or seat == player else None
        n = len(data["hands"][seat]) if seen is None else seen["counts"][seat]
        label = f"p{seat}" + (" (you)" if seat == player else "")
        lacks = data["lacks"][seat]
        note = f"  lacks {','.join(map(str, lacks))}" if lacks else ""
        parts.append(text(10, y + 15, label, 11, fill=PAIR_COLOURS[seat % 2]))
        for k in range(n):
            parts.append(_tile(70 + k * (TILE_W + GAP), y, hand[k].replace("-", "|") if hand else None))
        parts.append(text(70 + 7 * (TILE_W + GAP) + 6, y + 15, f"{n} tiles{note}", 10))
        y += TILE_H + 10
    if phase == "end":
        parts.append(text(10, y + 14, state.outcome().summary, 11))
        y += 20
    return svg(width, y + 8, parts, f"dominoes table, pairs {scores[0]} to {scores[1]}")


def _tile(x: float, y: float, label: str | None) -> str:
    fill, ink = ("#fdfdf6", "#000") if label else ("#555", "#fff")
    shown = label or "?"
    return (f'<rect x="{x}" y="{y}" width="{TILE_W}" height="{TILE_H}" rx="3" fill="{fill}" stroke="#333">'
            f"<title>{shown}</title></rect>"
            + text(x + TILE_W / 2, y + 15, shown, 11, "middle", ink))
