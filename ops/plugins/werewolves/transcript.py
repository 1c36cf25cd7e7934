"""Negotiation transcripts of a logged Werewolves game, as JSON-ready data and as text.

Per night and day (one referee decision each): every proposal, acceptance (a joint vote's
acceptance is its public confirmation), retraction, claim, accusation and sealed bid, with the
talk the referee dropped and why; each deal's fate (who was bound, who kept it, who broke it);
heal and investigation requests accepted silently; the winning bid; every action, whether it
kept the player's commitment; what happened. From one player's point of view, its trust in each
other player and its role certainties after every Intelligence Office update.

The whole game is shown as the log holds it (roles included): a transcript is for debugging and
study, not for a player.

    build_transcript(log, player=None) -> dict      JSON-ready
    render_transcript(data) -> str                  text
    transcript(log, player=None) -> (text, data)
"""

from __future__ import annotations

from typing import Any

from actors.address import office_of, seat_of
from actors.werewolves.deals import bid_totals, bid_winner, binding, read_deals
from bus.log import GameLog
from replay.walk import walk
from replay.transcript import TranscriptError, error_category, free_text

ROLE_LETTERS = (("werewolf", "w"), ("seer", "s"), ("doctor", "d"), ("villager", "v"), ("possessed", "p"),
                ("bodyguard", "b"), ("medium", "m"))
_ABILITY = {"divined": "seer", "identified": "medium"}


def build_transcript(log: GameLog, player: int | None = None) -> dict[str, Any]:
    """The transcript of one game as plain data (see the module docstring)."""
    header = log.header
    if header.get("game") != "werewolves":
        raise TranscriptError(f"transcripts are for werewolves games, not {header.get('game')!r}")
    players = header["options"]["players"]
    if player is not None and not 0 <= player < players:
        raise TranscriptError(f"player {player} is not a seat (players 0..{players - 1})")
    phases: dict[int, dict[str, Any]] = {}
    roles: list[str] | None = None
    end: dict[str, Any] | None = None
    heard_keys: set[tuple[int, str, int]] = set()
    trust: dict[str, float] = {}
    seen_events = 0

    def phase(turn: int) -> dict[str, Any]:
        if turn not in phases:
            phases[turn] = {"turn": turn, "day": None, "phase": None, "talk": [], "dropped": [], "lines": [],
                            "commitments": {}, "silent_deals": [], "actions": {}, "outcome": [], "view": []}
        return phases[turn]

    for step in walk(log):
        record, msg, state = step.record, step.msg, step.state
        kind = msg["kind"]
        if kind == "chance":
            if roles is None and isinstance(msg["outcome"], list):
                roles = list(msg["outcome"])
        elif kind in ("talk_turn", "act_request"):
            ph = phase(msg["turn"])
            if ph["day"] is None:
                ph["day"], ph["phase"] = msg["observation"]["day"], msg["observation"]["phase"]
        elif kind == "heard":
            key = (msg["turn"], msg["channel"], msg["round"])
            if key not in heard_keys:  # every member hears the same lines: keep one copy
                heard_keys.add(key)
                for line in msg["lines"]:
                    entry = {"round": msg["round"], "channel": msg["channel"], "speaker": line["speaker"], "says": line["says"]}
                    phase(msg["turn"])["lines"].append(entry)
                    phase(msg["turn"])["talk"] += [{"round": msg["round"], "channel": msg["channel"],
                                                    "speaker": line["speaker"], **s,
                                                    **({"bluff": True} if player is None and _bluff(s, line["speaker"], roles) else {})}
                                                   for s in line["says"]]
        elif kind == "error" and error_category(msg) == "invalid_talk":
            phase(msg["turn"])["dropped"].append({"actor": msg["actor"], "reason": msg["reason"]})
        elif kind == "kb_change":
            _kb_change(phase(msg["turn"]), msg, player, trust, record["seq"])
            if player is None:  # the claims' private record (honesty trait, value): omniscient view only
                for u in msg["updates"]:
                    if u["path"][:2] == ["claims", "log"] and u["value"]:
                        phase(msg["turn"]).setdefault("claims", []).append({"player": seat_of(msg["sender"]), **u["value"]})
        elif kind == "step":
            ph = phase(msg["turn"])
            ph["actions"].update({p: a for p, a in msg["actions"].items()})
            events = state.to_json()["events"]
            ph["outcome"] += [_public(e) for e in events[seen_events:]]
            seen_events = len(events)
        elif kind == "game_end":
            end = {"summary": msg["summary"], "winners": list(msg["winners"]), "returns": list(msg["returns"])}
    out_phases = [_settle(phases[t]) for t in sorted(phases)]
    return {
        "game_id": header.get("game_id"), "seed": header.get("seed"), "agents": header.get("agents"),
        "options": header.get("options"), "roles": roles, "player": player, "end": end, "phases": out_phases,
    }


