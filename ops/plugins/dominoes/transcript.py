"""Hand-by-hand, turn-by-turn transcripts of a logged Dominoes match, as JSON-ready data and text.

Per hand: the opener, the deal (every hand once counted; a seat's own only in its transcript), the
partner signals (the option `signal`: who sent which code, and the (doubles, top frequency) the
glutton-blocker reads in it), each Intelligence Office's roles as they change, every turn (the tile
and the end it went on, or a pass and what the pass shows: "p1 lacks 4, 6"), the line's ends after
it, and for agents with offices why: the Strategy Office's rule (seed agents) or tile scores (the
Alpha pair) and the Alpha IO's beliefs; then how the hand ended and the points. `player` keeps only
that seat's signals, roles and reasons (the moves and passes are public).

    build_transcript(log, player=None) -> dict      JSON-ready
    render_transcript(data) -> str                  text
    transcript(log, player=None) -> (text, data)
"""

from __future__ import annotations

from typing import Any

from actors.address import office_of, seat_of
from bus.log import GameLog
from replay.transcript import TranscriptError
from replay.walk import walk

SHOWN_TILES = 3  # likeliest tiles listed per seat in the text (the JSON has every belief)


def build_transcript(log: GameLog, player: int | None = None) -> dict[str, Any]:
    header = log.header
    if header.get("game") != "dominoes":
        raise TranscriptError(f"this transcript is for dominoes games, not {header.get('game')!r}")
    if player is not None and not 0 <= player < 4:
        raise TranscriptError(f"player {player} is not a seat (players 0..3)")
    mine = (lambda seat: True) if player is None else (lambda seat: seat == player)
    hands: list[dict[str, Any]] = []
    why: dict[tuple[int, int], dict[str, Any]] = {}  # (turn, seat) -> plan and beliefs
    current: dict[str, Any] | None = None
    lacks: list[list[int]] = [[], [], [], []]
    end = None
    for step in walk(log):
        msg, kind = step.msg, step.msg["kind"]
        if kind == "chance":
            data = step.state.to_json()
            current = {"hand": data["hand"], "opener": data["opener"], "scores_before": list(data["scores"]),
                       "deal": [d if mine(s) else None for s, d in enumerate(data["dealt"])],
                       "signals": [], "roles": [], "turns": []}
            hands.append(current)
            lacks = [[], [], [], []]
        elif kind == "heard" and current is not None and mine(seat_of(msg["to"])):
            for line in msg["lines"]:
                for item in line["says"]:
                    entry = {"seat": line["speaker"], "to": seat_of(msg["to"]), "code": item["code"],
                             "reads": [item["code"] // 8, item["code"] % 8]}
                    if line["speaker"] != entry["to"] and entry not in current["signals"]:
                        current["signals"].append(entry)
        elif kind == "kb_change" and office_of(msg["source"]) is not None and mine(seat_of(msg["sender"])):
            seat = seat_of(msg["sender"])
            for update in msg["updates"]:
                path, value = list(update["path"]), update["value"]
                if path == ["plan"]:
                    why.setdefault((msg["turn"], seat), {}).update(value)
                elif path == ["beliefs"] and isinstance(value, dict):
                    if "roles" in value and current is not None:
                        roles = {"seat": seat, **value["roles"]}
                        if not any(r["seat"] == seat and _same(r, roles) for r in current["roles"]):
                            current["roles"].append({**roles, "turn": msg["turn"]})
                    if "tiles" in value or "convention" in value:
                        why.setdefault((msg["turn"], seat), {})["beliefs"] = value
        elif kind == "act_request" and len(msg["legal"]) == 1 and mine(msg["player"]):
            why.setdefault((msg["turn"], msg["player"]), {})["only"] = True
        elif kind == "step" and current is not None:
            current = _turn(step, current, why, lacks, hands)
        elif kind == "game_end":
            end = {"summary": msg["summary"], "steps": msg["steps"], **{k: msg["extra"].get(k) for k in
                                                                      ("scores", "hands", "hands_won", "blocked")}}
    return {"game": "dominoes", "game_id": header.get("game_id"), "seed": header.get("seed"),
            "options": header.get("options"), "agents": [_spec(a) for a in header["agents"]],
            "player": player, "hands": hands, "end": end}


def _turn(step: Any, current: dict[str, Any], why: dict, lacks: list[list[int]],
          hands: list[dict[str, Any]]) -> dict[str, Any]:
    """Add one decision to the hand in progress; close the hand when it ended it."""
    msg = step.msg
    (seat, action), = ((int(p), a) for p, a in msg["actions"].items())
    data = step.state.to_json()
    finished = len(data["past"]) > current["hand"]
    table = data["past"][current["hand"]] if finished else data
    turn: dict[str, Any] = {"turn": msg["turn"], "seq": step.seq, "seat": seat, "action": action,
                            **why.pop((msg["turn"], seat), {})}
    if action.startswith("open:"):
        turn["opener"] = int(action[5:])
        current["opener"] = turn["opener"]
    elif action == "pass":  # a hand never ends on a pass: `data` is the hand in play
        now = data["lacks"][seat]
        turn["new_lacks"] = [n for n in now if n not in lacks[seat]]
        lacks[seat] = list(now)
    if not finished and data["ends"]:
        turn["ends"] = list(data["ends"])
    elif finished and table["line"]:
        turn["ends"] = [table["line"][0][0], table["line"][-1][1]]
    current["turns"].append(turn)
    if finished:
        current.update({k: table[k] for k in ("end", "last", "pips", "pair", "points", "scores")})
        current["line"] = table["line"]
    return current


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a.get(k) == b.get(k) for k in ("glutton", "blocker", "swapped"))


def _spec(agent: dict[str, Any]) -> str:
    options = ";".join(f"{k}={v}" for k, v in sorted(agent.get("options", {}).items()))
    return agent["name"] + (f":{options}" if options else "")


# -- text ------------------------------------------------------------------------------------

def render_transcript(data: dict[str, Any]) -> str:
    rules = data["options"] or {}
    head = (f"game {data['game_id']} (dominoes, seed {data['seed']}, to {rules.get('target')}; "
            f"pairs p0&p2 against p1&p3)")
    lines = [head] + [f"  p{i}: {a}" for i, a in enumerate(data["agents"])]
    if data["player"] is not None:
        lines.append(f"signals, roles and reasons of p{data['player']} only")
    for hand in data["hands"]:
        a, b = hand["scores_before"]
        lines.append(f"hand {hand['hand'] + 1}: opened by p{hand['opener']}; scores {a}-{b}")
        for seat, tiles in enumerate(hand["deal"]):
            if tiles is not None:
                lines.append(f"  p{seat} holds {' '.join(tiles)}")
        for s in hand["signals"]:
            lines.append(f"  signal p{s['seat']} -> p{s['to']}: code {s['code']} "
                         f"({s['reads'][0]} doubles, a number on {s['reads'][1]} tiles)")
        for t in hand["turns"]:
            for r in [r for r in hand["roles"] if r["turn"] == t["turn"]]:
                lines.append(f"    p{r['seat']} reads roles: glutton p{r['glutton']}, blocker p{r['blocker']} ({r['why']})")
            lines.append("  " + _turn_text(t))
        if "end" in hand:
            pips = " ".join(f"p{q} {n}" for q, n in enumerate(hand["pips"]))
            won = "void, nobody scores" if hand["pair"] is None else (
                f"pair {'p0&p2' if hand['pair'] == 0 else 'p1&p3'} scores {hand['points']}")
            lines.append(f"  {hand['end']} (last tile p{hand['last']}); pips left {pips}; {won}; "
                         f"scores {hand['scores'][0]}-{hand['scores'][1]}")
    if data["end"]:
        lines.append(f"end: {data['end']['summary']}; {data['end']['blocked']} hands blocked")
    return "\n".join(lines)


def _turn_text(t: dict[str, Any]) -> str:
    action = t["action"]
    if "opener" in t:
        text = f"p{t['seat']} names p{t['opener']} to open"
    elif action == "pass":
        new = t.get("new_lacks") or []
        text = f"p{t['seat']} passes" + (f" -> p{t['seat']} lacks {', '.join(map(str, new))}" if new else "")
    else:
        text = f"p{t['seat']} {action}"
    if "ends" in t:
        text += f"   [ends {t['ends'][0]} {t['ends'][1]}]"
    if t.get("only") and action != "pass":
        text += "   (the only move)"
    if "role" in t:
        text += f"   as {t['role']}"
    if "rule" in t:
        text += f"; {t['rule']}" if "role" in t else f"   {t['rule']}"
    if "scores" in t:
        text += "   scores " + ", ".join(f"{a} {u:.3f}" for a, u in t["scores"])
    beliefs = t.get("beliefs")
    if beliefs:
        text += _beliefs_text(beliefs)
    return text


def _beliefs_text(beliefs: dict[str, Any]) -> str:
    parts = []
    for seat, tile in sorted(beliefs.get("convention", {}).items()):
        parts.append(f"p{seat} opened {tile}: long in it")
    for seat, numbers in sorted(beliefs.get("lacks", {}).items()):
        parts.append(f"{seat} lacks {','.join(map(str, numbers))}")
    for seat, tiles in sorted(beliefs.get("tiles", {}).items()):
        top = sorted(tiles.items(), key=lambda kv: (-kv[1], kv[0]))[:SHOWN_TILES]
        parts.append(f"{seat} likely " + " ".join(f"{t} {p:.2f}" for t, p in top))
    return ("\n      believes: " + "; ".join(parts)) if parts else ""


def transcript(log: GameLog, player: int | None = None) -> tuple[str, dict[str, Any]]:
    data = build_transcript(log, player)
    return render_transcript(data), data
