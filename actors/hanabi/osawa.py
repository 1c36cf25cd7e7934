"""Osawa's four Hanabi strategies (JSAI 2015, 1F2-3, section 4), as pure functions of a View.

Each returns one legal action string. Randomness comes from the caller's generator. Osawa
describes two players; with more, "the partner" is read as "the other players", checked in turn
order from the next seat. Where his text leaves a choice open, the reading taken is named at the
place it is taken (and in README.md, section Hanabi).
"""

from __future__ import annotations

import math
import random

from actors.hanabi.view import View
from games.hanabi.cards import ALL_COLOURS, ALL_RANKS, COLOURS, FULL
from games.hanabi.rules import DISCARDS, HINT_COLOUR, HINT_RANK, PLAYS


def _bits(x: int) -> int:
    return x.bit_count()


def new_hints(card: int, know: int) -> list[str]:
    """Which of 'colour' and 'rank' would tell the holder of `card` something new."""
    out = []
    if _bits(know & ALL_COLOURS) > 1:
        out.append("colour")
    if _bits(know & ALL_RANKS) > 1:
        out.append("rank")
    return out


def hint_action(target: int, card: int, kind: str) -> str:
    return HINT_COLOUR[target][card // 5] if kind == "colour" else HINT_RANK[target][card % 5]


# -- 4.2 random --------------------------------------------------------------------------------

def random_strategy(view: View, legal: list[str], rng: random.Random) -> str:
    """30 % a random legal hint, 40 % discard a random card, 30 % play a random card.

    A kind that is illegal now (no hint at 0 tokens, no discard at 8) is left out and the others
    keep their proportions.
    """
    hints = [a for a in legal if a[0] == "h"]
    size = len(view.hands[view.me])
    kinds = [(0.3, hints), (0.4, list(DISCARDS[:size]) if view.can_discard() else []),
             (0.3, list(PLAYS[:size]))]
    kinds = [(w, acts) for w, acts in kinds if acts]
    pick = rng.random() * math.fsum(w for w, _ in kinds)
    for w, acts in kinds:
        if pick < w:
            return acts[rng.randrange(len(acts))]
        pick -= w
    return kinds[-1][1][rng.randrange(len(kinds[-1][1]))]


# -- 4.1 full information --------------------------------------------------------------------

def full_information(view: View, legal: list[str], rng: random.Random) -> str:
    """Sees its own cards (the open-hands variant). Play; else hint (a pass) if a partner can
    play; else discard a card that can never be played, else one with another copy left, else
    the highest number."""
    me = view.me
    hand = view.hands[me]
    if any(c is None for c in hand):
        raise ValueError("the full-information strategy needs open hands (option reveal_own_cards=true)")
    playable = [i for i, c in enumerate(hand) if view.playable(c)]
    if playable:
        # Reading: with several, the lowest rank first (keeps the others' chances open), then 5s.
        return PLAYS[min(playable, key=lambda i: (hand[i] % 5, i))]
    if view.hints > 0:
        for q in view.others():
            if any(view.playable(c) for c in view.hands[q]):
                return _any_hint(legal, q)
    if view.can_discard():
        useless = [i for i, c in enumerate(hand) if view.useless(c)]
        if useless:
            return DISCARDS[useless[0]]
        left = view.public_left()
        # "another copy": one not discarded nor played; counted twice if also in this hand
        twins = [i for i, c in enumerate(hand) if left[c] > 1]
        if twins:
            return DISCARDS[max(twins, key=lambda i: (hand[i] % 5, -i))]
        return DISCARDS[max(range(len(hand)), key=lambda i: (hand[i] % 5, -i))]
    return _any_hint(legal, view.others()[0])  # 8 tokens and nothing to play: a pass


def _any_hint(legal: list[str], target: int) -> str:
    prefix = f"hint:{target}:"
    hints = [a for a in legal if a.startswith(prefix)] or [a for a in legal if a[0] == "h"]
    return hints[0]


# -- 4.3 rational ----------------------------------------------------------------------------

def rational(view: View, legal: list[str], rng: random.Random, counting: bool = True,
             beliefs: dict[int, int] | None = None, believe_discard: bool = False,
             beliefs_first: bool = False) -> str:
    """Knows what hints told it and what it sees (card counting when `counting`).

    1. play a card known to be playable; 2. discard a card known to be useless; 3. if a partner
    holds a playable card it does not know to be playable, tell it the colour or the number of
    that card (one that is news to it); 4. else tell a random partner card with no hint so far its
    colour or number; 5. with no token left, discard a random card.
    `beliefs` (slot -> card) are the self-estimation's: used between steps 3 and 4.
    """
    me = view.me
    left = view.unseen() if counting else None
    know = view.know[me]
    for i, k in enumerate(know):
        if view.known_playable(k, left):
            return PLAYS[i]
    if view.can_discard():
        for i, k in enumerate(know):
            if view.known_useless(k, left):
                return DISCARDS[i]
    if view.hints > 0 and not (beliefs_first and beliefs and _believed_play(view, beliefs)):
        hint = tell_playable(view, rng, counting)
        if hint:
            return hint
    if beliefs:
        for i in sorted(beliefs):
            if view.playable(beliefs[i]):
                return PLAYS[i]
        if believe_discard and view.can_discard():
            for i in sorted(beliefs):
                if view.useless(beliefs[i]):
                    return DISCARDS[i]
    if view.hints > 0:
        hint = tell_unknown(view, rng)
        if hint:
            return hint
    if view.can_discard():
        return DISCARDS[rng.randrange(len(know))]
    hints = [a for a in legal if a[0] == "h"]
    return hints[rng.randrange(len(hints))]


def _believed_play(view: View, beliefs: dict[int, int]) -> bool:
    return any(view.playable(c) for c in beliefs.values())


def playable_news(view: View, q: int, counting: bool = True) -> list[int]:
    """Slots of seat q holding a playable card that q does not know is playable."""
    left = view.left_for(q) if counting else None
    return [j for j, c in enumerate(view.hands[q])
            if view.playable(c) and not view.known_playable(view.know[q][j], left)]


def tell_playable(view: View, rng: random.Random, counting: bool = True) -> str | None:
    """Step 3: the first partner in turn order with a playable card new to it gets a hint."""
    for q in view.others():
        slots = playable_news(view, q, counting)
        if slots:
            j = slots[rng.randrange(len(slots))]
            card, k = view.hands[q][j], view.know[q][j]
            kinds = new_hints(card, k)
            return hint_action(q, card, kinds[rng.randrange(len(kinds))])
    return None


def tell_unknown(view: View, rng: random.Random) -> str | None:
    """Step 4: a random partner card nobody hinted, its colour or number (even odds)."""
    bare = [(q, j) for q in view.others() for j, k in enumerate(view.know[q]) if k == FULL]
    if not bare:
        return None
    q, j = bare[rng.randrange(len(bare))]
    return hint_action(q, view.hands[q][j], "colour" if rng.random() < 0.5 else "rank")


COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