def _kb_change(ph: dict[str, Any], msg: dict[str, Any], player: int | None, trust: dict[str, float], seq: int) -> None:
    owner = seat_of(msg["sender"])
    office = office_of(msg["source"])
    for u in msg["updates"]:
        path, value = u["path"], u["value"]
        if path[0] == "commitments" and value is not None:
            ph["commitments"][str(owner)] = value
        elif path == ["deals", "night"] and value:
            ph["silent_deals"].append({"player": owner, **value})
    if player is None or owner != player or office != "io":
        return
    updates = {tuple(u["path"]): u["value"] for u in msg["updates"]}
    if ("trust",) in updates:
        trust.clear()
        trust.update(updates[("trust",)])
    if ("beliefs",) in updates or ("trust",) in updates:
        ph["view"].append({"seq": seq, "trust": dict(trust), "beliefs": updates.get(("beliefs",))})


def _bluff(item: dict[str, Any], speaker: int, roles: list[str] | None) -> bool:
    """A claim of a role the speaker does not hold, or a result it could not have learnt or that is false."""
    if not roles:
        return False
    if item.get("kind") == "ww_claim":
        return item["role"] != roles[speaker]
    if item.get("kind") == "ww_result":
        truth = "werewolf" if roles[item["target"]] == "werewolf" else "human"
        return roles[speaker] != _ABILITY[item["ability"]] or item["species"] != truth
    return False


def _public(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "to"} | {"seen_by": event.get("to")}


def _settle(ph: dict[str, Any]) -> dict[str, Any]:
    """Add the deals, bids and kept/broken verdicts of a finished phase."""
    lines = ph.pop("lines")
    actions = ph["actions"]
    public = [x for x in lines if x["channel"] == "public"]
    wolves = [x for x in lines if x["channel"] == "wolves"]
    deals = read_deals(public)
    ph["deals"] = []
    for deal in deals.values():
        bound = [p for p in deal.binds() if binding(deals, p) is deal]
        want = f"vote:{deal.target}"
        ph["deals"].append({
            "proposer": deal.proposer, "proposal_id": deal.proposal_id, "deal": deal.deal, "target": deal.target,
            "round": deal.round, "retracted": deal.retracted, "accepts": [list(a) for a in deal.accepts],
            "void_accepts": [list(v) for v in deal.void],
            "bound": bound, "released": [p for p in deal.binds() if p not in bound],
            "kept": [p for p in bound if actions.get(str(p)) == want],
            "broken": [p for p in bound if str(p) in actions and actions[str(p)] != want],
        })
    if wolves:
        totals = bid_totals(wolves)
        ph["bids"] = {"totals": {str(t): round(v, 6) for t, v in sorted(totals.items())}, "winner": bid_winner(wolves)}
    ph["kept"] = sorted((p for p, a in ph["commitments"].items() if actions.get(p) == a), key=int)
    ph["broken"] = sorted((p for p, a in ph["commitments"].items() if p in actions and actions[p] != a), key=int)
    return ph


# -- text -----------------------------------------------------------------------------------------


def render_transcript(data: dict[str, Any]) -> str:
    """The transcript as text, one block per night and day."""
    roles = data["roles"] or []
    head = f"game {data['game_id']} (werewolves, seed {data['seed']})"
    if data["end"]:
        head += f": {data['end']['summary']}"
    out = [head, "roles: " + ", ".join(f"p{q} {r}" for q, r in enumerate(roles))]
    if data["player"] is not None:
        out.append(f"point of view: p{data['player']}")
    for ph in data["phases"]:
        out += _render_phase(ph, data["player"])
    return "\n".join(out) + "\n"


