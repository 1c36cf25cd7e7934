"""A Battle Line position as one player sees it, read from its observation, and edited in place
to try a move: the board, the claim proof (rules 1.1 "Claiming and proof") and the win check.

Everything here is public or the viewer's own: its hand, the board, the discards, the counts of
the other hand and the decks, and (Scout) the cards it knows the other holds.
"""

from __future__ import annotations

from typing import Any

from games.battleline.cards import CARD_OF, FOG, LEADERS, MUD, N_TROOPS
from games.battleline.formations import IMPOSSIBLE, Pool, best, score

FLAGS = 9
LATER = 1 << 30  # the completion stamp of a side completed by a move being tried (after all others)


class Position:
    """The board seen by seat `me`: sides per flag (cards in the order placed), environment, claims."""

    __slots__ = (
        "claimed",
        "clock",
        "deck_tactics",
        "deck_troops",
        "fog",
        "gone",
        "hand",
        "known_opp",
        "leader_played",
        "me",
        "mud",
        "op",
        "opp_tactics",
        "opp_troops",
        "opponent_passed",
        "phase",
        "sides",
        "stamps",
        "tactics_played",
    )

    @classmethod
    def from_observation(cls, obs: dict[str, Any]) -> Position:
        pos = cls.__new__(cls)
        pos.me = int(obs["me"])
        pos.op = 1 - pos.me
        pos.sides, pos.stamps, pos.fog, pos.mud, pos.claimed = [], [], [], [], []
        for flag in obs["flags"]:
            pos.sides.append([[CARD_OF[c] for c in side] for side in flag["cards"]])
            pos.stamps.append([s if s is not None else None for s in flag["completed"]])
            pos.fog.append(flag["fog"] is not None)
            pos.mud.append(flag["mud"] is not None)
            pos.claimed.append(-1 if flag["claimed"] is None else int(flag["claimed"]))
        pos.hand = [CARD_OF[c] for c in obs["hand"]]
        pos.opp_troops = int(obs["opponent_hand"]["troops"])
        pos.opp_tactics = int(obs["opponent_hand"]["tactics"])
        pos.deck_troops = int(obs["decks"]["troops"])
        pos.deck_tactics = int(obs["decks"]["tactics"])
        pos.gone = {CARD_OF[c] for pile in obs["discards"] for c in pile}
        pos.tactics_played = list(obs["tactics_played"])
        pos.leader_played = list(obs["leader_played"])
        pos.known_opp = {CARD_OF[c] for c in obs["opponent_hand"]["known"]}
        pos.clock = 0
        pos.phase = obs["phase"]
        last = next((a for seat, a in reversed(obs["history"]) if seat == pos.op), None)
        pos.opponent_passed = last == "pass"  # its last turn was a pass
        return pos

    def copy(self) -> Position:
        new = Position.__new__(Position)
        for name in Position.__slots__:
            setattr(new, name, getattr(self, name))
        new.sides = [[list(s[0]), list(s[1])] for s in self.sides]
        new.stamps = [list(s) for s in self.stamps]
        new.fog, new.mud, new.claimed = list(self.fog), list(self.mud), list(self.claimed)
        new.hand = list(self.hand)
        new.gone = set(self.gone)
        new.tactics_played, new.leader_played = list(self.tactics_played), list(self.leader_played)
        new.known_opp = set(self.known_opp)
        return new

    # -- what is where ---------------------------------------------------------------------
    def need(self, f: int) -> int:
        return 4 if self.mud[f] else 3  # 1.1 "Mud": formations of four cards

    def on_board(self) -> set[int]:
        return {c for sides in self.sides for side in sides for c in side}

    def unseen(self) -> list[int]:
        """Troops the viewer has not seen: the troop deck and the opponent's hand, sorted."""
        seen = self.on_board() | self.gone | set(self.hand)
        return [c for c in range(N_TROOPS) if c not in seen]

    def proof_pool(self) -> Pool:
        """Troops a claim proof counts as still to come: off the board and out of the discards
        (the claimant's own hand included, 1.1 item 2)."""
        seen = self.on_board() | self.gone
        return Pool([c for c in range(N_TROOPS) if c not in seen])

    def free_slots(self, seat: int) -> int:
        return sum(self.need(f) - len(self.sides[f][seat]) for f in self.open_flags(seat))

    def open_flags(self, seat: int) -> list[int]:
        return [f for f in range(FLAGS) if self.claimed[f] < 0 and len(self.sides[f][seat]) < self.need(f)]

    def can_play_tactic(self, seat: int) -> bool:
        """1.1 "Tactics-play restriction": never more than one tactics card ahead."""
        return self.tactics_played[seat] <= self.tactics_played[1 - seat]

    # -- proofs ----------------------------------------------------------------------------
    def provable(self, seat: int, f: int, pool: Pool | None = None) -> bool:
        """Could `seat` claim flag f now: a complete side that no completion of the other beats."""
        if self.claimed[f] >= 0:
            return False
        mine, theirs, need = self.sides[f][seat], self.sides[f][1 - seat], self.need(f)
        if len(mine) != need or len(theirs) > need:
            return False
        mine_score = score(mine, need, self.fog[f])
        if len(theirs) == need:
            theirs_score = score(theirs, need, self.fog[f])
            return mine_score > theirs_score or (
                mine_score == theirs_score and self._stamp(f, seat) < self._stamp(f, 1 - seat))
        pool = self.proof_pool() if pool is None else pool
        return best(theirs, need, self.fog[f], pool, floor=mine_score) == IMPOSSIBLE

    def _stamp(self, f: int, seat: int) -> int:
        stamp = self.stamps[f][seat]
        return LATER if stamp is None else stamp

    def flags_held(self, seat: int, pool: Pool | None = None) -> list[bool]:
        """Per flag: claimed by `seat`, or provable for it now."""
        pool = self.proof_pool() if pool is None else pool
        return [self.claimed[f] == seat or self.provable(seat, f, pool) for f in range(FLAGS)]

    def wins_with(self, held: list[bool]) -> bool:
        """1.1 "Win": any five flags or three adjacent."""
        return sum(held) >= 5 or any(held[i] and held[i + 1] and held[i + 2] for i in range(FLAGS - 2))

    # -- edits (a move being tried) ----------------------------------------------------------
    def place(self, seat: int, card: int, f: int) -> None:
        self.clock += 1
        self.sides[f][seat].append(card)
        if len(self.sides[f][seat]) == self.need(f):
            self.stamps[f][seat] = LATER + self.clock
        if card in self.hand and seat == self.me:
            self.hand.remove(card)
        if card in LEADERS:
            self.leader_played[seat] = True

    def lift(self, card: int) -> tuple[int, int]:
        """Take a card off the board: (flag, seat), seat -1 for Fog or Mud."""
        if card in (FOG, MUD):
            env = self.fog if card == FOG else self.mud
            f = next(f for f in range(FLAGS) if env[f])
            env[f] = False
            return f, -1
        for f in range(FLAGS):
            for s in (0, 1):
                if card in self.sides[f][s]:
                    self.sides[f][s].remove(card)
                    self.stamps[f][s] = None
                    return f, s
        raise ValueError(f"card {card} is not on the board")

    def use_tactic(self, seat: int, card: int) -> None:
        self.tactics_played[seat] += 1
        if seat == self.me and card in self.hand:
            self.hand.remove(card)
