"""The Alpha pair's reasoning (ours; the seed's future work asks for "a more sophisticated and
effective cooperative strategy", section 6): beliefs over the hidden hands, a convention that gives
the opening tile a meaning, and moves scored by sampled completions of the hidden hands.

- Beliefs (Intelligence Office): for every other seat, the numbers it cannot hold (it passed with
  them at an end) and, by counting, the chance it holds each unseen tile: hidden hands are drawn
  consistently with hand sizes and passes (`games.dominoes.rules.sample_hands`, exact for those
  constraints) and weighted by the convention below.
- The opening convention (both partners read it): a seat that opens a hand by choice lays the
  double of its most repeated number (ties: the higher number) when it holds it, else the heaviest
  tile of that number. A partner reads the opening as "that is the opener's longest number": a
  sampled hand for the opener that would have opened with another tile weighs CONVENTION_MISS
  instead of 1 (not 0, so a partner that does not follow it costs little).
- Moves (Strategy Office): each legal tile is laid in each of `samples` sampled deals (the same
  deals for every tile) and the hand is played out, every seat laying its heaviest fitting tile,
  doubles first; a tile's utility is the weighted share of deals the pair wins, plus a small
  weight on the expected point margin (MARGIN_WEIGHT per point), which breaks ties.
"""

from __future__ import annotations

import math
import random
from typing import Any

from actors.dominoes.table import Table, count, is_double
from games.dominoes.rules import sample_hands
from games.dominoes.tiles import (
    HI,
    HIGH,
    INDEX,
    LEFT,
    LO,
    N_TILES,
    NAMES,
    NUM,
    OPEN,
    PARSE,
    PASS,
    PIPS,
    SEATS,
    pips,
    tiles_of,
)

CONVENTION_MISS = 0.1  # ours: weight of a sampled opener hand that breaks the convention
MARGIN_WEIGHT = 0.002  # ours: utility per point of expected margin (100 points = 0.2 of a win)
SAMPLES = 64  # ours: sampled deals per decision (24 won 62% of duplicate matches against the
# individualists, 64 won 69%; median Strategy Office decision ~7 ms on our 2-core box)
BELIEF_SAMPLES = 32  # ours: sampled deals behind the Intelligence Office's tile beliefs

# OTHER[t][n]: the number tile t shows away from n (-1 where t does not show n).
OTHER = tuple(tuple((HI[t] if LO[t] == n else LO[t]) if n in (LO[t], HI[t]) else -1
                    for n in range(HIGH + 1)) for t in range(N_TILES))
# The playout policy's preference: doubles first, then pips.
PRIORITY = tuple(PIPS[t] + (100 if is_double(t) else 0) for t in range(N_TILES))


# -- the opening convention -----------------------------------------------------------------

def longest_number(mask: int) -> int:
    """The number on most tiles of a hand (ties: the higher number)."""
    return max(range(HIGH + 1), key=lambda n: (count(mask, n), n))


def convention_opening(mask: int) -> int:
    """The tile a hand opens with under the convention (see the module docstring)."""
    n = longest_number(mask)
    double = INDEX[f"{n}-{n}"]
    if mask >> double & 1:
        return double
    return max(tiles_of(mask & NUM[n]), key=lambda t: (PIPS[t], t))


def convention_reading(table: Table) -> dict[str, str]:
    """Partner seat -> the tile it opened this hand with by choice (read under the convention)."""
    opened = table.opening()
    if opened is None or table.hand_no == 0 or opened[0] != table.partner:
        return {}  # the first hand opens with 6-6 by rule: no choice, no meaning
    return {str(opened[0]): NAMES[opened[1]]}


# -- sampled deals --------------------------------------------------------------------------

def sample_deals(table: Table, rng: random.Random, n: int, lacks: tuple[int, ...] | None,
                 reading: dict[str, str], miss: float = CONVENTION_MISS) -> list[tuple[list[int], float]]:
    """`n` deals of the hidden tiles (four hands, own included) with their weights."""
    others = [(table.me + k) % SEATS for k in (1, 2, 3)]
    pool = tiles_of(table.unseen())
    sizes = [table.counts[q] for q in others]
    known = [lacks[q] if lacks else 0 for q in others]
    checks = [(int(seat), INDEX[tile], table.played(int(seat))) for seat, tile in sorted(reading.items())]
    out = []
    for _ in range(n):
        try:
            drawn = sample_hands(pool, known, sizes, rng)
        except ValueError:  # what we were told does not fit (a bad belief): ignore the passes
            drawn = sample_hands(pool, [0, 0, 0], sizes, rng)
        hands = [0] * SEATS
        hands[table.me] = table.hand
        for q, mask in zip(others, drawn):
            hands[q] = mask
        weight = 1.0
        for seat, tile, laid in checks:
            if convention_opening(hands[seat] | laid) != tile:
                weight *= miss
        out.append((hands, weight))
    return out


