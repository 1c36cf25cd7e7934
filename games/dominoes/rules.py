"""Partnership Dominoes as pure rules: double-six, four players in pairs, a match to `target` points.

Rule sources: Martinez Carranza & Munoz Melendez, "Juego de Domino para Cuatro Jugadores
utilizando Agentes Artificiales" (INAOE 2005; "the seed", sections 3 and 3.5), and for the
variants the `dominoes` package (abw333, PyPI 6.1.0; "the package").

- 28 tiles, 7 to each seat, no boneyard; seats 0 & 2 play against 1 & 3; turns pass to the next
  seat (seed 3: "los demas jugadores tomaran turnos a su derecha"; seat numbers are only labels).
- The first hand is opened by the holder of [6|6], with that tile (seed 3, 3.5). Later hands are
  opened by the pair that won the last one (seed 3.5); which seat, by `opener`:
  `winner` (default) the player who went out, or in a blocked hand the winning pair's lighter hand
  (equal hands: the one first in turn from the player who laid the last tile);
  `pair_choice` that player chooses which partner opens ("open:S"), after seeing its new hand, as
  the seed's pair "decides by agreement" (3, 3.5); `last_tile` the package's rule: the player who
  laid the last tile if their pair won, the next seat if it lost. After a void hand (a blocked
  tie) the seat that opened it opens again (the package's rule on a tie); under `pair_choice`
  that seat chooses.
- A player plays a tile on either end of the line if one fits, and passes only when none does.
- A hand ends when a player goes out or when no player can lay a tile (blocked).
- Points (seed 3.5: the winning pair scores the pips of the losing pair's hands): `scoring`
  `opponents` (default) or `all` (the pips of all three other hands, the package's rule);
  `blocked_scoring`: the pair with fewer pips wins `opponents` (default: the other pair's pips) or
  `both` (both pairs' pips, the package's rule); `blocked_tie` when the pairs' pips are equal:
  `void` (default, the package's rule: nobody scores) or `lowest_hand` (the pair holding the
  single lightest hand wins; still equal: void). The seed is silent on ties.
- The match ends when a pair reaches `target` (seed 3.5: 100), or after `max_hands` hands (ours:
  a termination bound, as void hands could repeat): then the pair ahead wins, equal is a draw.
  Returns per seat: 1 for the winning pair's seats, 0 for the losers', 0.5 each on a draw.

Chance: each hand's deal is one chance outcome, the 28 tile names in a shuffled order; seat s gets
the 7 tiles from position 7 * ((s - deal_rotation) % 4). `sample_chance` is always one shuffle of
the same list, so the referee's seeded generator yields hand k's deal as a function of the match
seed and k alone, whatever was played. A duplicate match (the same deals, the pairs swapped) is the
same seed with `deal_rotation=1`: each hand moves one seat on, to the other pair.

Partner signal (option `signal`, ours; off by default): the seed's pair agrees its roles "through a
signal only he understands" at the start of a hand (3.4). With the option on, the first decision of
each hand (the opening, or under `pair_choice` the choice of opener) is preceded by one talk round
on two private channels, `pair0` (seats 0, 2) and `pair1` (1, 3): each seat may send its partner one
`DominoesSignal`, a small code whose meaning is the pair's own agreement. Talk never changes the
state; with the option off there is no channel and the options dump (log header, digests) is the
same as before the option existed.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import Field, model_serializer

from games.api import (
    ACTION_ENCODING, CHANCE, OBSERVATION_STATE, PRIVATE_INFORMATION, TALK, VIEWS, Game, IllegalAction, Options, Outcome, State, TalkItem, TalkSpec,
)
from games.dominoes.tiles import (
    DOUBLE_SIX, HAND_SIZE, HI, INDEX, LEFT, LO, MOVES, N_TILES, NAMES, NUM, OPEN, OPENING,
    PARSE, PASS_ONLY, SEATS, mask_of, other_end, pips, tiles_of,
)

DEAL, CHOOSE, PLAY, END = "deal", "choose", "play", "end"
TEAMS = ((0, 2), (1, 3))
CHOICES = tuple(tuple(f"open:{s}" for s in pair) for pair in TEAMS)  # by pair; sorted
_SORTED_NAMES = sorted(NAMES)
# A hand is at most 1 deal + 1 choice + 25 plays (the other three keep >= 1 tile each) + 3 passes
# in each of the 24 gaps between plays (a fourth pass would mean a block, ended at the play): 99.
STEPS_PER_HAND = 99
_SUMMARY = ("hand", "opener", "end", "last", "pips", "pair", "points", "scores")
MAX_HANDS = 1000
SIGNAL_CHANNELS = {"pair0": TEAMS[0], "pair1": TEAMS[1]}  # the partner channels of option `signal`
SIGNAL_CODES = 64  # a signal's code is 0..63 (ours: six bits, enough for the seed's hand summary)


class DominoesOptions(Options):
    """Variant options; the defaults are the seed's game (see the module docstring)."""

    target: int = Field(100, ge=1, le=10_000)
    opener: Literal["winner", "pair_choice", "last_tile"] = "winner"
    scoring: Literal["opponents", "all"] = "opponents"
    blocked_scoring: Literal["opponents", "both"] = "opponents"
    blocked_tie: Literal["void", "lowest_hand"] = "void"
    deal_rotation: int = Field(0, ge=0, le=3)
    max_hands: int = Field(200, ge=1, le=MAX_HANDS)
    signal: bool = False  # the one-shot partner signal at the start of each hand (module doc)

    @model_serializer(mode="wrap")
    def _dump(self, handler: Any) -> dict[str, Any]:
        # `signal` is left out while off, so logs and digests of games without it keep their bytes
        data = handler(self)
        if not self.signal:
            data.pop("signal", None)
        return data


