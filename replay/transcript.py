"""Transcripts of a logged game, as text and JSON-ready data, built by the game's plugin.

A game's plugin may declare a transcript builder `(log, player) -> (text, data)` (deals and
votes, negotiations, turn by turn: whatever the game needs); a game without one gets the
generic transcript: every decision, chance outcome, talk line and error, in seq order. Either way
`data["beliefs"]` holds the typed belief series of every Intelligence Office (of `player` only,
when given), so trust over time is in every transcript, JSON and HTML alike.

    transcript(log, player=None) -> (text, data)
"""

from __future__ import annotations

import json
import re
from typing import Any

from actors.address import player_address
from bus.log import GameLog
from bus.messages import REFEREE
from games.plugin import resolve
from games.registry import get_plugin
from replay.guard import checked_text, guard
from replay.series import belief_series
from replay.walk import walk


def free_text(item: dict[str, Any]) -> str | None:
    """A `say` item (the core's free text) in words, quoted on one line; None for any other item."""
    if item.get("kind") != "say":
        return None
    return "says " + json.dumps(item.get("text", ""), ensure_ascii=False)


class TranscriptError(ValueError):
    """A log this module cannot make a transcript of (an unknown seat, a game it does not hold)."""


def transcript(log: GameLog, player: int | None = None) -> tuple[str, dict[str, Any]]:
    """(text, data) of one game's transcript (the builder is the one the game's plugin names)."""
    plugin = get_plugin(log.header.get("game"))
    players = len(log.header.get("agents") or ())
    if player is not None and not 0 <= player < players:
        raise TranscriptError(f"player {player} is not a seat (players 0..{players - 1})")
    if plugin.transcript is not None:
        build = resolve(plugin.transcript)
        with guard(plugin.name, "transcript"):  # plugin code: any failure is one typed line (replay/guard.py)
            text, data = build(log, player)
            checked_text(text, "a transcript")
            if not isinstance(data, dict):
                raise TypeError(f"a transcript's data is a dict, not {type(data).__name__}")
    else:
        data = generic_transcript(log, player)
        text = render_generic(data)
    data["beliefs"] = belief_series(log, None if player is None else player_address(player))
    if plugin.transcript is not None:  # the generic transcript has its errors among its events already
        errors = error_events(log)
        data["errors"] = errors
        text = with_errors(text, errors)
    return text, data


def error_events(log: GameLog) -> list[dict[str, Any]]:
    """Every error event of a game in seq order: what failed, whose, and what the rules applied."""
    from actors.address import seat_of

    out = []
    turn = None  # the decision turn the records are at (an office's fault names none of its own)
    for record in log.records:
        msg = record.get("msg") or {}
        if type(msg.get("turn")) is int:
            turn = msg["turn"]
        if msg.get("kind") == "fault" and msg.get("to") != REFEREE:  # an office failed its President
            actor = str(msg.get("actor"))
            out.append({"seq": record["seq"], "turn": turn, "actor": actor, "seat": seat_of(actor),
                        "category": "raised", "error": msg.get("error"), "applied": f"{msg.get('to')} went on without it"})
        elif msg.get("kind") == "error":
            actor = str(msg.get("actor"))
            out.append({"seq": record["seq"], "turn": msg.get("turn"), "actor": actor, "seat": seat_of(actor),
                        "category": error_category(msg), "error": msg.get("reason"), "applied": msg.get("applied")})
    return out


def error_line(e: dict[str, Any]) -> str:
    """One error event as a transcript line."""
    return f"[{e['seq']}] error ({e['category']}) {e['actor']}: {e['error']} (applied {e['applied']})"


_SEQ = re.compile(r"\(seq (\d+)\)|^\s*\[(\d+)\]|\bseq (\d+)\b")


_TURN = re.compile(r"\(turn (\d+)\)|^\s*turn (\d+)\b")


