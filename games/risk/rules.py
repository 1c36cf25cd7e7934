"""Risk (classic map) as pure rules: the mechanics only; the name belongs to its publisher.

Sources: /work/shared/references/battleline-risk-dominoes.md part 2 ("the notes"), which cites
Hasbro's rules through htfbw.com, ourpastimes.com and sethau/Risk; the 1993 Parker Brothers rules
as summarised in SCoureFoure/Galactic-Conquest `docs/risk-base-rules.md` ("PB 1993"); the seed,
Keppler & Choi 2000 (/work/shared/seeds/003_01cbbe20d86fd9b8.txt: drafted start, no cards).

Set-up. Initial armies 40/35/30/25/20 for 2..6 players (notes 2.3). `drafted` (the seed's):
players claim one territory at a time from seat 0 until all 42 are taken; `dealt`: one chance
outcome, a permutation of the 42 codes, dealt round the seats. Then the seats place their other
armies one at a time, in turn. Two players get a neutral (seat 2 on the board, no player), as in
PB 1993: 40 neutral armies, 14 territories (dealt; in the drafted start a chance outcome names
them before the draft), each set-up turn places 2 own armies then 1 neutral army; the neutral
never attacks or reinforces, always defends with the most dice, and need not be eliminated.

A turn (seat 0 first, then in seat order) is reinforce, attack, fortify:
- reinforce: max(3, floor(territories / 3)) + the bonus of every continent held (notes 2.3);
  `place:T:n` puts n armies on T, n a power of two or all that is left, so any split takes few
  steps. With cards: `trade:X,Y,Z` (card codes, sorted) while armies are left to place; only
  trades while holding 5 or more cards.
- attack: `attack:F,T,d` with d dice (1..3, at most armies(F) - 1), or `end`. The defender rolls
  min(2, armies) (`defender_dice="most"`), or chooses `defend:1`/`defend:2` (`"chosen"`). The roll
  is one chance outcome `[[attacker dice], [defender dice]]` (see games.risk.dice.resolve). After a
  conquest `move:n` moves n >= d armies in, leaving one behind.
- fortify: `fortify:F,T` then `move:n` (1..armies(F) - 1), or `end`. T adjacent to F (classic)
  or reached through own territories (`fortify="connected"`, the 2008 rule; notes 2.3).
- with cards, a turn with a conquest ends with a draw: one chance outcome, the card's code, drawn
  uniformly from the draw pile (so no deck order is ever stored); an empty pile takes the discards.
A decision with one possible answer is applied by the rules, not asked: a move-in with one
possible count, an attack or fortify phase with nothing but `end`.

Cards (off by default, as in the seed): 42 territory cards and 2 wilds (games.risk.mapdata); a set
is three of a symbol, one of each, or any two plus a wild; sets are worth 4, 6, 8, 10, 12, 15, then
5 more each (a count over all players); the first set in a turn that shows a territory you hold
puts 2 armies there (PB 1993: at most 2 such armies a turn; the first such territory in map
order); eliminating a player takes its cards, and at 6 or more you trade at once down to 4 or
fewer and place those armies before attacking on.

End: the last player standing wins (two players: the opponent is eliminated). After `max_rounds`
rounds (a round: every living seat's turn once) the game is a draw shared by the survivors.
Returns: 1 to the winner, else 0; in a draw 1/k to each of the k survivors. Ranks: the winner (or
the survivors, tied) first, then the eliminated, later elimination better.

Information: the board, discards and every hand's size are public; a hand is seen by its owner
only. Without cards nothing is hidden, so the game declares CHANCE only; capability flags are per
game, and `Risk.capabilities_for(options)` adds PRIVATE_INFORMATION for the variants with cards
(resample_hidden then redraws the other hands from the unseen cards).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from itertools import compress
from operator import itemgetter
from typing import Any, Literal

from pydantic import Field

from games.api import ACTION_ENCODING, CHANCE, PRIVATE_INFORMATION, VIEWS, Game, IllegalAction, Options, Outcome, State
from games.api import OBSERVATION_STATE
from games.risk.actions import (
    ALL_LAND,
    ATTACK_END,
    ATTACK_PREFIX,
    ATTACK_RUNS,
    ATTACKS,
    BY_CODE,
    CLAIM_ORDER,
    CLAIMS,
    DEFENDS,
    END,
    FORTIFIES,
    FORTIFY_RUNS,
    LAND_BIT,
    NEAR,
    PARSE,
    PLACE_TABLES,
    PLACED,
    land,
    land_mask,
    land_near,
    moves,
    place,
    place_table,
)
from games.risk.cards import ELIMINATION_HAND, MAX_HAND, is_set, set_value, trades
from games.risk import views
from games.risk.dice import losses_by_roll
from games.risk.mapdata import (
    CARD_CODES,
    CARD_INDEX,
    CODES,
    CONTINENT_BONUS,
    CONTINENT_MEMBERS,
    CONTINENT_NAMES,
    INDEX,
    NEIGHBOURS,
    NUM_CARDS,
    NUM_TERRITORIES,
)

__all__ = ["Risk", "RiskOptions", "RiskState", "is_set", "reinforcements", "set_value", "step_bound"]

INITIAL_ARMIES = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}  # notes 2.3
NEUTRAL_ARMIES = 40  # PB 1993, two players
NEUTRAL_TERRITORIES = 14  # PB 1993: three piles of 14
MAX_ROUNDS_LIMIT = 1000  # the largest turn cap the options allow
# Each continent's territories are one run of the map order (games.risk.mapdata): (first, end, bonus).
_CONTINENT_SPANS = tuple((m[0], m[-1] + 1, b) for m, b in zip(CONTINENT_MEMBERS, CONTINENT_BONUS))
assert all(list(m) == list(range(m[0], m[-1] + 1)) for m in CONTINENT_MEMBERS)
_PLACE_ONE = tuple(place(t, 1) for t in range(NUM_TERRITORIES))  # a set-up placement on each territory
_PLACE_ONE_BY_CODE = tuple(_PLACE_ONE[t] for t in BY_CODE)
_CLAIMS_BY_CODE = tuple(CLAIMS[t] for t in BY_CODE)
assert list(_CLAIMS_BY_CODE) == sorted(CLAIMS) and tuple(BY_CODE) == tuple(CLAIM_ORDER)
_COUNTS = tuple(range(n) for n in range(8))  # range(n), made once: a roll's dice to draw
_BY_CODE_OF = itemgetter(*BY_CODE)  # a per-territory list -> its entries in code order
_CONTINENT_MASKS = tuple((sum(LAND_BIT[t] for t in m), b) for m, b in zip(CONTINENT_MEMBERS, CONTINENT_BONUS))
# The continents a land mask holds, a byte at a time: per byte i and value v, the continents (bit c
# for continent c) whose territories in that byte are all in v; the AND over the six bytes is the
# continents held, and _BONUS_OF that set their bonus (small ints throughout, where the masks'
# own ANDs are 42-bit ones).
_HELD = tuple(tuple(sum(1 << c for c, (members, _) in enumerate(_CONTINENT_MASKS)
                        if (members >> 8 * i & 255) & ~v == 0) for v in range(256)) for i in range(6))
_H0, _H1, _H2, _H3, _H4, _H5 = _HELD
_BONUS_OF = tuple(sum(b for c, b in enumerate(CONTINENT_BONUS) if held >> c & 1) for held in range(64))
assert len(CONTINENT_BONUS) == 6

DEAL, CLAIM, SETUP, REINFORCE, ATTACK, DEFEND, ROLL, OCCUPY, FORTIFY, TRANSFER, DRAW, OVER = (
    "deal", "claim", "setup", "reinforce", "attack", "defend", "roll", "occupy", "fortify",
    "transfer", "draw", "over")
_CHANCES = frozenset((DEAL, ROLL, DRAW))  # a set: `in` a tuple compares every entry that differs
_NO_DECISION = _CHANCES | {OVER}
_NOT_TURN_PLAYER = _NO_DECISION | {DEFEND}
_TURN_PLAYER = frozenset({CLAIM, SETUP, REINFORCE, ATTACK, OCCUPY, FORTIFY, TRANSFER})  # the turn player decides
# The table of losses by roll (games.risk.dice.losses_by_roll) per [attack dice][defence dice],
# filled on first use.
_LOSSES: list[list[dict[tuple[int, ...], tuple[int, int]] | None]] = [[None] * 3 for _ in range(4)]
_ROWS = tuple(tuple(slice(i, i + 3) for i in range(0, k, 3)) for k in range(3 * 8))  # a flat list's rows of 3
_PHASES = (DEAL, CLAIM, SETUP, REINFORCE, ATTACK, DEFEND, ROLL, OCCUPY, FORTIFY, TRANSFER, DRAW, OVER)


class RiskOptions(Options):
    """Variant options (each is in the log header); defaults: the seed's game, three players."""

    players: int = Field(3, ge=2, le=6)  # 2 players get a neutral
    start: Literal["drafted", "dealt"] = "drafted"  # drafted: the seed's claiming
    defender_dice: Literal["most", "chosen"] = "most"
    fortify: Literal["adjacent", "connected"] = "adjacent"  # adjacent: classic; connected: 2008
    cards: bool = False  # the seed plays without cards
    max_rounds: int = Field(200, ge=1, le=MAX_ROUNDS_LIMIT)  # then a draw (ours: 200)


