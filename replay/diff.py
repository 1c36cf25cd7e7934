"""Compare two logs of one game: where they part, what each seat did and said after, how each ended.

Two logs are of one game when they have the same game and seed (an original and its fork, two
runs of one header with other agents, a game replayed under another version). The records are
compared as decoded (a delta's base does not matter), by `cause` and message, seq by seq: the
first seq where they differ is the fork point (a fork's own header names the seq it switched at;
the first difference is at or after it). After it, each seat's part is what its actors sent:
actions, talk, and the answers of its model calls, one line each, side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from actors.address import seat_of
from bus.log import GameLog
from replay.show import describe

SHOWN = ("act", "talk", "model_call")  # what a seat did and said: its moves, its talk, its model's answers
MAX_TEXT = 160  # characters of a line of free text in a diff


class DiffError(ValueError):
    """The two logs are not of one game."""


@dataclass
class Outcome:
    summary: str | None
    returns: list[float] | None
    winners: list[int] | None
    records: int

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary, "returns": self.returns, "winners": self.winners, "records": self.records}


@dataclass
class Diff:
    game: str
    ids: tuple[str, str]
    agents: tuple[list[str], list[str]]
    first: int | None  # the first seq where the logs differ; None: identical records
    seats: list[tuple[list[str], list[str]]] = field(default_factory=list)  # per seat: (lines in A, lines in B)
    outcomes: tuple[Outcome, Outcome] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "a": self.ids[0], "b": self.ids[1], "first_difference": self.first,
            "agents": {"a": self.agents[0], "b": self.agents[1]},
            "seats": [{"seat": s, "a": a, "b": b} for s, (a, b) in enumerate(self.seats)],
            "outcome": None if self.outcomes is None else {"a": self.outcomes[0].to_json(), "b": self.outcomes[1].to_json()},
        }


def _same(x: dict[str, Any], y: dict[str, Any]) -> bool:
    return x["cause"] == y["cause"] and x["msg"] == y["msg"]


def first_difference(a: GameLog, b: GameLog) -> int | None:
    """The first seq at which the records of `a` and `b` differ (one log ending first counts)."""
    for ra, rb in zip(a.records, b.records):
        if not _same(ra, rb):
            return ra["seq"]
    if len(a.records) != len(b.records):
        shorter = a if len(a.records) < len(b.records) else b
        return shorter.records[-1]["seq"] + 1 if shorter.records else 0
    return None


def _outcome(log: GameLog) -> Outcome:
    end = next((r["msg"] for r in reversed(log.records) if r["msg"]["kind"] == "game_end"), None)
    if end is None:
        return Outcome(None, None, None, len(log.records))
    return Outcome(end.get("summary"), end.get("returns"), end.get("winners"), len(log.records))


def line(record: dict[str, Any]) -> str:
    """One line for what a seat's actor sent (free text cut to MAX_TEXT, control characters shown)."""
    msg = record["msg"]
    if msg["kind"] == "model_call":
        answer = msg.get("answer")
        text = "(no answer)" if answer is None else _bounded(str(answer))
        return f"{record['seq']}: model call {msg.get('call')} ({msg.get('purpose')}, {msg.get('outcome')}): {text}"
    if msg["kind"] == "act":
        return f"{record['seq']}: act {msg.get('action')} (turn {msg.get('turn')})"
    if msg["kind"] == "talk":
        says = msg.get("says") or []
        return f"{record['seq']}: " + _bounded("says " + "; ".join(_item(s) for s in says))
    return f"{record['seq']}: {_bounded(describe(msg))}"


def _item(item: Any) -> str:
    if not isinstance(item, dict):
        return str(item)
    rest = ", ".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}" for k, v in item.items() if k not in ("kind", "to"))
    return f"{item.get('kind')}({rest})"


def _bounded(text: str) -> str:
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 3] + "..."


def seat_lines(log: GameLog, since: int, seats: int, limit: int | None = None) -> list[list[str]]:
    """Per seat, a line for each record of SHOWN kinds its actors sent from seq `since` on."""
    out: list[list[str]] = [[] for _ in range(seats)]
    for r in log.records:
        if r["seq"] < since or r["msg"]["kind"] not in SHOWN:
            continue
        msg = r["msg"]
        if msg["kind"] == "talk" and not msg.get("says"):
            continue  # a silent round
        if msg["kind"] == "model_call":
            seat = msg.get("seat")
        elif msg.get("to") == "referee":  # the seat's own move or talk, not an office's advice
            seat = seat_of(msg["sender"])
        else:
            continue
        if isinstance(seat, int) and 0 <= seat < seats and (limit is None or len(out[seat]) < limit):
            out[seat].append(line(r))
    return out


def diff(a: GameLog, b: GameLog, limit: int | None = 20) -> Diff:
    """The comparison of two logs of one game; raises DiffError for logs of two games."""
    ha, hb = a.header, b.header
    if ha.get("game") != hb.get("game") or ha.get("seed") != hb.get("seed"):
        raise DiffError(f"not one game: {ha.get('game')} seed {ha.get('seed')} against {hb.get('game')} seed {hb.get('seed')}")
    names = ([s.get("name") for s in ha["agents"]], [s.get("name") for s in hb["agents"]])
    first = first_difference(a, b)
    result = Diff(ha["game"], (ha["game_id"], hb["game_id"]), names, first)
    if first is None:
        return result
    seats = len(ha["agents"])
    la, lb = seat_lines(a, first, seats, limit), seat_lines(b, first, seats, limit)
    result.seats = list(zip(la, lb))
    result.outcomes = (_outcome(a), _outcome(b))
    return result


def diff_text(d: Diff, width: int = 60) -> str:
    """The diff as text: the fork point, each seat's lines side by side, the two outcomes."""
    a, b = d.ids
    lines = [f"{d.game}: A = {a}, B = {b}"]
    if d.first is None:
        lines.append("the logs' records are identical")
        return "\n".join(lines)
    lines.append(f"first difference at seq {d.first}")
    for seat, (la, lb) in enumerate(d.seats):
        lines.append("")
        lines.append(f"seat {seat}: A {d.agents[0][seat]} | B {d.agents[1][seat]}")
        for i in range(max(len(la), len(lb))):
            left = la[i] if i < len(la) else ""
            right = lb[i] if i < len(lb) else ""
            lines.append(f"  {_fit(left, width):<{width}} | {right}")
        if not la and not lb:
            lines.append("  (nothing sent after the fork point)")
    if d.outcomes is not None:
        oa, ob = d.outcomes
        lines.append("")
        lines.append(f"outcome A: {oa.summary} returns={oa.returns} winners={oa.winners} ({oa.records} records)")
        lines.append(f"outcome B: {ob.summary} returns={ob.returns} winners={ob.winners} ({ob.records} records)")
    return "\n".join(lines)


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."
