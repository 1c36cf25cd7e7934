"""Risk action strings, built once, in the orders that make legal-action lists come out sorted.

Territories appear by their three-letter codes (games.risk.mapdata), so walking territories and
neighbours in code order and appending each one's actions in string order gives sorted lists
without a sort. The vocabulary: `claim:T`, `place:T:n`, `trade:X,Y,Z`, `attack:F,T,d`,
`defend:d`, `move:n`, `fortify:F,T`, `end`.
"""

from __future__ import annotations

from functools import lru_cache
from operator import add, itemgetter, or_
from typing import Any

from games.risk.mapdata import CODES, NEIGHBOURS, NUM_TERRITORIES

END = "end"
BY_CODE = tuple(sorted(range(NUM_TERRITORIES), key=CODES.__getitem__))
CODE_RANK = tuple(BY_CODE.index(t) for t in range(NUM_TERRITORIES))  # a territory's place in BY_CODE
CLAIMS = tuple(f"claim:{c}" for c in CODES)
CLAIM_ORDER = tuple(sorted(range(NUM_TERRITORIES), key=CLAIMS.__getitem__))
DEFENDS = ("defend:1", "defend:2")
ATTACKS = {(f, t): tuple(f"attack:{CODES[f]},{CODES[t]},{d}" for d in (1, 2, 3))
           for f in range(NUM_TERRITORIES) for t in NEIGHBOURS[f]}
# For each territory: (neighbour, its three attack strings), neighbours in code order.
ATTACK_PREFIX = tuple(f"attack:{c}," for c in CODES)  # what every attack from a territory starts with
ATTACK_END = tuple(f"attack:{c}-" for c in CODES)  # just above all of them ("-" follows ",")
ATTACKS_BY_CODE = tuple(tuple((t, ATTACKS[(f, t)]) for t in sorted(NEIGHBOURS[f], key=CODES.__getitem__))
                        for f in range(NUM_TERRITORIES))
FORTIFIES = {(f, t): f"fortify:{CODES[f]},{CODES[t]}"
             for f in range(NUM_TERRITORIES) for t in range(NUM_TERRITORIES) if f != t}
# For each territory: (neighbour, its fortify string), neighbours in code order.
FORTIFIES_BY_CODE = tuple(tuple((t, FORTIFIES[(f, t)]) for t, _ in ATTACKS_BY_CODE[f]) for f in range(NUM_TERRITORIES))

# Land masks: sets of territories as ints whose bit r stands for BY_CODE[r], the territory of code
# rank r, so that a mask's territories in code order are its bits from the lowest up.
LAND_BIT = tuple(1 << CODE_RANK[t] for t in range(NUM_TERRITORIES))
ALL_LAND = (1 << NUM_TERRITORIES) - 1
NEAR = tuple(sum(LAND_BIT[u] for u in NEIGHBOURS[t]) for t in range(NUM_TERRITORIES))  # a territory's neighbours
# Masks are read a byte at a time (mask.to_bytes(6, "little")): per byte i and value v (bits 8i..
# of a mask), the territories of those bits in code order, and the mask of all their neighbours.
def _chunk_tables(first: Any, item: Any, join: Any) -> tuple[tuple[Any, ...], ...]:
    """Per byte i of a land mask and value v: join(item[t], the entry of v less its lowest bit),
    t the lowest bit's territory (in code order the first of them); `first` for v = 0."""
    out = []
    for i in range(6):
        chunk = [first]
        for v in range(1, 256):
            low = v & -v
            r = 8 * i + low.bit_length() - 1
            chunk.append(join(item[BY_CODE[r]], chunk[v ^ low]) if r < NUM_TERRITORIES else chunk[v ^ low])
        out.append(tuple(chunk))
    return tuple(out)


_CHUNK_LAND = _chunk_tables((), tuple((t,) for t in range(NUM_TERRITORIES)), add)
_CHUNK_NEAR = _chunk_tables(0, NEAR, or_)
_L0, _L1, _L2, _L3, _L4, _L5 = _CHUNK_LAND  # one global a chunk: land and land_near read them directly
_N0, _N1, _N2, _N3, _N4, _N5 = _CHUNK_NEAR
assert NUM_TERRITORIES == 42
_BY_RANK_DOWN = itemgetter(*reversed(BY_CODE))  # owner list -> owners from the highest code rank down
_DIGIT = tuple(bytes(49 if v == seat else 48 for v in range(256)) for seat in range(8))  # seat -> b"1", else b"0"


def land_mask(owner: list[int], seat: int) -> int:
    """The land mask of `seat`'s territories (owner: seats by map index), made as one binary number
    written from the highest code rank down (seats 0..7; else territory by territory)."""
    try:
        return int(bytes(_BY_RANK_DOWN(owner)).translate(_DIGIT[seat]), 2)
    except (ValueError, IndexError):  # an unclaimed territory (-1), or a seat beyond 7
        return sum(LAND_BIT[t] for t in range(NUM_TERRITORIES) if owner[t] == seat)


