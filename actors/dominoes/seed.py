"""The seed's strategies as pure functions of a seat's `Table` (Martinez Carranza & Munoz Melendez
2005, "the seed"; section numbers are the seed's).

Tile choice (3.3, "Estrategias de los jugadores"):
- individualist ("Estrategia no cooperativa"): the heaviest double that fits either end; else,
  of the tiles that fit, the one whose other end ("extremo contrario") is most repeated in the
  player's remaining tiles; ties: the first candidate found. (The seed's paragraph says "jugador
  cooperativo" where it describes the non-cooperative player: a slip, as its title shows.)
- glutton ("glotón"): of the tiles that fit, the one with the most pips.
- blocker ("bloqueador"): of the tiles that fit (C0), those whose other end the opponents lack, as
  remembered from their passes (C1); of those, drop the ones whose other end the partner lacks,
  "para evitar bloquearlo" (C2); play the heaviest of C2, else of C1, else of C0; pass when none
  fits. The Prolog of the seed's table 3 filters by the partner first, then by the opponents, and
  shows no fallback; we follow the prose, whose order the fallbacks need.

Roles (3.4, "Elección de funciones" and "Comunicación"):
- the pair holding [6|6] opens the first hand; its holder is the glutton, the partner the blocker;
- when the pair does not open: the partner with more than two doubles is the glutton; with as
  many doubles, the one with the highest frequency of one number; "communicated through a signal
  only he understands" (the partner signal, game option `signal`);
- the pair swaps roles when the glutton has passed twice, not necessarily in a row.

Where the seed is silent (ours):
- the tile order: "first found" is the order of the legal actions, tiles ascending (0-0 ... 6-6),
  the left end before the right; a tile that fits both ends is two candidates, one per end, each
  with its own other end;
- the empty line (hands after the first, opened by choice): every tile fits and has no other end
  yet: the individualist takes the heaviest double, else the tile whose number is most repeated
  in the rest of its hand (the larger count of its two numbers); glutton and blocker alike play
  the heaviest tile;
- which partner opens for a pair that won the last hand: the rules' `opener` option decides; the
  opener is the glutton (the seed's [6|6] rule read as "the opener is the glutton"); under
  `opener=pair_choice` the chooser names the partner it reads as the glutton (itself without a
  signal); the individualist always names itself;
- when the pair does not open, both partners with more than two doubles, or one with two and the
  other one (neither "more than two", nor "the same number"): more doubles wins, then the highest
  frequency, then the lower seat (lexicographic on (doubles, top frequency));
- without the signal each partner decides from its own hand alone: it is the glutton when it has
  more than two doubles or a number on at least OWN_HAND_TOP tiles (4: about 48% of 7-tile hands
  qualify, the nearest to one half), and takes its partner for the other role; both partners may
  then take one role, which is the cost of no signal that the experiments measure;
- the swap happens at most once a hand, at the first glutton's second pass.
"""

from __future__ import annotations

from typing import NamedTuple

from actors.dominoes.table import Table, count, is_double, numbers
from games.dominoes.tiles import HIGH, LEFT, OPEN, PARSE, PASS, PIPS, TILES, other_end, tiles_of

GLUTTON, BLOCKER = "glutton", "blocker"
OWN_HAND_TOP = 4  # ours: see the module docstring
MORE_THAN_DOUBLES = 2  # seed 3.4: "más de dos mulas"
SWAP_PASSES = 2  # seed 3.4: "cuando el agente glotón ha sumado dos pasos"


class Choice(NamedTuple):
    """An action and the rule that chose it (for logs and transcripts)."""

    action: str
    rule: str


# -- placements ----------------------------------------------------------------------------

def exposed(table: Table, action: str) -> int | None:
    """The number a placement leaves at its end of the line (its "other end"); None for an opening."""
    t, end = PARSE[action]
    if end == OPEN:
        return None
    near = table.ends[0] if end == LEFT else table.ends[1]
    return other_end(t, near)


def tile_of(action: str) -> int:
    return PARSE[action][0]


def _heaviest(actions: list[str]) -> str:
    # max() keeps the first of equal weights: "the first found" on ties
    return max(actions, key=lambda a: PIPS[tile_of(a)])


def _tiles(legal: list[str]) -> list[str]:
    return [a for a in legal if a != PASS]


# -- the three strategies (seed 3.3) --------------------------------------------------------

def individualist(table: Table, legal: list[str]) -> Choice:
    """Seed 3.3 "Estrategia no cooperativa" (see the module docstring)."""
    if table.phase == "choose":
        return Choice(f"open:{table.me}", "ours: the individualist opens itself")
    cands = _tiles(legal)
    if not cands:
        return Choice(PASS, "3.3: nothing fits, pass")
    doubles = [a for a in cands if is_double(tile_of(a))]
    if doubles:
        return Choice(_heaviest(doubles), "3.3: the heaviest double that fits")
    hand = table.hand

    def repeats(a: str) -> int:
        rest = hand & ~(1 << tile_of(a))
        n = exposed(table, a)
        if n is None:  # the empty line (ours): the more repeated of the tile's two numbers
            lo, hi = TILES[tile_of(a)]
            return max(count(rest, lo), count(rest, hi))
        return count(rest, n)

    return Choice(max(cands, key=repeats), "3.3: the other end most repeated in the rest of the hand")


