"""Hanabi cards and hint knowledge as small integers, shared by the rules and the agents.

A card is `colour * 5 + (rank - 1)`, 0..24, colours in the order R, Y, G, W, B (the order of the
Hanabi Learning Environment, so a cross-check maps cards one to one). A card's hint knowledge is
one integer: bit c (0..4) set while colour c is still possible, bit 5 + r - 1 while rank r is.
The deck (rulebook of Hanabi, A. Bauza, 2010; Osawa 2015 section 3.1): per colour three 1s, two
each of 2, 3 and 4, one 5; 50 cards.
"""

from __future__ import annotations

COLOURS = "RYGWB"
NUM_COLOURS = 5
NUM_RANKS = 5
COPIES = (3, 2, 2, 2, 1)  # copies of ranks 1..5 in each colour
DECK = tuple(c * 5 + r for c in range(NUM_COLOURS) for r in range(NUM_RANKS) for _ in range(COPIES[r]))
COUNT = tuple(COPIES[card % 5] for card in range(25))  # copies of each card in the deck

ALL_COLOURS = (1 << NUM_COLOURS) - 1
ALL_RANKS = ((1 << NUM_RANKS) - 1) << NUM_COLOURS
FULL = ALL_COLOURS | ALL_RANKS  # knowledge of a card nobody hinted

NAMES = tuple(COLOURS[c // 5] + str(c % 5 + 1) for c in range(25))
CARD_OF = {name: c for c, name in enumerate(NAMES)}


def colour(card: int) -> int:
    return card // 5


def rank(card: int) -> int:
    """Rank 1..5."""
    return card % 5 + 1


def name(card: int) -> str:
    return NAMES[card]


def matches(card: int, know: int) -> bool:
    """Whether `card` is consistent with the hint knowledge `know`."""
    return bool(know >> (card // 5) & 1) and bool(know >> (5 + card % 5) & 1)


# MATCHING[know & ALL_COLOURS | ...] would be 1024 entries; cards consistent with a knowledge value
MATCHING: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(25) if matches(c, k)) for k in range(1 << 10))


def knowledge_text(know: int) -> str:
    """Possible colours and ranks as text, e.g. 'RG/12345' (for renders and logs)."""
    cols = "".join(COLOURS[c] for c in range(5) if know >> c & 1)
    ranks = "".join(str(r + 1) for r in range(5) if know >> (5 + r) & 1)
    return f"{cols}/{ranks}"
