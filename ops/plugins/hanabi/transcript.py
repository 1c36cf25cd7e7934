"""Turn-by-turn transcripts of a logged Hanabi game, as JSON-ready data and as text.

Per turn: who moved, the move and what it did (the slots and cards a hint touched; the card a play
or discard revealed, and whether the play succeeded), the table after it (fireworks, hint tokens,
lives, deck), the mover's hand as it really was, and, for agents with offices, why: the Strategy
Office's suggestions with their utilities and the Intelligence Office's beliefs about the mover's
own cards (a card name per slot for self-estimation, candidate cards per slot for the Alpha
agent), with the slots whose belief excludes the card really there (`wrong`; "!" in the text).
`player` keeps only that seat's turns.

    build_transcript(log, player=None) -> dict      JSON-ready
    render_transcript(data) -> str                  text
    transcript(log, player=None) -> (text, data)
"""

from __future__ import annotations

from typing import Any

from actors.address import office_of, seat_of
from bus.log import GameLog
from games.hanabi.cards import COLOURS
from replay.walk import walk
from replay.transcript import TranscriptError

SHOWN_CANDIDATES = 4  # candidate cards listed per slot in the text (the JSON has them all)


def build_transcript(log: GameLog, player: int | None = None) -> dict[str, Any]:
    header = log.header
    if header.get("game") != "hanabi":
        raise TranscriptError(f"this transcript is for hanabi games, not {header.get('game')!r}")
    players = len(header["agents"])
    if player is not None and not 0 <= player < players:
        raise TranscriptError(f"player {player} is not a seat (players 0..{players - 1})")
    why: dict[tuple[int, int], dict[str, Any]] = {}  # (turn, seat) -> suggestions and beliefs
    turns: list[dict[str, Any]] = []
    end = None
    hands: list[Any] = []  # every seat's hand before the record at hand (after the last change)
    for step in walk(log):
        record, msg = step.record, step.msg
        kind = msg["kind"]
        if kind == "office_reply" and office_of(msg["sender"]) is not None:
            seat = seat_of(msg["to"])
            entry = why.setdefault((msg["turn"], seat), {})
            if msg["suggestions"]:
                entry["suggestions"] = [[s["action"], s["utility"]] for s in msg["suggestions"]]
            for update in msg["updates"]:
                if list(update["path"]) == ["beliefs"]:
                    entry["beliefs"] = update["value"]
        elif kind == "step":
            (seat, action), = ((int(p), a) for p, a in msg["actions"].items())
            hand = hands[seat]
            table = step.state.to_json()
            event = table["history"][-1]
            turn = {"turn": msg["turn"], "seq": record["seq"], "player": seat, "action": action, "hand": hand,
                    **_effect(event, table), "fireworks": table["fireworks"], "hints": table["hints"],
                    "lives": table["lives"], "deck": len(table["deck"]), **why.pop((msg["turn"], seat), {})}
            if "beliefs" in turn:  # the slots whose belief excludes the card really there
                turn["wrong"] = [i for i, card in enumerate(hand) if not _fits(card, turn["beliefs"].get(str(i)))]
            if player is None or seat == player:
                turns.append(turn)
        elif kind == "game_end":
            end = {"summary": msg["summary"], "score": msg["extra"].get("score"), "steps": msg["steps"]}
        if step.changed:
            hands = step.state.to_json()["hands"]
    return {
        "game": "hanabi",
        "game_id": header.get("game_id"),
        "seed": header.get("seed"),
        "options": header.get("options"),
        "agents": [_spec(a) for a in header["agents"]],
        "player": player,
        "turns": turns,
        "end": end,
    }


def _effect(event: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """What a move did, from the rules' history entry: hint -> touched slots and their cards."""
    if "slots" in event:  # a hint: the target's cards in the touched slots
        target = int(event["action"].split(":")[1])
        cards = table["hands"][target]
        return {"target": target, "touched": event["slots"], "cards": [cards[i] for i in event["slots"]]}
    out = {"card": event["card"]}
    if "ok" in event:
        out["ok"] = event["ok"]
    return out


def _fits(card: str, belief: Any) -> bool:
    if belief is None:
        return True  # no belief about this slot
    return card == belief if isinstance(belief, str) else card in belief


def _spec(agent: dict[str, Any]) -> str:
    options = ";".join(f"{k}={v}" for k, v in sorted(agent.get("options", {}).items()))
    return agent["name"] + (f":{options}" if options else "")


def render_transcript(data: dict[str, Any]) -> str:
    head = f"game {data['game_id']} (hanabi, seed {data['seed']}, {len(data['agents'])} players)"
    lines = [head] + [f"  p{i}: {a}" for i, a in enumerate(data["agents"])]
    if data["player"] is not None:
        lines.append(f"turns of p{data['player']} only")
    for t in data["turns"]:
        lines.append(f"turn {t['turn']} (seq {t['seq']})  p{t['player']} holds {' '.join(t['hand'])}: {_move(t)}")
        lines.append(f"    fireworks {' '.join(c + str(f) for c, f in zip(COLOURS, t['fireworks']))}  hints {t['hints']}  "
                     f"lives {t['lives']}  deck {t['deck']}")
        if t.get("suggestions"):
            lines.append("    suggested: " + ", ".join(f"{a} {u:g}" for a, u in t["suggestions"]))
        if t.get("beliefs"):
            lines.append("    believed own cards: " + "  ".join(
                f"{slot}:{_belief(b)}" + ("!" if int(slot) in t["wrong"] else "")
                for slot, b in sorted(t["beliefs"].items(), key=lambda kv: int(kv[0]))))
    if data["end"]:
        lines.append(f"end: {data['end']['summary']} after {data['end']['steps']} steps")
    return "\n".join(lines)


def _move(t: dict[str, Any]) -> str:
    action = t["action"]
    if "touched" in t:
        touched = ", ".join(f"slot {i} {c}" for i, c in zip(t["touched"], t["cards"]))
        return f"{action} -> p{t['target']} {touched}"
    if "ok" in t:
        return f"{action} -> {t['card']} " + ("played" if t["ok"] else "MISFIRE, a life lost")
    return f"{action} -> {t['card']} discarded"


def _belief(b: Any) -> str:
    if isinstance(b, str):
        return b
    shown = " ".join(b[:SHOWN_CANDIDATES])
    return f"{{{shown}{' ...' if len(b) > SHOWN_CANDIDATES else ''}}}({len(b)})"


def transcript(log: GameLog, player: int | None = None) -> tuple[str, dict[str, Any]]:
    data = build_transcript(log, player)
    return render_transcript(data), data
