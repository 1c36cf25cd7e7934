"""Deep Barca's probabilistic model (McCulloch et al. 2017, sections 3.2-3.4).

A *formation* here is what the paper's Table 1 lists: a target for one side of a flag, e.g. the
red wedge 10-9-8, the phalanx of nines, the red battalion 10-9-7, the skirmish 6-7-8 (any colours),
a host 10-10-6. Its chance of being made is the chance that the side gets the troops it still
needs (3.4: each troop's chance comes from `Chances`; troops are taken as independent), e.g. "any
two of the five remaining nines" for the phalanx. Formations of one side are enumerated strongest
first (`formations`); the model works on the top four (3.2) and, for the opponent, on every
formation that beats one of ours (Table 1's "probability of opponent beating").

Per flag (3.2): neither side has played: 0.5; both have: the MFA (3.3), the union of independent
events 1 - prod(1 - p_i) over our top four, p_i = P(make i) * P(i not beaten); one side only: a mix
of the MFA and the BSFA (3.3: the side without cards is given its single best formation, which
each of the played side's top four must beat; by default, ours, the one that best beats those four,
params.bsfa_goal). Then the game (3.2): the weighted average of the chances of any five flags and
of three adjacent ones, flags taken as independent (params.game, five_weight_power: the weights).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement, permutations
from typing import NamedTuple

from actors.battleline.params import INITIAL_TROOP_DECK, DeepBarcaParams
from games.battleline.cards import CAVALRY, COLOURS, N_TROOPS, SHIELD
from games.battleline.formations import IMPOSSIBLE, Pool, best, score

RANKS = ("host", "skirmish", "battalion", "phalanx", "wedge")
_ALL_VALUES = tuple(range(1, 11))
# Morale tactics in a formation (1.1 "Morale tactics"): the values each may take, and the value
# it takes where only the sum counts (its highest).
_ALLOWED = {CAVALRY: (8,), SHIELD: (1, 2, 3)}
_TOP = {CAVALRY: 8, SHIELD: 3}
# Value multisets of k cards, highest sum first (hosts, and every sum under Fog).
_MULTISETS = {k: sorted(combinations_with_replacement(range(10, 0, -1), k), key=lambda m: -sum(m))
              for k in range(1, 5)}


def _allowed(wild: int) -> tuple[int, ...]:
    return _ALLOWED.get(wild, _ALL_VALUES)


def _top(wild: int) -> int:
    return _TOP.get(wild, 10)


class Formation(NamedTuple):
    """A target of one side: its score (formations.py: rank * 100 + sum), the chance of making
    it, the troops it hopes for (its wishlist, 3.5), and what it is (kind, colour or -1, values)."""

    score: int
    chance: float
    needs: tuple[int, ...]
    what: tuple[str, int, tuple[int, ...]]


def describe(form: Formation) -> str:
    """`wedge R10-9-8`, `phalanx 9-9-9`, `host 10-10-6`, `sum 24` (under Fog)."""
    kind, colour, values = form.what
    text = "-".join(str(v) for v in sorted(values, reverse=True))
    return f"{kind} {COLOURS[colour] if colour >= 0 else ''}{text}"


class Chances:
    """Per troop, the chance that one side's owner gets it for a formation (3.4): 1 for its own
    hand (the agent's side only), 0 for a troop on the board or discarded, else a share."""

    __slots__ = ("_tail", "p")

    def __init__(self, p: list[float]):
        self.p = p
        self._tail: dict[tuple[int, int], float] = {}

    def without(self, card: int) -> Chances:
        """The same chances once `card` is on the board (0 for every other formation)."""
        p = list(self.p)
        p[card] = 0.0
        return Chances(p)

    def of_value(self, v: int) -> tuple[int, ...]:
        p = self.p
        return tuple(c for c in range(v - 1, N_TROOPS, 10) if p[c] > 0.0)

    def at_least(self, v: int, m: int) -> float:
        """The chance of getting at least m of the troops of value v (a Poisson-binomial tail)."""
        key = (v, m)
        found = self._tail.get(key)
        if found is None:
            found = self._tail[key] = _tail([self.p[c] for c in range(v - 1, N_TROOPS, 10)], m)
        return found


def _tail(probs: list[float], m: int) -> float:
    dist = [1.0]  # dist[j]: chance of exactly j so far
    for q in probs:
        if q <= 0.0:
            continue
        nxt = [0.0] * (len(dist) + 1)
        for j, d in enumerate(dist):
            nxt[j] += d * (1.0 - q)
            nxt[j + 1] += d * q
        dist = nxt
    return math.fsum(dist[m:]) if m < len(dist) else 0.0


# -- formations of one side, strongest first ---------------------------------------------------

def formations(cards: list[int], need: int, fog: bool, ch: Chances) -> Iterator[Formation]:
    """Every formation the side holding `cards` can still make, by non-increasing score."""
    k = need - len(cards)
    if k < 0:
        return
    if k == 0:
        yield Formation(score(cards, need, fog), 1.0, (), ("made", -1, ()))
        return
    troops = [c for c in cards if c < N_TROOPS]
    wilds = sorted(c for c in cards if c >= N_TROOPS)
    values = [c % 10 + 1 for c in troops]
    if fog:  # 1.1 "Fog": only the sum counts
        yield from _sums(values, wilds, k, ch, rank=0, exclude=False)
        return
    yield from _wedges(troops, values, wilds, need, ch)
    yield from _phalanxes(values, wilds, need, k, ch)
    yield from _battalions(troops, values, wilds, need, k, ch)
    yield from _skirmishes(values, wilds, need, ch)
    yield from _sums(values, wilds, k, ch, rank=0, exclude=True)


def _one_colour(troops: list[int]) -> tuple[int, ...]:
    if not troops:
        return tuple(range(6))
    first = troops[0] // 10
    return (first,) if all(c // 10 == first for c in troops) else ()


def _runs(values: list[int], need: int) -> range:
    """Lowest values of the runs of `need` values holding all `values`, highest run first."""
    if len(set(values)) != len(values):
        return range(0)
    lo, hi = 1, 11 - need
    if values:
        lo, hi = max(lo, max(values) - need + 1), min(hi, min(values))
    return range(hi, lo - 1, -1)


def _cover(missing: list[int], wilds: list[int], chance_of) -> tuple[float, list[int]]:
    """Wilds take distinct missing values they allow; the rest must be got. The cover with the
    best chance: (chance, values still to get)."""
    if not wilds:
        prob = 1.0
        for v in missing:
            prob *= chance_of(v)
        return prob, missing
    best_prob, best_rest = 0.0, missing
    for chosen in permutations(missing, len(wilds)):
        if any(v not in _allowed(w) for v, w in zip(chosen, wilds)):
            continue
        rest = [v for v in missing if v not in chosen]
        prob = 1.0
        for v in rest:
            prob *= chance_of(v)
        if prob > best_prob:
            best_prob, best_rest = prob, rest
    return best_prob, best_rest


def _wedges(troops, values, wilds, need, ch) -> Iterator[Formation]:
    p = ch.p
    colours = _one_colour(troops)
    for lo in _runs(values, need):
        run = tuple(range(lo, lo + need))
        missing = [v for v in run if v not in values]
        total = 400 + sum(run)
        for col in colours:
            if wilds:
                prob, rest = _cover(missing, wilds, lambda v, col=col: p[col * 10 + v - 1])
                needs = tuple(col * 10 + v - 1 for v in rest)
            else:
                needs = tuple(col * 10 + v - 1 for v in missing)
                prob = 1.0
                for c in needs:
                    prob *= p[c]
            if prob > 0.0:
                yield Formation(total, prob, needs, ("wedge", col, run))


def _phalanxes(values, wilds, need, k, ch) -> Iterator[Formation]:
    if values and any(v != values[0] for v in values):
        return
    for v in ((values[0],) if values else range(10, 0, -1)):
        if all(v in _allowed(w) for w in wilds):
            prob = ch.at_least(v, k)
            if prob > 0.0:
                yield Formation(300 + need * v, prob, ch.of_value(v), ("phalanx", -1, (v,) * need))


def _battalions(troops, values, wilds, need, k, ch) -> Iterator[Formation]:
    p = ch.p
    fixed = sum(values) + sum(_top(w) for w in wilds)
    colours = _one_colour(troops)
    if not colours:
        return
    free = [sum(1 << v for v in range(1, 11) if p[col * 10 + v - 1] > 0.0) for col in range(6)]
    have = 0
    for v in values:
        have |= 1 << v
    tail = tuple(values) + tuple(_top(w) for w in wilds)
    for combo, mask in _COMBOS[k]:
        if not wilds and not have & mask and _is_run_mask(have | mask, need):
            continue  # that is a wedge
        for col in colours:
            if free[col] & mask != mask:
                continue
            prob = 1.0
            for v in combo:
                prob *= p[col * 10 + v - 1]
            yield Formation(200 + fixed + sum(combo), prob, tuple(col * 10 + v - 1 for v in combo),
                            ("battalion", col, tail + combo))


def _is_run_mask(mask: int, n: int) -> bool:
    low = mask & -mask
    return mask // low == (1 << n) - 1


# Distinct value sets of k cards (battalions), highest sum first, with their value masks.
_COMBOS = {k: [(c, sum(1 << v for v in c)) for c in
               sorted(combinations(range(10, 0, -1), k), key=lambda c: -sum(c))] for k in range(1, 5)}


def _skirmishes(values, wilds, need, ch) -> Iterator[Formation]:
    for lo in _runs(values, need):
        run = tuple(range(lo, lo + need))
        missing = [v for v in run if v not in values]
        prob, rest = _cover(missing, wilds, lambda v: ch.at_least(v, 1))
        if prob > 0.0:
            needs = tuple(c for v in rest for c in ch.of_value(v))
            yield Formation(100 + sum(run), prob, needs, ("skirmish", -1, run))


def _sums(values, wilds, k, ch, rank: int, exclude: bool) -> Iterator[Formation]:
    """Hosts (or, under Fog, every formation) by the values of the troops still to come."""
    fixed = sum(values) + sum(_top(w) for w in wilds)
    kind = "host" if exclude else "sum"
    for combo in _MULTISETS[k]:
        if exclude and not wilds:
            full = values + list(combo)
            if all(v == full[0] for v in full) or _is_run(full):
                continue  # a phalanx or a skirmish
        prob, needs, i = 1.0, [], 0
        while i < k:  # combo is sorted: equal values are adjacent
            v, m = combo[i], 1
            while i + m < k and combo[i + m] == v:
                m += 1
            prob *= ch.at_least(v, m)
            if prob == 0.0:
                break
            needs.extend(ch.of_value(v))
            i += m
        if prob > 0.0:
            yield Formation(rank * 100 + fixed + sum(combo), prob, tuple(needs),
                            (kind, -1, tuple(values) + combo + tuple(_top(w) for w in wilds)))


def _is_run(values: list[int]) -> bool:
    ordered = sorted(values)
    return all(ordered[i + 1] == ordered[i] + 1 for i in range(len(ordered) - 1))


class Lazy:
    """The formations of one side, enumerated once and kept: the opponent's side of a flag is the
    same for every move tried in a decision."""

    __slots__ = ("_source", "done", "items")

    def __init__(self, source: Iterator[Formation]):
        self.items: list[Formation] = []
        self._source = source
        self.done = False

    def get(self, i: int) -> Formation | None:
        items = self.items
        while len(items) <= i:
            if self.done:
                return None
            nxt = next(self._source, None)
            if nxt is None:
                self.done = True
                return None
            items.append(nxt)
        return items[i]

    def head(self, n: int) -> list[Formation]:
        self.get(n - 1)
        return self.items[:n]


def top(cards: list[int], need: int, fog: bool, ch: Chances, n: int) -> list[Formation]:
    """The n strongest formations the side can still make (3.2: "the top four")."""
    out = []
    for form in formations(cards, need, fog, ch):
        out.append(form)
        if len(out) == n:
            break
    return out


# -- one flag ----------------------------------------------------------------------------------

@dataclass
class FlagChance:
    """The model's verdict on one flag: the agent's chance of winning it and how it was found."""

    p: float
    method: str  # claimed, decided, proved, lost, empty, mfa, mix, open
    mfa: float | None = None
    bsfa: float | None = None
    mine: list[tuple[Formation, float]] = field(default_factory=list)  # (formation, P(not beaten))
    theirs: list[Formation] = field(default_factory=list)
    wish_me: frozenset[int] = frozenset()  # troops our top formations hope for (3.5)
    wish_op: frozenset[int] = frozenset()

    def report(self) -> dict:
        """JSON-ready: what the transcript shows."""
        out: dict = {"p": round(self.p, 4), "method": self.method}
        if self.mfa is not None:
            out["mfa"] = round(self.mfa, 4)
        if self.bsfa is not None:
            out["bsfa"] = round(self.bsfa, 4)
        if self.mine:
            out["mine"] = [[describe(f), round(f.chance, 4), round(1.0 - keep, 4)] for f, keep in self.mine]
        if self.theirs:
            out["theirs"] = [[describe(f), round(f.chance, 4)] for f in self.theirs]
        return out


@dataclass
class Side:
    """One flag as the model needs it: both sides (ours first), their completion stamps."""

    mine: list[int]
    theirs: list[int]
    need: int
    fog: bool
    stamp_mine: int
    stamp_theirs: int


def proved(side: Side, flip: bool, pool: Pool) -> bool:
    """The claim proof (1.1 "Claiming and proof") for our side, or theirs if `flip`."""
    mine, theirs = (side.theirs, side.mine) if flip else (side.mine, side.theirs)
    s_mine, s_theirs = (side.stamp_theirs, side.stamp_mine) if flip else (side.stamp_mine, side.stamp_theirs)
    need, fog = side.need, side.fog
    if len(mine) != need or len(theirs) > need:
        return False
    mine_score = score(mine, need, fog)
    if len(theirs) == need:
        theirs_score = score(theirs, need, fog)
        return mine_score > theirs_score or (mine_score == theirs_score and s_mine < s_theirs)
    return best(theirs, need, fog, pool, floor=mine_score) == IMPOSSIBLE


def flag_chance(side: Side, me: Chances, op: Chances, pool: Pool, params: DeepBarcaParams,
                theirs_forms: Lazy | None = None) -> FlagChance:
    """The agent's chance of winning one unclaimed flag (3.2 a-c). `theirs_forms`: the opponent
    side's formations under `op`, when the caller keeps them."""
    mine, theirs, need = side.mine, side.theirs, side.need
    if len(mine) > need or len(theirs) > need:
        return FlagChance(params.empty_flag, "open")  # a side still to cut after Mud left
    if len(mine) == need and len(theirs) == need:
        return FlagChance(1.0 if proved(side, False, pool) else 0.0, "decided")
    if proved(side, False, pool):
        return FlagChance(1.0, "proved")
    if proved(side, True, pool):
        return FlagChance(0.0, "lost")
    if not mine and not theirs:
        return FlagChance(params.empty_flag, "empty")  # 3.2a
    n = params.top_formations
    my_top = top(mine, need, side.fog, me, n)
    if theirs_forms is None:
        theirs_forms = Lazy(formations(theirs, need, side.fog, op))
    tie = 0.0 if len(mine) == need else (1.0 if len(theirs) == need else params.tie_share)
    keeps = _not_beaten([f.score for f in my_top], theirs_forms, tie, params.beaten_cutoff)
    combine = _union if params.combine == "union" else _best_made
    mfa = combine([(f.chance, keep) for f, keep in zip(my_top, keeps)])
    op_top = theirs_forms.head(n)
    result = FlagChance(mfa, "mfa", mfa=mfa, mine=list(zip(my_top, keeps)), theirs=op_top,
                        wish_me=frozenset(c for f in my_top for c in f.needs),
                        wish_op=frozenset(c for f in op_top for c in f.needs))
    if mine and theirs:
        return result  # 3.2b
    # 3.2c, 3.3: the played side's top four against the empty side's single best formation.
    if mine:
        goal = _goal(theirs_forms, my_top, params, combine)
        bsfa = _bsfa(my_top, goal, params.tie_share, combine)
    else:
        mine_forms = Lazy(formations(mine, need, side.fog, me)) if params.bsfa_goal != "strongest" else None
        goal = _goal(mine_forms, op_top, params, combine) if mine_forms is not None else my_top[:1]
        bsfa = 1.0 - _bsfa(op_top, goal, params.tie_share, combine)
    w = params.mfa_weight
    result.p, result.method, result.bsfa = w * mfa + (1.0 - w) * bsfa, "mix", bsfa
    return result


def _goal(empty: Lazy, played: list[Formation], params: DeepBarcaParams, combine) -> list[Formation]:
    """The empty side's single best formation (3.3): the strongest (bsfa_goal="strongest"), or
    (ours) "the potential goal of the opponent who sees a card played and is trying to beat what
    our agent is trying to do": of its formations that beat or tie the played side's best one
    ("best_reply"), or any of its top four ("any_reply"), the one that leaves the played side's
    top four the least chance. The search stops after `bsfa_search` formations, or at one it
    cannot improve on (made for sure)."""
    if params.bsfa_goal == "strongest" or not played:
        return empty.head(1)
    floor = played[0].score if params.bsfa_goal == "best_reply" else min(f.score for f in played)
    best_form, best_value = None, 2.0
    for i in range(params.bsfa_search):
        form = empty.get(i)
        if form is None or form.score < floor:
            break
        value = _bsfa(played, [form], params.tie_share, combine)
        if value < best_value:
            best_form, best_value = form, value
            if form.chance >= 1.0:
                break
    return [best_form] if best_form is not None else empty.head(1)


def _bsfa(played: list[Formation], empty_best: list[Formation], tie: float, combine) -> float:
    """The played side's chance against the single best formation of the side without cards."""
    if not empty_best:
        return combine([(f.chance, 1.0) for f in played])
    b = empty_best[0]
    return combine([(f.chance, 1.0 - b.chance * (1.0 if b.score > f.score else tie if b.score == f.score else 0.0))
                    for f in played])


def _not_beaten(scores: list[int], theirs: Lazy, tie: float, cutoff: float) -> list[float]:
    """For each of our scores (non-increasing), the chance that no formation of theirs beats it:
    the union of independent events over every formation above it (an equal one counts `tie`)."""
    out: list[float] = []
    above, keep = 0, 1.0  # theirs[:above] are all above the current score; keep: their product
    for s in scores:
        while keep >= cutoff:
            form = theirs.get(above)
            if form is None or form.score <= s:
                break
            keep *= 1.0 - form.chance
            above += 1
        if keep < cutoff:
            out.append(0.0)
            continue
        k, i = keep, above
        while tie > 0.0:
            form = theirs.get(i)
            if form is None or form.score != s:
                break
            k *= 1.0 - tie * form.chance
            i += 1
        out.append(k)
    return out


def _union(pairs: list[tuple[float, float]]) -> float:
    """3.3: the union of independent events "win via formation i", 1 - prod(1 - make * keep)."""
    miss = 1.0
    for make, keep in pairs:
        miss *= 1.0 - make * keep
    return 1.0 - miss


def _best_made(pairs: list[tuple[float, float]]) -> float:
    """Ours: the side ends with the best formation it makes, so formation i counts only when none
    above it is made: sum of make_i * prod_{j<i}(1 - make_j) * keep_i (the events are exclusive)."""
    total, none_above = 0.0, 1.0
    for make, keep in pairs:
        total += none_above * make * keep
        none_above *= 1.0 - make
    return total


# -- the game ----------------------------------------------------------------------------------

def game_chance(flags: list[float], deck_troops: int, params: DeepBarcaParams) -> tuple[float, float, float]:
    """(chance, any five, three adjacent): 3.2's weighted average of the two win conditions; with
    game="symmetric" (ours) the three-adjacent term is ours against the opponent's; with
    game="outcomes" (ours) the chance that the flags end in a win for us (below)."""
    five = _at_least_five(flags)
    three = _three_adjacent(flags)
    if params.game == "outcomes":
        return _outcomes(flags), five, three
    w = max(params.five_weight_floor, min(1.0, deck_troops / INITIAL_TROOP_DECK) ** params.five_weight_power)
    if params.game == "symmetric":
        theirs = _three_adjacent([1.0 - q for q in flags])
        return w * five + (1.0 - w) * (1.0 + three - theirs) / 2.0, five, three
    return w * five + (1.0 - w) * three, five, three


def _outcome_value(mask: int) -> float:
    """Every flag won by one side (bit f set: ours): 1 if only we meet a win condition (1.1 "Win":
    five flags or three adjacent), 0 if only the opponent does, 1/2 if both do (who gets there
    first is not in the model)."""
    ours = [bool(mask >> f & 1) for f in range(9)]

    def wins(held: list[bool]) -> bool:
        return sum(held) >= 5 or any(held[i] and held[i + 1] and held[i + 2] for i in range(7))

    us, them = wins(ours), wins([not h for h in ours])
    return 1.0 if us and not them else 0.5 if us and them else 0.0


# The 512 outcomes as (flags 0-3) x (flags 4-8): the value of each, a 16 x 32 table.
_VALUES = [[_outcome_value(low | high << 4) for high in range(32)] for low in range(16)]


def _spread(flags: list[float]) -> list[float]:
    """The chance of each outcome of these flags (bit i: flag i ours), flags independent."""
    out = [1.0]
    for q in flags:
        out = [x * (1.0 - q) for x in out] + [x * q for x in out]
    return out


def _outcomes(flags: list[float]) -> float:
    """Ours: the chance that the nine flags, each won by one side independently, make a win for us
    (a draw of conditions counting half): both win conditions at every stage of the game, where
    3.2 weighs them by the troops left."""
    low, high = _spread(flags[:4]), _spread(flags[4:])
    total = 0.0
    for p, row in zip(low, _VALUES):
        if p > 0.0:
            total += p * sum(v * q for v, q in zip(row, high))
    return total


def _at_least_five(flags: list[float]) -> float:
    dist = [1.0]
    for q in flags:
        nxt = [0.0] * (len(dist) + 1)
        for j, d in enumerate(dist):
            nxt[j] += d * (1.0 - q)
            nxt[j + 1] += d * q
        dist = nxt
    return math.fsum(dist[5:])


def _three_adjacent(flags: list[float]) -> float:
    run = [1.0, 0.0, 0.0]  # chance of a current run of 0, 1, 2 won flags, no three yet
    done = 0.0
    for q in flags:
        done += run[2] * q
        run = [(run[0] + run[1] + run[2]) * (1.0 - q), run[0] * q, run[1] * q]
    return done
