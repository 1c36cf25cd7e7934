"""Battle Line as pure rules, with all ten tactics cards (R. Knizia, GMT Games 2000).

Rule facts are from the reference notes (`references/battleline-risk-dominoes.md` part 1.1, "1.1"
below) and the seed paper (McCulloch et al., MAICS 2017, "seed"). 60 troops and 10 tactics
(games.battleline.cards), 9 flags, hands of 7 troops, a troop deck and a tactics deck. The first
to win 3 adjacent flags or any 5 wins. A turn:

1. (`claim_timing="start_of_turn"`, the expert rule and Deep Barca's: seed 2.1) claim flags;
2. play one card (`play:...`), or `pass` when no troop card can be played (1.1 "Passing");
3. (`claim_timing="after_play"`, the base rule) claim flags;
4. draw one card from either deck (`draw:troops` / `draw:tactics`); when only one deck can be
   drawn from and no claim is open, the draw is automatic. No draw after a pass.

Actions (JSON strings, sorted):
- `play:<card>:<flag>`: a troop or morale tactic (alexander, darius, cavalry, shield) to your side
  of flag 0..8; `play:fog:<flag>` / `play:mud:<flag>`: an environment card on a flag;
- `play:scout`, then `draw:<deck>` up to three times and `return:<card>` (see Scout below);
- `play:redeploy:<own card>:<flag or discard>`, `play:deserter:<opponent card>`,
  `play:traitor:<opponent troop>:<flag>` (the card names its flag: every card is in one place);
- `claim:<flag>`; `done` (end a turn whose only other options are claims);
- `discard:<card>`: with `mud_removal="owner_chooses"`, the owner of a side left with 4 cards when
  Mud leaves its flag gives one up (it may be the player whose turn it is not).

Chance outcomes (JSON): the troop shuffle (the 60 troop names, top first: 7 to the starting player,
7 to the other, the rest is the deck), the tactics shuffle (the 10 tactics names, top first) and,
after each Scout, `{"troops": [...], "tactics": [...]}`: both decks top first with the returned
cards on top. That last node has exactly one outcome the rules allow; it exists so the log holds
the deck order after a Scout (1.1 item 6), and apply_chance rejects any other.

Ties between equal formations go to the side whose formation was completed first, that is whose
last card was placed earlier (1.1: "the player who played the last card loses the flag"); every
card on a side records when it was placed, so Redeploy, Deserter and Traitor re-record it.

Scout (1.1 "Scout", item 6): three draws in any mix, one at a time, then cards from the hand go
face down on top of their own decks, no normal draw. Where the rules are silent we follow rezder's
engine: Scout needs a card in some deck, and returns as many cards as bring the hand back to 7
(2 after three draws, fewer when fewer cards were left). The scout's observation keeps the depth
and name of what it put back, and which of those the opponent then drew; the opponent sees backs.

Ours, named options where the rules are silent: `mud_removal` (a side left with 4 cards when Mud
leaves), `double_pass` (two turns in a row with a pass and no claim end the game), and in a
`series` the first move alternates between games.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from typing import Any, Literal

from pydantic import Field

from games.api import ACTION_ENCODING, CHANCE, PRIVATE_INFORMATION, VIEWS, Game, IllegalAction, Options, Outcome, State
from games.api import OBSERVATION_STATE
from games.battleline.cards import (
    ALEXANDER, CARD_OF, CAVALRY, DARIUS, DECK_NAMES, DESERTER, ENVIRONMENT, FOG, GUILE, LEADERS, MORALE, MUD,
    N_TROOPS, NAMES, REDEPLOY, SCOUT, SHIELD, TACTICS, TACTICS_DECK, TRAITOR, TROOP_DECK, TROOPS, deck_of)
from games.battleline.formations import (
    ALL_TROOPS, IMPOSSIBLE, SCORE_SHIFT, TABLE_MISSING, Pool, best, completed_from, completion_cards, completions,
    rank_of, score, side_score)

FLAGS = 9
HAND = 7  # 1.1 "Set-up": seven troop cards each
MAX_SERIES = 10
DEAL_TROOPS, DEAL_TACTICS, PLAY, DRAW, SCOUT_DRAW, SCOUT_RETURN, SCOUT_ORDER, TRIM, CLAIM, END = (
    "deal_troops", "deal_tactics", "play", "draw", "scout_draw", "scout_return", "scout_order",
    "mud_trim", "claim", "end")
_CHANCES = (DEAL_TROOPS, DEAL_TACTICS, SCOUT_ORDER)
_NO_DECISION = frozenset(_CHANCES + (END,))
# _settle()'s passes at most: a pass either stops at a node with a decision (or a chance node, or
# the end) or moves on, and at most four move on in a row: a Scout's three draws, each forced when
# one deck is empty (1.1 "Scout", "Turn"), and its turn to the returns; otherwise one, a forced
# draw or an empty claim window that ends the turn (the next turn starts at a play, a decision).
SETTLE_PASSES = 5
# provisional_returns (ours): an open flag's formations count at most OPEN_WEIGHT x 0.85 flag a side
# (a Wedge 10-9-8 scores 427 of FORMATION_SCALE), a troop in hand HAND_WEIGHT of a flag
OPEN_WEIGHT = 0.5
_TOP_VALUE = {ALEXANDER: 10, DARIUS: 10, CAVALRY: 8, SHIELD: 3}  # a morale card's highest value (1.1)
FORMATION_SCALE = 500
HAND_WEIGHT = 0.05
_CLAIMS_AT = (PLAY, DRAW, SCOUT_DRAW, CLAIM)  # nodes where an open claim window offers claims
_PHASES = _CHANCES + (PLAY, DRAW, SCOUT_DRAW, SCOUT_RETURN, TRIM, CLAIM, END)
_DRAWS = ("draw:troops", "draw:tactics")
_DRAW_OF = {action: d for d, action in enumerate(_DRAWS)}
_PLAY = [[f"play:{NAMES[c]}:{f}" for f in range(FLAGS)] for c in range(len(NAMES))]
_CLAIM = [f"claim:{f}" for f in range(FLAGS)]
_TROOP_PLAY = {_PLAY[c][f]: (c, f) for c in range(N_TROOPS) for f in range(FLAGS)}  # action -> card, flag
_BITS = [1 << c for c in range(len(NAMES))]
_ALL_FLAGS = (1 << FLAGS) - 1
_FLAGS_IN = [[f for f in range(FLAGS) if mask >> f & 1] for mask in range(1 << FLAGS)]
_CLAIMS_IN = [[_CLAIM[f] for f in flags] for flags in _FLAGS_IN]  # flag set -> its claims, sorted
# Flag set -> per card, its actions to those flags, in flag order (built when first asked for).
_PLAY_ROWS: dict[int, list[tuple[str, ...]]] = {}
_TRAITOR_ROWS: dict[int, list[tuple[str, ...]]] = {}
_REDEPLOY_ROWS: dict[int, list[tuple[str, ...]]] = {}
_DESERTER = ["play:deserter:" + name for name in NAMES]
_TRAITOR = [[f"play:traitor:{NAMES[c]}:{f}" for f in range(FLAGS)] for c in TROOPS]
_REDEPLOY = [[f"play:redeploy:{name}:{f}" for f in range(FLAGS)] + [f"play:redeploy:{name}:discard"]
             for name in NAMES]
# A card's place in the order of "play:<name>:" strings ("R1:" after "R10:"), and of strings
# that end with its name ("R1" before "R10"), for _plays.
_NAME_RANK, _END_RANK = [0] * len(NAMES), [0] * len(NAMES)
for _rank, _card in enumerate(sorted(range(len(NAMES)), key=lambda c: NAMES[c] + ":")):
    _NAME_RANK[_card] = _rank
for _rank, _card in enumerate(sorted(range(len(NAMES)), key=lambda c: NAMES[c])):
    _END_RANK[_card] = _rank


def _play_rows(flags: int) -> list[tuple[str, ...]]:
    """Per card, its plays to the flags of the bit set `flags`, in flag order (built once)."""
    return _rows(_PLAY_ROWS, _PLAY, flags)


def _rows(cache: dict[int, list[tuple[str, ...]]], table: list[list[str]], flags: int) -> list[tuple[str, ...]]:
    """Per row of `table` (a card's actions, by flag), its actions to the flags of `flags`."""
    rows = cache.get(flags)
    if rows is None:
        rows = cache[flags] = [tuple(row[f] for f in _FLAGS_IN[flags]) for row in table]
    return rows


class BattleLineOptions(Options):
    """Variant options; the defaults are the published game with the expert claim rule."""

    tactics: bool = True  # off: the official no-tactics variant (troops only)
    claim_timing: Literal["start_of_turn", "after_play"] = "start_of_turn"
    # The rules are silent on a side left with 4 cards when Mud leaves its flag (1.1 item 5):
    # the owner discards one of its choice, or the engine discards the card whose loss leaves
    # the best formation (the latest placed among equals), or the latest placed card.
    mud_removal: Literal["owner_chooses", "keep_best", "discard_last"] = "owner_chooses"
    # Not in the rules (1.1 item 7): two turns in a row with a pass and no claim end the game,
    # drawn (0 points each), or won by the side with more flags (drawn when equal).
    double_pass: Literal["draw", "most_flags"] = "draw"
    series: int = Field(1, ge=1, le=MAX_SERIES)  # games in a match: winner 5, loser its flags


class BattleLineState(State):
    """A Battle Line position (one game of a series); cards are ints of games.battleline.cards."""

    def __init__(self, options: BattleLineOptions):
        self._o = options
        self._odump: dict[str, Any] | None = None  # the options as JSON, made when first asked for
        self._after = options.claim_timing == "after_play"
        self._phase = DEAL_TROOPS
        self._game = 0
        self._points = [0, 0]
        self._results: list[dict[str, Any]] = []
        self._idle = 0
        self._reset(first=0)

    def _reset(self, first: int) -> None:
        """A fresh board for the next game of the series; the deal is the next chance node."""
        self._first = self._cur = first
        self._hands: list[list[int]] = [[], []]  # sorted
        self._decks: list[list[int]] = [[], []]  # troops, tactics; the top card is last
        self._sides = [[[], []] for _ in range(FLAGS)]  # per flag, per seat: cards as placed
        self._placed = [-1] * len(NAMES)  # clock when a card was placed on its side
        self._fog = [-1] * FLAGS  # seat that played Fog on the flag, or -1
        self._mud = [-1] * FLAGS
        self._claimed = [-1] * FLAGS
        self._disc: list[list[int]] = [[], []]  # face-up discards, per owner
        self._tac = [0, 0]  # tactics cards played, guile cards included (1.1 item 4)
        self._leader = [False, False]
        self._clock = 0
        self._claiming = self._passed = False
        self._turn_claims = 0
        self._idle = 0
        self._scout_draws = self._returns = 0
        self._trim: list[list[int]] = []  # [seat, flag] sides to cut to 3 cards, in order
        self._known_deck: list[set[int]] = [set(), set()]  # deck cards a seat put back (Scout)
        self._known_hand: list[set[int]] = [set(), set()]  # cards a seat knows the other holds
        self._events: list[list[Any]] = []  # [seat, public action], this game only
        self._legal: list[str] | None = None
        self._claims: tuple[int, int] | None = None  # (seat, its claimable flags as bits) at this node
        # Caches, never serialised (state_from_json rebuilds them): per flag a version, bumped
        # whenever a card arrives or leaves; per flag and seat, claimable()'s (version, answer,
        # place) where the other side can still beat the seat's: answer, unseen troops it takes,
        # and place, that completion's index in its table or -1; per seat, the flags (bits) whose
        # answer is settled while they are unchanged (_settled), and of those the claimable (_yes).
        self._versions = [0] * FLAGS
        self._gone = 0  # troops no longer unseen (played from a hand), a 60-bit set
        self._open = [_ALL_FLAGS, _ALL_FLAGS]  # per seat, the flags (bits) it may play a card to
        self._claimed_bits = 0  # the claimed flags (bits)
        self._proofs: list[list[tuple[int, int, int] | None]] = [[None, None] for _ in range(FLAGS)]
        self._settled, self._yes = [0, 0], [0, 0]

    # -- node kind -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._phase == END

    def is_chance(self) -> bool:
        return self._phase in _CHANCES

    def _actor(self) -> int:
        return self._trim[0][0] if self._phase == TRIM else self._cur

    def current_players(self) -> list[int]:
        ph = self._phase
        if ph in _NO_DECISION:
            return []
        return [self._trim[0][0] if ph == TRIM else self._cur]

    # -- chance ----------------------------------------------------------------------------
    def sample_chance(self, rng: random.Random) -> Any:
        if self._phase == DEAL_TROOPS:
            deck = [NAMES[c] for c in TROOPS]
            rng.shuffle(deck)
            return deck
        if self._phase == DEAL_TACTICS:
            deck = [NAMES[c] for c in TACTICS]
            rng.shuffle(deck)
            return deck
        if self._phase == SCOUT_ORDER:
            return self._deck_order()
        raise IllegalAction(f"not a chance node (phase {self._phase})")

    def _deck_order(self) -> dict[str, list[str]]:
        return {DECK_NAMES[d]: [NAMES[c] for c in reversed(self._decks[d])] for d in (0, 1)}

    def apply_chance(self, outcome: Any) -> None:
        ph = self._phase
        if ph == DEAL_TROOPS or ph == DEAL_TACTICS:
            cards = TROOPS if ph == DEAL_TROOPS else TACTICS
            order = _permutation(outcome, cards)
            if ph == DEAL_TROOPS:
                self._gone = 0  # every troop is in a hand or the deck
                first, second = self._first, 1 - self._first
                self._hands[first] = sorted(order[:HAND])
                self._hands[second] = sorted(order[HAND:2 * HAND])
                self._decks[TROOP_DECK] = order[2 * HAND:][::-1]
                if self._o.tactics:
                    self._phase = DEAL_TACTICS
                else:
                    self._start_turn(first)
            else:
                self._decks[TACTICS_DECK] = order[::-1]
                self._start_turn(self._first)
        elif ph == SCOUT_ORDER:
            if outcome != self._deck_order():
                raise IllegalAction(
                    "after a Scout the decks are as they were with the returned cards on top: "
                    f"expected {self._deck_order()!r}, got {outcome!r}")
            self._end_turn()
        else:
            raise IllegalAction(f"not a chance node (phase {ph})")
        self._settle()

    # -- decisions -------------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[str]:
        ph = self._phase
        if ph in _NO_DECISION or player != (self._trim[0][0] if ph == TRIM else self._cur):
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list[str]:
        ph, p = self._phase, self._cur
        out = list(_CLAIMS_IN[self._claim_mask(p)]) if self._claiming and ph in _CLAIMS_AT else []
        if ph == PLAY:
            return self._plays(p, out)  # "claim:..." < "pass" < "play:...": already sorted
        if ph == DRAW or ph == SCOUT_DRAW:
            # "claim:..." < "draw:tactics" < "draw:troops"
            return out + [_DRAWS[d] for d in (1, 0) if self._decks[d]]
        if ph == CLAIM:
            out.append("done")
        elif ph == SCOUT_RETURN:
            out += ["return:" + NAMES[c] for c in self._hands[p]]
        elif ph == TRIM:
            seat, f = self._trim[0]
            out += ["discard:" + NAMES[c] for c in self._sides[f][seat]]
        out.sort()  # unique by construction: every card is in one place
        return out

    def _plays(self, p: int, out: list[str]) -> list[str]:
        """`out` (sorted, before "pass") with the plays of `p` (and "pass" where allowed), sorted."""
        open_mask = self._open[p]
        hand = self._hands[p]
        n = bisect_left(hand, N_TROOPS)  # the hand is sorted: its troops first
        if open_mask and n:
            # Troops in the order of their names, flags in order: the plays come out sorted.
            rows = _PLAY_ROWS.get(open_mask) or _play_rows(open_mask)
            for c in sorted(hand[:n], key=_NAME_RANK.__getitem__):
                out += rows[c]
        else:
            out.append("pass")  # 1.1 "Passing": only when no troop card can be played
        # 1.1 "Tactics-play restriction": never more than one tactics card ahead of the opponent.
        if n < len(hand) and self._tac[p] <= self._tac[1 - p]:
            out += self._tactic_plays(p, hand[n:], open_mask)
        return out

    def _tactic_plays(self, p: int, tactics: list[int], open_mask: int) -> list[str]:
        """The tactics cards' plays, sorted: the cards by name, then targets by name, flags."""
        o, sides = 1 - p, self._sides
        free_mask = _ALL_FLAGS & ~self._claimed_bits
        free = _FLAGS_IN[free_mask]
        out: list[str] = []
        tactics.sort(key=_NAME_RANK.__getitem__)
        for c in tactics:
            if c in MORALE:
                if c not in LEADERS or not self._leader[p]:  # 1.1 item 3: one Leader each
                    out += _play_rows(open_mask)[c]
            elif c in ENVIRONMENT:
                out += _play_rows(free_mask)[c]  # 1.1 item 8: unclaimed flags only
            elif c == SCOUT:
                if self._decks[0] or self._decks[1]:
                    out.append("play:scout")
            elif c == REDEPLOY:
                out += self._redeploys(p, free_mask, open_mask)
            elif c == DESERTER:
                targets = [x for x, _ in self._owned(free, o)]
                targets.sort(key=_END_RANK.__getitem__)
                out += [_DESERTER[x] for x in targets]
            elif c == TRAITOR:
                # 1.1 item 8: troops only, never a Leader, the Cavalry or the Shield Bearers.
                targets = [x for f in free for x in sides[f][o] if x < N_TROOPS]
                targets.sort(key=_NAME_RANK.__getitem__)
                rows = _rows(_TRAITOR_ROWS, _TRAITOR, open_mask)
                for x in targets:
                    out += rows[x]
        return out

    def _redeploys(self, p: int, free_mask: int, open_mask: int) -> list[str]:
        """Redeploy's plays, sorted: an own card to another free flag where it fits (an
        environment card to any), or to the discards ("0" < "8" < "discard")."""
        moves = self._owned(_FLAGS_IN[free_mask], p)
        moves.sort(key=lambda m: _NAME_RANK[m[0]])
        out: list[str] = []
        for x, f in moves:
            to = (free_mask if x in ENVIRONMENT else open_mask) & ~(1 << f)
            out += _rows(_REDEPLOY_ROWS, _REDEPLOY, to)[x]
            out.append(_REDEPLOY[x][FLAGS])
        return out

    def _owned(self, flags: list[int], seat: int) -> list[tuple[int, int]]:
        """(card, flag) for the cards of `seat` at `flags`: its sides, and the Fog or Mud it played."""
        out = [(x, f) for f in flags for x in self._sides[f][seat]]
        out += [(env, f) for env, where in ((FOG, self._fog), (MUD, self._mud)) for f in flags if where[f] == seat]
        return out

    def default_action(self, player: int) -> str:
        """Pass or end the turn where allowed, else the first legal action that is not a claim."""
        legal = self.legal_actions(player)
        for action in ("pass", "done"):
            if action in legal:
                return action
        rest = [a for a in legal if not a.startswith("claim:")]
        return rest[0] if rest else (legal[0] if legal else "")

    def why_illegal(self, player: int, action: str) -> str | None:
        if player not in self.current_players():
            return f"player {player} is not to act"
        if action in self.legal_actions(player):
            return None
        p, parts = player, action.split(":")
        if action == "pass" and self._phase == PLAY:
            return "a pass is allowed only when no troop card can be played"
        if parts[0] == "play" and len(parts) > 1 and parts[1] in CARD_OF:
            card = CARD_OF[parts[1]]
            if card not in self._hands[p]:
                return f"{parts[1]} is not in the hand"
            if card >= N_TROOPS and self._tac[p] > self._tac[1 - p]:
                return "a tactics card is allowed only when not ahead of the opponent in tactics"
            if card in LEADERS and self._leader[p]:
                return "each player may play only one Leader"
        if parts[0] == "claim":
            return "no proof: the flag is claimed, the side incomplete, or it can still be beaten"
        return f"not a legal action in phase {self._phase}"

    def apply_actions(self, actions: dict[int, str]) -> None:
        ph = self._phase
        if ph in _CHANCES or ph == END:
            raise IllegalAction(f"no decision to make at this node (phase {ph})")
        p = self._trim[0][0] if ph == TRIM else self._cur
        if not isinstance(actions, dict) or len(actions) != 1 or p not in actions:
            raise IllegalAction(f"expected exactly one action, from player {p}; got {actions!r}")
        action = actions[p]
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalAction(f"player {p}: illegal action {action!r} in phase {ph}")
        self.apply_action(action)

    def apply_action(self, action: str) -> None:
        """Apply a legal action of the player to act (callers have checked legality)."""
        self._legal = self._claims = None
        troop = _TROOP_PLAY.get(action)
        if troop is not None:  # most decisions: a troop to a flag
            self._play_troop(self._cur, troop[0], troop[1], action)
            if self._claiming:
                self._settle()
                return
            # What _settle() does at the draw with no claim open: a choice of two decks is a
            # decision; from one deck the draw is forced (1.1 "Turn"); with none the turn ends.
            troops, tactics = self._decks
            if troops and tactics:
                return
            if troops or tactics:
                self._draw(self._cur, TROOP_DECK if troops else TACTICS_DECK)
            else:
                self._end_turn()
            return  # the next turn starts at a play, a decision (no pass: the game goes on)
        deck = _DRAW_OF.get(action)
        if deck is not None and self._phase == DRAW:  # the turn's draw, a choice of two decks
            self._draw(self._cur, deck)
            if self._phase == PLAY:  # the next turn starts at a play, a decision
                return
            self._settle()
            return
        p, parts = self._trim[0][0] if self._phase == TRIM else self._cur, action.split(":")
        verb = parts[0]
        if verb == "play":
            self._play(p, parts, action)
        elif verb == "claim":
            self._claim(p, int(parts[1]))
        elif verb == "pass":
            self._passed, self._claiming = True, False
            self._events.append([p, action])
            self._after_play()
        elif verb == "draw":
            self._draw(p, DECK_NAMES.index(parts[1]))
        elif verb == "return":
            self._return(p, CARD_OF[parts[1]])
        elif verb == "discard":
            self._trim_one(p, CARD_OF[parts[1]])
        else:  # done
            self._events.append([p, action])
            self._end_turn()
        self._settle()

    # -- turn flow -------------------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        self._cur, self._phase = p, PLAY
        self._claiming = not self._after
        self._passed, self._turn_claims = False, 0

    def _after_play(self) -> None:
        self._claiming = self._after
        self._phase = CLAIM if self._passed else DRAW

    def _end_turn(self) -> None:
        # Two turns in a row with a pass and no claim end the game (option double_pass).
        self._idle = self._idle + 1 if self._passed and not self._turn_claims else 0
        if self._idle >= 2:
            flags = [self._claimed.count(0), self._claimed.count(1)]
            winner = None
            if self._o.double_pass == "most_flags" and flags[0] != flags[1]:
                winner = 0 if flags[0] > flags[1] else 1
            self._end_game(winner, "double pass")
        else:  # _start_turn(the other seat), written out
            self._cur, self._phase = 1 - self._cur, PLAY
            self._claiming = not self._after
            self._passed, self._turn_claims = False, 0

    def _settle(self) -> None:
        """Resolve nodes with nothing to decide: forced draws, empty claim windows, turn ends."""
        for _ in range(SETTLE_PASSES):
            self._legal = self._claims = None
            ph = self._phase
            if ph == DRAW or ph == SCOUT_DRAW:
                if ph == SCOUT_DRAW and self._scout_draws == 0:
                    self._phase = SCOUT_RETURN
                    # A Scout never leaves more than 7 cards (nor returns more than 2): with
                    # fewer than 3 cards left it returns fewer (as rezder's engine does).
                    self._returns = max(0, min(2, len(self._hands[self._cur]) - HAND))
                    continue
                troops, tactics = self._decks
                claims = self._claiming and self._claim_mask(self._cur) != 0
                if not troops and not tactics:
                    if ph == SCOUT_DRAW:
                        self._scout_draws = 0
                    elif claims:
                        self._phase = CLAIM
                        return
                    else:
                        self._end_turn()
                    continue
                if not (troops and tactics) and not claims:
                    self._draw(self._cur, TROOP_DECK if troops else TACTICS_DECK)  # 1.1 "Turn": one deck empty
                    continue
                return
            if ph == SCOUT_RETURN:
                if self._returns == 0:
                    self._phase = SCOUT_ORDER
                return
            if ph == CLAIM:
                if self._claiming and self._claim_mask(self._cur):
                    return
                self._end_turn()
                continue
            return
        raise RuntimeError(f"Battle Line: a node did not settle within {SETTLE_PASSES} passes (phase "
                           f"{self._phase}); the rules allow three forced Scout draws and the turn to "
                           "the returns, or one forced draw or turn end, before a decision")

    def _need(self, f: int) -> int:
        return 4 if self._mud[f] >= 0 else 3  # 1.1 "Mud": formations of 4 cards

    # -- claims ----------------------------------------------------------------------------
    def claimable(self, p: int) -> list[int]:
        """Flags `p` could claim now, with proof from visible troops only (1.1 "Claiming").

        Needs a complete side. Against a complete side the stronger formation wins, equal ones
        going to the side completed first; against an incomplete side no completion from the
        unseen troops (both hands and the troop deck: the claimant's hand counts as unseen,
        1.1 item 2) may beat it. A later completion of an equal formation loses the tie, and
        unplayed tactics are ignored."""
        return list(_FLAGS_IN[self._claim_mask(p)])

    def _claim_mask(self, p: int) -> int:
        """claimable(p) as bits (kept for this node)."""
        cached = self._claims
        if cached is not None and cached[0] == p:
            return cached[1]
        full = _ALL_FLAGS & ~self._open[p] & ~self._claimed_bits
        settled = self._settled[p] & full
        yes = self._yes[p] & settled
        if settled == full:  # nothing changed that bears on p's claims
            self._claims = (p, yes)
            return yes
        o, sides, mud = 1 - p, self._sides, self._mud
        proofs, versions, gone = self._proofs, self._versions, self._gone
        pool = None
        # Each flag's last answer for p, kept while the flag is unchanged (its version): within
        # a game the unseen troops only ever shrink (a troop leaves a hand for the board and
        # never comes back), so a proof stays proved, and a disproof stands while the troops of
        # the completion that beat the claimant are still unseen. A disproof found in a table of
        # completions keeps its place there: the entries before it add a troop no longer unseen,
        # and stay so, so the search resumes after it.
        # Only unclaimed flags where p's side is full: the others are not open to p, or claimed.
        for f in _FLAGS_IN[full & ~settled]:
            entry = proofs[f][p]
            start = 0
            if entry is not None and entry[0] == versions[f]:
                if entry[1] & gone == 0:
                    continue  # still beaten
                start = entry[2] + 1
            bit = 1 << f
            need = 3 if mud[f] < 0 else 4
            mine, theirs = sides[f][p], sides[f][o]
            if len(mine) != need or len(theirs) > need:
                settled |= bit  # incomplete, or a side still to be cut after Mud left (mud_trim)
                continue
            fog = self._fog[f] >= 0
            mine_score = side_score(mine, fog)
            if len(theirs) == need:
                theirs_score = side_score(theirs, fog)
                settled |= bit
                if mine_score > theirs_score or (
                        mine_score == theirs_score and self._stamp(mine) < self._stamp(theirs)):
                    yes |= bit
                continue
            if need - len(theirs) <= TABLE_MISSING[need] and (not theirs or max(theirs) < N_TROOPS):
                # Troops only: the first completion above mine whose troops are all unseen.
                table = completions(tuple(sorted(theirs)), need, fog)
                floor, i, n = (mine_score << SCORE_SHIFT) | ALL_TROOPS, start, len(table)
                while i < n and table[i] > floor and table[i] & gone:
                    i += 1
                if i < n and table[i] > floor:
                    proofs[f][p] = (versions[f], table[i] & ALL_TROOPS, i)
                else:
                    settled |= bit
                    yes |= bit
                continue
            if pool is None:
                pool = Pool.of_set(ALL_TROOPS & ~gone)  # the unseen troops: both hands and the deck
            found = best(theirs, need, fog, pool, floor=mine_score)
            if found == IMPOSSIBLE:
                settled |= bit
                yes |= bit
            else:
                proofs[f][p] = (versions[f], completion_cards(found, theirs, need, fog, pool) & ~gone, -1)
        self._settled[p], self._yes[p] = settled, yes
        self._claims = (p, yes)
        return yes

    def unseen_troops(self) -> list[int]:
        """Troops in no one's sight on the table: both hands and the troop deck, sorted."""
        return sorted([c for h in self._hands for c in h if c < N_TROOPS] + self._decks[0])

    def _changed(self) -> None:
        self._legal = self._claims = None

    def _stamp(self, cards: list[int]) -> int:
        """When the side's formation was completed: the clock of its latest card."""
        return max(self._placed[c] for c in cards)

    def _claim(self, p: int, f: int) -> None:
        self._claimed[f] = p
        self._touched(f)
        self._turn_claims += 1
        self._events.append([p, _CLAIM[f]])
        mine = self._claimed
        # 1.1 "Win": any 5 flags (envelopment) or 3 adjacent (breakthrough).
        if any(mine[i] == mine[i + 1] == mine[i + 2] == p for i in range(FLAGS - 2)):
            self._end_game(p, "breakthrough")
        elif mine.count(p) >= 5:
            self._end_game(p, "envelopment")

    def _end_game(self, winner: int | None, how: str) -> None:
        flags = [self._claimed.count(0), self._claimed.count(1)]
        # 1.1 "Series scoring": the winner scores 5, the loser the flags it won; a drawn game
        # (double pass) has neither, and scores 0 to both (ours).
        gained = [0, 0] if winner is None else [5 if winner == s else flags[s] for s in (0, 1)]
        self._points = [self._points[s] + gained[s] for s in (0, 1)]
        self._results = self._results + [
            {"winner": winner, "how": how, "flags": flags, "points": gained, "first": self._first}]
        self._game += 1
        if self._game < self._o.series:
            self._reset(first=self._game % 2)  # ours: the first move alternates between games
            self._phase = DEAL_TROOPS
        else:
            self._phase = END

    # -- playing cards ---------------------------------------------------------------------
    def _place(self, p: int, f: int, card: int) -> None:
        self._clock += 1
        self._placed[card] = self._clock
        self._sides[f][p].append(card)
        self._touched(f)

    def _environment(self, p: int, card: int, f: int) -> None:
        (self._fog if card == FOG else self._mud)[f] = p
        self._touched(f)

    def _touched(self, f: int) -> None:
        """Flag f changed (a card or Mud or Fog came or went, a claim): its caches follow."""
        self._versions[f] += 1
        bit, open_, settled = 1 << f, self._open, self._settled
        settled[0] &= ~bit
        settled[1] &= ~bit
        if self._claimed[f] >= 0:
            open_[0] &= ~bit
            open_[1] &= ~bit
            self._claimed_bits |= bit
            return
        need, sides = 3 if self._mud[f] < 0 else 4, self._sides[f]
        open_[0] = open_[0] | bit if len(sides[0]) < need else open_[0] & ~bit
        open_[1] = open_[1] | bit if len(sides[1]) < need else open_[1] & ~bit

    def _lift(self, card: int) -> tuple[int, int]:
        """Take a card off the board; returns (flag, seat of the side or -1 for Fog/Mud)."""
        if card == FOG or card == MUD:
            env = self._fog if card == FOG else self._mud
            f = next(f for f in range(FLAGS) if env[f] >= 0)
            env[f] = -1
            self._touched(f)
            return f, -1
        for f in range(FLAGS):
            for s in (0, 1):
                if card in self._sides[f][s]:
                    self._sides[f][s].remove(card)
                    self._placed[card] = -1
                    self._touched(f)
                    return f, s
        raise AssertionError(f"{NAMES[card]} is not on the board")

    def _play_troop(self, p: int, card: int, f: int, action: str) -> None:
        """`_play` of a troop to flag f (no Mud moves, so no side to cut), written out."""
        self._hands[p].remove(card)
        known = self._known_hand[1 - p]
        if known:
            known.discard(card)
        self._events.append([p, action])
        self._gone |= _BITS[card]  # the only way a troop stops being unseen
        self._clock += 1
        self._placed[card] = self._clock
        side = self._sides[f][p]
        side.append(card)
        self._versions[f] += 1  # _touched(f): the flag is unclaimed and only p's side changed
        bit, settled = 1 << f, self._settled
        settled[0] &= ~bit
        settled[1] &= ~bit
        if len(side) >= (3 if self._mud[f] < 0 else 4):
            self._open[p] &= ~bit
        self._claiming = self._after  # _after_play(): no pass, so the draw follows
        self._phase = DRAW

    def _play(self, p: int, parts: list[str], action: str) -> None:
        o, card = 1 - p, CARD_OF[parts[1]]
        self._claiming = False  # reopened after the play under claim_timing="after_play"
        self._hands[p].remove(card)
        self._known_hand[o].discard(card)
        self._events.append([p, action])
        if card < N_TROOPS:  # a troop, most plays
            self._gone |= _BITS[card]  # the only way a troop stops being unseen
            self._place(p, int(parts[2]), card)
            self._after_play()  # no Mud moved, so no side to cut
            return
        self._tac[p] += 1  # a tactics card: guile cards count too (1.1 item 4)
        if card in GUILE:
            self._disc[p].append(card)
        mud_left = -1
        if card == SCOUT:
            self._claiming, self._phase, self._scout_draws = self._after, SCOUT_DRAW, 3
            return
        if card == REDEPLOY:
            moved = CARD_OF[parts[2]]
            f, _ = self._lift(moved)
            if moved == MUD:
                mud_left = f
            if parts[3] == "discard":
                self._disc[p].append(moved)
            elif moved in ENVIRONMENT:
                self._environment(p, moved, int(parts[3]))
            else:
                self._place(p, int(parts[3]), moved)
        elif card == DESERTER:
            gone = CARD_OF[parts[2]]
            f, _ = self._lift(gone)
            self._disc[o].append(gone)
            if gone == MUD:
                mud_left = f
        elif card == TRAITOR:
            taken = CARD_OF[parts[2]]
            self._lift(taken)
            self._place(p, int(parts[3]), taken)
        elif card in ENVIRONMENT:
            self._environment(p, card, int(parts[2]))
        else:
            if card in LEADERS:
                self._leader[p] = True
            self._place(p, int(parts[2]), card)
        if mud_left >= 0:
            self._mud_removed(p, mud_left)
        if not self._trim:
            self._after_play()

    def _mud_removed(self, p: int, f: int) -> None:
        """Mud left flag f: every side with 4 cards gives one up (option mud_removal, 1.1 item 5)."""
        policy = self._o.mud_removal
        for seat in (p, 1 - p):
            side = self._sides[f][seat]
            if len(side) <= 3:
                continue
            if policy == "owner_chooses":
                self._trim.append([seat, f])
                continue
            if policy == "discard_last":
                gone = max(side, key=lambda c: self._placed[c])
            else:  # keep_best: the loss that leaves the best formation, the latest card if equal
                fog = self._fog[f] >= 0
                gone = max(side, key=lambda c: (score([x for x in side if x != c], 3, fog),
                                                self._placed[c]))
            self._lift(gone)
            self._disc[seat].append(gone)
            self._events.append([seat, "discard:" + NAMES[gone]])  # by the rule, not a choice
        if self._trim:
            self._phase = TRIM

    def _trim_one(self, seat: int, card: int) -> None:
        self._lift(card)
        self._disc[seat].append(card)
        self._events.append([seat, "discard:" + NAMES[card]])
        self._trim.pop(0)
        if not self._trim:
            self._after_play()

    def _draw(self, p: int, d: int) -> None:
        card = self._decks[d].pop()
        insort(self._hands[p], card)
        known = self._known_deck
        if known[0] or known[1]:
            for seat in (0, 1):
                if card in known[seat]:
                    known[seat].discard(card)
                    if seat != p:
                        self._known_hand[seat].add(card)  # what Scout showed it is now in p's hand
        self._events.append([p, _DRAWS[d]])
        if self._phase == SCOUT_DRAW:
            self._scout_draws -= 1
            self._claiming = False
        else:
            self._end_turn()

    def _return(self, p: int, card: int) -> None:
        # 1.1 "Scout": put cards from the hand face down on top of their own decks.
        self._hands[p].remove(card)
        d = deck_of(card)
        self._decks[d].append(card)
        self._known_deck[p].add(card)
        self._known_hand[1 - p].discard(card)
        self._events.append([p, "return:" + DECK_NAMES[d]])  # the others see only the back
        self._returns -= 1

    # -- information -----------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """The board, own hand, what Scout showed `player`, and the public history."""
        p, o = player, 1 - player
        theirs = self._hands[o]
        n_troops = sum(1 for c in theirs if c < N_TROOPS)
        return {
            "me": p,
            "game": self._game,
            "series": self._o.series,
            "points": list(self._points),
            "results": [dict(r) for r in self._results],
            "first": self._first,
            "phase": self._phase,
            "to_act": self._actor() if self.current_players() else None,
            "claiming": self._claiming,
            "hand": [NAMES[c] for c in self._hands[p]],
            "opponent_hand": {"troops": n_troops, "tactics": len(theirs) - n_troops,
                              "known": _names(self._known_hand[p])},
            "decks": {DECK_NAMES[d]: len(self._decks[d]) for d in (0, 1)},
            "deck_known": self._deck_knowledge(p, names=True),
            "opponent_deck_known": self._deck_knowledge(o, names=False),
            "opponent_knows": _names(self._known_hand[o]),  # which of my cards it saw (Scout)
            "flags": [self._flag_view(f) for f in range(FLAGS)],
            "discards": [[NAMES[c] for c in pile] for pile in self._disc],
            "tactics_played": list(self._tac),
            "leader_played": list(self._leader),
            "scout": {"draws_left": self._scout_draws, "returns_left": self._returns},
            "mud_trim": [list(t) for t in self._trim],
            "idle_turns": self._idle,
            "history": [list(e) for e in self._events],
        }

    def _deck_knowledge(self, seat: int, names: bool) -> dict[str, list[Any]]:
        """Depths (0 = top) of the deck cards `seat` put back, with their names if asked."""
        out: dict[str, list[Any]] = {}
        for d in (0, 1):
            deck, known = self._decks[d], self._known_deck[seat]
            top = len(deck) - 1
            out[DECK_NAMES[d]] = [[top - i, NAMES[deck[i]]] if names else top - i
                                  for i in range(top, -1, -1) if deck[i] in known]
        return out

    def _flag_view(self, f: int) -> dict[str, Any]:
        need, fog = self._need(f), self._fog[f] >= 0
        sides = self._sides[f]
        return {
            "claimed": None if self._claimed[f] < 0 else self._claimed[f],
            "fog": None if self._fog[f] < 0 else self._fog[f],
            "mud": None if self._mud[f] < 0 else self._mud[f],
            "cards": [[NAMES[c] for c in side] for side in sides],
            "score": [score(side, need, fog) if len(side) == need else None for side in sides],
            "completed": [self._stamp(side) if len(side) >= need else None for side in sides],
        }

    def resample_hidden(self, player: int, rng: random.Random) -> BattleLineState:
        """Redraw the opponent's hand and both deck orders, keeping what `player` knows.

        Kept: the opponent's count of troops and of tactics (draws are public), the cards
        `player` put back with Scout (at their depths, or in the opponent's hand once drawn).
        The opponent's own Scout knowledge keeps its depths and takes the redrawn cards."""
        new = self.clone()
        if self._phase == DEAL_TROOPS:
            return new
        p, o = player, 1 - player
        hand, known_p = self._hands[o], self._known_hand[p] | self._known_deck[p]
        for is_troop in (True, False):
            slots: list[tuple[int, int]] = []  # (place, index): place 2 = opponent hand
            pool: list[int] = []
            for i, c in enumerate(hand):
                if (c < N_TROOPS) == is_troop and c not in known_p:
                    slots.append((2, i))
                    pool.append(c)
            d = TROOP_DECK if is_troop else TACTICS_DECK
            for i, c in enumerate(self._decks[d]):
                if c not in known_p:
                    slots.append((d, i))
                    pool.append(c)
            rng.shuffle(pool)
            new_hand, new_deck = new._hands[o], new._decks[d]
            for (place, i), c in zip(slots, pool):
                (new_hand if place == 2 else new_deck)[i] = c
        new._hands[o] = sorted(new._hands[o])
        # The opponent's deck knowledge follows positions; its cards are redrawn too.
        new._known_deck[o] = {new._decks[d][i] for d in (0, 1) for i, c in enumerate(self._decks[d])
                              if c in self._known_deck[o]}
        new._known_deck[p] = set(self._known_deck[p])
        new._changed()  # the cached legal actions may be the opponent's, whose hand changed
        return new

    def provisional_returns(self) -> tuple[float, float]:
        """One half, moved by a lead counted in flags, a tenth a flag (clipped to 0..1):

        - a claimed flag counts one;
        - an open flag whose two sides are complete counts one for the side that wins it (not yet claimed);
        - on another open flag each side counts `k / need x best / FORMATION_SCALE` times
          OPEN_WEIGHT: its `k` cards, and `best` the strongest formation its holder's own hand can
          complete them to (formations.completed_from; the sum of its troops where the hand cannot),
          so a card counts more where the hand makes a strong formation of it; an incomplete side
          with a morale card, or under Mud, counts the sum of its cards' values (a morale card at
          its highest), since the exact search there cost more than all the rest of the measure;
        - HAND_WEIGHT a troop in hand: a hand of troops can always play, one of tactics cards may
          have to pass (the tactics-play restriction: never more than one tactics card ahead); counting
          a playable tactics card too did worse against `naive` in a short run.

        Ours: a measure of progress for a search cut off mid-game (a claimed flag alone moves
        only once formations are complete, so a short search saw nothing before)."""
        claimed, sides, hands = self._claimed, self._sides, self._hands
        lead = float(claimed.count(0) - claimed.count(1))
        held = [[c for c in hand if c < N_TROOPS] for hand in hands]
        formed = 0.0
        for f in range(FLAGS):
            if claimed[f] >= 0:
                continue
            mine, theirs = sides[f]
            if not mine and not theirs:
                continue
            need = 3 if self._mud[f] < 0 else 4
            if len(mine) > need or len(theirs) > need:
                continue  # a side still to be cut after Mud left
            fog = self._fog[f] >= 0
            if len(mine) == need and len(theirs) == need:
                a, b = side_score(mine, fog), side_score(theirs, fog)
                lead += 1.0 if a > b or (a == b and self._stamp(mine) < self._stamp(theirs)) else -1.0
                continue
            for p, cards in ((0, mine), (1, theirs)):
                if not cards:
                    continue
                k = len(cards)
                if k == need:
                    reach = side_score(cards, fog)
                elif need == 3 and max(cards) < N_TROOPS:
                    reach = completed_from(cards, need, fog, held[p])
                else:  # a morale card on the side, or Mud: its cards' values (the exact search costs more)
                    reach = sum(c % 10 + 1 if c < N_TROOPS else _TOP_VALUE.get(c, 0) for c in cards)
                if reach == IMPOSSIBLE:
                    reach = sum(c % 10 + 1 for c in cards if c < N_TROOPS)
                value = k / need * reach / FORMATION_SCALE
                formed += value if p == 0 else -value
        lead += OPEN_WEIGHT * formed + HAND_WEIGHT * (len(held[0]) - len(held[1]))
        x = min(0.5, max(-0.5, lead / 10))
        return (0.5 + x, 0.5 - x)

    def outcome(self) -> Outcome:
        if self._phase != END:
            raise ValueError("the game is not over")
        pts = self._points
        if pts[0] == pts[1]:
            returns, winners, ranks = (0.5, 0.5), (), (1.5, 1.5)
        else:
            w = 0 if pts[0] > pts[1] else 1
            returns = (1.0, 0.0) if w == 0 else (0.0, 1.0)
            winners, ranks = (w,), ((1.0, 2.0) if w == 0 else (2.0, 1.0))
        last = self._results[-1]
        if self._o.series == 1:
            summary = (f"seat {last['winner']} wins by {last['how']}" if last["winner"] is not None
                       else f"drawn by {last['how']}") + f", flags {last['flags'][0]}-{last['flags'][1]}"
        else:
            summary = f"match of {self._o.series} games, points {pts[0]}-{pts[1]}"
        return Outcome(returns=returns, winners=winners, summary=summary, ranks=ranks,
                       extra={"points": list(pts), "games": [dict(r) for r in self._results]})

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "options": dict(self._options_json()),
            "phase": self._phase,
            "game": self._game,
            "points": list(self._points),
            "results": [dict(r, flags=list(r["flags"]), points=list(r["points"]))
                        for r in self._results],
            "first": self._first,
            "current": self._cur,
            "hands": [[NAMES[c] for c in h] for h in self._hands],
            "decks": self._deck_order(),
            "flags": [{"claimed": self._claimed[f], "fog": self._fog[f], "mud": self._mud[f],
                       "sides": [[[NAMES[c], self._placed[c]] for c in side]
                                 for side in self._sides[f]]} for f in range(FLAGS)],
            "discards": [[NAMES[c] for c in pile] for pile in self._disc],
            "tactics_played": list(self._tac),
            "leader_played": list(self._leader),
            "clock": self._clock,
            "claiming": self._claiming,
            "passed": self._passed,
            "turn_claims": self._turn_claims,
            "idle": self._idle,
            "scout_draws": self._scout_draws,
            "returns": self._returns,
            "trim": [list(t) for t in self._trim],
            "known_deck": [_names(k) for k in self._known_deck],
            "known_hand": [_names(k) for k in self._known_hand],
            "events": [list(e) for e in self._events],
        }

    def _options_json(self) -> dict[str, Any]:
        if self._odump is None:
            self._odump = self._o.model_dump(mode="json")
        return self._odump

    def clone(self) -> BattleLineState:
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._hands = [list(h) for h in self._hands]
        new._decks = [list(d) for d in self._decks]
        new._sides = [[list(s[0]), list(s[1])] for s in self._sides]
        new._placed = list(self._placed)
        new._fog, new._mud, new._claimed = list(self._fog), list(self._mud), list(self._claimed)
        new._disc = [list(d) for d in self._disc]
        new._tac, new._leader, new._points = list(self._tac), list(self._leader), list(self._points)
        new._trim = [list(t) for t in self._trim]
        new._known_deck = [set(k) for k in self._known_deck]
        new._known_hand = [set(k) for k in self._known_hand]
        new._events = list(self._events)  # events are never mutated once appended
        new._versions, new._open = list(self._versions), list(self._open)
        new._proofs = [list(p) for p in self._proofs]  # its entries are never mutated
        new._settled, new._yes = list(self._settled), list(self._yes)
        return new  # results: replaced, never mutated

    def render(self) -> str:
        turn = "over" if self._phase == END else (
            "chance" if self._phase in _CHANCES else f"seat {self._actor()} to act ({self._phase})")
        lines = [f"Battle Line, game {min(self._game + 1, self._o.series)} of {self._o.series}, "
                 f"{turn}; points {self._points[0]}-{self._points[1]}; decks: troops "
                 f"{len(self._decks[0])}, tactics {len(self._decks[1])}; tactics played "
                 f"{self._tac[0]}-{self._tac[1]}",
                 f"  {'seat 0':>28}    flag [env]    seat 1   (<< >>: claimed by seat 0 / 1; "
                 f"F fog, M mud)"]
        for f in range(FLAGS):
            need, fog = self._need(f), self._fog[f] >= 0
            cells = []
            for s in (0, 1):
                side = self._sides[f][s]
                text = " ".join(NAMES[c] for c in side) or "."
                if len(side) == need:
                    sc = score(side, need, fog)
                    text += f" ({rank_of(sc)} {sc % 100})"
                cells.append(text)
            env = "".join(x for x, on in (("F", fog), ("M", self._mud[f] >= 0)) if on) or "-"
            mark = {-1: "  ", 0: "<<", 1: ">>"}[self._claimed[f]]
            lines.append(f"  {cells[0]:>28} {mark} flag {f} [{env:>2}] {mark} {cells[1]}")
        for s in (0, 1):
            lines.append(f"  seat {s} hand: {' '.join(NAMES[c] for c in self._hands[s])}")
        return "\n".join(lines)