def _render_phase(ph: dict[str, Any], player: int | None) -> list[str]:
    out = ["", f"== {ph['phase'] or '?'} {ph['day'] if ph['day'] is not None else '?'} (turn {ph['turn']}) =="]
    for t in ph["talk"]:
        out.append(f"  [{t['channel']} r{t['round']}] p{t['speaker']} {_say(t)}")
    for d in ph["dropped"]:
        out.append(f"  dropped: {d['actor']}: {d['reason']}")
    for d in ph["deals"]:
        text = f"  deal p{d['proposer']}#{d['proposal_id']} {d['deal'].replace('_', ' ')} against p{d['target']}"
        if d["accepts"]:
            text += ": accepted by " + ", ".join(f"p{a} (r{r})" for a, r in d["accepts"])
        elif d["deal"] == "joint_vote":
            text += ": no acceptance"
        if d["retracted"] is not None:
            text += f"; retracted r{d['retracted']}"
        if d["void_accepts"]:
            text += "; void: " + ", ".join(f"p{a} ({why})" for a, _, why in d["void_accepts"])
        if d["bound"]:
            text += "; kept by " + (", ".join(f"p{p}" for p in d["kept"]) or "nobody")
            if d["broken"]:
                text += "; BROKEN by " + ", ".join(f"p{p}" for p in d["broken"])
        if d["released"]:
            text += "; released (bound elsewhere): " + ", ".join(f"p{p}" for p in d["released"])
        out.append(text)
    for c in ph.get("claims", ()):
        if c.get("true"):
            out.append(f"  p{c['player']} true {c['role']} claim (claim honesty {c['honesty']:.2f})")
        else:
            out.append(f"  p{c['player']} BLUFF as {c['role']}: {c['species']} on p{c['target']} (value {c['value']:.3f}, "
                       f"P(caught) {c['p_caught']:.2f}, claim honesty {c['honesty']:.2f}{', counter-claim' if c['counter'] else ''})")
    for s in ph["silent_deals"]:
        out.append(f"  p{s['player']} silently accepted p{s['proposer']}'s request to {s['deal']} p{s['target']}")
    if "bids" in ph:
        totals = ", ".join(f"p{t} {v:.3f}" for t, v in ph["bids"]["totals"].items())
        out.append(f"  bids: {totals} -> p{ph['bids']['winner']}")
    if ph["actions"]:
        marks = {p: " (kept)" for p in ph["kept"]} | {p: " (BROKE commitment)" for p in ph["broken"]}
        out.append("  actions: " + ", ".join(f"p{p} {a}{marks.get(p, '')}" for p, a in sorted(ph["actions"].items(), key=lambda x: int(x[0]))))
    for e in ph["outcome"]:
        out.append("  -> " + _event(e))
    if player is not None:
        for v in ph["view"]:
            out.append(f"  p{player} after IO update (seq {v['seq']}):")
            out += _view_lines(v, player)
    return out


def _say(t: dict[str, Any]) -> str:
    kind = t["kind"]
    if kind == "say":
        return free_text(t)
    if kind == "ww_result":
        return f"reports {t['ability']} p{t['target']} {t['species']}" + (" [BLUFF]" if t.get("bluff") else "")
    if kind == "ww_claim" and t.get("bluff"):
        return f"claims to be the {t['role']} [BLUFF]"
    if kind == "ww_propose":
        return f"proposes #{t['proposal_id']}: {t['deal'].replace('_', ' ')} against p{t['target']}"
    if kind == "ww_accept":
        return f"accepts #{t['proposal_id']} of p{t['proposer']}"
    if kind == "ww_reject":
        return f"rejects #{t['proposal_id']} of p{t['proposer']}"
    if kind == "ww_retract":
        return f"retracts #{t['proposal_id']}"
    if kind == "ww_bid":
        return f"bids p{t['target']} ({t['preference']:.3f})"
    if kind == "ww_claim":
        return f"claims to be the {t['role']}"
    if kind == "ww_accuse":
        return f"accuses p{t['target']}"
    return kind


def _event(e: dict[str, Any]) -> str:
    kind = e["type"]
    who = f" [{e['seen_by']}]" if e.get("seen_by") not in (None, "all") else ""
    if kind in ("killed", "eliminated"):
        role = f" ({e['role']})" if "role" in e else ""
        return f"p{e['player']} {kind}{role}{who}"
    rest = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("type", "day", "seen_by"))
    return f"{kind}{' ' + rest if rest else ''}{who}"


def _view_lines(v: dict[str, Any], player: int) -> list[str]:
    beliefs = v.get("beliefs") or {}
    seats = sorted({int(s) for s in beliefs} | {int(s) for s in v["trust"]})
    cells = []
    for q in seats:
        if q == player:
            continue
        c = beliefs.get(str(q))
        roles = " ".join(f"{letter}{c[r]:.2f}" for r, letter in ROLE_LETTERS if r in c) if c else ""
        t = v["trust"].get(str(q))
        cells.append(f"    p{q}: {roles}" + (f"  trust {t:.2f}" if t is not None else ""))
    return cells


def transcript(log: GameLog, player: int | None = None) -> tuple[str, dict[str, Any]]:
    """(text, data) of one Werewolves game's transcript."""
    data = build_transcript(log, player)
    return render_transcript(data), data