def glutton(table: Table, legal: list[str]) -> Choice:
    """Seed 3.3 "glotón": the heaviest tile that fits."""
    cands = _tiles(legal)
    if not cands:
        return Choice(PASS, "3.3: nothing fits, pass")
    return Choice(_heaviest(cands), "3.3 glutton: the heaviest tile that fits")


def blocker(table: Table, legal: list[str], lacks: tuple[int, ...]) -> Choice:
    """Seed 3.3 "bloqueador": block the opponents without blocking the partner; `lacks` per seat
    (bit n: the seat is known to hold no n), the blocker's memory of passes."""
    c0 = _tiles(legal)
    if not c0:
        return Choice(PASS, "3.3: nothing fits, pass")
    if table.ends is None:
        return Choice(_heaviest(c0), "ours: the blocker opens with the heaviest tile")
    opp = lacks[table.opponents[0]] | lacks[table.opponents[1]]
    c1 = [a for a in c0 if opp >> exposed(table, a) & 1]
    c2 = [a for a in c1 if not lacks[table.partner] >> exposed(table, a) & 1]
    if c2:
        return Choice(_heaviest(c2), "3.3 blocker: the heaviest tile leaving a number the opponents lack "
                                     "and the partner may hold")
    if c1:
        return Choice(_heaviest(c1), "3.3 blocker: the heaviest tile leaving a number the opponents lack "
                                     "(the partner lacks it too)")
    return Choice(_heaviest(c0), "3.3 blocker: no tile blocks, the heaviest that fits")


# -- roles (seed 3.4) -----------------------------------------------------------------------

def hand_key(mask: int) -> tuple[int, int]:
    """(doubles, top frequency): the seed's two criteria for the better hand (3.4)."""
    doubles = sum(1 for t in tiles_of(mask) if is_double(t))
    top = max(count(mask, n) for n in range(HIGH + 1))
    return doubles, top


def signal_code(mask: int) -> int:
    """The pair's agreed meaning of the signal (ours): doubles * 8 + top frequency of the dealt hand."""
    doubles, top = hand_key(mask)
    return doubles * 8 + top


def read_signal(code: int) -> tuple[int, int]:
    """The hand key a partner's signal code stands for."""
    return code // 8, code % 8


def own_hand_glutton(key: tuple[int, int]) -> bool:
    """Without a signal: this hand alone makes its holder the glutton (ours, see the docstring)."""
    doubles, top = key
    return doubles > MORE_THAN_DOUBLES or top >= OWN_HAND_TOP


class Roles(NamedTuple):
    """Who of the pair is the glutton now, as this seat reads it, and why."""

    glutton: int
    blocker: int
    swapped: bool
    why: str

    def role_of(self, seat: int) -> str:
        return GLUTTON if seat == self.glutton else BLOCKER


def first_glutton(table: Table, partner_key: tuple[int, int] | None) -> tuple[int, str]:
    """The glutton of the pair at the start of the hand (seed 3.4; ours where marked)."""
    me, partner = table.me, table.partner
    mine = hand_key(table.dealt())
    if table.phase == "choose":  # the chooser names the glutton as opener (ours)
        if partner_key is None:
            return me, "ours: choosing without a signal, the chooser opens as glutton"
        return _better(me, mine, partner, partner_key), "3.4 by the signal: the better hand opens as glutton"
    if table.pair_opens():
        if table.hand_no == 0:
            return table.opener, "3.4: the holder of 6-6 opens as glutton"
        return table.opener, "ours: the opener is the glutton"
    if partner_key is not None:
        return _better(me, mine, partner, partner_key), "3.4 by the signal: more doubles, then the top frequency"
    if own_hand_glutton(mine):
        return me, "ours, no signal: own hand strong enough for glutton"
    return partner, "ours, no signal: own hand too weak, the partner is taken for glutton"


def _better(me: int, mine: tuple[int, int], partner: int, theirs: tuple[int, int]) -> int:
    if mine != theirs:
        return me if mine > theirs else partner
    return min(me, partner)  # ours: equal hands, the lower seat


def roles(table: Table, partner_key: tuple[int, int] | None) -> Roles:
    """The pair's roles now: the first glutton, swapped once it has passed twice (seed 3.4)."""
    g, why = first_glutton(table, partner_key)
    other = table.partner if g == table.me else table.me
    if table.passes(g) >= SWAP_PASSES:
        return Roles(other, g, True, f"3.4: swapped after p{g}'s second pass ({why})")
    return Roles(g, other, False, why)


def choose_opener(table: Table, partner_key: tuple[int, int] | None) -> Choice:
    """Under opener=pair_choice: name the glutton (ours, see the docstring)."""
    g, why = first_glutton(table, partner_key)
    return Choice(f"open:{g}", why)


def glutton_blocker(table: Table, legal: list[str], partner_key: tuple[int, int] | None,
                    lacks: tuple[int, ...]) -> tuple[Choice, Roles]:
    """The pair strategy's move for this seat, and the roles it played by."""
    r = roles(table, partner_key)
    if table.phase == "choose":
        return choose_opener(table, partner_key), r
    if r.glutton == table.me:
        return glutton(table, legal), r
    return blocker(table, legal, lacks), r


def lacks_text(lacks: tuple[int, ...], me: int) -> dict[str, list[int]]:
    """The blocker's memory for logs: other seat -> the numbers it is known to lack."""
    return {f"p{s}": numbers(m) for s, m in enumerate(lacks) if s != me and m}

