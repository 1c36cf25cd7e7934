"""Hanabi's views: each action in words, a seat's observation as text and as a fixed float32 tensor.

Pure functions of (options, seat, observation): they read nothing but the observation, so they show
a seat exactly what it sees (partners' cards, never its own unless the variant opens hands).

The tensor follows the canonical encoding of the Hanabi Learning Environment (Bard et al. 2020,
"The Hanabi Challenge"; HLE's `CanonicalObservationEncoder`), section by section, with seats
counted from the observing seat (offset 0 is the seat itself, 1 the next seat, ...) and cards as
`colour * 5 + rank - 1` (colours R Y G W B, as in HLE). Where detente's observation differs:
- a slot's "colour hinted" / "rank hinted" bit is set when the hints leave a single colour / rank
  possible (the observation keeps what is possible, not which hint said it);
- the last move's "added a token" bit is set for a firework completed under `completion_bonus`;
- the open-hands variant (`reveal_own_cards`) adds the seat's own hand before the partners';
- a last section (ours) says whose turn it is.
`tensor_fields(options)` lists every field as (name, start, stop, meaning); `TENSOR_FIELDS` is that
table for the default options (two players, five cards).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from games.hanabi.cards import CARD_OF, COLOURS, COPIES, NUM_COLOURS, NUM_RANKS
from games.hanabi.rules import MAX_HINTS, MAX_LIVES, PARSE, PLAY, HanabiOptions, HanabiState

COLOUR_WORDS = ("red", "yellow", "green", "white", "blue")
_DECK_SIZE = 50
_CARD_BITS = NUM_COLOURS * NUM_RANKS  # 25
_SLOT_KNOW = _CARD_BITS + NUM_COLOURS + NUM_RANKS  # 35 per slot: plausible cards, colour, rank

# knowledge int (bit c: colour c possible, bit 5 + r: rank r + 1 possible) -> its 35 slot bits;
# row 1024: an empty slot (all zeros)
_KNOW_ROWS = np.zeros((1025, _SLOT_KNOW), dtype=np.float32)
for _k in range(1024):
    _cols = [c for c in range(5) if _k >> c & 1]
    _ranks = [r for r in range(5) if _k >> (5 + r) & 1]
    for _c in _cols:
        for _r in _ranks:
            _KNOW_ROWS[_k, _c * 5 + _r] = 1.0
    if len(_cols) == 1:
        _KNOW_ROWS[_k, _CARD_BITS + _cols[0]] = 1.0
    if len(_ranks) == 1:
        _KNOW_ROWS[_k, _CARD_BITS + NUM_COLOURS + _ranks[0]] = 1.0
_EMPTY_SLOT = 1024
_KNOW_BYTES = tuple(bytes(row.astype(np.uint8)) for row in _KNOW_ROWS)  # the same rows, a byte per bit
_ONES = b"\x01" * _DECK_SIZE  # thermometers: the first k bytes
# discards: card -> first bit of its thermometer within the 50-bit section (per colour: 3 + 2 + 2 + 2 + 1)
_DISCARD_BASE = tuple(c * 10 + sum(COPIES[:r]) for c in range(5) for r in range(5))
_MOVE_TYPE = {"p": 0, "d": 1, "c": 2, "r": 3}


class _Layout:
    """Offsets of every section for one (players, hand size, open hands)."""

    def __init__(self, n: int, hs: int, open_hands: bool):
        self.n, self.hs, self.open = n, hs, open_hands
        fields: list[tuple[str, int, int, str]] = []
        at = 0

        def add(name: str, size: int, meaning: str) -> int:
            nonlocal at
            fields.append((name, at, at + size, meaning))
            at += size
            return at - size

        shown = n if open_hands else n - 1
        first = 0 if open_hands else 1
        self.hand_seats = tuple(range(first, n))  # relative seats whose cards the tensor shows
        self.hands = add("hands", shown * hs * _CARD_BITS,
                         f"cards of seats +{first}..+{n - 1} (relative to the observer), {hs} slots each, "
                         f"25 bits per slot, one-hot colour*5+rank-1")
        self.missing = add("missing_card", n, "per relative seat: its hand holds fewer than "
                                              f"{hs} cards (the deck ran out)")
        self.deck_size = _DECK_SIZE - n * hs
        self.deck = add("deck", self.deck_size, "cards left in the deck, thermometer")
        self.fireworks = add("fireworks", NUM_COLOURS * NUM_RANKS,
                             "per colour R Y G W B, 5 bits: one-hot height of its firework (none at 0)")
        self.hints = add("hint_tokens", MAX_HINTS, "hint tokens, thermometer")
        self.lives = add("lives", MAX_LIVES, "lives, thermometer")
        self.discards = add("discards", _DECK_SIZE, "per colour, per rank, a thermometer of the discarded "
                                                   "copies (3 + 2 + 2 + 2 + 1 bits a colour)")
        self.last_player = add("last_move_player", n, "the last move's player, relative seat, one-hot")
        self.last_type = add("last_move_type", 4, "play, discard, colour hint, rank hint, one-hot")
        self.last_target = add("last_move_target", n, "a hint's target, relative seat, one-hot")
        self.last_colour = add("last_move_colour", NUM_COLOURS, "a colour hint's colour, one-hot")
        self.last_rank = add("last_move_rank", NUM_RANKS, "a rank hint's rank, one-hot")
        self.last_slots = add("last_move_touched", hs, "the slots a hint touched")
        self.last_slot = add("last_move_slot", hs, "the slot played or discarded, one-hot")
        self.last_card = add("last_move_card", _CARD_BITS, "the card played or discarded, one-hot")
        self.last_ok = add("last_move_success", 1, "the play succeeded")
        self.last_bonus = add("last_move_completed", 1, "the play completed a firework under completion_bonus")
        self.know = add("knowledge", n * hs * _SLOT_KNOW,
                        f"per relative seat +0..+{n - 1}, per slot: 25 bits the cards its hints allow, "
                        "5 bits colour known, 5 bits rank known")
        self.current = add("current_player", n, "the seat to act, relative, one-hot (none at the end)")
        self.size = at
        self.fields = tuple(fields)


@lru_cache(maxsize=64)
def _layout(n: int, hs: int, open_hands: bool) -> _Layout:
    return _Layout(n, hs, open_hands)


def _layout_of(options: HanabiOptions) -> _Layout:
    return _layout(options.players, options.hand_size, options.reveal_own_cards)


def tensor_fields(options: HanabiOptions) -> tuple[tuple[str, int, int, str], ...]:
    """(name, start, stop, meaning) of every field of the tensor for these options."""
    return _layout_of(options).fields


TENSOR_FIELDS = tensor_fields(HanabiOptions())


def observation_shape(options: HanabiOptions) -> tuple[int, ...]:
    return (_layout_of(options).size,)


def observation_tensor(options: HanabiOptions, seat: int, observation: dict[str, Any]) -> np.ndarray:
    """The HLE-style encoding of `observation` (module docstring; offsets in `tensor_fields`)."""
    obs = observation
    return _encode(_layout_of(options), seat, obs["hands"], CARD_OF, obs["knowledge"], obs["deck"], obs["hints"],
                   obs["lives"], obs["fireworks"], obs["discards"], obs["history"], obs["current"],
                   obs["rules"]["completion_bonus"])


def state_observation_tensor(options: HanabiOptions, state: HanabiState, seat: int) -> np.ndarray:
    """`observation_tensor(options, seat, state.observation(seat))`, read from the state's own fields
    without building the observation (a learner's loop reads a tensor every step). It reads only
    what that observation holds: the seat's own cards only where the tensor shows them (open hands);
    the views conformance checks the two are equal at every node it visits.

    A second encoder, built for speed: the tensor is the join of ready float32 byte chunks, one list
    of them per call and one copy into a new array. The fireworks and the discards each come as one
    chunk, kept beside the list it was made from and used again while the state still holds that
    very list: the rules never change one of these lists in place (a move puts a new list in its
    place), so the same list means the same chunk. (Hands and knowledge change too often between
    two calls of a loop to gain from the same.)"""
    last = _LAST_OPTIONS
    if last[0] is options:
        ch, bonus = last[1], last[2]
    else:
        ch, bonus = _chunks_for(options)
    n, memo = ch.n, ch.memo
    hands, know_all, deck = state._hands, state._know, len(state._deck)  # noqa: SLF001
    out = []
    card_row, hs = ch.card, ch.hs
    for rel in ch.hand_seats:
        q = seat + rel
        hand = hands[q - n if q >= n else q]
        for card in hand:  # a loop of appends: cheaper than map or a comprehension for 5 items
            out.append(card_row[card])
        if len(hand) < hs:
            out += [ch.no_card] * (hs - len(hand))
    if deck:  # a hand is short only once the deck has run out
        out.append(ch.no_missing)
    else:
        out += [_F32_ONE if len(hands[(seat + rel) % n]) < hs else _F32_ZERO for rel in range(n)]
    out.append(ch.deck[deck])
    fw, disc = state._fw, state._disc  # noqa: SLF001
    kept = memo[0]
    if kept[0] is not fw:
        kept = memo[0] = (fw, b"".join([_FIREWORK[h] for h in fw]))
    out.append(kept[1])
    out.append(_TOKENS_F32[state._hints][state._lives])  # noqa: SLF001
    kept = memo[1]
    if kept[0] is not disc:
        kept = memo[1] = (disc, _discard_chunk(disc) if disc else _NO_DISCARDS)
    out.append(kept[1])
    history = state._history  # noqa: SLF001
    out.append(ch.last_move(seat, history[-1], bonus) if history else ch.no_move)
    for rel in range(n):
        q = seat + rel
        know = know_all[q - n if q >= n else q]
        for k in know:
            out.append(_KNOW_F32[k])
        if len(know) < hs:
            out += [ch.no_know] * (hs - len(know))
    out.append(ch.current[(state._cur - seat) % n] if state._phase == PLAY else ch.no_current)  # noqa: SLF001
    return np.frombuffer(bytearray(b"".join(out)), np.float32)


def _chunks_for(options: HanabiOptions) -> tuple[_Chunks, bool]:
    """The chunks of `options`' layout and its completion bonus, kept for the next call's options."""
    global _LAST_OPTIONS
    ch = _chunks(options.players, options.hand_size, options.reveal_own_cards)
    bonus = options.completion_bonus
    _LAST_OPTIONS = (options, ch, bonus)  # one tuple: a reader in another thread sees all or nothing
    return ch, bonus


_LAST_OPTIONS: tuple[Any, Any, bool] = (None, None, False)


def _f32(bits) -> bytes:
    """float32 bytes of a sequence of 0/1."""
    return np.asarray(bits, dtype=np.float32).tobytes()


_F32_ONE, _F32_ZERO = _f32([1]), _f32([0])
_KNOW_F32 = tuple(row.tobytes() for row in _KNOW_ROWS)
_FIREWORK = tuple(_f32([h and i == h - 1 for i in range(NUM_RANKS)]) for h in range(NUM_RANKS + 1))
_HINTS_F32 = tuple(_f32([i < h for i in range(MAX_HINTS)]) for h in range(MAX_HINTS + 1))
_LIVES_F32 = tuple(_f32([i < h for i in range(MAX_LIVES)]) for h in range(MAX_LIVES + 1))
_TOKENS_F32 = tuple(tuple(hints + lives for lives in _LIVES_F32) for hints in _HINTS_F32)  # hints, then lives
_NO_DISCARDS = _f32([0] * _DECK_SIZE)
_DISCARD_WEIGHT = tuple((1, 4, 12, 36, 108)[card % 5] for card in range(_CARD_BITS))  # a colour's code: mixed radix
_DISCARD_COLOUR = tuple(  # a colour's 10 floats by its code (counts of ranks 1..5 discarded, radix 4 3 3 3 2)
    _f32([i < (code // w) % (copies + 1) for w, copies in zip((1, 4, 12, 36, 108), COPIES) for i in range(copies)])
    for code in range(216))


def _discard_chunk(disc: list[int]) -> bytes:
    """The discards section: per colour, the thermometers of its ranks' discarded copies."""
    codes = [0, 0, 0, 0, 0]
    for card in disc:
        codes[card // 5] += _DISCARD_WEIGHT[card]
    r, y, g, w, b = codes
    colour = _DISCARD_COLOUR
    return b"".join((colour[r], colour[y], colour[g], colour[w], colour[b]))


_KEPT = 1 << 12  # entries a memo of chunks keeps before it starts over (ours: at most a few MB)


class _Chunks:
    """The float32 chunks of one layout that depend on it: a card's row, the deck's thermometer,
    the seat markers, and the last move's section (memoised by what it shows)."""

    def __init__(self, lay: _Layout):
        self.lay, self.n, self.hs, self.hand_seats = lay, lay.n, lay.hs, lay.hand_seats
        self.card = tuple(_f32([i == c for i in range(_CARD_BITS)]) for c in range(_CARD_BITS))
        self.no_card = _f32([0] * _CARD_BITS)
        self.no_missing = _f32([0] * lay.n)
        self.deck = tuple(_f32([i < d for i in range(lay.deck_size)]) for d in range(lay.deck_size + 1))
        self.current = tuple(_f32([i == r for i in range(lay.n)]) for r in range(lay.n))
        self.no_current = self.no_missing
        self._moves_at, self._moves_end = lay.last_player, lay.know
        self.no_move = _f32([0] * (self._moves_end - self._moves_at))
        self._moves: dict[tuple, bytes] = {}
        self.no_know = _KNOW_F32[_EMPTY_SLOT]
        # the chunk last made from a list, beside that list: the fireworks', then the discards'
        # (each entry one tuple, replaced whole)
        self.memo: list[tuple[Any, bytes]] = [(None, b""), (None, b"")]

    def last_move(self, seat: int, last: dict[str, Any], bonus: bool) -> bytes:
        """The last-move section seen by `seat` (the same bits as `_encode` sets)."""
        slots = last.get("slots")
        key = (seat, last["action"], last["player"], bonus,
               tuple(slots) if slots is not None else (last["card"], last.get("ok")))
        found = self._moves.get(key)
        if found is None:
            if len(self._moves) >= _KEPT:
                self._moves.clear()
            buf = bytearray(self._moves_end - self._moves_at)
            _last_move(buf, self._moves_at, self.lay, seat, last, bonus)
            found = self._moves[key] = _f32(buf)
        return found


@lru_cache(maxsize=64)
def _chunks(n: int, hs: int, open_hands: bool) -> _Chunks:
    return _Chunks(_layout(n, hs, open_hands))


def _encode(lay: _Layout, seat: int, hands, card_of, knowledge, deck: int, hints: int, lives: int, fireworks,
            discards, history, current: int | None, bonus: bool) -> np.ndarray:
    """The tensor from the observation's parts; `card_of[c]` is the card number of an item of
    `hands` and `discards` (names in an observation, numbers in a state).

    Built as one byte per float in a bytearray (single bits, thermometers as slices, each slot's
    knowledge as its precomputed 35 bytes) and converted to float32 once at the end: a step of a
    learner's loop reads this, and numpy's cost per call dominates small writes."""
    n, hs = lay.n, lay.hs
    buf = bytearray(lay.size)
    at = lay.hands
    for rel in lay.hand_seats:  # the own hand (rel 0) only where hands are open
        q = seat + rel
        hand = hands[q - n if q >= n else q]
        for card in hand:
            buf[at + card_of[card]] = 1
            at += _CARD_BITS
        at += (hs - len(hand)) * _CARD_BITS
    for rel in range(n):
        q = seat + rel
        if len(hands[q - n if q >= n else q]) < hs:
            buf[lay.missing + rel] = 1
    at = lay.deck
    buf[at:at + deck] = _ONES[:deck]
    at = lay.hints
    buf[at:at + hints] = _ONES[:hints]
    at = lay.lives
    buf[at:at + lives] = _ONES[:lives]
    at = lay.fireworks - 1
    for height in fireworks:
        if height:
            buf[at + height] = 1
        at += NUM_RANKS
    for card in discards:  # each card's thermometer: its next free bit
        i = lay.discards + _DISCARD_BASE[card_of[card]]
        while buf[i]:
            i += 1
        buf[i] = 1
    if history:
        _last_move(buf, 0, lay, seat, history[-1], bonus)
    if current is not None:
        buf[lay.current + (current - seat) % n] = 1
    rows, slot = [], _KNOW_BYTES
    for rel in range(n):
        q = seat + rel
        know = knowledge[q - n if q >= n else q]
        rows += [slot[k] for k in know]
        if len(know) < hs:
            rows += [slot[_EMPTY_SLOT]] * (hs - len(know))
    buf[lay.know:lay.know + n * hs * _SLOT_KNOW] = b"".join(rows)
    return np.frombuffer(buf, np.uint8).astype(np.float32)


def _last_move(buf: bytearray, base: int, lay: _Layout, seat: int, last: dict[str, Any], bonus: bool) -> None:
    """Set the last-move section's bits for `seat` in `buf`, whose byte 0 is the tensor's offset `base`."""
    n = lay.n
    kind, a, b = PARSE[last["action"]]
    buf[lay.last_player - base + (last["player"] - seat) % n] = 1
    buf[lay.last_type - base + _MOVE_TYPE[kind]] = 1
    if kind == "c" or kind == "r":
        buf[lay.last_target - base + (a - seat) % n] = 1
        buf[(lay.last_colour if kind == "c" else lay.last_rank) - base + b] = 1
        for i in last["slots"]:
            buf[lay.last_slots - base + i] = 1
    else:
        buf[lay.last_slot - base + a] = 1
        card = CARD_OF[last["card"]]
        buf[lay.last_card - base + card] = 1
        if last.get("ok"):
            buf[lay.last_ok - base] = 1
            if card % 5 == 4 and bonus:
                buf[lay.last_bonus - base] = 1


# -- words ---------------------------------------------------------------------------------

def _colour_word(c: int) -> str:
    return f"{COLOUR_WORDS[c]} ({COLOURS[c]})"


def describe_action(options: HanabiOptions, action: str) -> str:
    """One line for a person or a model, e.g. `hint:1:colour:R` -> "tell seat 1 which of its cards are red"."""
    kind, a, b = PARSE[action]
    if kind == "p":
        return (f"play the card in your slot {a}: it scores if it is the next card of its colour's firework, "
                f"else it is discarded and a life is lost; then draw")
    if kind == "d":
        return f"discard the card in your slot {a} to regain a hint token; then draw"
    if kind == "c":
        return f"spend a hint token to tell seat {a} which of its cards are {_colour_word(b)} (slots counted from 0)"
    return f"spend a hint token to tell seat {a} which of its cards are {b + 1}s (slots counted from 0)"


def knowledge_words(know: int) -> str:
    """What hints allow a card to be, e.g. 'red or green, rank 1' or 'any colour, not 5'."""
    cols = [c for c in range(5) if know >> c & 1]
    ranks = [r + 1 for r in range(5) if know >> (5 + r) & 1]
    if len(cols) == 5:
        colour = "any colour"
    elif len(cols) == 4:
        colour = "not " + COLOUR_WORDS[next(c for c in range(5) if c not in cols)]
    elif cols:
        colour = " or ".join(COLOUR_WORDS[c] for c in cols)
    else:
        colour = "no colour"
    if len(ranks) == 5:
        rank = "any rank"
    elif len(ranks) == 4:
        rank = f"not a {next(r for r in range(1, 6) if r not in ranks)}"
    elif ranks:
        rank = "rank " + " or ".join(str(r) for r in ranks)
    else:
        rank = "no rank"
    return f"{colour}, {rank}"


def _event_words(event: dict[str, Any]) -> str:
    kind, a, b = PARSE[event["action"]]
    who = f"seat {event['player']}"
    if kind == "c" or kind == "r":
        what = f"{COLOUR_WORDS[b]} cards" if kind == "c" else f"{b + 1}s"
        slots = ", ".join(str(i) for i in event["slots"])
        return f"{who} told seat {a} its {what}: slot{'s' if len(event['slots']) != 1 else ''} {slots}"
    card = event["card"]
    knew = event.get("knew")
    known = f" (known before: {knowledge_words(knew)})" if knew is not None and knew != 1023 else ""
    if kind == "d":
        return f"{who} discarded slot {a}: {card}{known}"
    result = "on the fireworks" if event.get("ok") else "a misplay (life lost)"
    return f"{who} played slot {a}: {card}{known}, {result}"


def observation_text(options: HanabiOptions, seat: int, observation: dict[str, Any]) -> str:
    """Everything `observation` holds, in words: the state of the table, each partner's cards with
    what that partner knows of them, the seat's own hint knowledge, discards, and the moves so far."""
    obs = observation
    n = obs["players"]
    rules = obs["rules"]
    cur = obs["current"]
    if cur is None:
        turn = "the game is over" if obs["history"] else "the cards are not dealt yet"
    elif cur == seat:
        turn = "it is your turn"
    else:
        turn = f"seat {cur} is to act"
    lines = [f"Hanabi, {n} players (seats 0-{n - 1}); you are seat {seat}; {turn}."]
    fireworks = " ".join(f"{COLOURS[c]}{h}" for c, h in enumerate(obs["fireworks"]))
    lines.append(f"Score {obs['score']}; fireworks (height per colour) {fireworks}; hint tokens {obs['hints']} "
                 f"of {MAX_HINTS}; lives {obs['lives']} of {MAX_LIVES}; deck {obs['deck']} cards.")
    if obs["turns_left"] is not None:
        lines.append(f"The deck is empty: {obs['turns_left']} turn(s) left.")
    lines.append(f"Rules: hand size {rules['hand_size']}; "
                 f"completion bonus {'on' if rules['completion_bonus'] else 'off'}; "
                 f"losing the last life scores {'0' if rules['bomb_out_scores_zero'] else 'the fireworks'}; "
                 f"{'open' if rules['open_hands'] else 'hidden'} own hands.")
    lines.append("Colours: R red, Y yellow, G green, W white, B blue. Slots count from 0 (oldest card first).")
    for rel in range(n):
        q = (seat + rel) % n
        hand, know = obs["hands"][q], obs["knowledge"][q]
        if q == seat:
            lines.append("Your hand" + (" (open):" if hand and hand[0] is not None else
                                        " (you cannot see it; what the hints tell you):"))
        else:
            lines.append(f"Seat {q}'s hand (and what seat {q} knows of each card):")
        for i, k in enumerate(know):
            card = hand[i] if i < len(hand) else None
            shown = f"{card}, " if card is not None else ""
            lines.append(f"  slot {i}: {shown}{'you know' if q == seat else 'it knows'}: {knowledge_words(k)}")
        if not know:
            lines.append("  (no cards)")
    lines.append("Discards: " + (" ".join(obs["discards"]) if obs["discards"] else "none") + ".")
    history = obs["history"]
    if history:
        lines.append(f"Moves so far ({len(history)}, oldest first):")
        lines.extend(f"  {i + 1}. {_event_words(e)}" for i, e in enumerate(history))
    else:
        lines.append("No moves yet.")
    return "\n".join(lines)