class DominoesSignal(TalkItem):
    """A partner signal (option `signal`): a code for the partner, meaning what the pair agreed,
    for hand number `hand`; one talk round at the start of each hand, on the pair's channel."""

    kind: Literal["dom_signal"] = "dom_signal"
    hand: int = Field(ge=0)
    code: int = Field(ge=0, lt=SIGNAL_CODES)


class DominoesState(State):
    """A match position: hands as tile bitmasks, the line with its two ends, finished hands."""

    def __init__(self, options: DominoesOptions):
        self._o = options
        self._odump = options.model_dump(mode="json")
        self._phase = DEAL
        self._hand = 0  # index of the hand being (or about to be) played
        self._hands = [0] * SEATS
        self._dealt = [0] * SEATS
        self._left = self._right = -1  # ends of the line; -1 while it is empty
        self._line: list[list[int]] = []  # tiles as laid, left to right, [left number, right number]
        self._events: list[list[Any]] = []  # [seat, action] of this hand, never mutated
        self._lacks = [0] * SEATS  # bit n: the seat passed with n at an end, so holds no n
        self._cur = -1
        self._opener = -1  # this hand's opener; before its deal (and while choosing) the chooser
        self._last = -1  # who laid the last tile
        self._scores = [0, 0]
        self._past: list[dict[str, Any]] = []  # finished hands, never mutated once appended
        self._winner: int | None = None  # pair index at the end; None: a draw
        self._legal: list[str] | tuple[str, ...] | None = None

    # -- node kind -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._phase == END

    def is_chance(self) -> bool:
        return self._phase == DEAL

    def current_players(self) -> list[int]:
        return [self._cur] if self._phase == PLAY or self._phase == CHOOSE else []

    # -- chance ----------------------------------------------------------------------------
    def sample_chance(self, rng: random.Random) -> Any:
        """One shuffle of the 28 tile names (always the same draw count: see the module doc)."""
        if self._phase != DEAL:
            raise IllegalAction("not a chance node")
        deck = list(NAMES)
        rng.shuffle(deck)
        return deck

    def apply_chance(self, outcome: Any) -> None:
        if self._phase != DEAL:
            raise IllegalAction("not a chance node")
        if (not isinstance(outcome, list) or len(outcome) != N_TILES
                or not all(isinstance(name, str) for name in outcome)
                or sorted(outcome) != _SORTED_NAMES):
            raise IllegalAction(f"a deal is a permutation of the {N_TILES} tile names, got {outcome!r}")
        rot = self._o.deal_rotation
        hands = []
        for seat in range(SEATS):
            start = HAND_SIZE * ((seat - rot) % SEATS)
            mask = 0
            for name in outcome[start:start + HAND_SIZE]:
                mask |= 1 << INDEX[name]
            hands.append(mask)
        self._hands = hands
        self._dealt = list(hands)
        if self._hand == 0:
            # Seed 3: "En el primer juego abre el jugador al que le haya tocado la mula de 6".
            self._opener = self._cur = next(s for s in range(SEATS) if hands[s] >> DOUBLE_SIX & 1)
            self._phase = PLAY
        else:
            self._cur = self._opener
            self._phase = CHOOSE if self._o.opener == "pair_choice" else PLAY
        self._legal = None

    # -- decisions -------------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[str]:
        if player != self._cur or (self._phase != PLAY and self._phase != CHOOSE):
            return []
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[str] | tuple[str, ...]:
        p = self._cur
        if self._phase == CHOOSE:
            return CHOICES[p % 2]
        hand = self._hands[p]
        if self._left < 0:
            if self._hand == 0:
                return [OPENING[DOUBLE_SIX]]
            return [OPENING[t] for t in tiles_of(hand)]
        fits = hand & (NUM[self._left] | NUM[self._right])
        if not fits:
            return PASS_ONLY
        table = MOVES[self._left][self._right]
        out: list[str] = []
        while fits:
            low = fits & -fits
            out += table[low.bit_length() - 1]
            fits ^= low
        return out

    def default_action(self, player: int) -> str:
        """The first legal action: the lowest tile that fits, "pass", or choosing oneself."""
        if self._phase == CHOOSE and player == self._cur:
            return f"open:{player}"
        legal = self.legal_actions(player)
        return legal[0] if legal else ""

    def why_illegal(self, player: int, action: str) -> str | None:
        if self._phase != PLAY and self._phase != CHOOSE:
            return f"no decision to make at this node (phase {self._phase})"
        if player != self._cur:
            return f"it is seat {self._cur}'s turn, not seat {player}'s"
        if action in self.legal_actions(player):
            return None
        if self._phase == CHOOSE:
            return f"name a seat of your pair to open: one of {list(CHOICES[player % 2])}"
        parsed = PARSE.get(action)
        if parsed is None:
            return f"{action!r} is not an action (a tile 'a-b', 'a-b:left', 'a-b:right' or 'pass')"
        t, end = parsed
        if t < 0:
            return "a tile fits: a player passes only when none does"
        if not self._hands[player] >> t & 1:
            return f"{NAMES[t]} is not in your hand"
        if self._left < 0:
            return "the first hand opens with 6-6" if end == OPEN else "the line is empty: open with a tile"
        if end == OPEN:
            return "the line is not empty: say which end"
        return f"{NAMES[t]} does not fit the {'left' if end == LEFT else 'right'} end"

    def apply_actions(self, actions: dict[int, str]) -> None:
        if self._phase != PLAY and self._phase != CHOOSE:
            raise IllegalAction(f"no decision to make at this node (phase {self._phase})")
        p = self._cur
        if not isinstance(actions, dict) or len(actions) != 1 or p not in actions:
            raise IllegalAction(f"expected exactly one action, from seat {p}; got {actions!r}")
        action = actions[p]
        if self._legal is None:
            self._legal = self._compute_legal()
        if action not in self._legal:
            raise IllegalAction(f"seat {p}: illegal action {action!r} ({self.why_illegal(p, action)})")
        self.apply_action(action)

    def apply_action(self, action: str) -> None:
        """Apply a legal action of the current seat (callers have checked legality)."""
        p = self._cur
        self._legal = None
        if self._phase == CHOOSE:
            self._opener = self._cur = int(action[5:])
            self._phase = PLAY
            return
        self._events.append([p, action])
        t, end = PARSE[action]
        if t < 0:
            self._lacks[p] |= (1 << self._left) | (1 << self._right)
            self._cur = (p + 1) % SEATS
            return
        hands = self._hands
        hands[p] ^= 1 << t
        if end == OPEN:
            self._left, self._right = LO[t], HI[t]
            self._line.append([LO[t], HI[t]])
        elif end == LEFT:
            near = self._left
            self._left = other_end(t, near)
            self._line.insert(0, [self._left, near])
        else:
            near = self._right
            self._right = other_end(t, near)
            self._line.append([near, self._right])
        self._last = p
        if not hands[p]:
            self._end_hand("out")
        elif not (hands[0] | hands[1] | hands[2] | hands[3]) & (NUM[self._left] | NUM[self._right]):
            self._end_hand("blocked")
        else:
            self._cur = (p + 1) % SEATS

    # -- the partner signal ----------------------------------------------------------------
    def talk(self) -> TalkSpec | None:
        """One round on the partner channels before a hand's first decision, with option `signal`."""
        if not self._o.signal or not self._at_hand_start():
            return None
        return TalkSpec(channels=dict(SIGNAL_CHANNELS), max_rounds=1)

    def validate_talk(self, player: int, channel: str, item: TalkItem) -> str | None:
        if not self._o.signal or not self._at_hand_start():
            return "the partner signal is sent only at the start of a hand, with option signal"
        if not isinstance(item, DominoesSignal):
            return "the only talk is the partner signal (dom_signal)"
        if channel != f"pair{player % 2}":
            return f"seat {player} signals on its own pair's channel, pair{player % 2}"
        if item.hand != self._hand:
            return f"this is hand {self._hand}, not {item.hand}"
        return None

    def _at_hand_start(self) -> bool:
        # The first decision of a hand: choosing the opener, or the opening where nobody chose.
        if self._phase == CHOOSE:
            return True
        return (self._phase == PLAY and self._left < 0
                and (self._hand == 0 or self._o.opener != "pair_choice"))

    # -- end of a hand ---------------------------------------------------------------------
    def _end_hand(self, how: str) -> None:
        o, last = self._o, self._last
        left = [pips(h) for h in self._hands]
        pair_pips = [left[0] + left[2], left[1] + left[3]]
        if how == "out":
            won: int | None = last % 2
            points = sum(left) if o.scoring == "all" else pair_pips[1 - last % 2]
        else:
            won = _blocked_winner(left, pair_pips, o.blocked_tie)
            if won is None:
                points = 0
            else:
                points = sum(pair_pips) if o.blocked_scoring == "both" else pair_pips[1 - won]
        if won is not None:
            self._scores = list(self._scores)
            self._scores[won] += points
        self._past.append({
            "hand": self._hand, "opener": self._opener, "end": how, "last": last,
            "deal": [_names(h) for h in self._dealt], "events": list(self._events),
            "line": [list(x) for x in self._line], "pips": left, "pair": won, "points": points,
            "scores": list(self._scores),
        })
        self._opener = self._next_opener(how, won, left)
        self._hand += 1
        self._hands, self._dealt, self._lacks = [0] * SEATS, [0] * SEATS, [0] * SEATS
        self._line, self._events = [], []
        self._left = self._right = self._cur = self._last = -1
        if won is not None and self._scores[won] >= o.target:
            self._phase, self._winner = END, won
        elif self._hand >= o.max_hands:
            s0, s1 = self._scores
            self._phase, self._winner = END, (None if s0 == s1 else 0 if s0 > s1 else 1)
        else:
            self._phase = DEAL

    def _next_opener(self, how: str, won: int | None, left: list[int]) -> int:
        last = self._last
        if won is None:
            return self._opener  # a void hand: the same seat opens (or chooses) again
        if self._o.opener == "last_tile":
            return last if last % 2 == won else (last + 1) % SEATS
        if how == "out":
            return last
        return min(TEAMS[won], key=lambda s: (left[s], (s - last) % SEATS))

    # -- information -----------------------------------------------------------------------
    def scores(self) -> tuple[int, int]:
        """Points of the pairs (0 & 2, 1 & 3) so far."""
        return self._scores[0], self._scores[1]

    def ends(self) -> tuple[int, int] | None:
        """The numbers at the (left, right) ends of the line, or None while it is empty."""
        return None if self._left < 0 else (self._left, self._right)

    def hand_pips(self) -> list[int]:
        """Pips in each seat's hand now."""
        return [pips(h) for h in self._hands]

    def observation(self, player: int) -> dict[str, Any]:
        """The table, `player`'s own tiles, hand sizes, and a summary of each finished hand (the
        full records, public once the hand is counted, are in `to_json`)."""
        acting = self._phase == PLAY or self._phase == CHOOSE
        return {
            "me": player,
            "phase": self._phase,
            "hand_no": self._hand,
            "current": self._cur if acting else None,
            "opener": self._opener,
            "hand": _names(self._hands[player]),
            "counts": [h.bit_count() for h in self._hands],
            "line": [list(x) for x in self._line],
            "ends": None if self._left < 0 else [self._left, self._right],
            "events": list(self._events),
            "lacks": [_numbers(m) for m in self._lacks],
            "scores": list(self._scores),
            "past": [{k: h[k] for k in _SUMMARY} for h in self._past],
            "rules": dict(self._odump),
        }

    def resample_hidden(self, player: int, rng: random.Random) -> DominoesState:
        """Redeal the other seats' tiles: same hand sizes, no tile showing a number a seat lacks."""
        new = self.clone()
        if self._phase != PLAY and self._phase != CHOOSE:
            return new
        others = [q for q in range(SEATS) if q != player]
        pool = tiles_of(self._hands[others[0]] | self._hands[others[1]] | self._hands[others[2]])
        hands = sample_hands(pool, [self._lacks[q] for q in others],
                             [self._hands[q].bit_count() for q in others], rng)
        for q, mask in zip(others, hands):
            new._hands[q] = mask
        new._legal = None
        return new

    def provisional_returns(self) -> tuple[float, ...]:
        """Each pair's lead in points as a share of the target, around one half (0.5 = level)."""
        s0, s1 = self._scores
        lead = max(-1.0, min(1.0, (s0 - s1) / self._o.target))
        return tuple(0.5 + (lead if s % 2 == 0 else -lead) / 2 for s in range(SEATS))

    def outcome(self) -> Outcome:
        if self._phase != END:
            raise ValueError("the match is not over")
        won, (s0, s1) = self._winner, self._scores
        hands = len(self._past)
        won_by = [sum(1 for h in self._past if h["pair"] == w) for w in (0, 1)]
        blocked = sum(1 for h in self._past if h["end"] == "blocked")
        extra = {"scores": [s0, s1], "hands": hands, "hands_won": won_by, "blocked": blocked,
                 "void": hands - won_by[0] - won_by[1],
                 "end": "target" if max(s0, s1) >= self._o.target else "max_hands"}
        if won is None:
            return Outcome(returns=(0.5,) * SEATS, winners=(), ranks=(1.5,) * SEATS, teams=TEAMS,
                           summary=f"draw {s0} to {s1} after {hands} hands", extra=extra)
        returns = tuple(1.0 if s % 2 == won else 0.0 for s in range(SEATS))
        ranks = tuple(1.0 if s % 2 == won else 2.0 for s in range(SEATS))
        a, b = TEAMS[won]
        return Outcome(returns=returns, winners=TEAMS[won], ranks=ranks, teams=TEAMS,
                       summary=f"pair {a}&{b} won {self._scores[won]} to {self._scores[1 - won]} "
                               f"in {hands} hands", extra=extra)

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Full state; the past-hand dicts inside are the state's own: read them, never mutate."""
        return {
            "options": dict(self._odump),
            "phase": self._phase,
            "hand": self._hand,
            "hands": [_names(h) for h in self._hands],
            "dealt": [_names(h) for h in self._dealt],
            "line": [list(x) for x in self._line],
            "ends": None if self._left < 0 else [self._left, self._right],
            "events": [list(e) for e in self._events],
            "lacks": [_numbers(m) for m in self._lacks],
            "current": self._cur,
            "opener": self._opener,
            "last": self._last,
            "scores": list(self._scores),
            "past": list(self._past),
            "winner": self._winner,
        }

    def clone(self) -> DominoesState:
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        # lists mutated in place above are copied; the rest are replaced, never mutated
        new._hands = list(self._hands)
        new._line = list(self._line)
        new._events = list(self._events)
        new._lacks = list(self._lacks)
        new._past = list(self._past)
        return new

    def render(self) -> str:
        s0, s1 = self._scores
        who = {DEAL: "dealing", END: "match over", CHOOSE: f"p{self._cur} chooses who opens",
               PLAY: f"p{self._cur} to play"}[self._phase]
        hand = len(self._past) if self._phase == END else self._hand + 1
        lines = [f"Dominoes hand {hand}: pairs 0&2 {s0}, 1&3 {s1} (to {self._o.target}); {who}"]
        if self._phase == END:
            return "\n".join(lines + [f"  {self.outcome().summary}"])
        tiles = "".join(f"[{a}|{b}]" for a, b in self._line) or "(empty)"
        ends = "" if self._left < 0 else f"   ends {self._left} and {self._right}"
        lines.append(f"  line {tiles}{ends}")
        for q in range(SEATS):
            lacks = _numbers(self._lacks[q])
            note = f"   lacks {','.join(map(str, lacks))}" if lacks else ""
            lines.append(f"  p{q}: {' '.join(_names(self._hands[q]))}   ({pips(self._hands[q])} pips){note}")
        return "\n".join(lines)


