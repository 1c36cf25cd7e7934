"""Risk cards: sets, their escalating values, and the sets in a hand (notes part 2.3).

Cards are numbers: 0..41 show territory i and its symbol, 42 and 43 are the wilds
(games.risk.mapdata). Trades are named by their card codes, sorted: `trade:ALA,ALB,W1`.
"""

from __future__ import annotations

from itertools import combinations

from games.risk.mapdata import CARD_CODES, CARD_SYMBOLS, NUM_CARDS, WILD

SET_VALUES = (4, 6, 8, 10, 12, 15)  # notes 2.3: then +5 each (PyPI `risk` wrongly gives 14 sixth)
MAX_HAND = 5  # notes 2.3: "You must trade if you start a turn with 5 or more cards"
ELIMINATION_HAND = 6  # notes 2.3: taking a hand to 6 or more: "trade immediately down to 4 or fewer"
_W1, _W2 = NUM_CARDS - 2, NUM_CARDS - 1


def set_value(k: int) -> int:
    """Armies for the k-th set traded in the game (k from 1): 4, 6, 8, 10, 12, 15, 20, 25, ..."""
    return SET_VALUES[k - 1] if k <= len(SET_VALUES) else SET_VALUES[-1] + 5 * (k - len(SET_VALUES))


def is_set(cards: tuple[int, ...] | list[int]) -> bool:
    """Three cards form a set: three of a symbol, one of each, or any two plus a wild (notes 2.3)."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return False
    symbols = [CARD_SYMBOLS[c] for c in cards]
    if WILD in symbols:
        return True
    return len(set(symbols)) in (1, 3)  # all equal, or all different (not a chained a != b != c)


def trades(hand: list[int]) -> list[str]:
    """The `trade:` actions of a sorted hand, sorted; a set needing one wild names W1 when both are held."""
    if len(hand) < 3:
        return []
    both = _W1 in hand and _W2 in hand
    out = []
    for cards in combinations(hand, 3):
        if both and _W2 in cards and _W1 not in cards:
            continue  # the same set as with W1
        if is_set(cards):
            out.append("trade:" + ",".join(sorted(CARD_CODES[c] for c in cards)))
    out.sort()
    return out
