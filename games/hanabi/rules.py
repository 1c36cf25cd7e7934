"""Hanabi as pure rules, 2 to 5 players (rulebook: A. Bauza, Hanabi, 2010; Osawa 2015 section 3.1).

Five colours; per colour three 1s, two each of 2, 3 and 4, one 5. Hands of 5 cards (4 with 4 or 5
players), 8 hint tokens, 3 lives. A turn is one of:
- `hint:T:colour:C` / `hint:T:rank:R`: tell seat T about *all* its cards of colour C (a letter of
  RYGWB) or rank R (1..5); at least one card must match; costs a token, illegal at 0 tokens.
- `discard:I`: discard the card in slot I; gains a token; illegal at 8 tokens.
- `play:I`: play slot I; it succeeds if it is the next card of its colour, else it is discarded and
  a life is lost. Completing a firework (its 5) returns a token under `completion_bonus`.
After a play or discard the player draws. Slots follow the Hanabi Learning Environment (HLE): the
card leaves its slot, later cards move down, the new card goes to the last slot.

The game ends at 0 lives, when all fireworks are complete, or after every player has had one more
turn once the deck is empty (the player who drew the last card included). The score is the sum of
the fireworks (0..25); with `bomb_out_scores_zero` a game lost to the third life scores 0 (HLE and
Bard et al. 2020 score so; Osawa keeps the fireworks). Every player's return is the score, so
`min_return` is 0 and `max_return` 25.

Chance: the whole shuffled deck is one chance outcome at the start (a list of card names such as
"R1", top card first); hands are dealt from it seat by seat, then draws take the next card.
Observations hide a player's own cards, except in the `reveal_own_cards` variant (a baseline that
plays with open hands; the option is in the log header like any other).
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field, model_validator

from games.api import ACTION_ENCODING, CHANCE, OBSERVATION_STATE, PRIVATE_INFORMATION, VIEWS, Game, IllegalAction, Options, Outcome, State
from games.hanabi.cards import ALL_COLOURS, ALL_RANKS, CARD_OF, COLOURS, DECK, FULL, MATCHING, NAMES

MAX_HINTS = 8
MAX_LIVES = 3
DEAL, PLAY, END = "deal", "play", "end"
_ALPHA_COLOURS = sorted(range(5), key=lambda c: COLOURS[c])  # B G R W Y: string order of actions


class HanabiOptions(Options):
    """Variant options; defaults are the published game (completion bonus on, score kept)."""

    players: int = Field(2, ge=2, le=5)
    hand_size: int | None = Field(None, ge=1, le=5)  # None: 5 with 2-3 players, 4 with 4-5
    completion_bonus: bool = True  # a completed firework returns a token (off in Osawa's study)
    bomb_out_scores_zero: bool = False  # losing the third life scores 0 (HLE's rule)
    reveal_own_cards: bool = False  # open hands: the full-information baseline's variant

    @model_validator(mode="after")
    def _fill(self) -> HanabiOptions:
        if self.hand_size is None:
            object.__setattr__(self, "hand_size", 5 if self.players <= 3 else 4)
        return self


# -- actions, built once: strings and their parses -------------------------------------------

def _hint_colour(t: int, c: int) -> str:
    return f"hint:{t}:colour:{COLOURS[c]}"


def _hint_rank(t: int, r: int) -> str:
    return f"hint:{t}:rank:{r + 1}"


PLAYS = tuple(f"play:{i}" for i in range(5))
DISCARDS = tuple(f"discard:{i}" for i in range(5))
HINT_COLOUR = tuple(tuple(_hint_colour(t, c) for c in range(5)) for t in range(5))
HINT_RANK = tuple(tuple(_hint_rank(t, r) for r in range(5)) for t in range(5))
# action -> (kind, a, b): ("p", slot, 0), ("d", slot, 0), ("c", target, colour), ("r", target, rank0)
PARSE: dict[str, tuple[str, int, int]] = {
    **{PLAYS[i]: ("p", i, 0) for i in range(5)},
    **{DISCARDS[i]: ("d", i, 0) for i in range(5)},
    **{HINT_COLOUR[t][c]: ("c", t, c) for t in range(5) for c in range(5)},
    **{HINT_RANK[t][r]: ("r", t, r) for t in range(5) for r in range(5)},
}


_HINT_BIT = tuple(1 << (card // 5) | 1 << (5 + card % 5) for card in range(25))  # a card's colour and rank bits
_HINTS: dict[tuple[int, int], tuple[str, ...]] = {}  # (seat, colour and rank bits of its hand) -> its hints
_LEGAL: dict[tuple, tuple[str, ...]] = {}  # what decides a node's legal actions -> them (HanabiState._compute_legal)
_LEGAL_KEPT = 1 << 16  # keys _LEGAL keeps before it starts over (ours: a few MB)


def _hints_for(t: int, bits: int) -> tuple[str, ...]:
    """The hints to seat t whose hand holds these colours and ranks, colour hints first, each in
    string order (so a legal list stays sorted)."""
    found = _HINTS.get((t, bits))
    if found is None:
        found = _HINTS[(t, bits)] = (tuple(HINT_COLOUR[t][c] for c in _ALPHA_COLOURS if bits >> c & 1)
                                     + tuple(HINT_RANK[t][r] for r in range(5) if bits >> (5 + r) & 1))
    return found


_SORTED_DECK = sorted(DECK)
_BIT_LENGTH = tuple(n.bit_length() for n in range(len(DECK) + 1))


def _shuffle(deck: list[int], getrandbits) -> None:
    """`random.Random.shuffle(deck)` step for step (Fisher-Yates from the end, each index drawn by
    rejection from getrandbits of its bit length: the same permutation for the same generator
    state), without its two Python calls a card."""
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = _BIT_LENGTH[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


class HanabiState(State):
    """A Hanabi position: cards and hint knowledge as ints (see games.hanabi.cards)."""

    def __init__(self, options: HanabiOptions):
        self._o = options
        self._odump: dict[str, Any] | None = None  # the options as JSON, made when first asked for (to_json)
        self._n = options.players
        self._hs = options.hand_size
        self._phase = DEAL
        self._deck: list[int] = []  # cards still to draw, next card last
        self._hands: list[list[int]] = [[] for _ in range(self._n)]
        self._know: list[list[int]] = [[] for _ in range(self._n)]
        self._fw = [0] * 5  # height of each firework, colours in RYGWB order
        self._disc: list[int] = []  # discard pile (misplays included), in order
        self._hints = MAX_HINTS
        self._lives = MAX_LIVES
        self._cur = 0
        self._turns_left = self._n  # counts down once the deck is empty
        self._history: list[dict[str, Any]] = []  # public events, never mutated once appended
        self._legal: tuple[str, ...] | None = None

    # -- node kind -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._phase == END

    def is_chance(self) -> bool:
        return self._phase == DEAL

    def current_players(self) -> list[int]:
        return [self._cur] if self._phase == PLAY else []

    # -- chance ----------------------------------------------------------------------------
    def sample_chance(self, rng: random.Random) -> Any:
        if self._phase != DEAL:
            raise IllegalAction("not a chance node")
        deck = list(DECK)
        if type(rng) is random.Random:
            _shuffle(deck, rng.getrandbits)
        else:
            rng.shuffle(deck)
        return [NAMES[c] for c in deck]

    def apply_chance(self, outcome: Any) -> None:
        if self._phase != DEAL:
            raise IllegalAction("not a chance node")
        if not isinstance(outcome, list) or len(outcome) != len(DECK):
            raise IllegalAction(f"a deal is a list of the {len(DECK)} cards, got {outcome!r}")
        try:
            cards = [CARD_OF[c] for c in outcome]
        except (KeyError, TypeError):
            raise IllegalAction(f"deal {outcome!r} names an unknown card") from None
        if sorted(cards) != _SORTED_DECK:
            raise IllegalAction("the deal is not a permutation of the deck")
        hs = self._hs
        for p in range(self._n):
            self._hands[p] = cards[p * hs:(p + 1) * hs]
            self._know[p] = [FULL] * hs
        self._deck = cards[self._n * hs:][::-1]
        self._phase = PLAY
        self._legal = None

    # -- decisions -------------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[str]:
        if self._phase != PLAY or player != self._cur:
            return []
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def legal_actions_key(self, player: int) -> tuple[int, ...]:
        """What decides `player`'s legal actions: () when it is not to act, else its seat, its hand
        size, and the tokens with each partner's colours and ranks (the key of their table)."""
        if self._phase != PLAY or player != self._cur:
            return ()
        return self._legal_key()

    def _legal_key(self) -> tuple[int, ...]:
        p, hands, hints = self._cur, self._hands, self._hints
        if not hints:
            return (p, len(hands[p]))
        key = [p, len(hands[p]), hints < MAX_HINTS]
        for t, hand in enumerate(hands):
            if t != p:
                bits = 0  # the colours (bits 0-4) and ranks (bits 5-9) in seat t's hand
                for card in hand:
                    bits |= _HINT_BIT[card]
                key.append(bits)
        return tuple(key)

    def _compute_legal(self) -> tuple[str, ...]:
        """The current player's legal actions, from a table by `legal_actions_key`: the same tuple
        for the same key."""
        key = self._legal_key()
        found = _LEGAL.get(key)
        if found is None:
            if len(_LEGAL) >= _LEGAL_KEPT:
                _LEGAL.clear()
            found = _LEGAL[key] = self._build_legal(key)
        return found

    def _build_legal(self, key: tuple) -> tuple[str, ...]:
        # Built in string order: "discard:" < "hint:T:colour:" < "hint:T:rank:" < "play:".
        p, size = key[0], key[1]
        out = DISCARDS[:size] if self._hints < MAX_HINTS else ()
        if self._hints > 0:
            partners = [t for t in range(self._n) if t != p]
            for t, bits in zip(partners, key[3:]):
                out += _hints_for(t, bits)
        return out + PLAYS[:size]

    def default_action(self, player: int) -> str:
        """The first legal action (a discard when tokens may be gained, else a hint)."""
        legal = self.legal_actions(player)
        return legal[0] if legal else ""

    def apply_actions(self, actions: dict[int, str]) -> None:
        if self._phase != PLAY:
            raise IllegalAction(f"no decision to make at this node (phase {self._phase})")
        p = self._cur
        if not isinstance(actions, dict) or len(actions) != 1 or p not in actions:
            raise IllegalAction(f"expected exactly one action, from player {p}; got {actions!r}")
        action = actions[p]
        if not self._allows(action):
            raise IllegalAction(f"player {p}: illegal action {action!r}")
        self.apply_action(action)

    def _allows(self, action: Any) -> bool:
        """`action in legal_actions(current player)`, from the rules directly (no list built)."""
        parsed = PARSE.get(action) if type(action) is str else None
        if parsed is None:
            return False
        kind, a, b = parsed
        p = self._cur
        if kind == "p" or kind == "d":
            return a < len(self._hands[p]) and (kind == "p" or self._hints < MAX_HINTS)
        if not self._hints or a == p or a >= self._n:
            return False
        for card in self._hands[a]:
            if (card // 5 if kind == "c" else card % 5) == b:
                return True
        return False

    def apply_action(self, action: str) -> None:
        """Apply a legal action of the current player (callers have checked legality)."""
        kind, a, b = PARSE[action]
        p = self._cur
        was_empty = not self._deck
        if kind == "c" or kind == "r":
            self._hint(p, kind, a, b, action)
        else:
            self._play_or_discard(p, kind == "p", a, action)
        if was_empty:
            self._turns_left -= 1
        self._legal = None
        if self._lives == 0 or sum(self._fw) == 25 or self._turns_left == 0:
            self._phase = END
        else:
            self._cur = (p + 1) % self._n

    def _hint(self, p: int, kind: str, t: int, v: int, action: str) -> None:
        self._hints -= 1
        hand, know = self._hands[t], list(self._know[t])
        touched = []
        if kind == "c":
            bit = 1 << v
            for i, card in enumerate(hand):
                if card // 5 == v:
                    know[i] = (know[i] & ALL_RANKS) | bit
                    touched.append(i)
                else:
                    know[i] &= ~bit
        else:
            bit = 1 << (5 + v)
            for i, card in enumerate(hand):
                if card % 5 == v:
                    know[i] = (know[i] & ALL_COLOURS) | bit
                    touched.append(i)
                else:
                    know[i] &= ~bit
        self._know[t] = know
        self._history.append({"action": action, "player": p, "slots": touched})

    def _play_or_discard(self, p: int, play: bool, i: int, action: str) -> None:
        hand, know = list(self._hands[p]), list(self._know[p])
        card = hand.pop(i)
        was = know.pop(i)
        event: dict[str, Any] = {"action": action, "card": NAMES[card], "knew": was, "player": p}
        if play:
            c, r = card // 5, card % 5
            ok = self._fw[c] == r
            event["ok"] = ok
            if ok:
                self._fw = list(self._fw)
                self._fw[c] = r + 1
                if r == 4 and self._o.completion_bonus and self._hints < MAX_HINTS:
                    self._hints += 1
            else:
                self._lives -= 1
                self._disc = self._disc + [card]
        else:
            self._hints += 1
            self._disc = self._disc + [card]
        if self._deck:
            self._deck = list(self._deck)
            hand.append(self._deck.pop())
            know.append(FULL)
        self._hands[p] = hand
        self._know[p] = know
        self._history.append(event)

    # -- information -----------------------------------------------------------------------
    def score(self) -> int:
        """Fireworks played so far (the score kept; `outcome` applies the bomb-out rule)."""
        return sum(self._fw)

    def observation(self, player: int) -> dict[str, Any]:
        """Public state, the other players' cards, and `null` for the own cards (unless open)."""
        open_hands = self._o.reveal_own_cards
        hands = [[NAMES[c] for c in h] if (q != player or open_hands) else [None] * len(h)
                 for q, h in enumerate(self._hands)]
        return {
            "me": player,
            "players": self._n,
            "current": self._cur if self._phase == PLAY else None,
            "hands": hands,
            "knowledge": [list(k) for k in self._know],
            "fireworks": list(self._fw),
            "discards": [NAMES[c] for c in self._disc],
            "hints": self._hints,
            "lives": self._lives,
            "deck": len(self._deck),
            "turns_left": self._turns_left if not self._deck and self._phase != DEAL else None,
            "score": sum(self._fw),
            "history": list(self._history),
            "rules": {"completion_bonus": self._o.completion_bonus,
                      "bomb_out_scores_zero": self._o.bomb_out_scores_zero,
                      "hand_size": self._hs, "open_hands": open_hands},
        }

    def resample_hidden(self, player: int, rng: random.Random) -> HanabiState:
        """Redraw `player`'s hand (consistent with the hints it got) and the deck order.

        The unseen pool is the player's hand plus the deck; each own card is redrawn among pool
        cards that match its hint knowledge, the rest are shuffled into the deck. With open
        hands only the deck order is hidden.
        """
        new = self.clone()
        if self._phase == DEAL:
            return new
        know = self._know[player]
        pool = list(self._deck)
        if not self._o.reveal_own_cards:
            pool += self._hands[player]
            hand = _draw_consistent(know, pool, rng)
            if hand is None:  # no random fill found: keep the hand, reshuffle the deck
                hand = list(self._hands[player])
            for card in hand:
                pool.remove(card)
            new._hands[player] = hand
        rng.shuffle(pool)
        new._deck = pool
        return new

    def provisional_returns(self) -> tuple[float, ...]:
        """The fireworks' score so far, for every seat (the score if the game stopped now)."""
        score = float(sum(self._fw))
        return tuple(score for _ in range(self._n))

    def outcome(self) -> Outcome:
        if self._phase != END:
            raise ValueError("the game is not over")
        kept = sum(self._fw)
        zero = self._lives == 0 and self._o.bomb_out_scores_zero
        score = 0 if zero else kept
        how = ("perfect" if kept == 25 else "bombed out" if self._lives == 0 else "deck out")
        return Outcome(
            returns=tuple(float(score) for _ in range(self._n)),
            winners=tuple(range(self._n)) if kept == 25 else (),
            summary=f"score {score} ({how}; fireworks {kept}, lives {self._lives})",
            extra={"score": score, "fireworks": kept, "lives": self._lives, "end": how},
        )

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Full state; the history dicts inside are the state's own: read them, never mutate."""
        return {
            "options": dict(self._options_json()),
            "phase": self._phase,
            "deck": [NAMES[c] for c in reversed(self._deck)],  # next card first
            "hands": [[NAMES[c] for c in h] for h in self._hands],
            "knowledge": [list(k) for k in self._know],
            "fireworks": list(self._fw),
            "discards": [NAMES[c] for c in self._disc],
            "hints": self._hints,
            "lives": self._lives,
            "current": self._cur,
            "turns_left": self._turns_left,
            "history": list(self._history),
        }

    def _options_json(self) -> dict[str, Any]:
        if self._odump is None:
            self._odump = self._o.model_dump(mode="json")
        return self._odump

    def clone(self) -> HanabiState:
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        # lists below are replaced, never mutated, by the methods above (copy on write)
        new._hands = list(self._hands)
        new._know = list(self._know)
        new._history = list(self._history)
        return new

    def render(self) -> str:
        head = (f"Hanabi: score {sum(self._fw)}, hints {self._hints}, lives {self._lives}, "
                f"deck {len(self._deck)}, {'over' if self._phase == END else f'p{self._cur} to play'}")
        fw = " ".join(f"{COLOURS[c]}{self._fw[c]}" for c in range(5))
        lines = [head, f"  fireworks {fw}", f"  discards {' '.join(NAMES[c] for c in self._disc)}"]
        for q, hand in enumerate(self._hands):
            cards = " ".join(NAMES[c] for c in hand)
            lines.append(f"  p{q}: {cards}")
        return "\n".join(lines)


class Hanabi(Game):
    """Hanabi, 2 to 5 players; Osawa's variant is completion_bonus=false."""

    name = "hanabi"
    options_model = HanabiOptions
    capabilities = frozenset({CHANCE, PRIVATE_INFORMATION, OBSERVATION_STATE, ACTION_ENCODING, VIEWS})
    min_return = 0.0
    max_return = 25.0
    max_steps = 500

    def num_players(self, options: HanabiOptions) -> int:
        return options.players

    def action_vocabulary(self, options: HanabiOptions) -> tuple[str, ...]:
        """Plays and discards of hand positions 0-4, then every hint to every seat, sorted."""
        hints = [h for t in range(options.players) for h in HINT_COLOUR[t] + HINT_RANK[t]]
        return tuple(sorted(PLAYS + DISCARDS + tuple(hints)))

    # views: games/hanabi/views.py (the HLE-style tensor, its field table `tensor_fields`)
    def describe_action(self, options: HanabiOptions, action: str) -> str:
        return _views.describe_action(options, action)

    def observation_text(self, options: HanabiOptions, seat: int, observation: dict[str, Any]) -> str:
        return _views.observation_text(options, seat, observation)

    def observation_shape(self, options: HanabiOptions) -> tuple[int, ...]:
        return _views.observation_shape(options)

    def observation_tensor(self, options: HanabiOptions, seat: int, observation: dict[str, Any]) -> Any:
        return _views.observation_tensor(options, seat, observation)

    def state_observation_tensor(self, options: HanabiOptions, state: State, seat: int) -> Any:
        return _views.state_observation_tensor(options, state, seat)

    def teams(self, options: HanabiOptions) -> tuple[tuple[int, ...], ...]:
        """A cooperative game: every seat in one team."""
        return (tuple(range(options.players)),)

    def new_initial_state(self, options: HanabiOptions | dict | None = None) -> HanabiState:
        if not isinstance(options, HanabiOptions):
            options = self.options(options)
        return HanabiState(options)

    def state_from_json(self, data: dict[str, Any]) -> HanabiState:
        state = HanabiState(self.options(data["options"]))
        state._phase = data["phase"]
        if state._phase not in (DEAL, PLAY, END):
            raise ValueError(f"unknown phase {state._phase!r}")
        state._deck = [CARD_OF[c] for c in reversed(data["deck"])]
        state._hands = [[CARD_OF[c] for c in h] for h in data["hands"]]
        state._know = [[int(k) for k in ks] for ks in data["knowledge"]]
        if len(state._hands) != state._n or len(state._know) != state._n:
            raise ValueError("hands/knowledge do not match the number of players")
        state._fw = [int(x) for x in data["fireworks"]]
        state._disc = [CARD_OF[c] for c in data["discards"]]
        state._hints = int(data["hints"])
        state._lives = int(data["lives"])
        state._cur = int(data["current"])
        state._turns_left = int(data["turns_left"])
        state._history = [dict(e) if "slots" not in e else {**e, "slots": list(e["slots"])}
                          for e in data["history"]]
        return state

    def state_from_observation(self, player: int, observation: dict[str, Any]) -> HanabiState:
        """The position `player` sees: its own cards filled from the unseen pool (matching its hint
        knowledge where the pool allows), the rest of the pool as the deck (`resample_hidden` redraws both)."""
        obs, rules = observation, observation["rules"]
        state = HanabiState(self.options({
            "players": obs["players"], "hand_size": rules["hand_size"], "completion_bonus": rules["completion_bonus"],
            "bomb_out_scores_zero": rules["bomb_out_scores_zero"], "reveal_own_cards": rules["open_hands"]}))
        pool = list(DECK)
        seen = [CARD_OF[c] for h in obs["hands"] for c in h if c is not None] + [CARD_OF[c] for c in obs["discards"]]
        seen += [c * 5 + r for c in range(5) for r in range(obs["fireworks"][c])]
        for card in seen:
            pool.remove(card)
        know = [list(k) for k in obs["knowledge"]]
        hands = [[CARD_OF[c] for c in h] if q != player or rules["open_hands"] else [] for q, h in enumerate(obs["hands"])]
        if not rules["open_hands"]:
            own = _draw_consistent(know[player], pool, random.Random(0)) or pool[: len(obs["hands"][player])]
            for card in own:
                pool.remove(card)
            hands[player] = own
        state._phase = END if obs["current"] is None and obs["history"] else PLAY if obs["current"] is not None else DEAL
        state._deck, state._hands, state._know = pool, hands, know
        state._fw, state._disc = list(obs["fireworks"]), [CARD_OF[c] for c in obs["discards"]]
        state._hints, state._lives = obs["hints"], obs["lives"]
        state._cur = obs["current"] if obs["current"] is not None else 0
        state._turns_left = obs["turns_left"] if obs["turns_left"] is not None else state._n
        state._history = list(obs["history"])
        return state


def _draw_consistent(know: list[int], pool: list[int], rng: random.Random,
                     tries: int = 20) -> list[int] | None:
    """A random hand whose card i matches `know[i]`, drawn without replacement from `pool`."""
    order = sorted(range(len(know)), key=lambda i: len(MATCHING[know[i]]))
    for _ in range(tries):
        left = list(pool)
        hand = [0] * len(know)
        for i in order:
            fits = [j for j, card in enumerate(left) if know[i] >> (card // 5) & 1
                    and know[i] >> (5 + card % 5) & 1]
            if not fits:
                break
            hand[i] = left.pop(fits[rng.randrange(len(fits))])
        else:
            return hand
    return None


import games.hanabi.views as _views  # noqa: E402  (last: the views import this module's names)