class Dominoes(Game):
    """Partnership Dominoes (double-six, pairs 0 & 2 v 1 & 3), a match to `target` points."""

    name = "dominoes"
    options_model = DominoesOptions
    capabilities = frozenset({CHANCE, PRIVATE_INFORMATION, TALK, OBSERVATION_STATE, ACTION_ENCODING, VIEWS})  # TALK only with `signal`: see capabilities_for
    talk_models = (DominoesSignal,)
    min_return = 0.0
    max_return = 1.0
    max_steps = STEPS_PER_HAND * MAX_HANDS

    def capabilities_for(self, options: DominoesOptions) -> frozenset[str]:
        """A variant talks only with the partner signal on."""
        return self.capabilities if options.signal else self.capabilities - {TALK}

    def num_players(self, options: DominoesOptions) -> int:
        return SEATS

    # views: games/dominoes/views.py (the tensor's field table TENSOR_FIELDS)
    def describe_action(self, options: DominoesOptions, action: str) -> str:
        return _views.describe_action(options, action)

    def observation_text(self, options: DominoesOptions, seat: int, observation: dict[str, Any]) -> str:
        return _views.observation_text(options, seat, observation)

    def observation_shape(self, options: DominoesOptions) -> tuple[int, ...]:
        return _views.observation_shape(options)

    def observation_tensor(self, options: DominoesOptions, seat: int, observation: dict[str, Any]) -> Any:
        return _views.observation_tensor(options, seat, observation)

    def action_vocabulary(self, options: DominoesOptions) -> tuple[str, ...]:
        """Every tile alone and on either end, pass, and naming an opener, sorted."""
        tiles = [f"{name}{end}" for name in NAMES for end in ("", ":left", ":right")]
        return tuple(sorted(tiles + ["pass"] + [c for pair in CHOICES for c in pair]))

    def teams(self, options: DominoesOptions) -> tuple[tuple[int, ...], ...]:
        return TEAMS

    def new_initial_state(self, options: DominoesOptions | dict | None = None) -> DominoesState:
        if not isinstance(options, DominoesOptions):
            options = self.options(options)
        return DominoesState(options)

    def state_from_observation(self, player: int, observation: dict[str, Any]) -> DominoesState:
        """The position `player` sees: the other seats' tiles dealt from the unseen ones (hand sizes and
        the numbers each seat lacks kept; `resample_hidden` redraws them), the deal as hands plus plays."""
        obs = observation
        state = DominoesState(self.options(obs["rules"]))
        state._phase, state._hand = obs["phase"], int(obs["hand_no"])
        mine = mask_of(obs["hand"])
        state._line = [[int(a), int(b)] for a, b in obs["line"]]
        ends = obs["ends"]
        state._left, state._right = (-1, -1) if ends is None else (int(ends[0]), int(ends[1]))
        state._events = [[int(s), str(a)] for s, a in obs["events"]]
        state._lacks = [sum(1 << int(n) for n in ns) for ns in obs["lacks"]]
        state._cur = -1 if obs["current"] is None else int(obs["current"])
        state._opener, state._scores = int(obs["opener"]), [int(x) for x in obs["scores"]]
        state._past = [dict(h) for h in obs["past"]]
        laid = [s for s, a in state._events if a != PASS_ONLY[0]]
        state._last = laid[-1] if laid else -1
        played = [0] * SEATS
        for s, a in state._events:
            if a != PASS_ONLY[0]:
                played[s] |= 1 << PARSE[a][0]
        others = [q for q in range(SEATS) if q != player]
        used = mine | sum(1 << PARSE[a][0] for _, a in state._events if a != PASS_ONLY[0])
        pool = [t for t in range(N_TILES) if not used >> t & 1]
        sizes = [int(obs["counts"][q]) for q in others]
        hands = [0] * SEATS
        hands[player] = mine
        if sum(sizes) == len(pool) and sizes and state._phase in (PLAY, CHOOSE):
            for q, mask in zip(others, sample_hands(pool, [state._lacks[q] for q in others], sizes, random.Random(0))):
                hands[q] = mask
        state._hands = hands
        state._dealt = [hands[q] | played[q] for q in range(SEATS)]
        return state

    def state_from_json(self, data: dict[str, Any]) -> DominoesState:
        state = DominoesState(self.options(data["options"]))
        state._phase = data["phase"]
        if state._phase not in (DEAL, CHOOSE, PLAY, END):
            raise ValueError(f"unknown phase {state._phase!r}")
        state._hand = int(data["hand"])
        state._hands = [mask_of(h) for h in data["hands"]]
        state._dealt = [mask_of(h) for h in data["dealt"]]
        if len(state._hands) != SEATS or len(state._dealt) != SEATS:
            raise ValueError(f"hands for {SEATS} seats expected")
        state._line = [[int(a), int(b)] for a, b in data["line"]]
        ends = data["ends"]
        state._left, state._right = (-1, -1) if ends is None else (int(ends[0]), int(ends[1]))
        state._events = [[int(s), str(a)] for s, a in data["events"]]
        state._lacks = [sum(1 << int(n) for n in ns) for ns in data["lacks"]]
        state._cur = int(data["current"])
        state._opener = int(data["opener"])
        state._last = int(data["last"])
        state._scores = [int(x) for x in data["scores"]]
        state._past = [dict(h) for h in data["past"]]
        state._winner = None if data["winner"] is None else int(data["winner"])
        return state


