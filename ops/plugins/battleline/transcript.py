"""Turn-by-turn transcripts of a logged Battle Line game, as JSON-ready data and as text.

Per turn: who moved, the hand it held, the move; for a play the flag after it; for a claim its
proof (against a complete side: the two scores; against an incomplete one: the best completion the
unseen troops allow, which does not beat the claimant); and, for agents with offices, why: the
Strategy Office's suggestions with their utilities and its analysis (the rule that decided; for a
Deep Barca play the game-win chance and, per flag, the chance with its method, MFA and BSFA and
the top formations of both sides: chance of making it and, for ours, of its being beaten), and the
Intelligence Office's reading of the opponent's hand. `player` keeps only that seat's turns.

    build_transcript(log, player=None) -> dict      JSON-ready
    render_transcript(data) -> str                  text
    transcript(log, player=None) -> (text, data)
"""

from __future__ import annotations

from typing import Any

from actors.address import office_of, seat_of
from bus.log import GameLog
from games.battleline.cards import CARD_OF, N_TROOPS, NAMES
from games.battleline.formations import IMPOSSIBLE, Pool, best, rank_of, score
from replay.transcript import TranscriptError
from replay.walk import walk

SHOWN_FORMATIONS = 2  # formations per side listed per flag in the text (the JSON has the top four)


def build_transcript(log: GameLog, player: int | None = None) -> dict[str, Any]:
    header = log.header
    if header.get("game") != "battleline":
        raise TranscriptError(f"this transcript is for battleline games, not {header.get('game')!r}")
    if player is not None and player not in (0, 1):
        raise TranscriptError(f"player {player} is not a seat (players 0..1)")
    why: dict[tuple[int, int], dict[str, Any]] = {}  # (turn, seat) -> suggestions, analysis, beliefs
    turns: list[dict[str, Any]] = []
    end = None
    before: dict[str, Any] | None = None  # the state before the record at hand
    for step in walk(log):
        msg = step.msg
        kind = msg["kind"]
        if kind == "office_reply" and office_of(msg["sender"]) is not None:
            entry = why.setdefault((msg["turn"], seat_of(msg["to"])), {})
            if msg["suggestions"]:
                entry["suggestions"] = [[s["action"], round(s["utility"], 4)] for s in msg["suggestions"]]
            for update in msg["updates"]:
                if list(update["path"]) == ["analysis"]:
                    entry["analysis"] = update["value"]
                elif list(update["path"]) == ["beliefs"]:
                    entry["beliefs"] = _beliefs(update["value"])
        elif kind == "step" and before is not None:
            (seat, action), = ((int(p), a) for p, a in msg["actions"].items())
            after = step.state.to_json()
            turn = {"turn": msg["turn"], "seq": step.seq, "player": seat, "phase": before["phase"],
                    "action": action, "hand": list(before["hands"][seat]),
                    **_effect(action, seat, before, after), **why.pop((msg["turn"], seat), {})}
            if player is None or seat == player:
                turns.append(turn)
        elif kind == "game_end":
            end = {"summary": msg["summary"], "steps": msg["steps"]}
        if step.changed:
            before = step.state.to_json()
    return {"game": "battleline", "game_id": header.get("game_id"), "seed": header.get("seed"),
            "options": header.get("options"), "agents": [_spec(a) for a in header["agents"]],
            "player": player, "turns": turns, "end": end}