def tile_beliefs(table: Table, rng: random.Random, lacks: tuple[int, ...],
                 reading: dict[str, str], n: int = BELIEF_SAMPLES,
                 miss: float = CONVENTION_MISS) -> dict[str, dict[str, float]]:
    """Other seat -> {tile: chance it holds it} over the unseen tiles it may hold (counting)."""
    deals = sample_deals(table, rng, n, lacks, reading, miss)
    total = math.fsum(w for _, w in deals)
    out: dict[str, dict[str, float]] = {}
    for k in (1, 2, 3):
        q = (table.me + k) % SEATS
        held = [0.0] * N_TILES
        for hands, w in deals:
            for t in tiles_of(hands[q]):
                held[t] += w
        out[f"p{q}"] = {NAMES[t]: round(held[t] / total, 3) for t in range(N_TILES) if held[t] > 0}
    return out


# -- playouts -------------------------------------------------------------------------------

def _playout(h: list[int], left: int, right: int, cur: int) -> tuple[str, int]:
    """Play the hand out from seat `cur` (every seat: heaviest fitting tile, doubles first); (how, last)."""
    while True:
        fits = h[cur] & (NUM[left] | NUM[right])
        if fits:
            best, top = -1, -1
            while fits:
                low = fits & -fits
                t = low.bit_length() - 1
                fits ^= low
                if PRIORITY[t] > top:
                    best, top = t, PRIORITY[t]
            h[cur] ^= 1 << best
            if NUM[left] >> best & 1:
                left = OTHER[best][left]
            else:
                right = OTHER[best][right]
            if not h[cur]:
                return "out", cur
            if not (h[0] | h[1] | h[2] | h[3]) & (NUM[left] | NUM[right]):
                return "blocked", cur
        cur = (cur + 1) % SEATS


def hand_result(how: str, last: int, hands: list[int], rules: dict[str, Any]) -> tuple[int | None, int]:
    """(winning pair or None, points) of a finished hand, as the rules score it."""
    left = [pips(h) for h in hands]
    pair = [left[0] + left[2], left[1] + left[3]]
    if how == "out":
        won = last % 2
        return won, sum(left) if rules.get("scoring") == "all" else pair[1 - won]
    if pair[0] != pair[1]:
        won = 0 if pair[0] < pair[1] else 1
    elif rules.get("blocked_tie") == "lowest_hand" and min(left[0], left[2]) != min(left[1], left[3]):
        won = 0 if min(left[0], left[2]) < min(left[1], left[3]) else 1
    else:
        return None, 0
    return won, sum(pair) if rules.get("blocked_scoring") == "both" else pair[1 - won]


def play_after(hands: list[int], ends: tuple[int, int] | None, me: int, action: str,
               rules: dict[str, Any]) -> tuple[int | None, int]:
    """Lay `action` for seat `me` in a full deal (copied), play the hand out, and score it."""
    h = list(hands)
    t, end = PARSE[action]
    cur = me
    if t < 0:
        left, right = ends
    else:
        h[me] ^= 1 << t
        if end == OPEN:
            left, right = LO[t], HI[t]
        elif end == LEFT:
            left, right = OTHER[t][ends[0]], ends[1]
        else:
            left, right = ends[0], OTHER[t][ends[1]]
        if not h[me]:
            return hand_result("out", me, h, rules)
        if not (h[0] | h[1] | h[2] | h[3]) & (NUM[left] | NUM[right]):
            return hand_result("blocked", me, h, rules)
    how, last = _playout(h, left, right, (cur + 1) % SEATS)
    return hand_result(how, last, h, rules)


def score_moves(table: Table, legal: list[str], rng: random.Random, lacks: tuple[int, ...] | None,
                reading: dict[str, str], samples: int = SAMPLES, margin: float = MARGIN_WEIGHT,
                miss: float = CONVENTION_MISS) -> list[tuple[float, str]]:
    """(utility, action) of every legal action, best first (ties: legal order)."""
    if len(legal) == 1:
        return [(0.0, legal[0])]
    deals = sample_deals(table, rng, samples, lacks, reading, miss)
    total = math.fsum(w for _, w in deals)
    mine = table.me % 2
    scored = []
    for k, action in enumerate(legal):
        value = 0.0
        for hands, w in deals:
            won, points = play_after(hands, table.ends, table.me, action, table.rules)
            if won is None:
                value += w * 0.5
            elif won == mine:
                value += w * (1.0 + margin * points)
            else:
                value -= w * margin * points
        scored.append((round(value / total, 6), k, action))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [(u, a) for u, _, a in scored]


def alpha_move(table: Table, legal: list[str], rng: random.Random, lacks: tuple[int, ...] | None,
               reading: dict[str, str], samples: int = SAMPLES, margin: float = MARGIN_WEIGHT,
               miss: float = CONVENTION_MISS) -> list[tuple[float, str]]:
    """The Alpha pair's ranked moves: the convention's opening, naming itself to open, or scores."""
    if table.phase == "choose":
        return [(1.0, f"open:{table.me}")]  # ours: the chooser opens and signals by its opening
    if table.ends is None and len(legal) > 1:
        return [(1.0, NAMES[convention_opening(table.hand)])]
    if legal == [PASS]:
        return [(0.0, PASS)]
    return score_moves(table, legal, rng, lacks, reading, samples, margin, miss)