def sample_hands(pool: list[int], lacks: list[int], sizes: list[int], rng: random.Random) -> list[int]:
    """Random hands (bitmasks) of the given sizes from the tiles `pool`, with no tile in hand i
    showing a number in the bitmask lacks[i]; raises ValueError if no such deal exists.

    Tiles go one by one, in random order, to a seat drawn in proportion to its room among those
    that keep the rest dealable, so it never backtracks. Dealable (Hall's theorem for this
    transportation problem): for every set S of seats, the tiles that only seats of S may hold fit
    in S's room; `slack[S]` is that room less those tiles, and must stay >= 0.
    """
    k = len(sizes)
    if sum(sizes) != len(pool):
        raise ValueError(f"{len(pool)} tiles for hands of {sizes}")
    full = (1 << k) - 1
    masks = []
    for t in pool:
        shows = (1 << LO[t]) | (1 << HI[t])
        masks.append(sum(1 << i for i in range(k) if not lacks[i] & shows))
    order = list(range(len(pool)))
    rng.shuffle(order)
    hands = [0] * k
    if all(m == full for m in masks):  # nothing known: a plain deal
        at = 0
        for i, size in enumerate(sizes):
            for j in order[at:at + size]:
                hands[i] |= 1 << pool[j]
            at += size
        return hands
    slack = [sum(sizes[i] for i in range(k) if s >> i & 1) for s in range(1 << k)]
    for m in masks:
        if m == 0:
            raise ValueError("no seat may hold a tile: no deal fits what the seats lack")
        for s in _SUPERSETS[k][m]:
            slack[s] -= 1
    if min(slack[1:]) < 0:
        raise ValueError("no deal fits what the seats are known to lack")
    room = list(sizes)
    containing = _CONTAINING[k]
    for j in order:
        m = masks[j]
        for s in _SUPERSETS[k][m]:
            slack[s] += 1
        seats, total = [], 0
        for i in range(k):
            if m >> i & 1 and all(slack[s] > 0 for s in containing[i]):
                seats.append(i)
                total += room[i]
        pick = seats[0]
        if len(seats) > 1:
            r = rng.randrange(total)
            for pick in seats:
                r -= room[pick]
                if r < 0:
                    break
        room[pick] -= 1
        for s in containing[pick]:
            slack[s] -= 1
        hands[pick] |= 1 << pool[j]
    return hands


# _SUPERSETS[k][m]: the sets of k seats that contain the set m; _CONTAINING[k][i]: those with seat i.
_SUPERSETS = {k: [[s for s in range(1, 1 << k) if s & m == m] for m in range(1 << k)] for k in range(1, SEATS + 1)}
_CONTAINING = {k: [[s for s in range(1, 1 << k) if s >> i & 1] for i in range(k)] for k in range(1, SEATS + 1)}


def _blocked_winner(left: list[int], pair_pips: list[int], tie: str) -> int | None:
    # Seed 3.5: "el juego se cierra y gana la pareja que sume menos puntos con sus fichas".
    if pair_pips[0] != pair_pips[1]:
        return 0 if pair_pips[0] < pair_pips[1] else 1
    if tie == "lowest_hand":
        low0, low1 = min(left[0], left[2]), min(left[1], left[3])
        if low0 != low1:
            return 0 if low0 < low1 else 1
    return None


def _names(mask: int) -> list[str]:
    return [NAMES[t] for t in tiles_of(mask)]


def _numbers(mask: int) -> list[int]:
    return [n for n in range(7) if mask >> n & 1]



import games.dominoes.views as _views  # noqa: E402  (last: the views import this module's names)
