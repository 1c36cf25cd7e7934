"""Turn-by-turn transcripts of a logged Risk game, as JSON-ready data and as text.

The set-up (claims in order, set-up armies per player), then per turn: its player, the armies
received (with card trades), where they were placed, every battle (dice, losses), conquests with
the armies moved in, the fortify move, the territories and armies held after it, and for a `td`
seat the network's value of its board at the start of the turn (the Strategy Office's `value`
updates). `values` holds each td seat's value over the game. `player` keeps that seat's turns.

    build_transcript(log, player=None) -> dict      JSON-ready
    render_transcript(data) -> str                  text
    transcript(log, player=None) -> (text, data)
"""

from __future__ import annotations

from typing import Any

from actors.address import office_of, seat_of
from bus.log import GameLog
from games.risk.mapdata import INDEX
from replay.transcript import TranscriptError
from replay.walk import walk


def build_transcript(log: GameLog, player: int | None = None) -> dict[str, Any]:
    header = log.header
    if header.get("game") != "risk":
        raise TranscriptError(f"this transcript is for risk games, not {header.get('game')!r}")
    players = len(header["agents"])
    if player is not None and not 0 <= player < players:
        raise TranscriptError(f"player {player} is not a seat (players 0..{players - 1})")
    claims: list[list[Any]] = []
    setup: dict[str, dict[str, int]] = {}
    turns: list[dict[str, Any]] = []
    values: dict[str, list[list[float]]] = {}
    end = None
    before = {"turn": 0, "round": 0, "current": 0, "phase": ""}  # the state before the record at hand
    for step in walk(log):
        msg = step.msg
        kind = msg["kind"]
        if kind == "kb_change" and office_of(msg["source"]) == "so":
            for u in msg["updates"]:
                if list(u["path"]) == ["value"]:
                    values.setdefault(f"p{seat_of(msg['sender'])}", []).append([u["value"]["turn"], u["value"]["value"]])
        elif kind == "step":
            (seat, action), = ((int(p), a) for p, a in msg["actions"].items())
            data = step.state.to_json()
            if action.startswith("claim:"):
                claims.append([seat, action[6:]])
            elif before["turn"] == 0:  # a set-up army
                code = action.split(":")[1]
                whose = f"p{seat}" if data["owner"][INDEX[code]] == seat else "neutral"
                placed = setup.setdefault(whose, {})
                placed[code] = placed.get(code, 0) + 1
            else:
                _on_action(_turn(turns, before), data, before, action)
        elif kind == "chance" and before["turn"] and _is_roll(msg["outcome"]):
            turn = _turn(turns, before)
            data = step.state.to_json()
            last = data["last"]
            turn["battles"].append({k: last[k] for k in ("from", "to", "attack", "defence", "lost")})
            if data["owner"][INDEX[last["to"]]] == turn["player"]:
                turn["conquered"].append({"from": last["from"], "to": last["to"], "moved": data["armies"][INDEX[last["to"]]]})
        elif kind == "game_end":
            end = {"summary": msg["summary"], "winners": list(msg["winners"]), "steps": msg["steps"]}
        if step.changed:
            data = step.state.to_json()
            if before["turn"] and turns:
                turn = turns[-1]
                held = [o == turn["player"] for o in data["owner"]]
                turn["territories"] = sum(held)
                turn["armies_held"] = sum(a for a, h in zip(data["armies"], held) if h)
            before = {k: data[k] for k in ("turn", "round", "current", "phase")}
    for seat, series in values.items():  # reported at a turn's first decision, before its entry exists
        at = {turn: v for turn, v in series}
        for t in turns:
            if f"p{t['player']}" == seat and t["turn"] in at:
                t["value"] = at[t["turn"]]
    if player is not None:
        turns = [t for t in turns if t["player"] == player]
        values = {k: v for k, v in values.items() if k == f"p{player}"}
    return {"game": "risk", "game_id": header.get("game_id"), "seed": header.get("seed"),
            "options": header.get("options"), "agents": [a["name"] for a in header["agents"]], "player": player,
            "setup": {"claims": claims, "placed": setup}, "turns": turns, "values": values, "end": end}


def _is_roll(outcome: Any) -> bool:
    return isinstance(outcome, list) and len(outcome) == 2 and isinstance(outcome[0], list)


def _turn(turns: list[dict[str, Any]], before: dict[str, Any]) -> dict[str, Any]:
    """The entry of the turn the state was in before the record (made when it starts)."""
    if not turns or turns[-1]["turn"] != before["turn"]:
        turns.append({"turn": before["turn"], "round": before["round"], "player": before["current"], "armies": 0, "trades": [],
                      "placed": {}, "battles": [], "conquered": [], "fortify": None})
    return turns[-1]


def _on_action(turn: dict[str, Any], data: dict[str, Any], before: dict[str, Any], action: str) -> None:
    """Fold one decision of `turn` (already applied: `data` is the state after it) into its entry."""
    summary = data["log"] if data["log"] is not None and data["log"]["turn"] == turn["turn"] else next(
        (r for r in data["recent"] if r["turn"] == turn["turn"]), None)
    if summary is not None:
        turn["armies"] = summary["armies"]
        turn["trades"] = [{"cards": x["cards"], "value": x["value"], "bonus": x["bonus"]} for x in summary["trades"]]
        turn["fortify"] = summary["fortify"]
    if action.startswith("place:"):
        _, code, n = action.split(":")
        turn["placed"][code] = turn["placed"].get(code, 0) + int(n)
    elif action.startswith("move:") and before["phase"] == "occupy" and turn["conquered"]:
        last = turn["conquered"][-1]
        last["moved"] = data["armies"][INDEX[last["to"]]]


def render_transcript(data: dict[str, Any]) -> str:
    lines = [f"risk {data['game_id']} (seed {data['seed']}): " + ", ".join(
        f"p{i} {name}" for i, name in enumerate(data["agents"]))]
    claims = data["setup"]["claims"]
    if claims:
        lines.append("claims: " + " ".join(f"p{s}:{c}" for s, c in claims))
    for who, placed in sorted(data["setup"]["placed"].items()):
        lines.append(f"set-up armies {who}: " + ", ".join(f"{c} {n}" for c, n in sorted(placed.items())))
    for t in data["turns"]:
        parts = [f"turn {t['turn']} (round {t['round']}) p{t['player']}: +{t['armies']}"]
        if "value" in t:
            parts[0] += f" [value {t['value']:.3f}]"
        if t["trades"]:
            parts.append("traded " + "; ".join(f"{','.join(x['cards'])} for {x['value']}" for x in t["trades"]))
        if t["placed"]:
            parts.append("placed " + ", ".join(f"{c} {n}" for c, n in t["placed"].items()))
        for b in t["battles"]:
            parts.append(f"{b['from']}>{b['to']} {b['attack']}v{b['defence']} -{b['lost'][0]}/-{b['lost'][1]}")
        for c in t["conquered"]:
            parts.append(f"took {c['to']} (moved {c['moved']})")
        if t["fortify"]:
            f, to, n = t["fortify"]
            parts.append(f"fortified {f}>{to} {n}")
        if "territories" in t:
            parts.append(f"holds {t['territories']} territories, {t['armies_held']} armies")
        lines.append("; ".join(parts))
    if data["end"]:
        lines.append(f"end: {data['end']['summary']} ({data['end']['steps']} steps)")
    return "\n".join(lines)


def transcript(log: GameLog, player: int | None = None) -> tuple[str, dict[str, Any]]:
    data = build_transcript(log, player)
    return render_transcript(data), data
