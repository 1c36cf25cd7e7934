"""Partnership Dominoes' views: each action in words, a seat's observation as text and as a tensor.

Pure functions of (options, seat, observation): they read only the observation (the seat's own
tiles, the line, hand sizes, the moves of this hand, finished hands' summaries), never the other
seats' tiles.

The tensor is ours, in the spirit of OpenSpiel's partnership dominoes encoding: binary planes
over the 28 tiles (0-0, 0-1, ..., 6-6, as games.dominoes.tiles numbers them) and one-hot numbers
0..6, with seats relative to the observer (+0 the seat itself, +1 the next to play after it, +2 its
partner, +3 the seat before it). `TENSOR_FIELDS` lists every field as (name, start, stop, meaning).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.dominoes.rules import DEAL, END, PLAY, DominoesOptions
from games.dominoes.tiles import HAND_SIZE, HIGH, INDEX, N_TILES, PARSE, SEATS

_NUMBERS = HIGH + 1  # 7
_PHASES = (DEAL, "choose", PLAY, END)
_PHASE_INDEX = {ph: i for i, ph in enumerate(_PHASES)}

FIELDS: list[tuple[str, int, int, str]] = []


def _add(name: str, size: int, meaning: str) -> int:
    start = FIELDS[-1][2] if FIELDS else 0
    FIELDS.append((name, start, start + size, meaning))
    return start


HAND = _add("hand", N_TILES, "my tiles (28 bits)")
COUNTS = _add("counts", SEATS * HAND_SIZE, "per relative seat +0..+3: tiles in its hand, thermometer of 7")
ENDS = _add("ends", 2 * _NUMBERS,
            "the number at the line's left end, then at its right end, one-hot (none: empty line)")
PLAYED_BY = _add("played_by", SEATS * N_TILES, "per relative seat +0..+3, 28 bits: the tiles it laid in this hand")
LACKS = _add("lacks", SEATS * _NUMBERS, "per relative seat, 7 bits: numbers it has shown it lacks (it passed on them)")
CURRENT = _add("current", SEATS, "the seat to act, relative, one-hot (none at a deal or the end)")
OPENER = _add("opener", SEATS, "this hand's opener (before a deal, or while choosing: the chooser), relative, one-hot")
PHASE = _add("phase", len(_PHASES), "deal, choose, play, end (one-hot)")
LAST = _add("last_move", SEATS + 1 + N_TILES + 3,
            "the last move of this hand: its seat (relative, one-hot 4), a pass (1), its tile (one-hot 28), "
            "opened / on the left / on the right (one-hot 3)")
SCORES = _add("scores", 2, "my pair's points / target, the other pair's (capped at 1)")
HAND_NO = _add("hand_no", 1, "hands finished / max_hands")
SIZE = FIELDS[-1][2]
TENSOR_FIELDS = tuple(FIELDS)
_HAND_AT = {name: HAND + t for name, t in INDEX.items()}
# observer seat -> acting seat -> a tile action -> the bit of that tile in the actor's played_by plane
_PLAYED_AT = [[{action: PLAYED_BY + ((who - seat) % SEATS) * N_TILES + tile
                for action, (tile, _) in PARSE.items() if tile >= 0} for who in range(SEATS)] for seat in range(SEATS)]


def observation_shape(options: DominoesOptions) -> tuple[int, ...]:
    return (SIZE,)


def observation_tensor(options: DominoesOptions, seat: int, observation: dict[str, Any]) -> np.ndarray:
    """The encoding of `observation` laid out as `TENSOR_FIELDS` says."""
    obs = observation
    t = np.zeros(SIZE, dtype=np.float32)
    on = list(map(_HAND_AT.__getitem__, obs["hand"]))
    counts = obs["counts"]
    for rel in range(SEATS):
        start = COUNTS + rel * HAND_SIZE
        t[start:start + counts[(seat + rel) % SEATS]] = 1.0
    ends = obs["ends"]
    if ends is not None:
        on.append(ENDS + ends[0])
        on.append(ENDS + _NUMBERS + ends[1])
    events = obs["events"]
    if events:
        played = _PLAYED_AT[seat]
        on += [played[who][action] for who, action in events if action != "pass"]
    for q, numbers in enumerate(obs["lacks"]):
        if numbers:
            base = LACKS + ((q - seat) % SEATS) * _NUMBERS
            on += [base + n for n in numbers]
    if obs["current"] is not None:
        on.append(CURRENT + (obs["current"] - seat) % SEATS)
    if obs["opener"] >= 0:
        on.append(OPENER + (obs["opener"] - seat) % SEATS)
    on.append(PHASE + _PHASE_INDEX[obs["phase"]])
    if events:
        who, action = events[-1]
        tile, end = PARSE[action]
        on.append(LAST + (who - seat) % SEATS)
        if tile < 0:
            on.append(LAST + SEATS)
        else:
            on.append(LAST + SEATS + 1 + tile)
            on.append(LAST + SEATS + 1 + N_TILES + (0 if end == 2 else 1 + end))
    if on:
        t[on] = 1.0
    rules = obs["rules"]
    scores = obs["scores"]
    target = rules["target"]
    t[SCORES] = min(1.0, scores[seat % 2] / target)
    t[SCORES + 1] = min(1.0, scores[1 - seat % 2] / target)
    t[HAND_NO] = obs["hand_no"] / rules["max_hands"]
    return t


# -- words ---------------------------------------------------------------------------------

def describe_action(options: DominoesOptions, action: str) -> str:
    """One line for a person or a model, e.g. `3-5:left` -> "lay 3-5 on the left end ..."."""
    if action == "pass":
        return "pass (allowed only when no tile in your hand fits either end of the line)"
    if action.startswith("open:"):
        return f"choose seat {action[5:]} of your pair to open the hand"
    name, _, end = action.partition(":")
    if not end:
        return f"open the hand: lay {name} as the first tile of the line (left end {name[0]}, right end {name[2]})"
    return (f"lay {name} on the {end} end of the line (it must match the number there; "
            f"its other number becomes the new {end} end)")


def observation_text(options: DominoesOptions, seat: int, observation: dict[str, Any]) -> str:
    """Everything `observation` holds, in words: the match score, the line and its ends, the seat's
    tiles, hand sizes, what each seat showed it lacks, this hand's moves and finished hands."""
    obs = observation
    rules = obs["rules"]
    partner = (seat + 2) % SEATS

    def who(s: int) -> str:
        if s == seat:
            return "you"
        return f"seat {s} ({'your partner' if s == partner else 'opponent'})"

    pair, other = seat % 2, 1 - seat % 2
    lines = [f"Partnership Dominoes (double-six); you are seat {seat}, your partner seat {partner}; "
             f"pairs: seats 0 and 2 against 1 and 3; turns go 0, 1, 2, 3."]
    scores = obs["scores"]
    lines.append(f"Match to {rules['target']} points (at most {rules['max_hands']} hands): your pair {scores[pair]}, "
                 f"the other pair {scores[other]}. Hand {obs['hand_no'] + 1}, phase {obs['phase']}.")
    lines.append("Rules: " + ", ".join(f"{k} {v}" for k, v in sorted(rules.items())) + ".")
    if obs["current"] is not None:
        lines.append(f"To act: {who(obs['current'])}; this hand's opener: {who(obs['opener'])}.")
    elif obs["opener"] >= 0:
        lines.append(f"Next to open (or to choose the opener): {who(obs['opener'])}.")
    line = obs["line"]
    if line:
        laid = " ".join(f"[{a}|{b}]" for a, b in line)
        lines.append(f"The line, left to right: {laid}; ends: left {obs['ends'][0]}, right {obs['ends'][1]}.")
    else:
        lines.append("The line is empty.")
    lines.append("Your tiles: " + (" ".join(obs["hand"]) if obs["hand"] else "none") + ".")
    lines.append("Tiles in hand: " + ", ".join(f"{who(s)} {n}" for s, n in enumerate(obs["counts"])) + ".")
    lacking = [f"{who(s)} has no {' or '.join(str(n) for n in numbers)}"
               for s, numbers in enumerate(obs["lacks"]) if numbers]
    if lacking:
        lines.append("Shown by passing: " + "; ".join(lacking) + ".")
    if obs["events"]:
        lines.append(f"Moves of this hand ({len(obs['events'])}, oldest first):")
        lines.extend(f"  {who(s)}: {action}" for s, action in obs["events"])
    for h in obs["past"]:
        won = "void (nobody scores)" if h["pair"] is None else (
            f"won by {'your' if h['pair'] == pair else 'the other'} pair, {h['points']} points")
        lines.append(f"Hand {h['hand'] + 1}: opened by {who(h['opener'])}, {h['end']} "
                     f"(last tile by {who(h['last'])}), {won}; pips left by seat {h['pips']}; "
                     f"scores after: seats 0 and 2 {h['scores'][0]}, seats 1 and 3 {h['scores'][1]}.")
    return "\n".join(lines)
