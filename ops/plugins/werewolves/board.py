"""The Werewolves board for the debugger: the players in a circle, the dead crossed out, each
role as the viewer knows it (every role for the whole-game view), and the latest votes the viewer
saw as arrows: the day's votes (public), the wolves' night votes (the wolves' and the whole-game
view only), with the night's protection and inspection for the doctor's, the seer's and the
whole-game view.

Also the debugger's hooks: `phase(state)` ("night 2", "day 2": public) and `deals(step, memo)`
(the joint votes and requests of the public talk, seen by those who heard it, with who kept and
who broke a bound joint vote, read off the day's public votes).
"""

from __future__ import annotations

import math
from typing import Any

from games.api import State
from ops.svg import svg, text

COLOURS = {"werewolf": "#b22222", "seer": "#4169e1", "doctor": "#2e8b57", "villager": "#c8a165", "possessed": "#8b4c8b",
           "bodyguard": "#2f8f6f", "medium": "#6a5acd", None: "#bbbbbb"}
VOTE, WOLF_VOTE, NIGHT = "#333333", "#8b0000", "#2e6b8b"
SIZE, RADIUS = 380, 140


def board(state: State, player: int | None = None) -> str:
    """SVG of the village at this state, seen by `player` (None: everything)."""
    data = state.to_json()
    n = data["options"]["players"]
    if player is None:
        roles = {q: r for q, r in enumerate(data["roles"] or [])}
        events = [e for e in data["events"] or []]
    else:
        obs = state.observation(player)
        roles = {int(q): r for q, r in obs["known_roles"].items()}
        events = list(obs["events"])
    alive = {q for q, a in enumerate(data["alive"]) if a} if isinstance(data["alive"][0], bool) else set(data["alive"])
    centre = SIZE / 2, SIZE / 2 + 12
    spots = [(centre[0] + RADIUS * math.cos(2 * math.pi * q / n - math.pi / 2),
              centre[1] + RADIUS * math.sin(2 * math.pi * q / n - math.pi / 2)) for q in range(n)]
    parts = [text(SIZE / 2, 18, f"{data['phase']} {data['day']}" + (f", seen by p{player}" if player is not None else ""),
                  13, "middle")]
    parts += _votes(events, data["day"], spots)
    for q in range(n):
        x, y = spots[q]
        role = roles.get(q)
        ring = ' stroke="#000" stroke-width="3"' if q == player else ""
        dead = q not in alive
        parts.append(f'<g class="seat" data-seat="{q}" data-alive="{int(not dead)}" data-role="{role or ""}">'
                     f'<circle cx="{x:.1f}" cy="{y:.1f}" r="18" fill="{COLOURS.get(role, "#bbbbbb")}"{ring}>'
                     f"<title>p{q} {role or 'unknown'}{' (dead)' if dead else ''}</title></circle>"
                     + text(x, y + 4, f"p{q}", 11, "middle", "#fff") + text(x, y + 32, role or "?", 9, "middle"))
        if dead:
            parts.append(f'<path d="M{x - 14:.1f},{y - 14:.1f} L{x + 14:.1f},{y + 14:.1f} M{x + 14:.1f},{y - 14:.1f} '
                         f'L{x - 14:.1f},{y + 14:.1f}" stroke="#000" stroke-width="3"/>')
        parts.append("</g>")
    return svg(SIZE, SIZE + 40, parts, f"village, {len(alive)} of {n} alive")


def _votes(events: list[dict[str, Any]], day: int, spots: list[tuple[float, float]]) -> list[str]:
    """Arrows for the latest day vote and the latest night's doings the viewer saw."""
    latest: dict[str, dict[str, Any]] = {}
    for e in events:
        if e.get("type") in ("day_votes", "wolf_votes"):
            latest[e["type"]] = e
    out = [('<defs><marker id="ww-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
            'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="context-stroke"/></marker></defs>')]
    notes = []
    for kind, colour in (("day_votes", VOTE), ("wolf_votes", WOLF_VOTE)):
        e = latest.get(kind)
        if e is None:
            continue
        for voter, target in e.get("votes") or ():
            if target is None or not (0 <= voter < len(spots) and 0 <= target < len(spots)):
                continue
            out.append(_arrow(spots[voter], spots[target], colour, f"{kind.replace('_', ' ')} of day {e['day']}: "
                              f"p{voter} votes p{target}", kind, voter, target))
        notes.append(f"{'day votes' if kind == 'day_votes' else 'wolf votes'} of day {e['day']}")
    for e in events:
        if e.get("day") == day and e.get("type") in ("protect", "inspect", "guard") and "target" in e:
            actor, target = e.get("actor"), e["target"]
            if isinstance(actor, int) and isinstance(target, int) and 0 <= actor < len(spots) and 0 <= target < len(spots):
                what = e["type"] + (f" ({e['role']})" if "role" in e else f" ({e['species']})" if "species" in e else "")
                out.append(_arrow(spots[actor], spots[target], NIGHT, f"p{actor} {what} p{target}", e["type"], actor, target))
    if notes:
        out.append(text(8, SIZE + 34, "arrows: " + "; ".join(notes), 10))
    return out


