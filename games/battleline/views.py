"""Battle Line's views: each action in words, a seat's observation as text and as a fixed float32 tensor.

Pure functions of (options, seat, observation): they read only the observation, so they show a
seat what it sees (its hand, the table, what Scout showed it) and never the opponent's hand.

The tensor is ours, in the spirit of OpenSpiel's card-game encodings: binary planes over the 70
cards (troops `colour * 10 + value - 1`, colours R O Y G B P, then the ten tactics in
games.battleline.cards order) for the seat's hand, each side of each flag and each discard pile;
per-flag bits; thermometers for counts. Sides are relative: "mine" is the observing seat's.
`TENSOR_FIELDS` lists every field as (name, start, stop, meaning). The public history is not in the
tensor (the table, piles and counts hold its result); the text view lists it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.battleline.cards import CARD_OF, COLOURS, DECK_NAMES, NAMES
from games.battleline.formations import rank_of
from games.battleline.rules import _PHASES, FLAGS, BattleLineOptions

_CARDS = len(NAMES)  # 70
COLOUR_WORDS = ("red", "orange", "yellow", "green", "blue", "purple")
TACTIC_WORDS = {
    "alexander": "Alexander (leader: a wild troop of any colour and value; one leader per player)",
    "darius": "Darius (leader: a wild troop of any colour and value; one leader per player)",
    "cavalry": "Companion Cavalry (a troop of value 8, any colour)",
    "shield": "Shield Bearers (a troop of value 1, 2 or 3, any colour)",
    "fog": "Fog (the flag goes to the higher sum of values, formations ignored)",
    "mud": "Mud (formations at the flag need four cards)",
    "scout": "Scout (draw three cards from the decks in any mix, then put two from your hand back on top)",
    "redeploy": "Redeploy (move one of your cards on an unclaimed flag to another flag, or discard it)",
    "deserter": "Deserter (discard one of the opponent's cards on an unclaimed flag)",
    "traitor": "Traitor (take an opponent's troop from an unclaimed flag onto your side of a flag)",
}
_DEPTHS = 4  # deck positions (from the top) the known-card depth bits cover
_PER_FLAG = 10

FIELDS: list[tuple[str, int, int, str]] = []


def _add(name: str, size: int, meaning: str) -> int:
    start = FIELDS[-1][2] if FIELDS else 0
    FIELDS.append((name, start, start + size, meaning))
    return start


HAND = _add("hand", _CARDS, "the cards in my hand (70 bits: 60 troops, 10 tactics)")
MINE = _add("flags_mine", FLAGS * _CARDS, "per flag 0..8, 70 bits: the cards on my side")
THEIRS = _add("flags_theirs", FLAGS * _CARDS, "per flag 0..8, 70 bits: the cards on the opponent's side")
FLAG_BITS = _add("flag_state", FLAGS * _PER_FLAG,
                 "per flag, 10 bits: claimed by me, by the opponent; Fog played by me, by the opponent; "
                 "Mud by me, by the opponent; my side complete, theirs; my side completed first, theirs")
DISC_MINE = _add("discards_mine", _CARDS, "my face-up discards")
DISC_THEIRS = _add("discards_theirs", _CARDS, "the opponent's face-up discards")
OPP_TROOPS = _add("opponent_troops", 10, "troop cards in the opponent's hand, thermometer")
OPP_TACTICS = _add("opponent_tactics", 10, "tactics cards in the opponent's hand, thermometer")
OPP_KNOWN = _add("opponent_known", _CARDS, "cards I know the opponent holds (Scout put them back, it drew them)")
OPP_KNOWS = _add("opponent_knows", _CARDS, "cards of my hand the opponent knows I hold")
DECK_TROOPS = _add("deck_troops", 60, "cards left in the troop deck, thermometer")
DECK_TACTICS = _add("deck_tactics", 10, "cards left in the tactics deck, thermometer")
DECK_KNOWN = _add("deck_known", _CARDS, "cards I put back on a deck (Scout) that are still there")
DECK_KNOWN_AT = _add("deck_known_depths", 2 * _DEPTHS,
                     "troop deck then tactics deck: depth 0..3 from the top holds a card I put back")
OPP_DECK_KNOWN_AT = _add("opponent_deck_known_depths", 2 * _DEPTHS,
                         "troop deck then tactics deck: depth 0..3 holds a card the opponent put back")
TACTICS_PLAYED = _add("tactics_played", 20, "tactics cards played: mine (10, thermometer), the opponent's (10)")
LEADER = _add("leader_played", 2, "I have played a leader; the opponent has")
PHASE = _add("phase", len(_PHASES), "the node: " + ", ".join(_PHASES) + " (one-hot)")
TO_ACT = _add("to_act", 2, "I am to act; the opponent is")
CLAIMING = _add("claiming", 1, "a claim window is open")
SCOUT = _add("scout", 6, "Scout draws left (3, thermometer), returns left (3, thermometer)")
TRIM = _add("mud_trim", 2 + FLAGS, "a side to cut to three cards after Mud left: mine, theirs; its flag (one-hot)")
IDLE = _add("idle_turns", 2, "turns in a row with a pass and no claim (thermometer, 2 ends the game)")
SERIES = _add("series", 5, "I moved first in this game; the opponent did; game number / series; "
                           "my points / (5 * series); the opponent's")
SIZE = FIELDS[-1][2]
TENSOR_FIELDS = tuple(FIELDS)
_PHASE_INDEX = {ph: i for i, ph in enumerate(_PHASES)}
_DECK_INDEX = {name: d for d, name in enumerate(DECK_NAMES)}
# card name -> its bit in a 70-bit plane starting at an offset, for the planes the tensor sets
_AT = {base: {name: base + c for name, c in CARD_OF.items()}
       for base in (HAND, DISC_MINE, DISC_THEIRS, OPP_KNOWN, OPP_KNOWS)}
_MINE_AT = [{name: MINE + f * _CARDS + c for name, c in CARD_OF.items()} for f in range(FLAGS)]
_THEIRS_AT = [{name: THEIRS + f * _CARDS + c for name, c in CARD_OF.items()} for f in range(FLAGS)]


def observation_shape(options: BattleLineOptions) -> tuple[int, ...]:
    return (SIZE,)


def observation_tensor(options: BattleLineOptions, seat: int, observation: dict[str, Any]) -> np.ndarray:
    """The encoding of `observation` laid out as `TENSOR_FIELDS` says."""
    obs = observation
    me, opp = seat, 1 - seat
    t = np.zeros(SIZE, dtype=np.float32)
    on = list(map(_AT[HAND].__getitem__, obs["hand"]))
    for f, flag in enumerate(obs["flags"]):
        sides = flag["cards"]
        if sides[me]:
            on += map(_MINE_AT[f].__getitem__, sides[me])
        if sides[opp]:
            on += map(_THEIRS_AT[f].__getitem__, sides[opp])
        bits = FLAG_BITS + f * _PER_FLAG
        who = flag["claimed"]
        if who is not None:
            on.append(bits + (0 if who == me else 1))
        who = flag["fog"]
        if who is not None:
            on.append(bits + (2 if who == me else 3))
        who = flag["mud"]
        if who is not None:
            on.append(bits + (4 if who == me else 5))
        done = flag["completed"]
        mine, theirs = done[me], done[opp]
        if mine is not None:
            on.append(bits + 6)
            if theirs is None or mine < theirs:
                on.append(bits + 8)
        if theirs is not None:
            on.append(bits + 7)
            if mine is None or theirs < mine:
                on.append(bits + 9)
    piles = obs["discards"]
    on += map(_AT[DISC_MINE].__getitem__, piles[me])
    on += map(_AT[DISC_THEIRS].__getitem__, piles[opp])
    theirs = obs["opponent_hand"]
    t[OPP_TROOPS:OPP_TROOPS + min(theirs["troops"], 10)] = 1.0
    t[OPP_TACTICS:OPP_TACTICS + min(theirs["tactics"], 10)] = 1.0
    on += map(_AT[OPP_KNOWN].__getitem__, theirs["known"])
    on += map(_AT[OPP_KNOWS].__getitem__, obs["opponent_knows"])
    card = CARD_OF
    decks = obs["decks"]
    t[DECK_TROOPS:DECK_TROOPS + decks["troops"]] = 1.0
    t[DECK_TACTICS:DECK_TACTICS + decks["tactics"]] = 1.0
    for d, name in enumerate(DECK_NAMES):
        for depth, c in obs["deck_known"][name]:
            on.append(DECK_KNOWN + card[c])
            if depth < _DEPTHS:
                on.append(DECK_KNOWN_AT + d * _DEPTHS + depth)
        for depth in obs["opponent_deck_known"][name]:
            if depth < _DEPTHS:
                on.append(OPP_DECK_KNOWN_AT + d * _DEPTHS + depth)
    played = obs["tactics_played"]
    t[TACTICS_PLAYED:TACTICS_PLAYED + min(played[me], 10)] = 1.0
    t[TACTICS_PLAYED + 10:TACTICS_PLAYED + 10 + min(played[opp], 10)] = 1.0
    leaders = obs["leader_played"]
    if leaders[me]:
        on.append(LEADER)
    if leaders[opp]:
        on.append(LEADER + 1)
    on.append(PHASE + _PHASE_INDEX[obs["phase"]])
    if obs["to_act"] is not None:
        on.append(TO_ACT + (0 if obs["to_act"] == me else 1))
    if obs["claiming"]:
        on.append(CLAIMING)
    scout = obs["scout"]
    t[SCOUT:SCOUT + min(scout["draws_left"], 3)] = 1.0
    t[SCOUT + 3:SCOUT + 3 + min(scout["returns_left"], 3)] = 1.0
    if obs["mud_trim"]:
        who, f = obs["mud_trim"][0]
        on.append(TRIM + (0 if who == me else 1))
        on.append(TRIM + 2 + f)
    t[IDLE:IDLE + min(obs["idle_turns"], 2)] = 1.0
    on.append(SERIES + (0 if obs["first"] == me else 1))
    if on:
        t[on] = 1.0
    series = obs["series"]
    t[SERIES + 2] = obs["game"] / series
    t[SERIES + 3] = obs["points"][me] / (5 * series)
    t[SERIES + 4] = obs["points"][opp] / (5 * series)
    return t


# -- words ---------------------------------------------------------------------------------

def card_words(name: str) -> str:
    """'R10' -> 'red 10'; a tactics card by its name ('alexander' -> 'Alexander')."""
    if name in TACTIC_WORDS:
        return TACTIC_WORDS[name].split(" (")[0]
    return f"{COLOUR_WORDS[COLOURS.index(name[0])]} {name[1:]}"


def _card_long(name: str) -> str:
    if name in TACTIC_WORDS:
        return TACTIC_WORDS[name]
    return f"troop {name} ({card_words(name)})"


def describe_action(options: BattleLineOptions, action: str) -> str:
    """One line for a person or a model, e.g. `claim:3` -> "claim flag 3 (...)"."""
    parts = action.split(":")
    verb = parts[0]
    if verb == "claim":
        return (f"claim flag {parts[1]} (yours if your formation there is complete and the opponent's "
                f"side cannot beat it, with the cards still unseen)")
    if verb == "draw":
        return f"draw the top card of the {parts[1]} deck"
    if verb == "pass":
        return "pass: play no card this turn (allowed only when you cannot play a troop card)"
    if verb == "done":
        return "end the turn without claiming any more flags"
    if verb == "return":
        return f"put {card_words(parts[1])} from your hand face down on top of its deck (Scout)"
    if verb == "discard":
        return (f"discard {card_words(parts[1])} from your side of the flag Mud just left, "
                f"so that side keeps three cards")
    if verb != "play":
        return action
    what = parts[1]
    if what == "scout":
        return "play " + TACTIC_WORDS["scout"]
    if what == "redeploy":
        where = "discard it" if parts[3] == "discard" else f"move it to your side of flag {parts[3]}"
        return f"play Redeploy: take your {card_words(parts[2])} from its unclaimed flag and {where}"
    if what == "deserter":
        return f"play Deserter: discard the opponent's {card_words(parts[2])} from its unclaimed flag"
    if what == "traitor":
        return (f"play Traitor: take the opponent's troop {card_words(parts[2])} from its unclaimed flag "
                f"to your side of flag {parts[3]}")
    if what in ("fog", "mud"):
        return f"play {TACTIC_WORDS[what]} on flag {parts[2]}"
    return f"play {_card_long(what)} to your side of flag {parts[2]}"


def _side_words(cards: list[str], score: int | None, need: int) -> str:
    shown = " ".join(cards) if cards else "-"
    if score is not None:
        return f"{shown} ({rank_of(score)}, sum {score % 100})"
    if len(cards) >= need:
        return f"{shown} (complete)"
    return shown


def observation_text(options: BattleLineOptions, seat: int, observation: dict[str, Any]) -> str:
    """Everything `observation` holds, in words: the match, the table flag by flag, the hand, what
    is known of the opponent's hand and the decks, the piles, and the public moves of this game."""
    obs = observation
    me, opp = seat, 1 - seat

    def who(s: int | None) -> str:
        return "you" if s == me else "the opponent"

    game_no = min(obs["game"] + 1, obs["series"])
    lines = [f"Battle Line; you are seat {me}, the opponent seat {opp}. Game {game_no} of {obs['series']}; "
             f"points: you {obs['points'][me]}, the opponent {obs['points'][opp]}; {who(obs['first'])} moved first."]
    for r in obs["results"]:
        lines.append(f"  an earlier game: won by {'nobody' if r['winner'] is None else who(r['winner'])} ({r['how']}); "
                     f"flags you {r['flags'][me]}, the opponent {r['flags'][opp]}; "
                     f"points you {r['points'][me]}, the opponent {r['points'][opp]}; {who(r['first'])} moved first")
    acting = "nobody" if obs["to_act"] is None else who(obs["to_act"])
    lines.append(f"Phase {obs['phase']}; to act: {acting}" + ("; a claim window is open." if obs["claiming"] else "."))
    lines.append("Flags (your side | the opponent's side):")
    for f, flag in enumerate(obs["flags"]):
        need = 4 if flag["mud"] is not None else 3
        mine = _side_words(flag["cards"][me], flag["score"][me], need)
        theirs = _side_words(flag["cards"][opp], flag["score"][opp], need)
        notes = []
        if flag["claimed"] is not None:
            notes.append(f"claimed by {who(flag['claimed'])}")
        if flag["fog"] is not None:
            notes.append(f"Fog (by {who(flag['fog'])})")
        if flag["mud"] is not None:
            notes.append(f"Mud (by {who(flag['mud'])}), 4 cards")
        done = flag["completed"]
        if done[me] is not None and done[opp] is not None:
            notes.append(f"{who(me) if done[me] < done[opp] else who(opp)} completed first")
        lines.append(f"  flag {f}: {mine} | {theirs}" + (f"; {'; '.join(notes)}" if notes else ""))
    lines.append("Your hand: " + (" ".join(obs["hand"]) if obs["hand"] else "empty") + ".")
    theirs = obs["opponent_hand"]
    known = f"; you know it holds {' '.join(theirs['known'])}" if theirs["known"] else ""
    lines.append(f"The opponent's hand: {theirs['troops']} troop and {theirs['tactics']} tactics cards{known}.")
    if obs["opponent_knows"]:
        lines.append(f"The opponent knows you hold: {' '.join(obs['opponent_knows'])}.")
    lines.append(f"Decks: {obs['decks']['troops']} troop cards, {obs['decks']['tactics']} tactics cards.")
    for name in DECK_NAMES:
        if obs["deck_known"][name]:
            spots = ", ".join(f"{c} at depth {d}" for d, c in obs["deck_known"][name])
            lines.append(f"  you put back on the {name} deck: {spots} (0 = top)")
        if obs["opponent_deck_known"][name]:
            spots = ", ".join(str(d) for d in obs["opponent_deck_known"][name])
            lines.append(f"  the opponent put back on the {name} deck the cards at depth {spots}")
    piles = obs["discards"]
    lines.append(f"Discards: yours {' '.join(piles[me]) or 'none'}; the opponent's {' '.join(piles[opp]) or 'none'}.")
    played, leaders = obs["tactics_played"], obs["leader_played"]
    lines.append(f"Tactics played: you {played[me]}{' (a leader among them)' if leaders[me] else ''}, "
                 f"the opponent {played[opp]}{' (a leader among them)' if leaders[opp] else ''}.")
    scout = obs["scout"]
    if scout["draws_left"] or scout["returns_left"]:
        lines.append(f"Scout: {scout['draws_left']} draws and {scout['returns_left']} returns left.")
    for s, f in obs["mud_trim"]:
        lines.append(f"Mud left flag {f}: {who(s)} must discard one card there.")
    if obs["idle_turns"]:
        lines.append(f"Turns in a row with a pass and no claim: {obs['idle_turns']} (two end the game).")
    history = obs["history"]
    if history:
        lines.append(f"Moves of this game ({len(history)}, oldest first):")
        turns: list[list[Any]] = []
        for s, action in history:
            if turns and turns[-1][0] == s:
                turns[-1][1].append(action)
            else:
                turns.append([s, [action]])
        lines.extend(f"  {'you' if s == me else 'opponent'}: {', '.join(actions)}" for s, actions in turns)
    else:
        lines.append("No moves yet in this game.")
    return "\n".join(lines)