def _effect(action: str, seat: int, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    parts = action.split(":")
    if parts[0] == "claim":
        return {"proof": proof(before, seat, int(parts[1]))}
    if parts[0] == "play" and len(parts) == 3 and parts[2].isdigit():
        f = int(parts[2])
        return {"flag": f, "sides": [[c for c, _ in side] for side in after["flags"][f]["sides"]]}
    return {}


def proof(state: dict[str, Any], seat: int, f: int) -> dict[str, Any]:
    """Why `seat` may claim flag f (rules 1.1 "Claiming and proof"), from the state before the claim."""
    flag = state["flags"][f]
    need = 4 if flag["mud"] >= 0 else 3
    fog = flag["fog"] >= 0
    mine = [CARD_OF[c] for c, _ in flag["sides"][seat]]
    theirs = [CARD_OF[c] for c, _ in flag["sides"][1 - seat]]
    mine_score = score(mine, need, fog)
    out: dict[str, Any] = {"flag": f, "mine": _names(mine), "theirs": _names(theirs), "score": _form(mine_score),
                           "fog": fog}
    if len(theirs) == need:
        out["against"] = _form(score(theirs, need, fog))
        out["why"] = "stronger" if score(theirs, need, fog) < mine_score else "completed first"
        return out
    seen = {c for fl in state["flags"] for side in fl["sides"] for c, _ in side}
    seen |= {c for pile in state["discards"] for c in pile}
    unseen = [c for c in range(N_TROOPS) if NAMES[c] not in seen]
    reach = best(theirs, need, fog, Pool(unseen))
    out["unseen"] = len(unseen)
    out["against"] = None if reach == IMPOSSIBLE else _form(reach)
    out["why"] = "no completion beats it" if reach != IMPOSSIBLE else "the other side cannot be completed"
    return out


def _form(s: int) -> str:
    return f"{rank_of(s)} {s % 100}"


def _names(cards: list[int]) -> list[str]:
    return [NAMES[c] for c in cards]


def _beliefs(value: dict[str, Any]) -> dict[str, Any]:
    """The IO's reading, trimmed: its information measure and the troops it doubts most."""
    hand = value.get("hand", {})
    doubted = sorted(hand.items(), key=lambda kv: (kv[1], kv[0]))[:5]
    return {"information": value.get("information"), "misses": value.get("misses", {}),
            "least_likely": [[c, h] for c, h in doubted]}


def _spec(agent: dict[str, Any]) -> str:
    options = ";".join(f"{k}={v}" for k, v in sorted(agent.get("options", {}).items()))
    return agent["name"] + (f":{options}" if options else "")


def render_transcript(data: dict[str, Any]) -> str:
    opts = data["options"] or {}
    head = (f"game {data['game_id']} (battleline, seed {data['seed']}; tactics "
            f"{'on' if opts.get('tactics', True) else 'off'}, claims {opts.get('claim_timing', 'start_of_turn')})")
    lines = [head] + [f"  p{i}: {a}" for i, a in enumerate(data["agents"])]
    if data["player"] is not None:
        lines.append(f"turns of p{data['player']} only")
    for t in data["turns"]:
        lines.append(f"turn {t['turn']} (seq {t['seq']})  p{t['player']} holds {' '.join(t['hand'])}: {t['action']}"
                     + _after(t))
        lines.extend(_why(t))
    if data["end"]:
        lines.append(f"end: {data['end']['summary']} after {data['end']['steps']} steps")
    return "\n".join(lines)


def _after(t: dict[str, Any]) -> str:
    if "proof" in t:
        p = t["proof"]
        mine = f"{' '.join(p['mine'])} ({p['score']})"
        if p["why"] in ("stronger", "completed first"):
            return f"  [proof: {mine} against {' '.join(p['theirs'])} ({p['against']}), {p['why']}]"
        against = f"best completion {p['against']}" if p["against"] else "no completion"
        return (f"  [proof: {mine}; {' '.join(p['theirs']) or 'empty side'} with the {p['unseen']} unseen "
                f"troops: {against}, {p['why']}]")
    if "flag" in t:
        s0, s1 = (" ".join(s) or "." for s in t["sides"])
        return f"  -> flag {t['flag']}: p0 {s0} | p1 {s1}"
    return ""


def _why(t: dict[str, Any]) -> list[str]:
    out = []
    a = t.get("analysis")
    if a:
        line = f"    SO: {a['rule']}"
        if "game" in a:
            line += (f"; game {a['before']:.3f} -> {a['game']:.3f} (any five {a['five']:.3f}, "
                     f"three adjacent {a['three']:.3f})")
        if "threats" in a:
            line += f"; threats on flags {a['threats']}, tactics held {a['tactics_held']}"
        out.append(line)
        for f, fl in enumerate(a.get("flags", [])):
            if fl["method"] in ("mfa", "mix"):
                out.append("      " + _flag(f, fl))
        decided = [f"{f}:{fl['method']}" for f, fl in enumerate(a.get("flags", []))
                   if fl["method"] not in ("mfa", "mix", "empty")]
        if decided:
            out.append("      decided: " + " ".join(decided))
    if t.get("suggestions") and len(t["suggestions"]) > 1:
        out.append("    suggested: " + ", ".join(f"{x} {u:.3f}" for x, u in t["suggestions"]))
    b = t.get("beliefs")
    if b:
        doubt = " ".join(f"{c} {h:.2f}" for c, h in b["least_likely"])
        out.append(f"    IO: information {b['information']}, least likely held: {doubt}")
    return out


def _flag(f: int, fl: dict[str, Any]) -> str:
    text = f"flag {f}: {fl['p']:.3f} {fl['method'].upper()}"
    if "mfa" in fl:
        text += f" (MFA {fl['mfa']:.3f}" + (f", BSFA {fl['bsfa']:.3f})" if "bsfa" in fl else ")")
    if fl.get("mine"):
        text += "; ours " + ", ".join(f"{n} {p:.2f}/beaten {b:.2f}" for n, p, b in fl["mine"][:SHOWN_FORMATIONS])
    if fl.get("theirs"):
        text += "; theirs " + ", ".join(f"{n} {p:.2f}" for n, p in fl["theirs"][:SHOWN_FORMATIONS])
    return text


def transcript(log: GameLog, player: int | None = None) -> tuple[str, dict[str, Any]]:
    data = build_transcript(log, player)
    return render_transcript(data), data