def _arrow(a: tuple[float, float], b: tuple[float, float], colour: str, tip: str, kind: str, voter: int, target: int) -> str:
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    d = max(1.0, math.hypot(dx, dy))
    ux, uy = dx / d, dy / d
    bend = 0.12 * d  # curved, so that two players voting each other show two arrows
    mx, my = (x1 + x2) / 2 - uy * bend, (y1 + y2) / 2 + ux * bend
    sx, sy, ex, ey = x1 + ux * 20, y1 + uy * 20, x2 - ux * 21, y2 - uy * 21
    return (f'<path class="vote" data-kind="{kind}" data-voter="{voter}" data-target="{target}" '
            f'd="M{sx:.1f},{sy:.1f} Q{mx:.1f},{my:.1f} {ex:.1f},{ey:.1f}" fill="none" stroke="{colour}" '
            f'stroke-width="1.6" stroke-opacity="0.75" marker-end="url(#ww-head)"><title>{tip}</title></path>')


# -- the debugger's hooks ---------------------------------------------------------------------------


def phase(state: State) -> str:
    """The public phase and day, e.g. "day 2"."""
    obs = state.observation(0)
    return f"{obs['phase']} {obs['day']}"


def deals(step: Any, memo: dict[str, Any]) -> list[dict[str, Any]]:
    """The deal events of one record: proposals, acceptances, rejections and retractions of the
    public talk when a round is heard (seen by those who hear it), and at the day's vote, who kept
    and who broke each bound joint vote (seen by those who heard the day's talk: the votes are
    public, the deals are known to whoever heard them made)."""
    from actors.address import seat_of
    from actors.werewolves.deals import binding, read_deals

    msg = step.msg
    kind = msg["kind"]
    if kind == "heard" and msg["channel"] == "public":
        rounds = memo.setdefault("rounds", {})
        key = (msg["turn"], msg["round"])
        listener = seat_of(msg["to"])
        if key in rounds:  # the same lines to another member: one more seat learns of them
            rounds[key].append(listener)
            return []
        seen_by = rounds[key] = [listener]  # shared by this round's events (the debugger copies each event, not it)
        events = []
        roles = getattr(step, "state", None) and step.state.to_json()["roles"]
        for line in msg["lines"]:
            memo.setdefault("lines", {}).setdefault(msg["turn"], []).append(
                {"round": msg["round"], "speaker": line["speaker"], "says": line["says"], "channel": "public"})
            events += _talk_events(line, seen_by)
            events += _claim_events(line, seen_by, roles)
        return events
    if kind != "step" or not step.changed:
        return []
    events = step.state.to_json()["events"]
    votes = [e for e in events[memo.get("seen", 0):] if e.get("type") == "day_votes"]
    memo["seen"] = len(events)
    lines = memo.get("lines", {}).get(msg["turn"])
    if not votes or not lines:
        return []
    cast = {voter: target for voter, target in votes[-1]["votes"]}
    heard = sorted({q for (turn, _), seats in memo["rounds"].items() if turn == msg["turn"] for q in seats})
    ledger = read_deals(sorted(lines, key=lambda x: (x["round"], x["speaker"])))
    out = []
    for deal in ledger.values():
        for p in [p for p in deal.binds() if binding(ledger, p) is deal and p in cast]:
            kept = cast[p] == deal.target
            out.append({"deal": f"p{deal.proposer}#{deal.proposal_id}", "type": "kept" if kept else "broken",
                        "by": f"p{p}", "parties": [f"p{q}" for q in deal.binds()], "seen_by": heard,
                        "detail": f"voted p{cast[p]}" + ("" if kept else f", not p{deal.target}")})
    return out


def _claim_events(line: dict[str, Any], seen_by: list[int], roles: list[str] | None) -> list[dict[str, Any]]:
    """Role claims and reported results, seen by their hearers; whether one is a bluff is a
    separate event seen by no seat: the whole-game (omniscient) view only."""
    from ops.plugins.werewolves.transcript import _bluff

    speaker, out = line["speaker"], []
    for s in line["says"]:
        kind = s.get("kind")
        if kind == "ww_claim":
            detail = f"claims to be the {s['role']}"
        elif kind == "ww_result":
            detail = f"reports {s['ability']} p{s['target']} {s['species']}"
        else:
            continue
        out.append({"deal": f"p{speaker}:claim", "type": "claimed", "by": f"p{speaker}", "parties": [f"p{speaker}"],
                    "detail": detail, "seen_by": seen_by})
        if _bluff(s, speaker, roles):
            out.append({"deal": f"p{speaker}:claim", "type": "bluff", "by": f"p{speaker}", "parties": [f"p{speaker}"],
                        "detail": f"{detail}, as a {roles[speaker]}", "seen_by": []})
    return out


def _talk_events(line: dict[str, Any], seen_by: list[int]) -> list[dict[str, Any]]:
    speaker = line["speaker"]
    out = []
    for s in line["says"]:
        kind = s.get("kind")
        if kind == "ww_propose":
            out.append({"deal": f"p{speaker}#{s['proposal_id']}", "type": "proposed", "by": f"p{speaker}",
                        "parties": [f"p{speaker}"], "detail": f"{s['deal'].replace('_', ' ')} against p{s['target']}", "seen_by": seen_by})
        elif kind in ("ww_accept", "ww_reject"):
            out.append({"deal": f"p{s['proposer']}#{s['proposal_id']}",
                        "type": "accepted" if kind == "ww_accept" else "rejected", "by": f"p{speaker}",
                        "parties": [f"p{s['proposer']}", f"p{speaker}"], "detail": "", "seen_by": seen_by})
        elif kind == "ww_retract":
            out.append({"deal": f"p{speaker}#{s['proposal_id']}", "type": "retracted", "by": f"p{speaker}",
                        "parties": [f"p{speaker}"], "detail": "", "seen_by": seen_by})
    return out
