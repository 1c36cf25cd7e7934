"""The hint protocol of the Alpha Hanabi agent (its Foreign Office): what a hint means beyond its
literal content, shared by every seat that plays it.

Conventions (in the spirit of the "chop" and "focus" conventions of human groups):
- A player's *chop* is its oldest card no hint has touched; it discards from the chop.
- A hint's *focus* is the chop if the hint newly touches it, else the newest newly touched card.
  A hint touching no new card means nothing more than it says.
- Focus on the chop: a *save*: the card is playable or the last copy of a card still needed (its
  identities shrink to those); kept, and played once its identities are all playable.
  Focus elsewhere: a *play*: the card is playable now (identities shrink to those playable when
  the hint was given).

`fold` replays the public history and returns, for every seat, each card's hint knowledge, whether
a hint ever touched it, and its mark. Everything it reads is public, so every seat computes the
same marks for every hand, its own included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.hanabi.cards import ALL_COLOURS, ALL_RANKS, CARD_OF, COLOURS, COUNT, FULL

PLAY, SAVE = "play", "save"


@dataclass
class Card:
    know: int = FULL
    touched: bool = False
    mark: str | None = None
    allowed: int = 0  # for a play mark: bit c set for each card c playable when it was marked


def chop(cards: list[Card]) -> int | None:
    """The oldest untouched slot, or None."""
    for i, card in enumerate(cards):
        if not card.touched:
            return i
    return None


def focus(cards: list[Card], touched: list[int]) -> tuple[int | None, str | None]:
    """The focus slot of a hint touching `touched`, and its meaning (PLAY or SAVE)."""
    new = [i for i in touched if not cards[i].touched]
    if not new:
        return None, None
    c = chop(cards)
    if c in new:
        return c, SAVE
    return max(new), PLAY


def playable_mask(fw: list[int]) -> int:
    mask = 0
    for colour, height in enumerate(fw):
        if height < 5:
            mask |= 1 << (colour * 5 + height)
    return mask


def keep_mask(fw: list[int], left: list[int]) -> int:
    """Cards worth saving: playable now, or the last copy of a card that can still be played."""
    mask = playable_mask(fw)
    for colour, height in enumerate(fw):
        for r in range(height, 5):
            card = colour * 5 + r
            if left[card] == 0:
                break  # this card and the higher ones of its colour can never be played
            if left[card] == 1:
                mask |= 1 << card
    return mask


def apply_hint(cards: list[Card], touched: list[int], kind: str, value: str,
               fw: list[int], left: list[int]) -> list[Card]:
    """The cards of a hint's target after it, as the protocol reads them (a new list)."""
    slot, meaning = focus(cards, touched)
    if kind == "colour":
        bit, keep = 1 << COLOURS.index(value), ALL_RANKS
    else:
        bit, keep = 1 << (4 + int(value)), ALL_COLOURS
    out = []
    for i, card in enumerate(cards):
        if i in touched:
            out.append(Card((card.know & keep) | bit, True, card.mark, card.allowed))
        else:
            out.append(Card(card.know & ~bit, card.touched, card.mark, card.allowed))
    if meaning == SAVE:
        out[slot].mark, out[slot].allowed = SAVE, keep_mask(fw, left)
    elif meaning == PLAY:
        out[slot].mark, out[slot].allowed = PLAY, playable_mask(fw)
    return out


def fold(obs: dict[str, Any]) -> list[list[Card]]:
    """Every seat's cards as the protocol reads them after the whole public history."""
    n, hs = obs["players"], obs["rules"]["hand_size"]
    hands = [[Card() for _ in range(hs)] for _ in range(n)]
    deck = 50 - n * hs
    fw = [0] * 5
    left = list(COUNT)  # copies neither discarded nor played
    for event in obs["history"]:
        action = event["action"]
        if action[0] == "h":
            _, t, kind, value = action.split(":")
            t = int(t)
            hands[t] = apply_hint(hands[t], event["slots"], kind, value, fw, left)
        else:
            p, slot = event["player"], int(action.split(":")[1])
            del hands[p][slot]
            if deck > 0:
                hands[p].append(Card())
                deck -= 1
            card = CARD_OF[event["card"]]
            left[card] -= 1
            if event.get("ok"):
                fw[card // 5] += 1
    return hands
