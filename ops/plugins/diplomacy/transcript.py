"""Negotiation transcripts of a logged Diplomacy game, as JSON-ready data and as text.

Per phase: every talk item (proposal with its commitments, acceptance, rejection, retraction)
by round, the talk the referee dropped and why; the ledger's deal events (proposed, accepted,
rejected, retracted, confirmed, broken with the breaking order, lapsed); each power's orders
and, for Alpha players, whether their plan kept or broke their deals; and after each
Intelligence Office update, the player's trust in every other power and (AlphaDip) its
predicted goals, or (DipBlue) its wars. `player` limits the IO views to one seat.

    build_transcript(log, player=None) -> dict      JSON-ready
    render_transcript(data) -> str                  text
    transcript(log, player=None) -> (text, data)
"""

from __future__ import annotations

from typing import Any

from actors.address import office_of, seat_of
from bus.codec import load
from bus.log import GameLog
from games.diplomacy.board import POWERS
from replay.fold import initial_state
from replay.walk import walk
from replay.transcript import TranscriptError, error_category, free_text

TOP_GOALS = 3  # predicted goals shown per power in the text (the JSON has them all)


def build_transcript(log: GameLog, player: int | None = None) -> dict[str, Any]:
    header = log.header
    if header.get("game") != "diplomacy":
        raise TranscriptError(f"this transcript is for diplomacy games, not {header.get('game')!r}")
    if player is not None and not 0 <= player < len(POWERS):
        raise TranscriptError(f"player {player} is not a seat (players 0..{len(POWERS) - 1})")
    state = initial_state(header)
    phases: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    seen_events = 0
    last_phase = None
    end = None

    def ph(name: str) -> dict[str, Any]:
        if name not in phases:
            phases[name] = {"phase": name, "talk": [], "dropped": [], "deals": [], "orders": {}, "plans": {}, "views": []}
            order.append(name)
        return phases[name]

    def sync() -> None:
        nonlocal seen_events, last_phase
        data = state.to_json()
        events = data["deals"]["events"]
        for e in events[seen_events:]:
            ph(e["phase"])["deals"].append(e)
        seen_events = len(events)
        last = data["last"]
        if last is not None and last["phase"] != last_phase:
            last_phase = last["phase"]
            ph(last_phase)["orders"] = last["orders"]
            ph(last_phase)["results"] = last.get("results") or {}
            if last_phase.endswith("A"):  # after the adjustments: who holds which centres
                ph(last_phase)["centres"] = {p: len(state.board.centres_of(p)) for p in POWERS}

    now = state.board.phase  # the phase before the record at hand
    for step in walk(log):
        record, msg, state = step.record, step.msg, step.state
        kind = msg["kind"]
        if kind == "talk_round":
            for line in msg["lines"]:
                for s in line["says"]:
                    ph(now)["talk"].append({"round": msg["round"], "speaker": POWERS[line["speaker"]], **s})
            sync()
        elif kind == "step":
            sync()
        elif kind == "error" and error_category(msg) == "invalid_talk":
            ph(now)["dropped"].append({"actor": msg["actor"], "reason": msg["reason"]})
        elif kind == "kb_change":
            _kb_change(ph(now), msg, player, record["seq"])
        elif kind == "game_end":
            end = {"summary": msg["summary"], "ranks": msg.get("ranks") or (msg.get("extra") or {}).get("ranks")}  # typed since teams; extra before
        now = state.board.phase
    return {"game_id": header.get("game_id"), "seed": header.get("seed"), "agents": header.get("agents"),
            "options": header.get("options"), "player": player, "end": end, "phases": [phases[n] for n in order]}


def _kb_change(ph: dict[str, Any], msg: dict[str, Any], player: int | None, seq: int) -> None:
    owner = seat_of(msg["sender"])
    office = office_of(msg["source"])
    updates = {tuple(u["path"]): u["value"] for u in msg["updates"]}
    if updates.get(("plan",)):
        ph["plans"][POWERS[owner]] = updates[("plan",)].get("why")
    if office != "io" or (player is not None and owner != player):
        return
    view = {"seq": seq, "player": owner, "power": POWERS[owner]}
    for key in ("trust", "goals", "war"):
        if (key,) in updates:
            view[key] = updates[(key,)]
    if len(view) > 3:
        ph["views"].append(view)


# -- text -------------------------------------------------------------------------------------------


