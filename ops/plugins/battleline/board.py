"""The Battle Line board for the debugger: nine flags in a row, seat 1's cards above them and seat
0's below (in the order placed), Fog (F) and Mud (M) on their flag, a claimed flag in its winner's
colour, both hands (for a player's view: its own, and the other's card counts) and the decks."""

from __future__ import annotations

from typing import Any

from games.api import State
from ops.svg import svg, text

COLOURS = {"R": "#d62728", "O": "#ff7f0e", "Y": "#d4b000", "G": "#2ca02c", "B": "#1f77b4", "P": "#9467bd"}
TACTIC = "#555555"
W, H, GAP = 30, 22, 4  # a card, and the space between two
COLUMN = W + 26  # one flag's column
SEAT_FILL = ("#8fb8de", "#e8a0a0")  # a flag claimed by seat 0 / seat 1
FLAGS = 9


def board(state: State, player: int | None = None) -> str:
    """SVG of the table at this state, seen by `player` (None: every hand shown)."""
    data = state.to_json()
    view = None if player is None else state.observation(player)
    top = 30 + 4 * (H + GAP)  # the flag row
    parts = [text(10, 16, _title(data), 12)]
    for f, flag in enumerate(data["flags"]):
        x = 10 + COLUMN * f
        claimed = flag["claimed"]
        label = f"{f}" + ("F" if flag["fog"] >= 0 else "") + ("M" if flag["mud"] >= 0 else "")
        fill = "#f5d76e" if claimed < 0 else SEAT_FILL[claimed]
        parts.append(f'<rect x="{x}" y="{top}" width="{W}" height="{H}" rx="11" fill="{fill}" '
                     f'stroke="#333"><title>flag {f}{_claim(claimed)}</title></rect>')
        parts.append(text(x + W / 2, top + 15, label, 11, "middle"))
        for seat in (0, 1):
            for i, (card, _) in enumerate(flag["sides"][seat]):
                y = top + (H + GAP) * (i + 1) + 6 if seat == 0 else top - (H + GAP) * (i + 1) - 6
                parts.append(_card(x, y, card))
    y = top + 6 * (H + GAP) + 20
    for seat in (1, 0):
        if view is None or seat == player:
            hand = data["hands"][seat]
            parts.append(text(10, y + 15, f"p{seat}" + (" (you)" if seat == player else ""), 11))
            parts.extend(_card(60 + (W + GAP) * i, y, c) for i, c in enumerate(hand))
        else:
            counts = view["opponent_hand"]
            parts.append(text(10, y + 15, f"p{seat}: {counts['troops']} troops, {counts['tactics']} tactics "
                                          "in hand", 11))
        y += H + 10
    width = 20 + COLUMN * FLAGS
    return svg(width, y + 10, parts, f"battle line board, flags claimed {_claims(data)}")


def _title(data: dict[str, Any]) -> str:
    decks = data["decks"]
    to_act = "" if data["phase"] == "end" else f"p{data['current']} to act ({data['phase']}); "
    return (f"{to_act}troop deck {len(decks['troops'])}, tactics deck {len(decks['tactics'])}; "
            f"tactics played {data['tactics_played'][0]}-{data['tactics_played'][1]}")


def _claims(data: dict[str, Any]) -> str:
    flags = [fl["claimed"] for fl in data["flags"]]
    return f"{flags.count(0)}-{flags.count(1)}"


def _claim(claimed: int) -> str:
    return "" if claimed < 0 else f", claimed by p{claimed}"


def _card(x: float, y: float, card: str) -> str:
    troop = card[0] in COLOURS and card[1:].isdigit()
    fill = COLOURS[card[0]] if troop else TACTIC
    label = card if troop else card[:4]
    return (f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="3" fill="{fill}"><title>{card}</title></rect>'
            + text(x + W / 2, y + 15, label, 10, "middle", "#fff"))
