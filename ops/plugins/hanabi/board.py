"""The Hanabi board for the debugger: fireworks, tokens, the deck, and every hand as the viewer
sees it (its own cards hidden unless the rules open them; everything for the whole-game view)."""

from __future__ import annotations

from games.api import State
from ops.svg import svg, text

COLOURS = {"R": "#d62728", "Y": "#e0b000", "G": "#2ca02c", "W": "#888888", "B": "#1f77b4"}


def board(state: State, player: int | None = None) -> str:
    """SVG of the table at this state, seen by `player` (None: every hand shown)."""
    data = state.to_json() if player is None else state.observation(player)
    hands = data["hands"]
    fireworks = data["fireworks"]
    width, row = 360, 34
    parts = [text(10, 18, f"hints {data['hints']}  lives {data['lives']}  deck {_count(data['deck'])}", 12)]
    for i, (colour, top) in enumerate(zip(COLOURS, fireworks)):
        parts.append(_card(10 + 40 * i, 28, f"{colour}{top}" if top else f"{colour}-"))
    for seat, hand in enumerate(hands):
        y = 80 + row * seat
        parts.append(text(10, y + 20, f"p{seat}" + (" (you)" if seat == player else ""), 11))
        for slot, card in enumerate(hand):
            parts.append(_card(70 + 40 * slot, y, card))
    return svg(width, 90 + row * len(hands), parts, f"hanabi table, score {sum(fireworks)}")


def _count(deck: object) -> int:
    return deck if isinstance(deck, int) else len(deck)  # the observation holds a count, the state the cards


def _card(x: float, y: float, card: str | None) -> str:
    fill = COLOURS.get(card[0], "#ccc") if card else "#ccc"
    label = card or "?"
    return (f'<rect x="{x}" y="{y}" width="32" height="28" rx="4" fill="{fill}"><title>{label}</title></rect>'
            + text(x + 16, y + 18, label, 11, "middle", "#fff"))
