"""What one seat knows of a Dominoes match, read off its observation (games/dominoes/rules.py) into
bitmasks: its hand, the ends of the line, this hand's events, who passed on which numbers.

Nothing here sees another seat's tiles: every agent of actors/dominoes decides from a `Table`
(and its own KB), so a decision is unchanged when the hidden hands are redrawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.dominoes.tiles import ALL, HI, INDEX, LO, NUM, PARSE, PASS, SEATS


@dataclass(frozen=True)
class Table:
    """One seat's view of the hand in play (tile sets as bitmasks, numbers as bitmasks)."""

    me: int
    phase: str  # "choose" | "play" (decisions); others at deals and the end
    hand_no: int
    opener: int  # this hand's opener; while choosing, the chooser
    hand: int  # own tiles now
    ends: tuple[int, int] | None  # (left, right); None while the line is empty
    events: tuple[tuple[int, str], ...]  # this hand's plays and passes, [seat, action]
    lacks: tuple[int, ...]  # per seat: bit n set when it passed with n at an end
    counts: tuple[int, ...]  # tiles in each hand
    scores: tuple[int, int]
    rules: dict[str, Any]

    @classmethod
    def of(cls, obs: dict[str, Any]) -> Table:
        """The table in an observation of the rules."""
        ends = obs.get("ends")
        return cls(
            me=int(obs["me"]), phase=obs["phase"], hand_no=int(obs["hand_no"]), opener=int(obs["opener"]),
            hand=sum(1 << INDEX[name] for name in obs["hand"]),
            ends=None if ends is None else (int(ends[0]), int(ends[1])),
            events=tuple((int(s), str(a)) for s, a in obs["events"]),
            lacks=tuple(sum(1 << int(n) for n in ns) for ns in obs["lacks"]),
            counts=tuple(int(c) for c in obs["counts"]),
            scores=(int(obs["scores"][0]), int(obs["scores"][1])),
            rules=dict(obs.get("rules") or {}),
        )

    @property
    def partner(self) -> int:
        return (self.me + 2) % SEATS

    @property
    def opponents(self) -> tuple[int, int]:
        return (self.me + 1) % SEATS, (self.me + 3) % SEATS

    def played(self, seat: int) -> int:
        """The tiles `seat` has laid in this hand."""
        mask = 0
        for s, action in self.events:
            if s == seat and action != PASS:
                mask |= 1 << PARSE[action][0]
        return mask

    def on_line(self) -> int:
        """Every tile laid in this hand."""
        mask = 0
        for _, action in self.events:
            if action != PASS:
                mask |= 1 << PARSE[action][0]
        return mask

    def dealt(self) -> int:
        """Own hand as dealt: the tiles held plus those laid."""
        return self.hand | self.played(self.me)

    def unseen(self) -> int:
        """Tiles in the other three hands: neither own nor on the line."""
        return ALL & ~self.hand & ~self.on_line()

    def passes(self, seat: int) -> int:
        """How often `seat` has passed in this hand."""
        return sum(1 for s, action in self.events if s == seat and action == PASS)

    def opening(self) -> tuple[int, int] | None:
        """(seat, tile) of this hand's opening, once laid."""
        for s, action in self.events:
            if action != PASS:
                return s, PARSE[action][0]
        return None

    def pair_opens(self) -> bool:
        """This hand is opened (or its opener chosen) by own pair."""
        return self.opener % 2 == self.me % 2


def numbers(mask: int) -> list[int]:
    """The numbers of a number bitmask, ascending."""
    return [n for n in range(7) if mask >> n & 1]


def count(mask: int, n: int) -> int:
    """Tiles of a hand bitmask that show the number n."""
    return (mask & NUM[n]).bit_count()


def is_double(t: int) -> bool:
    return LO[t] == HI[t]
