"""Deep Barca's Intelligence Office (ours; the paper's agent has none): which unseen troops the
opponent holds, read from what it plays, in place of 3.4's "split evenly" assumption.

Evidence (ours): each time the opponent plays a card while one of its flags is one troop short of
its best formation there (a wedge, phalanx or battalion, counting every troop off the board as
available), it did not complete that formation; a rational player would have, had it held a
troop that completes it. The odds that it holds each such troop are multiplied by `miss_factor`.
Troops the agent saw in its hand (Scout) are held for certain. The chances are then scaled so that
they add up to the number of troops in its hand (a public count), none above 1.

The office is incremental through the knowledge base: its beliefs carry the number of history
events already read, so each update reads only the new ones (the board is rebuilt from the public
history every time, which costs little). A President that takes over mid-game starts from none.
"""

from __future__ import annotations

import math
from typing import Any

from actors.battleline.model import Chances, top
from actors.battleline.params import DeepBarcaParams
from games.battleline.cards import CARD_OF, FOG, MUD, N_TROOPS, NAMES

FLAGS = 9
STRONG = 200  # a battalion or better: a formation worth completing at once


def infer(obs: dict[str, Any], previous: dict[str, Any] | None, params: DeepBarcaParams) -> dict[str, Any]:
    """New beliefs from the observation and the office's previous beliefs (or None)."""
    history = obs["history"]
    op = 1 - int(obs["me"])
    start = 0
    misses: dict[str, int] = {}
    if previous and previous.get("game") == obs["game"] and previous.get("upto", 0) <= len(history):
        start = int(previous["upto"])
        misses = dict(previous.get("misses", {}))
    board = _Board()
    for i, (seat, action) in enumerate(history):
        if i >= start and seat == op and action.startswith("play:"):
            for c in board.missed(op, action):
                misses[NAMES[c]] = misses.get(NAMES[c], 0) + 1
        board.apply(seat, action)
    hand = hand_chances(obs, misses, params)
    return {"game": obs["game"], "upto": len(history), "misses": dict(sorted(misses.items())),
            "hand": {NAMES[c]: round(h, 4) for c, h in sorted(hand.items())},
            "information": round(information(obs, hand), 4)}


def hand_chances(obs: dict[str, Any], misses: dict[str, int], params: DeepBarcaParams) -> dict[int, float]:
    """Per unseen troop, the chance that it is in the opponent's hand."""
    unseen = _unseen(obs)
    known = {CARD_OF[c] for c in obs["opponent_hand"]["known"]} & set(unseen)
    rest = [c for c in unseen if c not in known]
    n = max(0, int(obs["opponent_hand"]["troops"]) - len(known))
    weights = {c: params.miss_factor ** misses.get(NAMES[c], 0) for c in rest}
    out = {c: 1.0 for c in known}
    # Scale to n held troops with none above 1: cap, then share what is left among the others.
    free = dict(weights)
    left = float(n)
    while free and left > 0.0:
        total = math.fsum(free.values())
        capped = [c for c, w in free.items() if left * w / total >= 1.0]
        if not capped:
            for c, w in free.items():
                out[c] = left * w / total
            break
        for c in capped:
            out[c] = 1.0
            left -= 1.0
            del free[c]
    for c in rest:
        out.setdefault(c, 0.0)
    return out


def information(obs: dict[str, Any], hand: dict[int, float]) -> float:
    """How much the beliefs know beyond the even prior: 1 - H(beliefs) / H(prior), on 0..1."""
    if not hand:
        return 0.0
    prior = math.fsum(hand.values()) / len(hand)
    h0 = len(hand) * _entropy(prior)
    return 0.0 if h0 <= 0.0 else max(0.0, 1.0 - math.fsum(_entropy(h) for h in hand.values()) / h0)


def _entropy(q: float) -> float:
    if q <= 0.0 or q >= 1.0:
        return 0.0
    return -(q * math.log(q) + (1.0 - q) * math.log(1.0 - q))


def _unseen(obs: dict[str, Any]) -> list[int]:
    seen = {CARD_OF[c] for flag in obs["flags"] for side in flag["cards"] for c in side}
    seen |= {CARD_OF[c] for pile in obs["discards"] for c in pile}
    seen |= {CARD_OF[c] for c in obs["hand"]}
    return [c for c in range(N_TROOPS) if c not in seen]


class _Board:
    """The board rebuilt from the public history (plays, tactics, Mud discards, claims)."""

    def __init__(self) -> None:
        self.sides: list[list[list[int]]] = [[[], []] for _ in range(FLAGS)]
        self.mud = [False] * FLAGS
        self.fog = [False] * FLAGS
        self.claimed = [False] * FLAGS
        self.gone: set[int] = set()

    def missed(self, seat: int, action: str) -> list[int]:
        """Troops that would have completed a strong formation of `seat` on a flag it did not play on."""
        parts = action.split(":")
        here = int(parts[2]) if len(parts) == 3 and parts[2].isdigit() else -1
        visible = {c for f in range(FLAGS) for s in (0, 1) for c in self.sides[f][s]} | self.gone
        ch = Chances([0.0 if c in visible else 1.0 for c in range(N_TROOPS)])
        out: list[int] = []
        for f in range(FLAGS):
            side, need = self.sides[f][seat], 4 if self.mud[f] else 3
            if f == here or self.claimed[f] or len(side) != need - 1 or self.fog[f]:
                continue
            found = top(side, need, False, ch, 1)
            if found and found[0].score >= STRONG:
                out.extend(found[0].needs)
        return sorted(set(out))

    def apply(self, seat: int, action: str) -> None:
        parts = action.split(":")
        verb = parts[0]
        if verb == "claim":
            self.claimed[int(parts[1])] = True
        elif verb == "discard":
            self._lift(CARD_OF[parts[1]], gone=True)
        elif verb == "play" and parts[1] in CARD_OF:
            card = CARD_OF[parts[1]]
            if card in (FOG, MUD):
                (self.fog if card == FOG else self.mud)[int(parts[2])] = True
            elif parts[1] == "redeploy":
                moved = CARD_OF[parts[2]]
                self._lift(moved, gone=parts[3] == "discard")
                if parts[3] != "discard":
                    self._put(seat, moved, int(parts[3]))
            elif parts[1] == "deserter":
                self._lift(CARD_OF[parts[2]], gone=True)
            elif parts[1] == "traitor":
                taken = CARD_OF[parts[2]]
                self._lift(taken, gone=False)
                self._put(seat, taken, int(parts[3]))
            elif len(parts) == 3:
                self.sides[int(parts[2])][seat].append(card)

    def _put(self, seat: int, card: int, f: int) -> None:
        if card in (FOG, MUD):
            (self.fog if card == FOG else self.mud)[f] = True
        else:
            self.sides[f][seat].append(card)

    def _lift(self, card: int, gone: bool) -> None:
        if card in (FOG, MUD):
            env = self.fog if card == FOG else self.mud
            for f in range(FLAGS):
                if env[f]:
                    env[f] = False
                    break
        else:
            for f in range(FLAGS):
                for s in (0, 1):
                    if card in self.sides[f][s]:
                        self.sides[f][s].remove(card)
        if gone:
            self.gone.add(card)
