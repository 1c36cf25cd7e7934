"""The Alpha Hanabi agent's reasoning: beliefs (Intelligence Office) and ranked moves (Strategy
Office), on top of the shared hint protocol (`actors.hanabi.protocol`, the Foreign Office).

Beliefs: each own card's possible identities from hints, card counting and the protocol (a play
focus is playable, so its identities shrink to the cards playable when it was hinted). The model
of the partners is the protocol itself: they hint what it says and discard from their chop, so a
card they leave unsaved on the chop is taken to be expendable.

Moves, by utility: play a card believed playable; save a partner's critical chop card before it
must discard it; give the play hint that makes the most cards playable; discard a card known to be
useless; discard the chop; at 8 tokens, a hint that marks nothing new. The utilities and
thresholds are ours (no paper gives them) and each is an agent option (`AlphaParams`, e.g.
`alpha:params.late_deck=3`), so `detente tune` can search them.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from actors.hanabi.protocol import Card, apply_hint, chop, fold
from actors.hanabi.view import View
from games.hanabi.cards import COLOURS, MATCHING
from games.hanabi.rules import DISCARDS, PARSE, PLAYS


class AlphaParams(BaseModel):
    """The Strategy Office's utilities and thresholds (ours; the defaults are the hand-set ones).
    Only their order matters between kinds of move: a move is suggested before another by its
    higher utility."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    play: float = Field(100.0, ge=0.0, le=200.0)  # play a card believed playable (less its rank)
    save: float = Field(105.0, ge=0.0, le=200.0)  # hint a partner's critical chop card (plus the hint's gain)
    play_hint: float = Field(80.0, ge=0.0, le=200.0)  # a hint that makes cards playable (plus its gain)
    play_hint_gain: float = Field(0.5, ge=0.0, le=5.0)  # the least gain a play hint must have
    discard_useless: float = Field(70.0, ge=0.0, le=200.0)  # discard a card known to be useless
    discard_chop: float = Field(50.0, ge=0.0, le=200.0)  # discard the chop...
    chop_risk: float = Field(10.0, ge=0.0, le=100.0)  # ...less this times the share of its critical candidates
    stall: float = Field(30.0, ge=0.0, le=200.0)  # a hint that marks nothing new (plus its gain)
    touch_critical: float = Field(0.2, ge=-1.0, le=1.0)  # a hint's gain for first touching a critical card
    touch_useless: float = Field(-0.3, ge=-1.0, le=1.0)  # ...and for first touching a useless one
    late_play: float = Field(40.0, ge=0.0, le=200.0)  # late in the game, play a likely card (plus its share)
    late_share: float = Field(0.5, gt=0.0, le=1.0)  # the least share of its candidates that are playable
    late_deck: int = Field(0, ge=0, le=50)  # "late": the deck holds at most this many cards...
    late_lives: int = Field(2, ge=1, le=3)  # ...and at least this many lives are left


DEFAULT_PARAMS = AlphaParams()


def candidates(card: Card, left: list[int]) -> list[int]:
    """Identities the holder can still give this card (hints, counting, protocol marks)."""
    cands = [c for c in MATCHING[card.know] if left[c] > 0] or list(MATCHING[card.know])
    if card.mark is not None:
        narrowed = [c for c in cands if card.allowed >> c & 1]
        if narrowed:
            cands = narrowed
    return cands


def own_beliefs(view: View, cards: list[list[Card]]) -> list[list[int]]:
    """Candidate identities of each own card (the Intelligence Office's product)."""
    left = view.unseen()
    return [candidates(card, left) for card in cards[view.me]]