def land_near(mask: int, of: int) -> list[int]:
    """The territories of land mask `of` next to one in `mask`, in code order: the neighbours'
    mask of `mask` (_CHUNK_NEAR, a byte at a time) and `of`, read back into territories as
    `land` does (inlined: it runs on every attack list)."""
    b0, b1, b2, b3, b4, b5 = mask.to_bytes(6, "little")  # unpacked: a bytes subscript is not a fast one
    m = of & (_N0[b0] | _N1[b1] | _N2[b2] | _N3[b3] | _N4[b4] | _N5[b5])
    b0, b1, b2, b3, b4, b5 = m.to_bytes(6, "little")
    return [*_L0[b0], *_L1[b1], *_L2[b2], *_L3[b3], *_L4[b4], *_L5[b5]]


def land(mask: int) -> list[int]:
    """The territories of land mask `mask`, in code order (_CHUNK_LAND, a byte at a time)."""
    b0, b1, b2, b3, b4, b5 = mask.to_bytes(6, "little")
    return [*_L0[b0], *_L1[b1], *_L2[b2], *_L3[b3], *_L4[b4], *_L5[b5]]


def submasks(mask: int) -> list[int]:
    """Every non-empty land mask inside `mask`."""
    out, sub = [], mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    return out
PARSE: dict[str, tuple[Any, ...]] = {
    **{s: ("claim", i) for i, s in enumerate(CLAIMS)},
    **{s: ("defend", d + 1) for d, s in enumerate(DEFENDS)},
    **{s: ("attack", f, t, d + 1) for (f, t), ss in ATTACKS.items() for d, s in enumerate(ss)},
    **{s: ("fortify", f, t) for (f, t), s in FORTIFIES.items()},
    END: ("end",),
}


def attack_run(f: int, targets: int, dice: int) -> tuple[str, ...]:
    """The attacks from `f` on the neighbours in the land mask `targets` with 1..`dice` dice, sorted."""
    return tuple(s for t, strings in ATTACKS_BY_CODE[f] if targets & LAND_BIT[t] for s in strings[:dice])


def fortify_run(f: int, friends: int) -> tuple[str, ...]:
    """The fortify moves from `f` to the neighbours in the land mask `friends`, sorted."""
    return tuple(s for t, s in FORTIFIES_BY_CODE[f] if friends & LAND_BIT[t])


# Every attack run, attack_run(f, targets, dice) at ATTACK_RUNS[f][dice][targets], and every
# fortify run, fortify_run(f, friends) at FORTIFY_RUNS[f][friends]: plain dicts keyed by the
# neighbours' mask alone (a mask's bits are above 2^30, so each shift or "or" on one is an
# allocation: one "and" is all a look-up needs), tuples by territory and dice; 2,682 and 894
# runs, ~10 ms to make; FORTIFY_RUNS[f][0] is empty (a territory next to none of its own).
ATTACK_RUNS = tuple((None,) + tuple({targets: attack_run(f, targets, d) for targets in submasks(NEAR[f])}
                                    for d in (1, 2, 3))
                    for f in range(NUM_TERRITORIES))
FORTIFY_RUNS = tuple({friends: fortify_run(f, friends) for friends in submasks(NEAR[f]) + [0]}
                     for f in range(NUM_TERRITORIES))


_PLACES: dict[tuple[int, int], str] = {}
PLACED: dict[str, tuple[int, int]] = {}  # every string `place` has made: (territory, armies)


def place(t: int, n: int) -> str:
    """`place:T:n`, made once (and remembered in PLACED)."""
    s = _PLACES.get((t, n))
    if s is None:
        s = _PLACES[(t, n)] = f"place:{CODES[t]}:{n}"
        PLACED[s] = (t, n)
    return s


@lru_cache(maxsize=256)
def chunks(left: int) -> tuple[int, ...]:
    """Placement sizes offered with `left` armies to place: the powers of two below it, and all."""
    out, n = [], 1
    while n < left:
        out.append(n)
        n *= 2
    return tuple(out) + (left,)


@lru_cache(maxsize=512)
def placements(left: int) -> tuple[tuple[str, ...], ...]:
    """Per territory, its `place:T:n` for the sizes offered with `left` to place, in string order."""
    sizes = sorted(chunks(left), key=str)
    return tuple(tuple(place(t, k) for k in sizes) for t in range(NUM_TERRITORIES))


# Reinforce's placements with `left` armies to place, by land-mask chunk (see land): at
# [left][i][v], placements(left)[t] for the territories of value v of chunk i, in code order, in one
# tuple; made for a `left` on its first use (place_table).
PLACE_TABLES: dict[int, tuple[tuple[tuple[str, ...], ...], ...]] = {}


def place_table(left: int) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """PLACE_TABLES[left], made if missing."""
    table = PLACE_TABLES.get(left)
    if table is None:
        table = PLACE_TABLES[left] = _chunk_tables((), placements(left), add)
    return table


_MOVES = ["move:0"]  # `move:n` at n, made as far as asked


@lru_cache(maxsize=1024)
def moves(lo: int, hi: int) -> tuple[str, ...]:
    """`move:n` for n = lo..hi, in string order."""
    if hi >= len(_MOVES):
        _MOVES.extend(f"move:{n}" for n in range(len(_MOVES), hi + 1))
    return tuple(sorted(_MOVES[lo:hi + 1]))
