"""Text views of a logged game: the state at a seq and the messages that led there."""

from __future__ import annotations

from typing import Any

from actors.external.lineup import seat_labels
from bus.log import GameLog
from replay.fold import fold
from replay.walk import walk


def describe(msg: dict[str, Any]) -> str:
    """One line per record, readable without the message models."""
    kind = msg["kind"]
    head = f"{msg['sender']} -> {msg['to']}: {kind}"
    if kind == "act":
        return f"{head} {msg['action']} (turn {msg['turn']})"
    if kind == "act_request":
        return f"{head} turn {msg['turn']}, {len(msg['legal'])} legal"
    if kind == "step":
        acts = ", ".join(f"p{p}={a}" for p, a in msg["actions"].items())
        return f"{head} #{msg['step']} {acts}"
    if kind == "chance":
        return f"{head} #{msg['step']} {msg['outcome']}"
    if kind == "error":
        return f"{head} {msg['actor']}: {msg['reason']} -> {msg['applied']}"
    if kind in ("talk", "office_reply") and msg.get("says"):
        return f"{head} " + "; ".join(_talk(s) for s in msg["says"])
    if kind == "heard":
        return f"{head} " + "; ".join(f"p{line['speaker']}: " + ", ".join(_talk(s) for s in line["says"]) for line in msg["lines"])
    if kind == "office_request":
        return f"{head} {msg['task']} (turn {msg['turn']})"
    if kind == "office_reply":
        sug = ", ".join(f"{s['action']}={s['utility']:.2f}" for s in msg["suggestions"])
        return f"{head} {msg['task']} {sug}"
    if kind == "kb_change":
        return f"{head} from {msg['source']}: " + ", ".join("/".join(u["path"]) for u in msg["updates"])
    if kind == "game_end":
        return f"{head} {msg['summary']} returns={msg['returns']}"
    if kind == "fault":
        return f"{head} {msg['actor']} failed: {msg['error']}"
    return head


def _talk(item: dict[str, Any]) -> str:
    rest = ", ".join(f"{k}={v}" for k, v in item.items() if k != "kind")
    return f"{item['kind']}({rest})"


def show(log: GameLog, at: int | None = None, context: int = 12) -> str:
    """The game header, the state after record `at` (default: the end), and the last records.
    A log that fails its checks raises a typed LogError (one line in the CLI)."""
    folded = fold(log, at=at, check=False)  # checks the log first
    if log.header.get("format", 2) >= 4:  # requests logged without what the rules recompute: the walk puts it back
        for step in walk(log):
            if step.seq >= folded.seq:
                break
    h = log.header
    agents = ", ".join(seat_labels(h))
    lines = [
        f"game {h['game_id']} ({h['game']}, seed {h['seed']}), agents: {agents}",
        f"state after seq {folded.seq} ({folded.steps} steps applied, {len(log.records)} records in log)",
        "",
        folded.state.render(),
        "",
        "recent records:",
    ]
    shown = [r for r in log.records if r["seq"] <= folded.seq][-context:]
    lines += [f"  {r['seq']:>6}  {describe(r['msg'])}" for r in shown]
    return "\n".join(lines)
