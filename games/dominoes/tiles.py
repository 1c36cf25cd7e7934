"""The double-six set and the action strings, as tables built once (shared with the agents).

A tile is an int 0..27 in the order 0-0, 0-1, ..., 0-6, 1-1, ..., 6-6, so that the tile names
("a-b", a <= b, one digit each) sort as the ints do; a hand is a bitmask of tiles. Actions:
- "a-b": open the hand with tile a-b on the empty line (it lies as [a|b]: left end a, right end b);
- "a-b:left" / "a-b:right": play a-b on that end of the line;
- "pass": only when no tile of the hand fits either end;
- "open:S": under `opener=pair_choice`, the chooser names seat S of its pair to open.
Built in tile order, "left" before "right", the lists of legal actions come out sorted.
"""

from __future__ import annotations

HIGH = 6  # double-six
TILES = tuple((a, b) for a in range(HIGH + 1) for b in range(a, HIGH + 1))
N_TILES = len(TILES)  # 28
HAND_SIZE = 7
SEATS = 4
LO = tuple(a for a, _ in TILES)
HI = tuple(b for _, b in TILES)
PIPS = tuple(a + b for a, b in TILES)
NAMES = tuple(f"{a}-{b}" for a, b in TILES)
INDEX = {name: t for t, name in enumerate(NAMES)}
DOUBLE_SIX = INDEX["6-6"]
ALL = (1 << N_TILES) - 1

# NUM[n]: the tiles that show the number n.
NUM = tuple(sum(1 << t for t, (a, b) in enumerate(TILES) if n in (a, b)) for n in range(HIGH + 1))

LEFT, RIGHT, OPEN = 0, 1, 2
PASS = "pass"
PASS_ONLY = (PASS,)
OPENING = tuple(NAMES)
ON_LEFT = tuple(f"{name}:left" for name in NAMES)
ON_RIGHT = tuple(f"{name}:right" for name in NAMES)

# PARSE: action -> (tile, end); "pass" -> (-1, -1).
PARSE: dict[str, tuple[int, int]] = {PASS: (-1, -1)}
for _t in range(N_TILES):
    PARSE[OPENING[_t]] = (_t, OPEN)
    PARSE[ON_LEFT[_t]] = (_t, LEFT)
    PARSE[ON_RIGHT[_t]] = (_t, RIGHT)


def _moves(left: int, right: int, t: int) -> tuple[str, ...]:
    # When both ends show the same number a tile that fits goes on the left only: the two
    # placements are mirror images (the `dominoes` package offers the same single move).
    a, b = TILES[t]
    out = []
    if left in (a, b):
        out.append(ON_LEFT[t])
    if right != left and right in (a, b):
        out.append(ON_RIGHT[t])
    return tuple(out)


# MOVES[left][right][t]: the actions that play tile t on a line with those ends.
MOVES = tuple(tuple(tuple(_moves(l, r, t) for t in range(N_TILES)) for r in range(HIGH + 1))
              for l in range(HIGH + 1))


def other_end(t: int, n: int) -> int:
    """The number tile t shows away from the end it is laid against (n must be on t)."""
    a, b = TILES[t]
    return b if a == n else a


def tiles_of(mask: int) -> list[int]:
    """The tiles of a hand bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def pips(mask: int) -> int:
    """The pips left in a hand bitmask."""
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() - 1]
        mask ^= low
    return total


def mask_of(names) -> int:
    """The bitmask of tile names such as "3-5" (raises KeyError on an unknown name)."""
    mask = 0
    for name in names:
        mask |= 1 << INDEX[name]
    return mask
