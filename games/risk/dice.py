"""Risk battles: the resolver of one roll, and exact odds computed through it.

Rule (notes part 2.3; 1993 Parker Brothers rules): compare the highest attacker die with the
highest defender die, then the second highest of each if both rolled two or more; the defender
wins ties; each comparison costs the loser one army. Exact odds enumerate all 6^(a+d) rolls
through `resolve`, so the rules and the odds cannot disagree.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product


def resolve(attack: list[int] | tuple[int, ...], defend: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """(attacker losses, defender losses) of one roll; dice in any order."""
    a = sorted(attack, reverse=True)
    d = sorted(defend, reverse=True)
    lost_a = lost_d = 0
    for x, y in zip(a, d):
        if x > y:
            lost_d += 1
        else:
            lost_a += 1
    return lost_a, lost_d


@cache
def resolved(attack: tuple[int, ...], defend: tuple[int, ...]) -> tuple[int, int]:
    """`resolve` of a roll given as tuples, remembered (at most 10,836 rolls of 1-3 v 1-2 dice)."""
    return resolve(attack, defend)


@cache
def losses_by_roll(attack_dice: int, defend_dice: int) -> dict[tuple[int, ...], tuple[int, int]]:
    """`resolve` of every roll of `attack_dice` and `defend_dice` dice, keyed by all the dice in
    one tuple, the attacker's first (made on first use: 6^(a+d) rolls, 7,776 for 3 v 2)."""
    return {roll: resolve(roll[:attack_dice], roll[attack_dice:])
            for roll in product(range(1, 7), repeat=attack_dice + defend_dice)}


@cache
def roll_counts(attack_dice: int, defend_dice: int) -> dict[tuple[int, int], int]:
    """How many of the 6^(a+d) rolls give each (attacker losses, defender losses)."""
    counts: dict[tuple[int, int], int] = {}
    for roll in product(range(1, 7), repeat=attack_dice + defend_dice):
        key = resolve(roll[:attack_dice], roll[attack_dice:])
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


@cache
def _roll_odds(attack_dice: int, defend_dice: int) -> tuple[tuple[int, int, Fraction], ...]:
    total = 6 ** (attack_dice + defend_dice)
    return tuple((la, ld, Fraction(c, total)) for (la, ld), c in roll_counts(attack_dice, defend_dice).items())


@cache
def conquest_probability(attackers: int, defenders: int) -> Fraction:
    """Exact chance the attacker takes the territory, both sides always rolling the most dice.

    `attackers` counts the armies able to attack (the territory holds attackers + 1): it rolls
    min(3, attackers) dice; the defender rolls min(2, defenders). Dynamic programming over the
    roll outcomes of `resolve`, attacking until the territory falls or no army can attack."""
    if defenders <= 0:
        return Fraction(1)
    if attackers <= 0:
        return Fraction(0)
    p = Fraction(0)
    for la, ld, q in _roll_odds(min(3, attackers), min(2, defenders)):
        p += q * conquest_probability(attackers - la, defenders - ld)
    return p


def conquest_table(max_attackers: int = 10, max_defenders: int = 10) -> list[list[float]]:
    """conquest_probability(a, d) for a, d = 1..max, as floats: rows a, columns d."""
    return [[float(conquest_probability(a, d)) for d in range(1, max_defenders + 1)]
            for a in range(1, max_attackers + 1)]