def ranked_moves(view: View, legal: list[str], cards: list[list[Card]], beliefs: list[list[int]],
                 rng: random.Random, p: AlphaParams = DEFAULT_PARAMS) -> list[tuple[float, str]]:
    """(utility, action) for the moves worth considering, best first."""
    moves: list[tuple[float, str]] = []
    me = view.me
    mine = cards[me]
    # Play a card every candidate of which is playable (lowest rank first).
    for i, cands in enumerate(beliefs):
        if cands and all(view.playable(c) for c in cands):
            moves.append((p.play - min(c % 5 for c in cands), PLAYS[i]))
    if view.hints > 0:
        pending = _pending_plays(view, cards)
        stall = None
        for action in legal:
            if action[0] != "h":
                continue
            value = _hint_value(view, cards, action, pending, p)
            if value is None:
                continue
            save, gain = value
            if save:
                moves.append((p.save + gain, action))  # before the partner discards it
            elif gain > p.play_hint_gain:
                moves.append((p.play_hint + gain, action))
            elif stall is None or gain > stall[0]:
                stall = (gain, action)
        if stall is not None:
            moves.append((p.stall + stall[0], stall[1]))  # at 8 tokens: a hint that does no harm
    if view.can_discard():
        for i, cands in enumerate(beliefs):
            if all(view.useless(c) for c in cands):
                moves.append((p.discard_useless, DISCARDS[i]))
        c = chop(mine)
        if c is None:
            c = min(range(len(mine)), key=lambda i: (_worth(view, beliefs[i]), -i))
        moves.append((p.discard_chop - p.chop_risk * _risk(view, beliefs[c]), DISCARDS[c]))
    # Late in the game (by default: the deck empty), with lives to spare, a likely play beats waiting.
    if view.deck <= p.late_deck and view.lives >= p.late_lives:
        for i, cands in enumerate(beliefs):
            share = sum(1 for c in cands if view.playable(c)) / len(cands)
            if share >= p.late_share:
                moves.append((p.late_play + share, PLAYS[i]))
    legal_set = set(legal)
    moves = [m for m in moves if m[1] in legal_set]
    if not moves:
        moves = [(0.0, legal[rng.randrange(len(legal))])]
    moves.sort(key=lambda m: (-m[0], m[1]))
    return moves


def _believed_playable(view: View, card: Card, left: list[int]) -> bool:
    return all(view.playable(c) for c in candidates(card, left))


def _hint_value(view: View, cards: list[list[Card]], action: str,
                pending: set[int], p: AlphaParams = DEFAULT_PARAMS) -> tuple[bool, float] | None:
    """What a hint achieves as its receiver will read it: (saves a critical chop, value);
    None if it would make the receiver play a card that is not playable."""
    kind, q, v = PARSE[action]
    hand = view.hands[q]
    touched = _touches(hand, kind, v)
    word, value = ("colour", COLOURS[v]) if kind == "c" else ("rank", str(v + 1))
    before = cards[q]
    after = apply_hint(before, touched, word, value, view.fw, view.public_left())
    left = view.left_for(q)
    gain, seen = 0.0, set(pending)
    for i, (old, new) in enumerate(zip(before, after)):
        if _believed_playable(view, old, left):
            continue
        if _believed_playable(view, new, left):
            if not view.playable(hand[i]):
                return None
            if hand[i] not in seen:
                gain += 1.0 + 0.1 * (4 - hand[i] % 5) / 4
                seen.add(hand[i])
        elif i in touched and not old.touched:
            gain += p.touch_critical if view.critical(hand[i]) else (p.touch_useless if view.useless(hand[i]) else 0.0)
    c = chop(before)
    save = (c is not None and c in touched and view.critical(hand[c])
            and not _holder_acts(view, cards, q) and q == view.others()[0]
            and sum(1 for card in before if not card.touched) > 1)
    return save, gain


def _worth(view: View, cands: list[int]) -> float:
    """How much a card may matter: 0 if surely useless, more for critical candidates."""
    if not cands:
        return 0.0
    return sum((0 if view.useless(c) else 1 + 3 * view.critical(c)) for c in cands) / len(cands)


def _risk(view: View, cands: list[int]) -> float:
    """Share of a card's candidates that are critical (discarding them loses points)."""
    if not cands:
        return 0.0
    return sum(1 for c in cands if view.critical(c)) / len(cands)


def _pending_plays(view: View, cards: list[list[Card]]) -> set[int]:
    """Identities some partner is already set to play (known or marked playable)."""
    out: set[int] = set()
    for q in view.others():
        left = view.left_for(q)
        for card, real in zip(cards[q], view.hands[q]):
            if _believed_playable(view, card, left):
                out.add(real)
    return out


def _holder_acts(view: View, cards: list[list[Card]], q: int) -> bool:
    """Whether seat q has something better to do than discarding its chop."""
    left = view.left_for(q)
    for card in cards[q]:
        cands = candidates(card, left)
        if all(view.playable(c) for c in cands) or all(view.useless(c) for c in cands):
            return True
    return False


def _touches(hand: list[int], kind: str, v: int) -> list[int]:
    if kind == "c":
        return [i for i, card in enumerate(hand) if card // 5 == v]
    return [i for i, card in enumerate(hand) if card % 5 == v]


def alpha_policy(obs: dict[str, Any], legal: list[str], rng: random.Random, opts: dict[str, Any]) -> str:
    """The whole agent as one function (benchmarks; the offices split the same steps)."""
    view = View(obs)
    cards = fold(obs)
    params = opts.get("params")
    p = params if isinstance(params, AlphaParams) else AlphaParams.model_validate(params or {})
    return ranked_moves(view, legal, cards, own_beliefs(view, cards), rng, p)[0][1]