def render_transcript(data: dict[str, Any]) -> str:
    head = f"game {data['game_id']} (diplomacy, seed {data['seed']})"
    if data["end"]:
        head += f": {data['end']['summary']}"
    out = [head, "agents: " + ", ".join(f"p{s} {POWERS[s]} {_spec(a)}" for s, a in enumerate(data["agents"] or []))]
    if data["end"] and data["end"].get("ranks"):
        out.append("ranks: " + ", ".join(f"{POWERS[s]} {r:g}" for s, r in enumerate(data["end"]["ranks"])))
    if data["player"] is not None:
        out.append(f"point of view: p{data['player']} {POWERS[data['player']]}")
    for ph in data["phases"]:
        out += _render_phase(ph)
    return "\n".join(out) + "\n"


def _spec(agent: dict[str, Any]) -> str:
    opts = ";".join(f"{k}={v}" for k, v in sorted((agent.get("options") or {}).items()))
    return agent["name"] + (f":{opts}" if opts else "")


def _render_phase(ph: dict[str, Any]) -> list[str]:
    out = ["", f"== {ph['phase']} =="]
    for t in ph["talk"]:
        out.append(f"  [r{t['round']}] {t['speaker']} {say(t)}")
    for d in ph["dropped"]:
        out.append(f"  dropped: {d['actor']}: {d['reason']}")
    for e in ph["deals"]:
        if e["type"] in ("proposed", "accepted"):
            continue  # shown as talk above
        text = f"  deal {e['deal']} {e['type'].upper() if e['type'] == 'broken' else e['type']}"
        if e["type"] == "broken":
            text += f" by {e['by']}: {e['detail']}" + (" (enforced)" if e.get("enforced") else "")
        elif e.get("by"):
            text += f" by {e['by']}"
        out.append(text + f" [{', '.join(e['to'])}]")
    for power, why in sorted(ph["plans"].items()):
        if why in ("broke", "kept"):
            out.append(f"  {power} {'BROKE its word: breaking paid' if why == 'broke' else 'kept its word though breaking paid'}")
    if ph["orders"]:
        results = ph.get("results") or {}
        for power, orders in sorted(ph["orders"].items()):
            out.append(f"  {power}: {', '.join(_with_result(o, results) for o in orders)}")
    if ph.get("centres"):
        out.append("  centres after adjustments: " + ", ".join(f"{p} {n}" for p, n in sorted(ph["centres"].items())))
    for v in ph["views"]:
        out.append(f"  p{v['player']} {v['power']} after IO update (seq {v['seq']}):")
        trust = v.get("trust") or {}
        if trust:
            out.append("    trust: " + ", ".join(f"{p} {t:.3f}" for p, t in sorted(trust.items())))
        if v.get("war") is not None:
            out.append("    at war with: " + (", ".join(v["war"]) or "nobody"))
        for power, goals in sorted((v.get("goals") or {}).items()):
            top = sorted(goals.items(), key=lambda x: (-x[1], x[0]))[:TOP_GOALS]
            out.append(f"    goals {power}: " + ", ".join(f"{c} {g:.3f}" for c, g in top))
    return out


def say(t: dict[str, Any]) -> str:
    """One talk item in words (proposals with their commitments)."""
    kind = t["kind"]
    if kind == "say":
        return free_text(t)
    if kind == "dip_propose":
        return f"proposes {t['speaker']}#{t['deal_id']}: " + "; ".join(_commitment(c) for c in t["commitments"])
    if kind == "dip_accept":
        return f"accepts {t['proposer']}#{t['deal_id']}"
    if kind == "dip_reject":
        return f"rejects {t['proposer']}#{t['deal_id']}"
    if kind == "dip_retract":
        return f"retracts {t['speaker']}#{t['deal_id']}"
    return kind


def _with_result(order: str, results: dict[str, list[str]]) -> str:
    """An order with the adjudicator's result words (bounce, cut, dislodged, no convoy...), if any."""
    unit = " ".join(order.split()[:2])
    words = results.get(unit) or []
    return f"{order} ({', '.join(words)})" if words else order


def _commitment(c: dict[str, Any]) -> str:
    kind = c["type"]
    if kind == "order":
        return f"{c['power']} {c['order']} in {c['phase']}"
    if kind == "dmz":
        return f"DMZ {'/'.join(c['provinces'])} for {'+'.join(c['powers'])} in {c['phase']}"
    if kind == "peace":
        return f"peace {'+'.join(c['powers'])} until {c['until']}"
    return f"alliance {'+'.join(c['allies'])} against {'+'.join(c['enemies'])} until {c['until']}"


def transcript(log: GameLog, player: int | None = None) -> tuple[str, dict[str, Any]]:
    """(text, data) of one Diplomacy game's transcript."""
    data = build_transcript(log, player)
    return render_transcript(data), data
