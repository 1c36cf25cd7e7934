"""Risk action strings, built once, in the orders that make legal-action lists come out sorted.

Territories appear by their three-letter codes (games.risk.mapdata), so walking territories and
neighbours in code order and appending each one's actions in string order gives sorted lists
without a sort. The vocabulary: `claim:T`, `place:T:n`, `trade:X,Y,Z`, `attack:F,T,d`,
`defend:d`, `move:n`, `fortify:F,T`, `end`.
"""

from __future__ import annotations

from functools import cache, lru_cache
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
BIT = tuple(1 << t for t in range(NUM_TERRITORIES))  # a territory's bit in the masks below
NEIGHBOUR_MASK = tuple(sum(1 << t for t in NEIGHBOURS[f]) for f in range(NUM_TERRITORIES))  # bit t: a neighbour
PARSE: dict[str, tuple[Any, ...]] = {
    **{s: ("claim", i) for i, s in enumerate(CLAIMS)},
    **{s: ("defend", d + 1) for d, s in enumerate(DEFENDS)},
    **{s: ("attack", f, t, d + 1) for (f, t), ss in ATTACKS.items() for d, s in enumerate(ss)},
    **{s: ("fortify", f, t) for (f, t), s in FORTIFIES.items()},
    END: ("end",),
}


@cache
def attack_run(f: int, targets: int, dice: int) -> tuple[str, ...]:
    """The attacks from `f` on the neighbours in the bit mask `targets` with 1..`dice` dice, sorted."""
    return tuple(s for t, strings in ATTACKS_BY_CODE[f] if targets >> t & 1 for s in strings[:dice])


@cache
def fortify_run(f: int, friends: int) -> tuple[str, ...]:
    """The fortify moves from `f` to the neighbours in the bit mask `friends`, sorted."""
    return tuple(s for t, s in FORTIFIES_BY_CODE[f] if friends >> t & 1)


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


@lru_cache(maxsize=1024)
def moves(lo: int, hi: int) -> tuple[str, ...]:
    """`move:n` for n = lo..hi, in string order."""
    return tuple(sorted(f"move:{n}" for n in range(lo, hi + 1)))