def with_errors(text: str, errors: list[dict[str, Any]]) -> str:
    """A plugin's transcript text with each error line in place: before the first line that names
    a later seq (`(seq N)`, `[N]`) or starts a later decision turn (`(turn T)`, `turn T`); errors after every named seq, or in a text that names none, at
    the end under `errors:`."""
    if not errors:
        return text
    lines = text.split("\n")
    out: list[str] = []
    pending = list(errors)
    for line in lines:
        found = _SEQ.search(line)
        if found:
            seq = int(next(g for g in found.groups() if g is not None))
            while pending and pending[0]["seq"] < seq:
                out.append("  " + error_line(pending.pop(0)))
        elif (found := _TURN.search(line)) is not None:  # a block of decision turn T starts: earlier turns' errors
            turn = int(next(g for g in found.groups() if g is not None))
            while pending and isinstance(pending[0]["turn"], int) and pending[0]["turn"] < turn:
                out.append("  " + error_line(pending.pop(0)))
        out.append(line)
    if pending:
        out.append("errors:" if len(pending) == len(errors) else "errors after the last turn shown:")
        out.extend("  " + error_line(e) for e in pending)
    return "\n".join(out)


def error_category(error: dict[str, Any]) -> str:
    """An error record's category (logs written before categories: read off the reason)."""
    if error.get("category", "unknown") != "unknown":
        return error["category"]
    return "invalid_talk" if error["reason"].startswith("invalid talk") else "unknown"


def generic_transcript(log: GameLog, player: int | None = None) -> dict[str, Any]:
    """Every event of a game whose plugin has no transcript of its own, as plain data."""
    header = log.header
    events: list[dict[str, Any]] = []
    end = None
    for step in walk(log):
        msg = step.msg
        kind = msg["kind"]
        if kind == "chance":
            events.append({"seq": step.seq, "chance": msg["outcome"]})
        elif kind == "step":
            events.append({"seq": step.seq, "turn": msg["turn"], "actions": msg["actions"]})
        elif kind == "heard" and (player is None or msg["to"] == player_address(player)):
            events.append({"seq": step.seq, "turn": msg["turn"], "channel": msg["channel"], "round": msg["round"],
                           "lines": msg["lines"]})
        elif kind == "error":
            events.append({"seq": step.seq, "error": msg["reason"], "category": msg.get("category", "unknown"),
                           "actor": msg["actor"], "applied": msg["applied"]})
        elif kind == "game_end":
            end = {"summary": msg["summary"], "winners": list(msg["winners"]), "returns": list(msg["returns"])}
    return {"game": header.get("game"), "game_id": header.get("game_id"), "seed": header.get("seed"),
            "agents": header.get("agents"), "options": header.get("options"), "player": player,
            "events": _dedupe_heard(events), "end": end}


def _dedupe_heard(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every member hears the same lines of a round: keep one copy."""
    seen: set[tuple[int, str, int]] = set()
    out = []
    for e in events:
        if "lines" in e:
            key = (e["turn"], e["channel"], e["round"])
            if key in seen:
                continue
            seen.add(key)
        out.append(e)
    return out


def render_generic(data: dict[str, Any]) -> str:
    """The generic transcript as text, one event a line."""
    out = [f"game {data['game_id']} ({data['game']}, seed {data['seed']}, {len(data['agents'] or ())} players)"]
    for e in data["events"]:
        if "chance" in e:
            out.append(f"[{e['seq']}] chance: {e['chance']}")
        elif "actions" in e:
            acts = ", ".join(f"p{p} {a}" for p, a in sorted(e["actions"].items(), key=lambda kv: int(kv[0])))
            out.append(f"[{e['seq']}] turn {e['turn']}: {acts}")
        elif "lines" in e:
            for line in e["lines"]:
                says = "; ".join(free_text(s) or str({k: v for k, v in s.items()}) for s in line["says"]) or "(nothing)"
                out.append(f"[{e['seq']}] {e['channel']} round {e['round']}: p{line['speaker']} says {says}")
        elif "error" in e:
            out.append(error_line(e))
    if data["end"]:
        out.append(f"end: {data['end']['summary']} (winners {data['end']['winners']})")
    return "\n".join(out)