def reinforcements(owner: list[int], seat: int) -> int:
    """max(3, floor(territories / 3)) plus the bonus of every continent `seat` holds (notes 2.3)."""
    held = owner.count(seat)
    bonus = 0
    for lo, hi, b in _CONTINENT_SPANS:
        if owner[lo] == seat and owner[lo:hi].count(seat) == hi - lo:
            bonus += b
    return max(3, held // 3) + bonus


class RiskState(State):
    """A Risk position; per-territory lists follow games.risk.mapdata order."""

    # Slots, not a __dict__: CPython 3.11 keeps an instance's attributes fast to read only while
    # its class shares one key table of at most 30 names (a state has more).
    __slots__ = (
        "_adjacent", "_alive", "_armies", "_attacks", "_battles", "_bonus_used", "_cards", "_cash",
        "_cash_next", "_chosen", "_conquered", "_cur", "_discards", "_gone", "_hands", "_last", "_left",
        "_legal", "_log", "_masks", "_max_rounds", "_n", "_neutral", "_o", "_odump", "_own_mask", "_owner",
        "_pending", "_phase", "_pile", "_pub", "_recent", "_reinf", "_round", "_sets", "_todo", "_turn",
        "_winner",
    )

    def __init__(self, options: RiskOptions):
        self._o = options
        self._odump = options.model_dump(mode="json")
        n = self._n = options.players
        self._neutral = n if n == 2 else None  # the neutral's seat number on the board
        # The options read on every step, as plain attributes.
        self._cards = options.cards
        self._chosen = options.defender_dice == "chosen"
        self._adjacent = options.fortify == "adjacent"
        self._max_rounds = options.max_rounds
        seats = n + (1 if n == 2 else 0)
        self._owner = [-1] * NUM_TERRITORIES
        self._armies = [0] * NUM_TERRITORIES
        self._left = [INITIAL_ARMIES[n]] * n + ([NEUTRAL_ARMIES] if n == 2 else [])  # set-up armies
        assert len(self._left) == seats
        self._todo: list[int] = []  # set-up: whose armies the current seat still places this turn
        self._alive = [True] * n
        self._gone: list[list[int]] = []  # [seat, turn] in order of elimination
        self._phase = DEAL if options.start == "dealt" or n == 2 else CLAIM
        self._cur = 0
        self._turn = 0  # game turns started (0 during set-up)
        self._round = 0
        self._reinf = 0  # armies left to place this reinforce phase
        self._cash = False  # the reinforce phase is the cash-in after an elimination
        self._cash_next = False  # go to that cash-in after the move-in
        self._bonus_used = False  # the +2 card bonus was given this turn
        self._conquered = False  # a territory was taken this turn
        self._pending: list[int] | None = None  # attack [f, t, dice, defence dice]; occupy/transfer [f, t, lo]
        self._hands: list[list[int]] = [[] for _ in range(n)]  # sorted card numbers
        self._pile = list(range(NUM_CARDS)) if options.cards else []  # draw pile, sorted
        self._discards: list[int] = []
        self._sets = 0
        self._winner: int | None = None
        self._log: dict[str, Any] | None = None  # public summary of the current turn (_begin_turn)
        # Its battle counts, [rolls, armies lost, armies killed] per defending seat, one flat list
        # mutated in place (copied by clone); made into the summary's "battles" when it is read
        # (_turn_log), so the summary's "battles" entry is stale while the turn runs.
        self._battles: list[int] = []
        self._recent: list[dict[str, Any]] = []  # the summaries of the last `players` finished turns
        # The latest battle: its dict, or until first read (_last_battle) the roll's tuple
        # (dice, attack dice, defender, from, to, attacker's loss, defender's loss, turn).
        self._last: dict[str, Any] | tuple[Any, ...] | None = None
        self._legal: list[str] | tuple[str, ...] | None = None  # cache for the node (read-only)
        # The attack phase's legal list at its latest node: after a roll that leaves the
        # attacker's dice count as it was, the next node's list is the same (only the attacking
        # and the attacked territory lost armies, and an enemy's armies change no attack).
        self._attacks: list[str] | None = None
        # The current player's land as a land mask (games.risk.actions), made at the start of
        # each turn and kept up to date by conquests (0 before the first turn).
        self._own_mask = 0
        # Every board seat's land as a land mask, kept up to date by set-up and conquests (the
        # current player's is _own_mask's value at the start of each turn).
        self._masks = [0] * seats
        self._pub: dict[str, Any] | None = None  # cache of the public observation for the node

    # -- node kind -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._phase == OVER

    def is_chance(self) -> bool:
        return self._phase in _CHANCES

    def current_players(self) -> list[int]:
        ph = self._phase
        if ph in _TURN_PLAYER:
            return [self._cur]
        if ph == DEFEND:
            return [self._owner[self._pending[1]]]
        return []

    # -- chance ----------------------------------------------------------------------------
    def sample_chance(self, rng: random.Random) -> Any:
        ph = self._phase
        if ph == ROLL:
            # Each die is 1 + the first 3-bit draw below 6: what `randint(1, 6)` of a random.Random
            # draws (CPython's _randbelow_with_getrandbits), without its call layers; the
            # attacker's dice first.
            _, _, ad, dd = self._pending
            draw, attack, defence = rng.getrandbits, [], []
            for _ in _COUNTS[ad]:
                r = draw(3)
                while r >= 6:
                    r = draw(3)
                attack.append(r + 1)
            for _ in _COUNTS[dd]:
                r = draw(3)
                while r >= 6:
                    r = draw(3)
                defence.append(r + 1)
            return [attack, defence]
        if ph == DRAW:
            return CARD_CODES[self._pile[rng.randrange(len(self._pile))]]
        if ph == DEAL:
            if self._o.start == "dealt":
                order = list(CODES)
                rng.shuffle(order)
                return order
            return sorted(rng.sample(CODES, NEUTRAL_TERRITORIES), key=INDEX.__getitem__)
        raise IllegalAction(f"not a chance node (phase {ph})")

    def apply_chance(self, outcome: Any) -> None:
        ph = self._phase
        self._legal = self._pub = None
        if ph == ROLL:
            self._apply_roll(outcome)
        elif ph == DRAW:
            card = CARD_INDEX.get(outcome) if isinstance(outcome, str) else None
            if card is None or card not in self._pile:
                raise IllegalAction(f"card {outcome!r} is not in the draw pile")
            self._pile = [c for c in self._pile if c != card]
            self._hands[self._cur] = sorted(self._hands[self._cur] + [card])
            self._next_turn()
        elif ph == DEAL:
            self._apply_deal(outcome)
        else:
            raise IllegalAction(f"not a chance node (phase {ph})")

    def _apply_deal(self, outcome: Any) -> None:
        dealt = self._o.start == "dealt"
        size = NUM_TERRITORIES if dealt else NEUTRAL_TERRITORIES
        if (not isinstance(outcome, list) or len(outcome) != size
                or not all(isinstance(c, str) and c in INDEX for c in outcome)
                or len(set(outcome)) != size):
            what = "a permutation of the 42 codes" if dealt else f"{size} distinct territory codes"
            raise IllegalAction(f"deal {outcome!r} is not {what}")
        if dealt:
            seats = len(self._left)
            for k, code in enumerate(outcome):
                self._take_setup(INDEX[code], k % seats)
            self._start_setup(0)
        else:
            for code in outcome:
                self._take_setup(INDEX[code], self._neutral)
            self._phase = CLAIM

    def _remask(self) -> None:
        """The land masks made again from the owners (a board read from JSON or set by hand)."""
        self._masks = [land_mask(self._owner, seat) for seat in range(len(self._left))]
        self._own_mask = self._masks[self._cur]

    def _take_setup(self, t: int, seat: int) -> None:
        self._owner[t] = seat  # unclaimed before
        self._masks[seat] |= LAND_BIT[t]
        self._armies[t] = 1
        self._left[seat] -= 1

    def _apply_roll(self, outcome: Any) -> None:
        f, t, ad, dd = self._pending
        # The outcome must be [[ad ints], [dd ints]], plain lists of plain ints (exact types, as a
        # log's decoder makes them); the table of losses holds the rolls of ad + dd dice 1..6 only
        # (so it checks the defender's count too).
        lost = dice = None
        if type(outcome) is list and len(outcome) == 2:
            a, d = outcome
            if type(a) is list and type(d) is list and len(a) == ad:
                dice = tuple(a + d)
                for v in dice:
                    if type(v) is not int:
                        break
                else:
                    table = _LOSSES[ad][dd]
                    if table is None:
                        table = _LOSSES[ad][dd] = losses_by_roll(ad, dd)
                    lost = table.get(dice)
        if lost is None:
            raise IllegalAction(f"roll {outcome!r} is not [[{ad} dice], [{dd} dice]] of 1..6")
        lost_a, lost_d = lost
        armies, owner = self._armies, self._owner
        armies[f] -= lost_a
        armies[t] -= lost_d
        loser = owner[t]
        self._last = (dice, ad, loser, f, t, lost_a, lost_d, self._turn)  # a dict when read (_last_battle)
        battles, k = self._battles, 3 * loser  # the turn's counters, in place (see _battles)
        battles[k] += 1
        battles[k + 1] += lost_a
        battles[k + 2] += lost_d
        if armies[t] > 0:
            self._pending = None
            self._phase = ATTACK
            if self._attacks is None:
                self._after_attack()
            elif lost_a == 0 or armies[f] > 3:
                self._legal = self._attacks  # the attacker still rolls as many dice (see _attacks)
            else:
                self._legal = self._attacks = self._attacks_from(f, self._attacks)
                if len(self._legal) == 1:
                    self._to_fortify()
            return
        # Conquest: the territory changes hands now; its armies come with the move-in.
        p, bit, masks = self._cur, LAND_BIT[t], self._masks
        owner[t] = p
        self._own_mask = masks[p] = masks[p] | bit
        masks[loser] ^= bit
        self._conquered = True
        self._log["conquered"] = self._log["conquered"] + [CODES[t]]
        if loser != self._neutral and not masks[loser] and self._eliminate(loser):
            armies[t], armies[f] = ad, armies[f] - ad  # the game is over: the least move-in
            self._winner = p
            self._finish()
            return
        lo, hi = ad, armies[f] - 1
        if lo == hi:
            self._occupy(f, t, lo)
        else:
            self._pending = [f, t, lo]
            self._phase = OCCUPY

    def _eliminate(self, loser: int) -> bool:
        """Take the loser's cards; True if the current player has won."""
        p = self._cur
        self._alive[loser] = False
        self._gone = self._gone + [[loser, self._turn]]
        taken = self._hands[loser]
        self._hands[loser] = []
        self._hands[p] = sorted(self._hands[p] + taken)
        self._log["eliminated"] = self._log["eliminated"] + [loser]
        if sum(self._alive) == 1:
            return True
        self._cash_next = len(self._hands[p]) >= ELIMINATION_HAND
        return False

    # -- decisions -------------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[str]:
        ph = self._phase
        if ph in _NOT_TURN_PLAYER:  # chance, over, or the defender to choose
            if ph != DEFEND or player != self._owner[self._pending[1]]:
                return []
        elif player != self._cur:
            return []
        legal = self._legal
        if legal is None:
            if ph == REINFORCE:  # made afresh for each call, not kept: a copy of it would cost as much
                return self._compute_legal()
            legal = self._legal = self._compute_legal()
        return [*legal]  # a list or a tuple (_compute_legal), copied

    def default_action(self, player: int) -> str:
        """End the attack or fortify phase; else the least commitment: the fewest armies moved
        in, the most defence dice, all armies on the first own territory, the first claim or trade."""
        legal = self.legal_actions(player)
        if not legal:
            return ""
        ph = self._phase
        if ph in (ATTACK, FORTIFY):
            return END
        if ph == DEFEND:
            return DEFENDS[1]
        if ph in (OCCUPY, TRANSFER):
            return f"move:{self._pending[2]}"
        if ph == REINFORCE and legal[0].startswith("place:"):
            first = next(t for t in range(NUM_TERRITORIES) if self._owner[t] == self._cur)
            return place(first, self._reinf)
        return legal[0]

    def why_illegal(self, player: int, action: str) -> str | None:
        if player not in self.current_players():
            return f"player {player} is not to act (phase {self._phase})"
        if action not in self.legal_actions(player):
            return f"{action!r} is not one of the {len(self.legal_actions(player))} legal actions in phase {self._phase}"
        return None

    def apply_actions(self, actions: dict[int, str]) -> None:
        players = self.current_players()
        if not players:
            raise IllegalAction(f"no decision to make at this node (phase {self._phase})")
        p = players[0]
        if not isinstance(actions, dict) or len(actions) != 1 or p not in actions:
            raise IllegalAction(f"expected exactly one action, from player {p}; got {actions!r}")
        action = actions[p]
        if not isinstance(action, str) or action not in self._legal_now():
            raise IllegalAction(f"player {p}: illegal action {action!r} in phase {self._phase}")
        self.apply_action(action)

    def apply_action(self, action: str) -> None:
        """Apply a legal action of the player to act (callers have checked legality)."""
        ph = self._phase
        self._legal = self._pub = None
        if ph == ATTACK:
            if action == END:
                self._to_fortify()
                return
            _, f, t, d = PARSE[action]
            defending = self._armies[t]
            if self._chosen and defending >= 2 and self._owner[t] != self._neutral:
                self._pending = [f, t, d, 0]
                self._phase = DEFEND
            else:
                self._pending = [f, t, d, 2 if defending >= 2 else 1]
                self._phase = ROLL
        elif ph == REINFORCE:
            if action[0] == "t":
                self._trade([CARD_INDEX[c] for c in action[6:].split(",")])
                return
            placed = PLACED.get(action)  # made by actions.place (a legal list), else parsed
            t, k = placed if placed is not None else (INDEX[action[6:9]], int(action[10:]))
            self._armies[t] += k
            self._reinf -= k
            if self._reinf == 0:
                self._cash = False
                self._phase = ATTACK
                self._after_attack()
        elif ph == OCCUPY:
            f, t, _ = self._pending
            self._occupy(f, t, int(action[5:]))
        elif ph == FORTIFY:
            self._act_fortify(action)
        elif ph == TRANSFER:
            f, t, _ = self._pending
            self._transfer(f, t, int(action[5:]))
        elif ph == DEFEND:
            self._pending[3] = PARSE[action][1]
            self._phase = ROLL
        elif ph == CLAIM:
            self._act_claim(PARSE[action][1])
        elif ph == SETUP:
            self._act_setup(INDEX[action[6:9]])

    def _legal_now(self) -> list[str] | tuple[str, ...]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[str] | tuple[str, ...]:
        """The current player's legal actions, sorted (by construction where it is cheap); a
        shared tuple where the list is one of a few (move counts, defence dice)."""
        ph = self._phase
        armies = self._armies
        if ph == ATTACK:
            return self._attack_list()
        elif ph == REINFORCE:
            # Forced trades come first (5+ cards at the start, 5+ in the cash-in after an
            # elimination, which allows no other trade); any 5 cards hold a set.
            forced = self._cards and len(self._hands[self._cur]) >= MAX_HAND  # no cards: no hands
            if forced:
                out = []
            else:  # the placements on the land, a byte of the mask at a time (PLACE_TABLES)
                b0, b1, b2, b3, b4, b5 = self._own_mask.to_bytes(6, "little")  # unpacked: see land_near
                left = self._reinf
                try:
                    c0, c1, c2, c3, c4, c5 = PLACE_TABLES[left]
                except KeyError:
                    c0, c1, c2, c3, c4, c5 = place_table(left)
                out = [*c0[b0], *c1[b1], *c2[b2], *c3[b3], *c4[b4], *c5[b5]]
            if self._cards and (forced or not self._cash):
                out += trades(self._hands[self._cur])  # "place:..." < "trade:..."
            return out
        elif ph in (OCCUPY, TRANSFER):
            f, _, lo = self._pending
            return moves(lo, armies[f] - 1)
        elif ph == DEFEND:
            return DEFENDS
        elif ph == FORTIFY:
            return self._fortify_list()
        elif ph == CLAIM:  # the unclaimed territories' claims, in string (= code) order
            return list(compress(_CLAIMS_BY_CODE, map((-1).__eq__, _BY_CODE_OF(self._owner))))
        elif ph == SETUP:
            return list(compress(_PLACE_ONE_BY_CODE, map(self._todo[0].__eq__, _BY_CODE_OF(self._owner))))
        return []

    def _attack_list(self) -> list[str]:
        """The attack phase's list (kept in _attacks): the attack runs of the own territories next
        to an enemy, in code order, then `end`."""
        out = []
        mine = self._own_mask
        others = ALL_LAND ^ mine
        runs, near_of, armies = ATTACK_RUNS, NEAR, self._armies
        for f in land_near(others, mine):  # the player's territories next to an enemy
            a = armies[f]
            if a >= 2:
                out += runs[f][3 if a > 3 else a - 1][near_of[f] & others]
        out.append(END)  # "attack:..." < "end"
        self._attacks = out
        return out

    def _fortify_list(self) -> list[str]:
        """The fortify phase's list: `end`, then the moves, sorted."""
        if self._adjacent:  # walked in code order: sorted as built
            out = [END]  # "end" < "fortify:..."
            mine, armies = self._own_mask, self._armies
            runs, near_of = FORTIFY_RUNS, NEAR
            for f in land(mine):  # the player's territories; one next to none of its own has an empty run
                if armies[f] >= 2:
                    out += runs[f][near_of[f] & mine]  # fortify_run(f, NEAR[f] & mine)
            return out
        out = [FORTIFIES[(f, t)] for f, t in self._fortify_pairs()]
        out.sort()
        return [END] + out

    def _attacks_from(self, f: int, attacks: list[str]) -> list[str]:
        """`attacks` (sorted) with f's attacks as its armies now allow: the run of strings that
        start "attack:F," replaced (sorted lists: found by bisection)."""
        a = self._armies[f]
        lo = bisect_left(attacks, ATTACK_PREFIX[f])
        hi = bisect_left(attacks, ATTACK_END[f], lo)
        targets = NEAR[f] & ~self._own_mask if a >= 2 else 0
        run = ATTACK_RUNS[f][3 if a > 3 else a - 1][targets] if targets else ()
        return [*attacks[:lo], *run, *attacks[hi:]]

    def _fortify_pairs(self) -> list[tuple[int, int]]:
        p, owner, armies = self._cur, self._owner, self._armies
        if self._adjacent:
            return [(f, t) for f in range(NUM_TERRITORIES) if owner[f] == p and armies[f] >= 2
                    for t in NEIGHBOURS[f] if owner[t] == p]
        comp = _components(owner, p)
        return [(f, t) for f in range(NUM_TERRITORIES) if owner[f] == p and armies[f] >= 2
                for t in range(NUM_TERRITORIES) if t != f and comp[t] == comp[f]]

    # -- set-up ----------------------------------------------------------------------------
    def _act_claim(self, t: int) -> None:
        self._take_setup(t, self._cur)
        nxt = (self._cur + 1) % self._n
        if -1 in self._owner:
            self._cur = nxt
        else:
            self._start_setup(nxt)

    def _start_setup(self, seat: int) -> None:
        """Set-up placement from `seat` on, one army at a time (PB 1993: 2 own + 1 neutral)."""
        self._phase = SETUP
        for k in range(self._n):
            s = (seat + k) % self._n
            if self._neutral is None:
                todo = [s] if self._left[s] > 0 else []
            else:
                todo = [s] * min(2, self._left[s]) + ([self._neutral] if self._left[self._neutral] > 0 else [])
            if todo:
                self._cur, self._todo = s, todo
                return
        self._todo = []
        self._turn, self._round, self._cur = 1, 1, 0
        self._begin_turn()

    def _act_setup(self, t: int) -> None:
        seat = self._todo[0]
        self._armies[t] += 1
        self._left[seat] -= 1
        self._todo = self._todo[1:]
        if not self._todo:
            self._start_setup((self._cur + 1) % self._n)

    # -- the turn --------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        p = self._cur
        mask = self._own_mask = self._masks[p]
        b0, b1, b2, b3, b4, b5 = mask.to_bytes(6, "little")  # reinforcements(owner, p) from the mask
        bonus = _BONUS_OF[_H0[b0] & _H1[b1] & _H2[b2] & _H3[b3] & _H4[b4] & _H5[b5]]
        self._reinf = max(3, mask.bit_count() // 3) + bonus
        self._cash = self._cash_next = self._bonus_used = self._conquered = False
        self._pending = None
        self._phase = REINFORCE
        seats = len(self._left)
        self._battles = [0] * (3 * seats)
        self._log = {"armies": self._reinf, "battles": None, "conquered": [],
                     "eliminated": [], "fortify": None, "player": p, "trades": [], "turn": self._turn}

    def _trade(self, cards: list[int]) -> None:
        p = self._cur
        self._hands[p] = [c for c in self._hands[p] if c not in cards]
        self._discards = self._discards + sorted(cards)
        self._sets += 1
        value = set_value(self._sets)
        self._reinf += value
        bonus = None
        if not self._bonus_used:
            mine = [c for c in sorted(cards) if c < NUM_TERRITORIES and self._owner[c] == p]
            if mine:
                self._armies[mine[0]] += 2
                self._bonus_used = True
                bonus = CODES[mine[0]]
        log = self._log
        log["armies"] += value
        log["trades"] = log["trades"] + [{"bonus": bonus, "cards": [CARD_CODES[c] for c in sorted(cards)],
                                          "value": value}]

    def _occupy(self, f: int, t: int, k: int) -> None:
        self._armies[f] -= k
        self._armies[t] = k
        self._pending = None
        if self._cash_next:
            self._cash_next = False
            self._cash = True
            self._reinf = 0
            self._phase = REINFORCE
        else:
            self._phase = ATTACK
            self._after_attack()

    def _after_attack(self) -> None:
        """The attack list, at the start of the attack phase or after a conquest (land and armies
        changed); an attack phase whose only action is `end` is skipped."""
        self._legal = self._attack_list()
        if len(self._legal) == 1:
            self._to_fortify()

    def _to_fortify(self) -> None:
        self._pending = None
        self._phase = FORTIFY
        self._legal = self._fortify_list()
        if len(self._legal) == 1:
            self._legal = None
            self._end_turn()

    def _act_fortify(self, action: str) -> None:
        if action == END:
            self._end_turn()
            return
        _, f, t = PARSE[action]
        if self._armies[f] == 2:
            self._transfer(f, t, 1)
        else:
            self._pending = [f, t, 1]
            self._phase = TRANSFER

    def _transfer(self, f: int, t: int, k: int) -> None:
        self._armies[f] -= k
        self._armies[t] += k
        self._pending = None
        self._log["fortify"] = [CODES[f], CODES[t], k]
        self._end_turn()

    def _end_turn(self) -> None:
        self._pending = None
        if self._conquered and self._cards:
            if not self._pile:
                self._pile, self._discards = sorted(self._discards), []
            if self._pile:
                self._phase = DRAW
                return
        self._next_turn()

    def _next_turn(self) -> None:
        self._archive()
        p, n, alive = self._cur, self._n, self._alive
        nxt = p
        for _ in range(n):  # the next living seat (p itself when it is the last)
            nxt = nxt + 1 if nxt + 1 < n else 0
            if alive[nxt]:
                break
        if nxt <= p:
            self._round += 1
            if self._round > self._max_rounds:  # the turn cap: a draw
                self._round = self._max_rounds
                self._phase = OVER
                return
        self._turn += 1
        self._cur = nxt
        self._begin_turn()

    def _archive(self) -> None:
        if self._turn:
            self._recent = (self._recent + [self._turn_log()])[-self._n:]
            self._log = None

    def _finish(self) -> None:
        self._archive()
        self._phase = OVER
        self._pending = None

    # -- information -----------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """What `player` knows: the board, its own cards (deck order), every hand's size, the
        discards, the pending attack or move, the latest battle, and public summaries of the
        current turn and of the last `players` finished turns (so every seat sees each turn since
        its own). Per-territory lists follow games.risk.mapdata order; owner -1 is unclaimed and
        the neutral is seat `neutral` (2, two players only)."""
        if self._pub is None:
            self._pub = self._public()
        obs = dict(self._pub)  # the lists inside are shared by every observation: read-only
        obs["me"] = player
        obs["cards"] = [CARD_CODES[c] for c in self._hands[player]] if 0 <= player < self._n else []
        return obs

    def _public(self) -> dict[str, Any]:
        o, ph = self._o, self._phase
        pend = self._pending
        pending = None
        if pend is not None:
            keys = ("from", "to", "attack_dice", "defence_dice") if ph in (DEFEND, ROLL) else ("from", "to", "min")
            pending = dict(zip(keys, [CODES[pend[0]], CODES[pend[1]]] + pend[2:]))
            if ph in (OCCUPY, TRANSFER):
                pending["max"] = self._armies[pend[0]] - 1
        cur = self.current_players()
        return {
            "players": self._n,
            "neutral": self._neutral,
            "rules": {"start": o.start, "defender_dice": o.defender_dice, "fortify": o.fortify,
                      "cards": o.cards, "max_rounds": o.max_rounds},
            "phase": ph,
            "current": cur[0] if cur else None,  # who acts now (the defender while defending)
            "turn_player": self._cur if self._turn else None,
            "turn": self._turn,
            "round": self._round,
            "owner": list(self._owner),
            "armies": list(self._armies),
            "setup_left": list(self._left),
            "alive": list(self._alive),
            "reinforcements": self._reinf if ph == REINFORCE else 0,
            "pending": pending,
            "conquered": self._conquered,
            "card_counts": [len(h) for h in self._hands],
            "discards": [CARD_CODES[c] for c in self._discards],
            "draw_pile": len(self._pile),
            "sets_traded": self._sets,
            "next_set_value": set_value(self._sets + 1),
            "turn_log": None if self._log is None else dict(self._turn_log()),
            "recent": list(self._recent),
            "last_battle": self._last_battle(),
            "eliminated": [list(g) for g in self._gone],
            "winner": self._winner,
        }

    def _turn_log(self) -> dict[str, Any]:
        """The current turn's summary with its "battles" made from the counters (_battles)."""
        log, b = self._log, self._battles
        log["battles"] = list(map(b.__getitem__, _ROWS[len(b)]))  # [rolls, lost, killed] per seat
        return log

    def _last_battle(self) -> dict[str, Any] | None:
        """The latest battle as a dict (made once from the roll's tuple, then shared)."""
        last = self._last
        if type(last) is tuple:
            dice, ad, loser, f, t, lost_a, lost_d, turn = last
            last = self._last = {"attack": list(dice[:ad]), "defence": list(dice[ad:]), "defender": loser,
                                 "from": CODES[f], "lost": [lost_a, lost_d], "to": CODES[t], "turn": turn}
        return last

    def resample_hidden(self, player: int, rng: random.Random) -> RiskState:
        """Other players' hands and the draw pile, redrawn from the cards `player` cannot see.

        Uniform over those cards with every hand size kept: exact until discards are shuffled
        back into the pile (then an approximation: it forgets which cards were drawn before)."""
        new = self.clone()
        if not self._o.cards:
            return new
        others = [q for q in range(self._n) if q != player]
        pool = sorted(self._pile + [c for q in others for c in self._hands[q]])
        rng.shuffle(pool)
        for q in others:
            k = len(self._hands[q])
            new._hands[q], pool = sorted(pool[:k]), pool[k:]
        new._pile = sorted(pool)
        return new

    def provisional_returns(self) -> tuple[float, ...]:
        """Each player's share of the territories the players hold (the neutral's left out)."""
        counts = [self._owner.count(s) for s in range(self._n)]
        total = sum(counts) or 1
        return tuple(c / total for c in counts)

    def outcome(self) -> Outcome:
        if self._phase != OVER:
            raise ValueError("the game is not over")
        n, alive = self._n, self._alive
        survivors = [s for s in range(n) if alive[s]]
        gone_turn = {s: t for s, t in self._gone}
        order = {s: i for i, (s, _) in enumerate(self._gone)}  # later elimination ranks better
        keys = [(1, 0) if alive[s] else (0, order[s]) for s in range(n)]
        ranks = tuple(sum(1 for k in keys if k > key) + (sum(1 for k in keys if k == key) + 1) / 2
                      for key in keys)
        counts = [self._owner.count(s) for s in range(n)]
        extra = {"rounds": self._round, "turns": self._turn, "territories": counts,
                 "eliminated": [gone_turn.get(s) for s in range(n)], "sets_traded": self._sets}
        if self._winner is not None:
            w = self._winner
            return Outcome(returns=tuple(1.0 if s == w else 0.0 for s in range(n)), winners=(w,),
                           summary=f"p{w} wins in round {self._round} (turn {self._turn})",
                           extra=extra, ranks=ranks)
        share = 1.0 / len(survivors)
        lead = ", ".join(f"p{s} {counts[s]}" for s in survivors)
        return Outcome(returns=tuple(share if alive[s] else 0.0 for s in range(n)), winners=(),
                       summary=f"draw after {self._round} rounds (territories: {lead})",
                       extra=extra, ranks=ranks)

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Full state; the event dicts inside are the state's own: read them, never mutate."""
        return {
            "options": dict(self._odump),
            "phase": self._phase,
            "current": self._cur,
            "turn": self._turn,
            "round": self._round,
            "owner": list(self._owner),
            "armies": list(self._armies),
            "left": list(self._left),
            "todo": list(self._todo),
            "alive": list(self._alive),
            "gone": [list(g) for g in self._gone],
            "reinforcements": self._reinf,
            "cash": self._cash,
            "cash_next": self._cash_next,
            "bonus_used": self._bonus_used,
            "conquered": self._conquered,
            "pending": None if self._pending is None else list(self._pending),
            "hands": [[CARD_CODES[c] for c in h] for h in self._hands],
            "pile": [CARD_CODES[c] for c in self._pile],
            "discards": [CARD_CODES[c] for c in self._discards],
            "sets": self._sets,
            "winner": self._winner,
            "log": None if self._log is None else dict(self._turn_log()),
            "recent": list(self._recent),
            "last": self._last_battle(),
        }

    def clone(self) -> RiskState:
        new = type(self).__new__(type(self))
        for name in _STATE_SLOTS:
            setattr(new, name, getattr(self, name))
        # Mutated in place: the board lists, `alive`, pending and the current turn's summary dict;
        # the other lists (hands, pile, the summaries' lists, ...) are replaced, never mutated.
        new._owner = list(self._owner)
        new._masks = list(self._masks)
        new._armies = list(self._armies)
        new._left = list(self._left)
        new._alive = list(self._alive)
        new._hands = list(self._hands)
        new._log = None if self._log is None else dict(self._log)
        new._battles = list(self._battles)
        new._pending = None if self._pending is None else list(self._pending)
        new._legal = new._pub = None
        return new

    def render(self) -> str:
        ph = self._phase
        who = {s: f"p{s}" for s in range(self._n)}
        if self._neutral is not None:
            who[self._neutral] = "N"
        who[-1] = "-"
        if ph == OVER:
            head = "over: " + self.outcome().summary
        elif self._turn:
            head = f"round {self._round}, turn {self._turn}: p{self._cur}, {ph}"
        else:
            head = f"set-up: {ph}"
        lines = [f"Risk ({self._n} players) {head}"]
        if ph == REINFORCE:
            lines.append(f"  {self._reinf} armies to place")
        if self._pending is not None:
            lines.append(f"  pending {CODES[self._pending[0]]} -> {CODES[self._pending[1]]} {self._pending[2:]}")
        for seat in range(self._n):
            held = [t for t in range(NUM_TERRITORIES) if self._owner[t] == seat]
            cards = f", {len(self._hands[seat])} cards" if self._o.cards else ""
            state = "" if self._alive[seat] else " (eliminated)"
            lines.append(f"  p{seat}: {len(held)} territories, {sum(self._armies[t] for t in held)} armies{cards}{state}")
        for name, members in zip(CONTINENT_NAMES, CONTINENT_MEMBERS):
            cells = "  ".join(f"{CODES[t]} {who[self._owner[t]]}:{self._armies[t]}" for t in members)
            lines.append(f"  {name:<13} {cells}")
        return "\n".join(lines)


_STATE_SLOTS = RiskState.__slots__


def step_bound(options: RiskOptions) -> int:
    """An upper bound on the steps (decisions + chance outcomes) of any game with these options.

    Set-up: the deal and one step per set-up army (claims included). A turn: at most 4 steps that
    place or move nothing (end, fortify pair and count, card draw) plus one per trade, one per
    placement (each places >= 1 army received) and at most 4 per roll (attack, defence dice,
    the roll, the move-in); every roll destroys >= 1 army, so rolls <= armies ever created.
    A turn receives at most 14 + 24 armies, plus set values and 2 card-bonus armies; at most one
    card is drawn a turn, so at most turns / 3 sets are traded in a game."""
    n = options.players
    created = n * INITIAL_ARMIES[n] + (NEUTRAL_ARMIES if n == 2 else 0)
    turns = options.max_rounds * n
    per_turn = NUM_TERRITORIES // 3 + sum(CONTINENT_BONUS)
    sets = turns // 3 if options.cards else 0
    received = turns * (per_turn + (2 if options.cards else 0)) + sum(set_value(k) for k in range(1, sets + 1))
    created += received
    return 1 + created + turns * 4 + sets + received + 4 * created


class Risk(Game):
    """Risk on the classic map, 2 to 6 players (2 with a neutral), cards optional."""

    name = "risk"
    options_model = RiskOptions
    # Hidden information exists only with cards; capability flags are per game, so the flag is
    # not declared here and `capabilities_for(options)` says which apply to a variant.
    capabilities = frozenset({CHANCE, OBSERVATION_STATE, VIEWS})
    min_return = 0.0
    max_return = 1.0
    # A true bound for every allowed option (step_bound; about 61 million): random games of the
    # default variant take some thousands of steps, see the tests.
    max_steps = step_bound(RiskOptions(players=6, cards=True, max_rounds=MAX_ROUNDS_LIMIT))

    def capabilities_for(self, options: RiskOptions) -> frozenset[str]:
        """The capabilities of one variant: PRIVATE_INFORMATION when cards are on (hands are hidden);
        ACTION_ENCODING without cards (card trades and their growing sets have no small numbering)."""
        return self.capabilities | {PRIVATE_INFORMATION} if options.cards else self.capabilities | {ACTION_ENCODING}

    def action_vocabulary(self, options: RiskOptions) -> tuple[str, ...]:
        """Without cards: claims, placements of 1..the largest pool, attacks, defences, moves of
        0..the most armies one player can own (its set-up armies and max_rounds of the largest
        reinforcement), fortifies and end, sorted."""
        if options.cards:
            raise NotImplementedError("no action numbering with cards")
        pool = max(INITIAL_ARMIES[options.players], NEUTRAL_ARMIES)
        most = pool + options.max_rounds * (NUM_TERRITORIES // 3 + sum(CONTINENT_BONUS))
        every = list(CLAIMS) + [f"place:{c}:{n}" for c in CODES for n in range(1, pool + 1)]
        every += [a for trio in ATTACKS.values() for a in trio] + list(DEFENDS) + [END]
        every += [f"move:{n}" for n in range(most + 1)] + list(FORTIFIES.values())
        return tuple(sorted(every))

    def num_players(self, options: RiskOptions) -> int:
        return options.players

    # Views: games.risk.views (its TENSOR_FIELDS document the tensor).
    def describe_action(self, options: RiskOptions, action: str) -> str:
        return views.describe_action(options, action)

    def observation_text(self, options: RiskOptions, seat: int, observation: dict[str, Any]) -> str:
        return views.observation_text(options, seat, observation)

    def observation_shape(self, options: RiskOptions) -> tuple[int, ...]:
        return views.observation_shape(options)

    def observation_tensor(self, options: RiskOptions, seat: int, observation: dict[str, Any]) -> Any:
        return views.observation_tensor(options, seat, observation)

    def new_initial_state(self, options: RiskOptions | dict | None = None) -> RiskState:
        if not isinstance(options, RiskOptions):
            options = self.options(options)
        return RiskState(options)

    def state_from_observation(self, player: int, observation: dict[str, Any]) -> RiskState:
        """The position `player` sees: the board is public; the other hands (their sizes kept) and the
        draw pile are dealt from the cards it has not seen (`resample_hidden` redraws them). Not shown,
        so guessed: where a two-player set-up turn stands (from the armies placed so far: two own and
        one neutral a turn), and the turn's card flags (no cash-in pending, no bonus given yet)."""
        obs = observation
        n = int(obs["players"])
        options = {"players": n, **obs["rules"]}
        pend = obs["pending"]
        pending = None
        if pend is not None:
            keys = ("attack_dice", "defence_dice") if "attack_dice" in pend else ("min",)
            pending = [INDEX[pend["from"]], INDEX[pend["to"]]] + [int(pend[k]) for k in keys]
        mine = [CARD_INDEX[c] for c in obs["cards"]]
        seen = set(mine) | {CARD_INDEX[c] for c in obs["discards"]}
        pool = [c for c in range(NUM_CARDS) if c not in seen] if obs["rules"]["cards"] else []
        hands = []
        for q in range(n):
            if q == player:
                hands.append(sorted(mine))
            else:
                k = int(obs["card_counts"][q])
                hands.append(sorted(pool[:k]))
                pool = pool[k:]
        cur = obs["turn_player"] if obs["turn_player"] is not None else (obs["current"] or 0)
        left = [int(x) for x in obs["setup_left"]]
        data = {
            "options": options, "phase": obs["phase"], "current": cur, "turn": obs["turn"], "round": obs["round"],
            "owner": obs["owner"], "armies": obs["armies"], "left": left, "todo": _setup_queue(n, cur, left, obs["phase"]),
            "alive": obs["alive"], "gone": obs["eliminated"], "reinforcements": obs["reinforcements"],
            "cash": False, "cash_next": False, "bonus_used": False, "conquered": obs["conquered"], "pending": pending,
            "hands": [[CARD_CODES[c] for c in h] for h in hands], "pile": [CARD_CODES[c] for c in pool],
            "discards": obs["discards"], "sets": obs["sets_traded"], "winner": obs["winner"], "log": obs["turn_log"],
            "recent": obs["recent"], "last": obs["last_battle"]}
        return self.state_from_json(data)

    def state_from_json(self, data: dict[str, Any]) -> RiskState:
        state = RiskState(self.options(data["options"]))
        if data["phase"] not in _PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        state._phase = data["phase"]
        state._cur = int(data["current"])
        state._turn = int(data["turn"])
        state._round = int(data["round"])
        state._owner = [int(x) for x in data["owner"]]
        state._armies = [int(x) for x in data["armies"]]
        state._left = [int(x) for x in data["left"]]
        state._todo = [int(x) for x in data["todo"]]
        state._alive = [bool(x) for x in data["alive"]]
        if len(state._owner) != NUM_TERRITORIES or len(state._alive) != state._n:
            raise ValueError("owner/alive lists do not match the map or the players")
        state._gone = [[int(s), int(t)] for s, t in data["gone"]]
        state._reinf = int(data["reinforcements"])
        state._cash = bool(data["cash"])
        state._cash_next = bool(data["cash_next"])
        state._bonus_used = bool(data["bonus_used"])
        state._conquered = bool(data["conquered"])
        state._pending = None if data["pending"] is None else [int(x) for x in data["pending"]]
        state._hands = [[CARD_INDEX[c] for c in h] for h in data["hands"]]
        state._pile = [CARD_INDEX[c] for c in data["pile"]]
        state._discards = [CARD_INDEX[c] for c in data["discards"]]
        state._sets = int(data["sets"])
        state._winner = None if data["winner"] is None else int(data["winner"])
        state._log = None if data["log"] is None else _copy_log(data["log"])
        state._remask()
        state._battles = [] if state._log is None else [x for row in state._log["battles"] for x in row]
        state._recent = [_copy_log(r) for r in data["recent"]]
        state._last = None if data["last"] is None else {
            k: list(v) if isinstance(v, list) else v for k, v in data["last"].items()}
        return state


def _setup_queue(n: int, seat: int, left: list[int], phase: str) -> list[int]:
    """Whose armies `seat` still places in this set-up turn, as far as the armies left tell: one own
    army a turn, or with two players two own and one neutral (`_start_setup`), counted from the total
    placed so far (exact while every turn was a full one)."""
    if phase != SETUP:
        return []
    if n != 2:
        return [seat]
    neutral = n
    placed = 2 * INITIAL_ARMIES[2] + NEUTRAL_ARMIES - sum(left)
    at = placed % 3
    own = min(2, left[seat] + min(at, 2))
    full = [seat] * own + ([neutral] if left[neutral] + (1 if at > own else 0) > 0 else [])
    return full[at:] or [seat]

def _components(owner: list[int], p: int) -> list[int]:
    """For each territory of `p`, the id of its connected group of `p`'s territories (else -1)."""
    comp = [-1] * NUM_TERRITORIES
    for start in range(NUM_TERRITORIES):
        if owner[start] != p or comp[start] != -1:
            continue
        comp[start] = start
        stack = [start]
        while stack:
            u = stack.pop()
            for v in NEIGHBOURS[u]:
                if owner[v] == p and comp[v] == -1:
                    comp[v] = start
                    stack.append(v)
    return comp


def _copy_log(log: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a turn summary (as _begin_turn makes them), e.g. read from JSON."""
    return {**log, "battles": [list(b) for b in log["battles"]], "conquered": list(log["conquered"]),
            "eliminated": list(log["eliminated"]),
            "fortify": None if log["fortify"] is None else list(log["fortify"]),
            "trades": [{**x, "cards": list(x["cards"])} for x in log["trades"]]}

