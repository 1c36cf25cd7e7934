"""Battle odds for the agents: exact (a float dynamic programme over the rules' own resolver) and
the seed's simulated battle. Both are pure functions of their arguments, so they can be cached
for the process without making an agent depend on what it saw before.

Both assume the most dice on both sides, as the seed does ("it would choose to use the maximum
amount of dice possible"): the attacker rolls min(3, a), the defender min(2, d).
"""

from __future__ import annotations

import math
import random
from functools import cache

from games.risk.dice import roll_counts

_ROLLS: dict[tuple[int, int], tuple[tuple[int, int, float], ...]] = {
    (ad, dd): tuple((la, ld, c / 6 ** (ad + dd)) for (la, ld), c in roll_counts(ad, dd).items())
    for ad in (1, 2, 3) for dd in (1, 2)
}
_CAP = 400  # armies beyond this count as this many (the odds are 0 or 1 to 9 digits long before)

_table: list[list[float]] = [[1.0]]  # _table[a][d]: grown on demand, rows and columns alike


def _grow(size: int) -> None:
    """Extend _table to (size + 1) x (size + 1), in a fixed order of float operations."""
    old = len(_table) - 1
    for row in _table:
        row.extend([0.0] * (size - old))
    for _ in range(size - old):
        _table.append([0.0] * (size + 1))
    for a in range(size + 1):
        for d in range(size + 1):
            if a <= old and d <= old:
                continue
            if d == 0:
                _table[a][d] = 1.0
            elif a == 0:
                _table[a][d] = 0.0
            else:
                rolls = _ROLLS[(min(3, a), min(2, d))]
                _table[a][d] = math.fsum(q * _table[a - la][d - ld] for la, ld, q in rolls)


def win_probability(attackers: int, defenders: int) -> float:
    """Exact chance that `attackers` armies able to attack (the territory holds one more) take a
    territory held by `defenders`, both rolling the most dice until it falls or none can attack."""
    a, d = min(max(attackers, 0), _CAP), min(max(defenders, 0), _CAP)
    if len(_table) <= max(a, d):
        _grow(max(a, d, 2 * (len(_table) - 1), 16))
    return _table[a][d]


@cache
def simulated_probability(attackers: int, defenders: int, battles: int) -> float:
    """The seed's "simulated battle": the share of `battles` mock battles the attacker wins.

    Each roll draws its outcome from the exact per-roll odds (the seed: "the probability values
    used in this function are calculated averages for the various combinations of dice rolls");
    the generator is seeded by the matchup (ours), so the estimate is a fixed number."""
    a0, d0 = min(max(attackers, 0), _CAP), min(max(defenders, 0), _CAP)
    if d0 == 0 or a0 == 0:
        return 1.0 if d0 == 0 else 0.0
    rng = random.Random(f"risk-simulated-battle/{a0}/{d0}/{battles}")
    rolls_of = [[_ROLLS[(min(3, a), min(2, d))] if a and d else () for d in range(3)] for a in range(4)]
    wins = 0
    for _ in range(battles):
        a, d = a0, d0
        while a > 0 and d > 0:
            rolls = rolls_of[a if a < 3 else 3][d if d < 2 else 2]  # noqa: FURB136 (min() is the hot spot)
            r = rng.random()
            for la, ld, q in rolls:
                r -= q
                if r < 0.0:
                    break
            a, d = a - la, d - ld
        wins += d == 0
    return wins / battles
