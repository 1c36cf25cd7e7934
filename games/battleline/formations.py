"""Formation strength of one side of a flag, complete or completed from a pool of troops.

Formations, highest first (reference notes 1.1, "Formations"): Wedge (consecutive values, one
colour), Phalanx (one value), Battalion Order (one colour), Skirmish Line (consecutive values),
Host (anything); within a type the higher sum wins. Under Mud a formation has 4 cards and the
4-card versions of every type apply; under Fog only the sum counts (Host), and the two combine.

Morale tactics in a formation take the colour and value that make the best formation, chosen
when the formation is evaluated: a Leader (Alexander, Darius) any colour and any value, the
Companion Cavalry value 8 and the Shield Bearers value 1, 2 or 3, each in any colour. A wild card
is not a physical troop, so it may stand for a troop already on the table (a Leader may be the
red 10 beside the red 10 in a Battalion).

A score is `rank * 100 + sum` (a Wedge 10-9-8 is 427), so scores compare as formations do; the
completion order that breaks equal scores is the caller's business (rules.py).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Iterable

from games.battleline.cards import CAVALRY, LEADERS, N_TROOPS, SHIELD

HOST, SKIRMISH, BATTALION, PHALANX, WEDGE = range(5)
RANK_NAMES = ("host", "skirmish", "battalion", "phalanx", "wedge")
IMPOSSIBLE = -1

_ANY = 0b11111111110  # bit v set: value v allowed (1..10)
_ALLOWS = {CAVALRY: 1 << 8, SHIELD: 0b1110}
_MAX_VALUE = {CAVALRY: 8, SHIELD: 3}
_COLOUR = [c // 10 for c in range(N_TROOPS)]
_VALUE = [c % 10 + 1 for c in range(N_TROOPS)]
_BIT = [1 << v for v in _VALUE]
_RUN = {n: [0] + [((1 << n) - 1) << lo for lo in range(1, 12 - n)] for n in (3, 4)}
# Sets of troops as 60-bit ints (bit c: troop c), for `completion_cards`.
ALL_TROOPS = (1 << N_TROOPS) - 1
_OF_COLOUR = [sum(1 << (col * 10 + i) for i in range(10)) for col in range(6)]
_OF_VALUE = [0] + [sum(1 << (col * 10 + v - 1) for col in range(6)) for v in range(1, 11)]


def _allows(card: int) -> int:
    return _ALLOWS.get(card, _ANY)


def _top(card: int) -> int:
    return _MAX_VALUE.get(card, 10)


def rank_of(score: int) -> str:
    return RANK_NAMES[score // 100]


class Pool:
    """Troops a side may still receive: a value mask per colour and a count per value."""

    __slots__ = ("colour_mask", "any_mask", "per_value", "size")

    def __init__(self, troops: Iterable[int]):
        """`troops`: distinct troop cards."""
        colour_mask = [0] * 6  # bit v: the troop (colour, v) is in the pool
        per_value = [0] * 11
        for card in troops:
            colour_mask[_COLOUR[card]] |= _BIT[card]
            per_value[_VALUE[card]] += 1
        self.colour_mask, self.per_value = colour_mask, per_value
        self.any_mask = colour_mask[0] | colour_mask[1] | colour_mask[2] | colour_mask[3] \
            | colour_mask[4] | colour_mask[5]
        self.size = sum(per_value)

    @classmethod
    def of_set(cls, troops: int) -> Pool:
        """The pool of a set of troops as a 60-bit int (bit c: troop c), as Pool(those troops)."""
        pool = cls.__new__(cls)
        colour_mask = [(troops >> (10 * col) & 1023) << 1 for col in range(6)]
        pool.colour_mask = colour_mask
        pool.any_mask = colour_mask[0] | colour_mask[1] | colour_mask[2] | colour_mask[3] \
            | colour_mask[4] | colour_mask[5]
        pool.per_value = [0] + [(troops & _OF_VALUE[v]).bit_count() for v in range(1, 11)]
        pool.size = troops.bit_count()
        return pool

    def top_values(self, k: int, colour: int = -1) -> int:
        """Sum of the k highest values in the pool (of one colour if given); -1 if too few."""
        total, v = 0, 10
        if colour < 0:
            counts = self.per_value
            while k and v:
                take = min(k, counts[v])
                total, k, v = total + take * v, k - take, v - 1
        else:
            mask = self.colour_mask[colour]
            while k and v:
                if mask >> v & 1:
                    total, k = total + v, k - 1
                v -= 1
        return -1 if k else total


EMPTY = Pool(())


def score(cards: list[int], need: int, fog: bool) -> int:
    """Score of a complete side (`need` cards: 3, or 4 under Mud)."""
    if len(cards) != need:
        raise ValueError(f"a complete side has {need} cards, got {len(cards)}")
    return score_tuple(tuple(cards), fog)


def side_score(cards: list[int], fog: bool) -> int:
    """`score` of a complete side (not checked): three troops read from the scores of all three."""
    if len(cards) == 3:
        a, b, c = cards
        if a < N_TROOPS and b < N_TROOPS and c < N_TROOPS:
            return _three_scores(fog)[a * 3600 + b * 60 + c]
    return score_tuple(tuple(cards), fog)


@lru_cache(maxsize=1 << 16)
def score_tuple(cards: tuple[int, ...], fog: bool) -> int:
    """`score` of a tuple of cards (a pure function, memoised: sides are re-scored every turn)."""
    if max(cards) >= N_TROOPS:
        return best(list(cards), len(cards), fog, EMPTY)
    return _troops_only(cards, fog)


# The most cards missing for which `completions` lists every completion, by formation size: up to
# C(60, 3) = 34,220 entries for an empty side of 3, none under Mud (ours: a table per set of three
# or fewer troops on a side of 4 would cost more to build than the searches it saves).
TABLE_MISSING = {3: 3, 4: 0}
SCORE_SHIFT = N_TROOPS  # a `completions` entry: score << SCORE_SHIFT | the troops it adds (bits)


@lru_cache(maxsize=1 << 12)
def completions(troops: tuple[int, ...], need: int, fog: bool) -> tuple[int, ...]:
    """Every completion of a side of troops only (`troops`, sorted) to `need` cards with troops
    not on it, highest first, each as `score << SCORE_SHIFT | bits` of the troops it adds, so the
    entries compare as their scores do. At most TABLE_MISSING[need] cards may be missing.

    The claim proof scans it: the side cannot beat `floor` from a pool of unseen troops when every
    entry above `floor << SCORE_SHIFT | ALL_TROOPS` adds a troop that is not in the pool."""
    k = need - len(troops)
    if not 0 < k <= TABLE_MISSING.get(need, 0):
        raise ValueError(f"no table of completions with {k} cards missing of {need}")
    others = [c for c in range(N_TROOPS) if c not in troops]
    of, bit = _three_scores(fog), _TROOP_BIT
    if k == 1:
        base = troops[0] * 3600 + troops[1] * 60
        table = [(of[base + c] << SCORE_SHIFT) | bit[c] for c in others]
    elif k == 2:
        base = troops[0] * 3600
        table = [(of[base + b * 60 + c] << SCORE_SHIFT) | bit[b] | bit[c] for b, c in combinations(others, 2)]
    else:
        table = [(of[a * 3600 + b * 60 + c] << SCORE_SHIFT) | bit[a] | bit[b] | bit[c]
                 for a, b, c in combinations(others, 3)]
    table.sort(reverse=True)
    return tuple(table)


_TROOP_BIT = [1 << c for c in range(N_TROOPS)]


@lru_cache(maxsize=2)
def _three_scores(fog: bool) -> list[int]:
    """The score of every three troops a, b, c (distinct, in any order) at a * 3600 + b * 60 + c
    (as _troops_only scores them, written out for three: 34,220 sets)."""
    out = [0] * (N_TROOPS ** 3)
    for a, b, c in combinations(range(N_TROOPS), 3):
        lo, mid, hi = sorted((a % 10, b % 10, c % 10))
        total = lo + mid + hi + 3
        if fog:
            s = total
        elif mid == lo + 1 and hi == mid + 1:
            s = (WEDGE if a // 10 == b // 10 == c // 10 else SKIRMISH) * 100 + total
        elif lo == hi:
            s = PHALANX * 100 + total
        else:
            s = (BATTALION if a // 10 == b // 10 == c // 10 else HOST) * 100 + total
        x, y, z = a * 3600, b * 60, c
        out[x + y + z] = out[x + c * 60 + b] = out[b * 3600 + a * 60 + c] = out[b * 3600 + c * 60 + a] = \
            out[c * 3600 + a * 60 + b] = out[c * 3600 + y + a] = s
    return out


def completed_from(cards: list[int], need: int, fog: bool, hand: list[int]) -> int:
    """The best score of the side `cards` completed with troops of `hand` (distinct troops, not on
    the table), or IMPOSSIBLE where `hand` holds too few: `best(cards, need, fog, Pool(hand))`, read
    off the table of every three troops where the side holds troops only and needs three."""
    k = len(cards)
    if need != 3 or k == 0 or k > 2 or max(cards) >= N_TROOPS:
        return best(cards, need, fog, Pool(hand)) if k != need else score(cards, need, fog)
    table = _three_scores(fog)
    if k == 2:
        base = cards[0] * 3600 + cards[1] * 60
        return max((table[base + t] for t in hand), default=IMPOSSIBLE)
    base, top = cards[0] * 3600, IMPOSSIBLE
    for i, t in enumerate(hand):
        row = base + t * 60
        for u in hand[i + 1:]:
            if table[row + u] > top:
                top = table[row + u]
    return top


def _troops_only(cards: tuple[int, ...] | list[int], fog: bool) -> int:
    values = sorted(c % 10 + 1 for c in cards)
    total = sum(values)
    if fog:
        return total
    first = cards[0] // 10
    flush = all(c // 10 == first for c in cards)
    run = all(values[i + 1] == values[i] + 1 for i in range(len(values) - 1))
    if run:
        return (WEDGE if flush else SKIRMISH) * 100 + total
    if values[0] == values[-1]:
        return PHALANX * 100 + total
    return (BATTALION if flush else HOST) * 100 + total


def best(cards: list[int], need: int, fog: bool, pool: Pool = EMPTY, floor: int = IMPOSSIBLE) -> int:
    """The best score a side holding `cards` can reach with `need - len(cards)` troops from `pool`.

    Returns IMPOSSIBLE when no completion scores above `floor` (or the pool is too small): the
    claim proof asks `best(opponent, ..., floor=my_score) == IMPOSSIBLE`."""
    k = need - len(cards)
    if k < 0:
        raise ValueError(f"{len(cards)} cards on a side that holds {need}")
    if k > pool.size:
        return IMPOSSIBLE
    troops = [c for c in cards if c < N_TROOPS]
    # Constrained wilds first (Shield Bearers, Cavalry, then Leaders) for the cover search.
    wilds = sorted((c for c in cards if c >= N_TROOPS), key=lambda c: (c in LEADERS, c))
    if not fog:
        for rank, find in _BY_RANK:
            if rank * 100 + 10 * need <= floor:
                return IMPOSSIBLE  # not even the highest sum of this rank beats the floor
            total = find(troops, wilds, k, need, pool)
            if total >= 0:
                s = rank * 100 + total
                return s if s > floor else IMPOSSIBLE
    total = sum(c % 10 + 1 for c in troops) + sum(_top(w) for w in wilds) + pool.top_values(k)
    return total if total > floor else IMPOSSIBLE


def completion_cards(found: int, cards: list[int], need: int, fog: bool, pool: Pool) -> int:
    """The troops (a 60-bit set) among which `best` found its completion scoring `found` of the
    side `cards` from `pool`: any pool that still holds those of them in `pool` completes the side
    to `found` too. A superset of what the completion takes, by rank: the run and colour of a
    Wedge, the value of a Phalanx, the colour of a Battalion, the run of a Skirmish; for a Host
    or under Fog (the highest sum), every value down to the lowest of the highest ones taken."""
    rank, total = divmod(found, 100)
    if fog or rank == HOST:
        k, v, counts = need - len(cards), 10, pool.per_value
        while v > 1 and k > counts[v]:  # the k highest values of the pool reach down to v
            k -= counts[v]
            v -= 1
        wanted = 0
        for u in range(v, 11):
            wanted |= _OF_VALUE[u]
        return wanted
    troops = [c for c in cards if c < N_TROOPS]
    colour = _OF_COLOUR[troops[0] // 10] if troops else ALL_TROOPS
    if rank == PHALANX:
        return _OF_VALUE[total // need]
    if rank == BATTALION:
        if not cards:  # an empty side: one colour whose highest troops make the sum will do
            colour = next(_OF_COLOUR[col] for col in range(6) if pool.top_values(need, col) == total)
        return colour
    lo = (total - need * (need - 1) // 2) // need  # a run's sum is need * lo + 0 + 1 + ...
    run = 0
    for v in range(lo, lo + need):
        run |= _OF_VALUE[v]
    if rank == WEDGE and not cards:  # an empty side: one colour that holds the whole run will do
        values = _RUN[need][lo]
        colour = next(_OF_COLOUR[col] for col in range(6) if values & ~pool.colour_mask[col] == 0)
    return run & colour if rank == WEDGE else run


def _runs(troops: list[int], need: int) -> range:
    """Lowest values of the runs of `need` consecutive values holding every troop, highest first."""
    lo, hi = 1, 11 - need
    if troops:
        values = [c % 10 + 1 for c in troops]
        lo, hi = max(lo, max(values) - need + 1), min(hi, min(values))
    return range(hi, lo - 1, -1)


def _cover(missing: int, short: int, wilds: list[int]) -> bool:
    """Can the wilds take distinct values of the `missing` mask, covering every `short` one?

    `short` is the part of `missing` that the pool cannot supply; the pool fills the rest."""
    if not wilds:
        return short == 0
    rest = wilds[1:]
    options = missing & _allows(wilds[0])
    while options:
        bit = options & -options
        options ^= bit
        if _cover(missing ^ bit, short & ~bit, rest):
            return True
    return False


def _value_mask(troops: list[int]) -> int:
    """Bit v for each troop value, or -1 if two troops share a value (no run possible)."""
    mask = 0
    for c in troops:
        bit = 1 << (c % 10 + 1)
        if mask & bit:
            return -1
        mask |= bit
    return mask


def _colours(troops: list[int]) -> list[int] | None:
    """The colours a one-colour formation may have: the troops' colour, any if none, else None."""
    if not troops:
        return list(range(6))
    first = troops[0] // 10
    return [first] if all(c // 10 == first for c in troops) else None


def _wedge(troops: list[int], wilds: list[int], k: int, need: int, pool: Pool) -> int:
    colours = _colours(troops)
    have = _value_mask(troops)
    if colours is None or have < 0:
        return IMPOSSIBLE
    masks, runs = pool.colour_mask, _RUN[need]
    for lo in _runs(troops, need):
        missing = runs[lo] & ~have
        for col in colours:
            short = missing & ~masks[col]
            if (short == 0 and not wilds) or (wilds and _cover(missing, short, wilds)):
                return need * lo + need * (need - 1) // 2
    return IMPOSSIBLE


def _phalanx(troops: list[int], wilds: list[int], k: int, need: int, pool: Pool) -> int:
    if troops:
        v = troops[0] % 10 + 1
        candidates = [v] if all(c % 10 + 1 == v for c in troops) else []
    else:
        candidates = range(10, 0, -1)
    for v in candidates:
        if all(_allows(w) >> v & 1 for w in wilds) and pool.per_value[v] >= k:
            return need * v
    return IMPOSSIBLE


def _battalion(troops: list[int], wilds: list[int], k: int, need: int, pool: Pool) -> int:
    colours = _colours(troops)
    if colours is None:
        return IMPOSSIBLE
    fixed = sum(c % 10 + 1 for c in troops) + sum(_top(w) for w in wilds)
    found = IMPOSSIBLE
    for col in colours:
        extra = pool.top_values(k, col)
        if extra >= 0:
            found = max(found, fixed + extra)
    return found


def _skirmish(troops: list[int], wilds: list[int], k: int, need: int, pool: Pool) -> int:
    have = _value_mask(troops)
    if have < 0:
        return IMPOSSIBLE
    supply, runs = pool.any_mask, _RUN[need]
    for lo in _runs(troops, need):
        missing = runs[lo] & ~have
        short = missing & ~supply
        if (short == 0 and not wilds) or (wilds and _cover(missing, short, wilds)):
            return need * lo + need * (need - 1) // 2
    return IMPOSSIBLE


_BY_RANK = ((WEDGE, _wedge), (PHALANX, _phalanx), (BATTALION, _battalion), (SKIRMISH, _skirmish))
