"""Risk views: each action in words (with territory names), a seat's observation as text and as a
float32 tensor.

Pure functions of (options, seat, observation): the board, every hand's size, the discards and the
turn summaries are public; the seat's own cards are the one private part an observation holds.

Tensor layout (TENSOR_FIELDS, one fixed size for every option): seats are relative to the
observing one (column 0 is that seat, column k the seat k places after it, in seat order round the
table), for up to 6 players; column 6 of the owner and set-up blocks is the neutral (two players).
Per territory (games.risk.mapdata order, `CODES`) its owner one-hot and armies; then the phase, the
turn, the pending attack or move, cards (own hand, discards, counts), the latest battle, the
variant and the outcome. Blocks of several columns per territory are row-major: entry t * k + j
is territory t's j-th column.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy

from games.api import IllegalAction, field_table
from games.risk.mapdata import (
    CARD_INDEX,
    CARD_SYMBOLS,
    CODES,
    CONTINENT_BONUS,
    CONTINENT_MEMBERS,
    CONTINENT_NAMES,
    INDEX,
    NAMES,
    NUM_CARDS,
    NUM_TERRITORIES,
)

if TYPE_CHECKING:
    from games.risk.rules import RiskOptions

MAX_SEATS = 6
NEUTRAL_COLUMN = MAX_SEATS  # the owner and set-up blocks' column for the neutral
PHASES = ("deal", "claim", "setup", "reinforce", "attack", "defend", "roll", "occupy", "fortify", "transfer",
          "draw", "over")
ARMY_SCALE = 20.0  # armies are given / 20 (a territory's count is unbounded; most stay below 20)
_T, _S = NUM_TERRITORIES, MAX_SEATS
_PHASE = {p: i for i, p in enumerate(PHASES)}
_SYMBOL_WORDS = {"I": "infantry", "C": "cavalry", "A": "artillery", "W": "wild"}


def _layout() -> list[tuple[str, int, int, str]]:
    spec = [
        ("owner", _T * (_S + 1), f"per territory its owner one-hot at t*{_S + 1}..: relative seats 0-5 "
                                 f"(0 = the observing seat), column {_S} the neutral; all 0 while unclaimed"),
        ("armies", _T, f"per territory its armies / {ARMY_SCALE:g}"),
        ("phase", len(PHASES), f"one-hot: the phase, columns {', '.join(PHASES)}"),
        ("acting", 1, "1 when the observing seat acts now"),
        ("turn_player", _S, "one-hot: whose turn it is (relative seat; all 0 during set-up)"),
        ("current", _S, "one-hot: who acts now (relative seat; the defender while defending)"),
        ("round", 1, "the round / max_rounds"),
        ("reinforcements", 1, f"armies left to place this reinforce phase / {ARMY_SCALE:g}"),
        ("setup_left", _S + 1, f"set-up armies left per relative seat (column {_S}: the neutral) / 40"),
        ("alive", _S, "1 per living relative seat (0 past the number of players)"),
        ("territories", _S, "territories held per relative seat / 42"),
        ("card_counts", _S, "cards held per relative seat / 5"),
        ("my_cards", NUM_CARDS, "1 per card in the observing seat's hand (card codes: territories, then W1 W2)"),
        ("discards", NUM_CARDS, "1 per card in the discard pile"),
        ("draw_pile", 1, f"cards left in the draw pile / {NUM_CARDS}"),
        ("sets_traded", 1, "sets traded so far / 10"),
        ("next_set_value", 1, "armies the next set is worth / 20"),
        ("pending_from", _T, "one-hot: the territory of the pending attack or move-in/fortify move"),
        ("pending_to", _T, "one-hot: its target"),
        ("pending_dice", 2, "the pending attack's dice / 3 and the defence's dice / 2 (0 while unchosen)"),
        ("pending_move", 2, f"the pending move's least and most armies / {ARMY_SCALE:g}"),
        ("conquered", 1, "1 when the turn player has conquered a territory this turn"),
        ("conquered_this_turn", _T, "1 per territory conquered this turn"),
        ("battle_from", _T, "one-hot: the latest battle's attacking territory"),
        ("battle_to", _T, "one-hot: its defending territory"),
        ("battle_lost", 2, "armies the attacker and the defender lost in it / 3"),
        ("battle_this_turn", 1, "1 when that battle was in the current turn"),
        ("players", 5, "one-hot: 2, 3, 4, 5 or 6 players"),
        ("rules", 4, "1 per variant rule: dealt start, defender chooses dice, connected fortify, cards"),
        ("winner", _S, "one-hot: the winner (relative seat; all 0 while playing or in a draw)"),
    ]
    return field_table(spec)


TENSOR_FIELDS = _layout()
_AT = {name: start for name, start, _, _ in TENSOR_FIELDS}
SIZE = TENSOR_FIELDS[-1][2]
_OWNER_ROWS = numpy.arange(_T) * (_S + 1) + _AT["owner"]


def tensor_fields(options: RiskOptions | None = None) -> list[tuple[str, int, int, str]]:
    """The tensor layout (the same for every option)."""
    return list(TENSOR_FIELDS)


# -- actions ------------------------------------------------------------------------------------

def _place(code: str) -> str:
    if code not in INDEX:
        raise IllegalAction(f"{code!r} is not a Risk territory")
    return f"{NAMES[INDEX[code]]} ({code})"


def _card(code: str) -> str:
    c = CARD_INDEX.get(code)
    if c is None:
        raise IllegalAction(f"{code!r} is not a Risk card")
    if c >= NUM_TERRITORIES:
        return f"a wild card ({code})"
    return f"{NAMES[c]} ({_SYMBOL_WORDS[CARD_SYMBOLS[c]]})"


def _armies(n: int) -> str:
    return f"{n} {'army' if n == 1 else 'armies'}"


def describe_action(options: RiskOptions, action: str) -> str:
    return _describe(action)


@lru_cache(maxsize=8192)
def _describe(action: str) -> str:
    verb, _, rest = action.partition(":")
    try:
        if action == "end":
            return "end this phase: stop attacking, or end the turn without fortifying"
        if verb == "claim":
            return f"claim {_place(rest)}: take it with one army"
        if verb == "place":
            code, _, n = rest.partition(":")
            return f"place {_armies(int(n))} on {_place(code)}"
        if verb == "trade":
            cards = rest.split(",")
            if len(cards) != 3:
                raise ValueError(action)
            return f"trade in the set {', '.join(_card(c) for c in cards)} for armies"
        if verb == "attack":
            f, t, d = rest.split(",")
            return f"attack {_place(t)} from {_place(f)} with {int(d)} {'die' if int(d) == 1 else 'dice'}"
        if verb == "defend":
            return f"defend with {int(rest)} {'die' if int(rest) == 1 else 'dice'}"
        if verb == "move":
            return f"move {_armies(int(rest))} (into the territory just conquered, or along the fortify move)"
        if verb == "fortify":
            f, t = rest.split(",")
            return f"fortify: move armies from {_place(f)} to {_place(t)} (how many is chosen next)"
    except ValueError:
        pass
    raise IllegalAction(f"{action!r} is not a Risk action")


# -- text ---------------------------------------------------------------------------------------

def _label(q: Any, neutral: Any) -> str:
    if q is None or q == -1:
        return "-"
    return "N" if q == neutral else f"p{q}"


def _turn_line(log: dict[str, Any], neutral: Any) -> str:
    parts = [f"turn {log['turn']} p{log['player']}: received {_armies(log['armies'])}"]
    for tr in log.get("trades") or []:
        bonus = f" (+2 on {tr['bonus']})" if tr.get("bonus") else ""
        parts.append(f"traded {','.join(tr['cards'])} for {tr['value']}{bonus}")
    battles = [f"vs {_label(q, neutral)} {b[0]} rolls, lost {b[1]}, killed {b[2]}"
               for q, b in enumerate(log.get("battles") or []) if b and b[0]]
    if battles:
        parts.append("battles " + "; ".join(battles))
    if log.get("conquered"):
        parts.append("conquered " + ", ".join(log["conquered"]))
    if log.get("eliminated"):
        parts.append("eliminated " + ", ".join(f"p{q}" for q in log["eliminated"]))
    fort = log.get("fortify")
    if fort:
        parts.append(f"fortified {fort[0]}->{fort[1]} with {fort[2]}")
    return "; ".join(parts)


def observation_text(options: RiskOptions, seat: int, obs: dict[str, Any]) -> str:
    n, me, neutral, phase = obs["players"], obs["me"], obs["neutral"], obs["phase"]
    rules = obs["rules"]
    lines = [f"You are p{me}, one of {n} players (p0-p{n - 1})" + (", with a neutral (N)." if neutral is not None else ".")]
    if phase == "over":
        head = f"The game is over after round {obs['round']} (turn {obs['turn']})"
        head += f": p{obs['winner']} wins." if obs["winner"] is not None else ": a draw among the survivors."
    elif obs["turn_player"] is None:
        head = f"Set-up, phase {phase}"
        head += f"; p{obs['current']} acts now." if obs["current"] is not None else "."
    else:
        head = (f"Round {obs['round']} of at most {rules['max_rounds']}, turn {obs['turn']}: p{obs['turn_player']}'s "
                f"turn, phase {phase}")
        head += f"; p{obs['current']} acts now." if obs["current"] is not None else "."
    lines.append(head)
    lines.append(f"Rules: {rules['start']} start, defender dice {rules['defender_dice']}, fortify {rules['fortify']}, "
                 f"cards {'on' if rules['cards'] else 'off'}.")
    owner, armies = obs["owner"], obs["armies"]
    alive, counts = obs["alive"], obs["card_counts"]
    gone = {s: t for s, t in obs["eliminated"]}
    players = []
    for q in range(n):
        held = [t for t in range(_T) if owner[t] == q]
        part = f"p{q}{' (you)' if q == me else ''}: {len(held)} territories, {sum(armies[t] for t in held)} armies"
        if rules["cards"]:
            part += f", {counts[q]} cards"
        if not alive[q]:
            part += f", eliminated in turn {gone.get(q, '?')}"
        players.append(part)
    if neutral is not None:
        held = [t for t in range(_T) if owner[t] == neutral]
        players.append(f"N (neutral): {len(held)} territories, {sum(armies[t] for t in held)} armies")
    lines.append("Players: " + "; ".join(players) + ".")
    lines.append("Board (territory owner:armies; - unclaimed):")
    for name, bonus, members in zip(CONTINENT_NAMES, CONTINENT_BONUS, CONTINENT_MEMBERS):
        cells = " ".join(f"{CODES[t]} -" if owner[t] == -1 else f"{CODES[t]} {_label(owner[t], neutral)}:{armies[t]}"
                         for t in members)
        lines.append(f"  {name} (+{bonus}): {cells}")
    if phase in ("claim", "setup", "deal"):
        left = obs["setup_left"]
        lines.append("Set-up armies left: " + ", ".join(
            f"{_label(q, neutral)} {left[q]}" for q in range(len(left))) + ".")
    if obs["reinforcements"]:
        lines.append(f"Armies to place: {obs['reinforcements']}.")
    pend = obs["pending"]
    if pend:
        if "attack_dice" in pend:
            dd = pend["defence_dice"]
            lines.append(f"Pending attack: {pend['from']} -> {pend['to']} with {pend['attack_dice']} dice, "
                         f"defender {'to choose its dice' if not dd else f'rolls {dd}'}.")
        else:
            lines.append(f"Pending move: {pend['from']} -> {pend['to']}, {pend['min']} to {pend.get('max', '?')} armies.")
    if obs["conquered"]:
        lines.append("The turn player has conquered a territory this turn.")
    if rules["cards"]:
        mine = obs["cards"]
        lines.append("Your cards: " + (", ".join(f"{c} ({_SYMBOL_WORDS[CARD_SYMBOLS[CARD_INDEX[c]]]})" for c in mine)
                                       if mine else "none") + ".")
        lines.append(f"Discards: {', '.join(obs['discards']) or 'none'}; draw pile {obs['draw_pile']} cards; "
                     f"sets traded {obs['sets_traded']}, the next is worth {obs['next_set_value']}.")
    if obs["turn_log"]:
        lines.append("This turn so far: " + _turn_line(obs["turn_log"], neutral) + ".")
    if obs["recent"]:
        lines.append("Recent turns:")
        lines.extend("  " + _turn_line(log, neutral) for log in obs["recent"])
    b = obs["last_battle"]
    if b:
        lines.append(f"Last battle (turn {b['turn']}): {b['from']} -> {b['to']} (defender {_label(b['defender'], neutral)}), "
                     f"attack {' '.join(map(str, b['attack']))} against {' '.join(map(str, b['defence']))}: "
                     f"attacker lost {b['lost'][0]}, defender lost {b['lost'][1]}.")
    return "\n".join(lines)


# -- tensor -------------------------------------------------------------------------------------

def observation_shape(options: RiskOptions) -> tuple[int, ...]:
    return (SIZE,)


@lru_cache(maxsize=256)
def _columns(n: int, me: int, neutral: int | None) -> tuple[numpy.ndarray, tuple[int, ...]]:
    """Owner value + 1 (so -1, unclaimed, is 0) -> its owner column (-1: none); and per board seat
    its relative column (the neutral's: NEUTRAL_COLUMN)."""
    board_seats = n + (1 if neutral is not None else 0)
    rel = tuple(NEUTRAL_COLUMN if q == neutral else (q - me) % n for q in range(board_seats))
    return numpy.array((-1,) + rel, dtype=numpy.int64), rel


def observation_tensor(options: RiskOptions, seat: int, obs: dict[str, Any]) -> numpy.ndarray:
    x = numpy.zeros(SIZE, dtype=numpy.float32)
    at = _AT
    n, me, neutral = obs["players"], obs["me"], obs["neutral"]
    table, rel = _columns(n, me, neutral)
    cols = table[numpy.asarray(obs["owner"], dtype=numpy.int64) + 1]
    held = cols >= 0
    x[_OWNER_ROWS[held] + cols[held]] = 1.0
    start = at["armies"]
    x[start:start + _T] = numpy.asarray(obs["armies"], dtype=numpy.float32) / ARMY_SCALE
    ones = [at["phase"] + _PHASE[obs["phase"]]]
    add = ones.append
    if obs["current"] == me:
        add(at["acting"])
    if obs["turn_player"] is not None:
        add(at["turn_player"] + rel[obs["turn_player"]])
    if obs["current"] is not None:
        add(at["current"] + rel[obs["current"]])
    rules = obs["rules"]
    x[at["round"]] = obs["round"] / rules["max_rounds"]
    x[at["reinforcements"]] = obs["reinforcements"] / ARMY_SCALE
    base = at["setup_left"]
    for q, left in enumerate(obs["setup_left"]):
        x[base + rel[q]] = left / 40.0
    base, terr, cards = at["alive"], at["territories"], at["card_counts"]
    counts = numpy.bincount(cols[held], minlength=_S + 1)
    for q in range(n):
        r = rel[q]
        if obs["alive"][q]:
            add(base + r)
        x[terr + r] = counts[r] / _T
        x[cards + r] = obs["card_counts"][q] / 5.0
    base = at["my_cards"]
    ones.extend(base + CARD_INDEX[c] for c in obs["cards"])
    base = at["discards"]
    ones.extend(base + CARD_INDEX[c] for c in obs["discards"])
    x[at["draw_pile"]] = obs["draw_pile"] / NUM_CARDS
    x[at["sets_traded"]] = obs["sets_traded"] / 10.0
    x[at["next_set_value"]] = obs["next_set_value"] / 20.0
    pend = obs["pending"]
    if pend:
        add(at["pending_from"] + INDEX[pend["from"]])
        add(at["pending_to"] + INDEX[pend["to"]])
        if "attack_dice" in pend:
            x[at["pending_dice"]] = pend["attack_dice"] / 3.0
            x[at["pending_dice"] + 1] = pend["defence_dice"] / 2.0
        else:
            x[at["pending_move"]] = pend["min"] / ARMY_SCALE
            x[at["pending_move"] + 1] = pend.get("max", pend["min"]) / ARMY_SCALE
    if obs["conquered"]:
        add(at["conquered"])
    log = obs["turn_log"]
    if log:
        base = at["conquered_this_turn"]
        ones.extend(base + INDEX[c] for c in log["conquered"])
    b = obs["last_battle"]
    if b:
        add(at["battle_from"] + INDEX[b["from"]])
        add(at["battle_to"] + INDEX[b["to"]])
        x[at["battle_lost"]] = b["lost"][0] / 3.0
        x[at["battle_lost"] + 1] = b["lost"][1] / 3.0
        if b["turn"] == obs["turn"]:
            add(at["battle_this_turn"])
    add(at["players"] + n - 2)
    base = at["rules"]
    for i, on in enumerate((rules["start"] == "dealt", rules["defender_dice"] == "chosen",
                            rules["fortify"] == "connected", rules["cards"])):
        if on:
            add(base + i)
    if obs["winner"] is not None:
        add(at["winner"] + rel[obs["winner"]])
    x[ones] = 1.0
    return x