class BattleLine(Game):
    """Battle Line for two, with the ten tactics cards (or without), claims proved on the table."""

    name = "battleline"
    options_model = BattleLineOptions
    capabilities = frozenset({CHANCE, PRIVATE_INFORMATION, ACTION_ENCODING, OBSERVATION_STATE, VIEWS})
    min_return = 0.0
    max_return = 1.0  # the match result: 1 win, 0.5 draw, 0 loss (points in Outcome.extra)
    # Per game at most: 2 deals; 72 plays (70 cards, 2 of them back via Scout); 58 draws;
    # 2 returns and 1 deck-order node; 9 claims; 2 Mud discards; and per turn at most one pass
    # or `done` beyond those (165 turns); rounded up.
    max_steps = 500 * MAX_SERIES

    def num_players(self, options: BattleLineOptions) -> int:
        return 2

    # views: games/battleline/views.py (the tensor's field table TENSOR_FIELDS)
    def describe_action(self, options: BattleLineOptions, action: str) -> str:
        return _views.describe_action(options, action)

    def observation_text(self, options: BattleLineOptions, seat: int, observation: dict[str, Any]) -> str:
        return _views.observation_text(options, seat, observation)

    def observation_shape(self, options: BattleLineOptions) -> tuple[int, ...]:
        return _views.observation_shape(options)

    def observation_tensor(self, options: BattleLineOptions, seat: int, observation: dict[str, Any]) -> Any:
        return _views.observation_tensor(options, seat, observation)

    def action_vocabulary(self, options: BattleLineOptions) -> tuple[str, ...]:
        """Every card to every flag, the guile cards' targets, claims, draws, returns, Mud's discards,
        pass and done, sorted."""
        every = [a for row in _PLAY for a in row] + _CLAIM + list(_DRAWS) + ["pass", "done", "play:scout"]
        every += ["return:" + name for name in NAMES] + ["discard:" + name for name in NAMES]  # Mud's trim
        every += _DESERTER + [a for row in _TRAITOR for a in row]
        every += [a for row in _REDEPLOY for a in row]
        return tuple(sorted(set(every)))

    def new_initial_state(self, options: BattleLineOptions | dict | None = None) -> BattleLineState:
        if not isinstance(options, BattleLineOptions):
            options = self.options(options)
        return BattleLineState(options)

    def state_from_observation(self, player: int, observation: dict[str, Any]) -> BattleLineState:
        """The position `player` sees. The opponent's unknown cards and the unknown deck cards are
        dealt from the unseen ones (counts and known positions kept; `resample_hidden` redraws them);
        a completed side's cards carry its completion stamp, an unfinished side's count as placed at
        once (its order is not shown); the turn's pass and claims are read off the history since the
        last "done". Options the observation does not show take their defaults, tactics on where any
        tactics card is in sight or left in its deck."""
        obs, me, other = observation, player, 1 - player
        seen_tactics = (obs["decks"]["tactics"] or any(obs["tactics_played"]) or obs["opponent_hand"]["tactics"]
                        or any(CARD_OF[c] >= N_TROOPS for c in obs["hand"]))
        used = set(CARD_OF[c] for c in obs["hand"]) | set(CARD_OF[c] for c in obs["opponent_hand"]["known"])
        flags, clock = [], 0
        for f, flag in enumerate(obs["flags"]):
            sides = []
            for s_, cards in enumerate(flag["cards"]):
                stamp = flag["completed"][s_] or 0
                clock = max(clock, stamp)
                sides.append([[c, stamp] for c in cards])
                used |= {CARD_OF[c] for c in cards}
            for env, card in (("fog", FOG), ("mud", MUD)):
                if flag[env] is not None:
                    used.add(card)
            flags.append({"claimed": -1 if flag["claimed"] is None else flag["claimed"],
                          "fog": -1 if flag["fog"] is None else flag["fog"],
                          "mud": -1 if flag["mud"] is None else flag["mud"], "sides": sides})
        used |= {CARD_OF[c] for pile in obs["discards"] for c in pile}
        mine_in_deck = {d: {int(depth): CARD_OF[c] for depth, c in obs["deck_known"][d]} for d in DECK_NAMES}
        used |= {c for known in mine_in_deck.values() for c in known.values()}
        pool = [[c for c in TROOPS if c not in used], [c for c in TACTICS if c not in used] if seen_tactics else []]
        theirs = [CARD_OF[c] for c in obs["opponent_hand"]["known"]]
        for d, count in ((0, obs["opponent_hand"]["troops"]), (1, obs["opponent_hand"]["tactics"])):
            missing = count - sum(1 for c in theirs if deck_of(c) == d)
            theirs += pool[d][:missing]
            pool[d] = pool[d][missing:]
        decks, known_theirs = {}, set()
        for d, name in enumerate(DECK_NAMES):
            order, fill = [], list(pool[d])
            theirs_at = set(int(x) for x in obs["opponent_deck_known"][name])
            for depth in range(obs["decks"][name]):
                card = mine_in_deck[name].get(depth)
                if card is None:
                    card = fill.pop(0) if fill else TROOPS[0]
                    if depth in theirs_at:
                        known_theirs.add(card)
                order.append(NAMES[card])
            decks[name] = order
        history = [[int(s_), str(a)] for s_, a in obs["history"]]
        ends = [i for i, (_, a) in enumerate(history) if a == "done"]
        turn = history[ends[-1] + 1:] if ends else history
        cur = obs["to_act"] if obs["phase"] != TRIM else (history[-1][0] if history else obs["first"])
        if obs["phase"] == TRIM and turn:
            cur = turn[0][0]
        hands = [[], []]
        hands[me], hands[other] = list(obs["hand"]), [NAMES[c] for c in theirs]
        known_deck, known_hand = [set(), set()], [set(), set()]
        known_deck[me] = {NAMES[c] for known in mine_in_deck.values() for c in known.values()}
        known_deck[other] = {NAMES[c] for c in known_theirs}
        known_hand[me], known_hand[other] = set(obs["opponent_hand"]["known"]), set(obs["opponent_knows"])
        data = {
            "options": {"tactics": bool(seen_tactics), "series": obs["series"]}, "phase": obs["phase"],
            "game": obs["game"], "points": obs["points"], "results": obs["results"], "first": obs["first"],
            "current": obs["first"] if cur is None else cur, "hands": hands, "decks": decks, "flags": flags,
            "discards": obs["discards"], "tactics_played": obs["tactics_played"], "leader_played": obs["leader_played"],
            "clock": clock, "claiming": obs["claiming"], "passed": any(a == "pass" for _, a in turn),
            "turn_claims": sum(1 for _, a in turn if a.startswith("claim:")), "idle": obs["idle_turns"],
            "scout_draws": obs["scout"]["draws_left"], "returns": obs["scout"]["returns_left"], "trim": obs["mud_trim"],
            "known_deck": [sorted(k) for k in known_deck], "known_hand": [sorted(k) for k in known_hand],
            "events": history}
        return self.state_from_json(data)

    def state_from_json(self, data: dict[str, Any]) -> BattleLineState:
        state = BattleLineState(self.options(data["options"]))
        if data["phase"] not in _PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        state._phase = data["phase"]
        state._game = int(data["game"])
        state._points = [int(x) for x in data["points"]]
        state._results = [dict(r, flags=list(r["flags"]), points=list(r["points"]))
                          for r in data["results"]]
        state._first, state._cur = int(data["first"]), int(data["current"])
        state._hands = [sorted(CARD_OF[c] for c in h) for h in data["hands"]]
        state._decks = [[CARD_OF[c] for c in reversed(data["decks"][DECK_NAMES[d]])]
                        for d in (0, 1)]
        for f, flag in enumerate(data["flags"]):
            state._claimed[f], state._fog[f], state._mud[f] = (
                int(flag["claimed"]), int(flag["fog"]), int(flag["mud"]))
            for s in (0, 1):
                for name, placed in flag["sides"][s]:
                    state._sides[f][s].append(CARD_OF[name])
                    state._placed[CARD_OF[name]] = int(placed)
        state._disc = [[CARD_OF[c] for c in pile] for pile in data["discards"]]
        state._tac = [int(x) for x in data["tactics_played"]]
        state._leader = [bool(x) for x in data["leader_played"]]
        state._clock = int(data["clock"])
        state._claiming, state._passed = bool(data["claiming"]), bool(data["passed"])
        state._turn_claims, state._idle = int(data["turn_claims"]), int(data["idle"])
        state._scout_draws, state._returns = int(data["scout_draws"]), int(data["returns"])
        state._trim = [[int(a), int(b)] for a, b in data["trim"]]
        state._known_deck = [{CARD_OF[c] for c in k} for k in data["known_deck"]]
        state._known_hand = [{CARD_OF[c] for c in k} for k in data["known_hand"]]
        state._events = [[int(s), str(a)] for s, a in data["events"]]
        unseen = [c for h in state._hands for c in h if c < N_TROOPS] + state._decks[TROOP_DECK]
        state._gone = sum(_BITS[c] for c in TROOPS) - sum(_BITS[c] for c in unseen)
        for f in range(FLAGS):
            state._touched(f)
        return state


def _names(cards: set[int]) -> list[str]:
    return [NAMES[c] for c in sorted(cards)]


def _permutation(outcome: Any, cards: tuple[int, ...]) -> list[int]:
    """The outcome as card ints if it is an ordering of exactly `cards`, else IllegalAction."""
    if not isinstance(outcome, list) or len(outcome) != len(cards):
        raise IllegalAction(f"a shuffle is a list of the {len(cards)} card names, got {outcome!r}")
    try:
        order = [CARD_OF[c] for c in outcome]
    except (KeyError, TypeError):
        raise IllegalAction(f"shuffle {outcome!r} names an unknown card") from None
    if sorted(order) != list(cards):
        raise IllegalAction("the shuffle is not a permutation of the deck")
    return order


import games.battleline.views as _views  # noqa: E402  (last: the views import this module's names)
