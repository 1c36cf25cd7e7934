"""A Hanabi observation parsed once into ints, with the card-counting helpers every strategy uses.

Cards and hint knowledge are encoded as in `games.hanabi.cards`. "Seen" counts are what a player
can count from where it sits: discards, fireworks and the other players' hands.
"""

from __future__ import annotations

from typing import Any

from games.hanabi.cards import CARD_OF, COUNT, FULL, MATCHING

MAX_HINTS = 8


class View:
    """One player's observation as ints; derived facts are computed on first use."""

    __slots__ = (
        "_public",
        "_unseen",
        "deck",
        "discards",
        "fw",
        "hands",
        "hints",
        "history",
        "know",
        "lives",
        "me",
        "n",
        "obs",
        "rules",
    )

    def __init__(self, obs: dict[str, Any]):
        self.obs = obs
        self.me: int = obs["me"]
        self.n: int = obs["players"]
        self.hands: list[list[int | None]] = [
            [None if c is None else CARD_OF[c] for c in hand] for hand in obs["hands"]]
        self.know: list[list[int]] = obs["knowledge"]
        self.fw: list[int] = obs["fireworks"]
        self.discards: list[int] = [CARD_OF[c] for c in obs["discards"]]
        self.hints: int = obs["hints"]
        self.lives: int = obs["lives"]
        self.deck: int = obs["deck"]
        self.history: list[dict[str, Any]] = obs["history"]
        self.rules: dict[str, Any] = obs["rules"]
        self._unseen: list[int] | None = None
        self._public: list[int] | None = None

    # -- counting --------------------------------------------------------------------------
    def public_left(self) -> list[int]:
        """Copies of each card not in the discards or on the fireworks (everybody knows this)."""
        if self._public is None:
            left = list(COUNT)
            for c in self.discards:
                left[c] -= 1
            for colour, height in enumerate(self.fw):
                for r in range(height):
                    left[colour * 5 + r] -= 1
            self._public = left
        return self._public

    def unseen(self) -> list[int]:
        """Copies of each card this player cannot see anywhere (its own hand and the deck)."""
        if self._unseen is None:
            left = list(self.public_left())
            for hand in self.hands:
                for c in hand:
                    if c is not None:
                        left[c] -= 1
            self._unseen = left
        return self._unseen

    def left_for(self, player: int) -> list[int]:
        """What `player` can count, as far as this player knows (its own hand is not counted)."""
        if player == self.me:
            return self.unseen()
        left = list(self.public_left())
        for q, hand in enumerate(self.hands):
            if q != player and q != self.me:
                for c in hand:
                    left[c] -= 1
        return left

    # -- card facts ------------------------------------------------------------------------
    def playable(self, card: int) -> bool:
        return self.fw[card // 5] == card % 5

    def useless(self, card: int) -> bool:
        """Can never be played: already played, or a lower card of its colour is all discarded."""
        colour, r = card // 5, card % 5
        height = self.fw[colour]
        if r < height:
            return True
        left = self.public_left()
        return any(left[colour * 5 + k] == 0 for k in range(height, r))

    def candidates(self, know: int, left: list[int] | None) -> tuple[int, ...]:
        """Cards consistent with `know` (and, given counts `left`, with a copy left)."""
        cards = MATCHING[know]
        if left is None:
            return cards
        return tuple(c for c in cards if left[c] > 0) or cards

    def known_playable(self, know: int, left: list[int] | None) -> bool:
        cands = self.candidates(know, left)
        return all(self.fw[c // 5] == c % 5 for c in cands)

    def known_useless(self, know: int, left: list[int] | None) -> bool:
        return all(self.useless(c) for c in self.candidates(know, left))

    def critical(self, card: int) -> bool:
        """The last copy of a card that can still be played."""
        return not self.useless(card) and self.public_left()[card] == 1

    def others(self) -> list[int]:
        """The other seats in turn order after this player."""
        return [(self.me + k) % self.n for k in range(1, self.n)]

    def can_discard(self) -> bool:
        return self.hints < MAX_HINTS


def knowledge_history(obs: dict[str, Any], upto: int) -> list[list[int]]:
    """Everyone's hint knowledge before history event `upto`, rebuilt from the public history."""
    n, hs = obs["players"], obs["rules"]["hand_size"]
    know = [[FULL] * hs for _ in range(n)]
    deck = 50 - n * hs
    for event in obs["history"][:upto]:
        action = event["action"]
        if action[0] == "h":
            _, t, kind, value = action.split(":")
            t = int(t)
            touched = event["slots"]
            if kind == "colour":
                bit = 1 << "RYGWB".index(value)
                keep = FULL & ~0b11111
            else:
                bit = 1 << (4 + int(value))
                keep = 0b11111
            know[t] = [(k & keep) | bit if i in touched else k & ~bit for i, k in enumerate(know[t])]
        else:
            p, slot = event["player"], int(action.split(":")[1])
            hand = know[p][:slot] + know[p][slot + 1:]
            if deck > 0:
                hand.append(FULL)
                deck -= 1
            know[p] = hand
    return know
