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
from typing import Any

from actors.address import player_address
from bus.log import GameLog
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
    return text, data


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
            out.append(f"[{e['seq']}] error ({e['category']}) {e['actor']}: {e['error']} (applied {e['applied']})")
    if data["end"]:
        out.append(f"end: {data['end']['summary']} (winners {data['end']['winners']})")
    return "\n".join(out)
