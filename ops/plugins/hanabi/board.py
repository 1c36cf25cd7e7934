"""The Hanabi board for the debugger: fireworks, hint tokens, lives, the deck and the discards,
and every hand as the viewer sees it (its own cards hidden unless the rules open them; everything
for the whole-game view), each card with the hints known about it (the colours and ranks still
possible, as its holder knows them: hints are public), the last action named.

Also the debugger's hook `phase(state)`: the round (one turn of every player), public.
"""

from __future__ import annotations

from typing import Any

from games.api import State
from games.hanabi.cards import FULL, knowledge_text
from ops.svg import svg, text

COLOURS = {"R": "#d62728", "Y": "#e0b000", "G": "#2ca02c", "W": "#888888", "B": "#1f77b4"}
CARD_W, CARD_H, GAP = 36, 30, 14


def board(state: State, player: int | None = None) -> str:
    """SVG of the table at this state, seen by `player` (None: every hand shown)."""
    data = state.to_json() if player is None else state.observation(player)
    hands, knowledge = data["hands"], data["knowledge"]
    fireworks = data["fireworks"]
    current = data.get("current")
    row = CARD_H + 26
    width = max(420, 90 + (CARD_W + GAP) * max((len(h) for h in hands), default=5) + 20)
    head = f"hints {data['hints']}  lives {data['lives']}  deck {_count(data['deck'])}  score {sum(fireworks)}"
    parts = [text(10, 18, head + (f"  (seen by p{player})" if player is not None else ""), 12)]
    for i, (colour, top) in enumerate(zip(COLOURS, fireworks)):
        parts.append(_card(10 + 42 * i, 28, f"{colour}{top}" if top else f"{colour}-", f'class="firework" data-colour="{colour}" data-top="{top}"'))
    history = data.get("history") or []
    if history:
        last = history[-1]
        parts.append(text(230, 46, f"last: p{last.get('player')} {last.get('action')}", 11))
    y0 = 76
    for seat, hand in enumerate(hands):
        y = y0 + row * seat
        mark = " (you)" if seat == player else ""
        turn = " to play" if seat == current else ""
        parts.append(text(10, y + 19, f"p{seat}{mark}{turn}", 11))
        for slot, card in enumerate(hand):
            know = knowledge[seat][slot] if seat < len(knowledge) and slot < len(knowledge[seat]) else FULL
            x = 90 + (CARD_W + GAP) * slot
            attrs = f'class="card" data-seat="{seat}" data-slot="{slot}" data-card="{card or ""}" data-known="{knowledge_text(know)}"'
            parts.append(_card(x, y, card, attrs))
            parts.append(text(x + CARD_W / 2, y + CARD_H + 11, _hinted(know), 8, "middle", "#000" if know != FULL else "#999"))
    y = y0 + row * len(hands) + 8
    discards = data.get("discards") or []
    parts.append(text(10, y + 4, "discards: " + (" ".join(discards) if discards else "none"), 10))
    return svg(width, y + 16, parts, f"hanabi table, score {sum(fireworks)}")


def _hinted(know: int) -> str:
    """What the hints have ruled in: the colours and ranks still possible, where fewer than all."""
    colours, ranks = knowledge_text(know).split("/")
    shown = [part for part, every in ((colours, 5), (ranks, 5)) if len(part) < every]
    return " ".join(shown) or "-"


def _count(deck: object) -> int:
    return deck if isinstance(deck, int) else len(deck)  # the observation holds a count, the state the cards


def _card(x: float, y: float, card: str | None, attrs: str = "") -> str:
    fill = COLOURS.get(card[0], "#ccc") if card else "#ccc"
    label = card or "?"
    return (f'<g {attrs}><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="{fill}">'
            f"<title>{label}</title></rect>" + text(x + CARD_W / 2, y + 19, label, 11, "middle", "#fff") + "</g>")


def phase(state: State) -> str:
    """The round: every player has one turn a round (public)."""
    data: dict[str, Any] = state.to_json()
    players = len(data["hands"]) or 1
    return f"round {len(data['history']) // players + 1}"
