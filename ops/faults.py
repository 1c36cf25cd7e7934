"""What an agent's author reads when the agent misbehaved: one line per seat whose actors caused
error events in a game (counts by category, then the first one: its seq, category and cause)."""

from __future__ import annotations

from typing import Any, Mapping

REASON_CHARS = 160  # the most of a first cause one line shows (the log keeps it whole)


def fault_line(label: str, faults: Mapping[str, Any], games: str = "", game: str = "") -> str:
    """`seat 1 (random-js): 3 errors (illegal_action 2, silent 1); first at seq 17, illegal_action
    by p1: ...`; `games` and `game` say where the count and the first are (` in 4 games`, ` in g00000003`)."""
    counts = faults.get("by_category") or {}
    total = sum(counts.values())
    first = faults.get("first") or {}
    reason = " ".join(str(first.get("reason", "")).split())
    if len(reason) > REASON_CHARS:
        reason = reason[:REASON_CHARS - 3] + "..."
    by = ", ".join(f"{category} {n}" for category, n in sorted(counts.items()))
    return (f"{label}: {total:,} error{'s' * (total != 1)}{games} ({by}); first{game} at seq {first.get('seq')}, "
            f"{first.get('category')} by {first.get('actor')}: {reason}")


def fault_lines(header: Mapping[str, Any], seat_faults: Mapping[int, Mapping[str, Any]] | None) -> list[str]:
    """One line per seat with error events, in seat order, each naming the seat's agent as readers do
    (its spec, and what an external agent said it is in its handshake)."""
    if not seat_faults:
        return []
    from actors.external.lineup import seat_labels

    labels = seat_labels(dict(header))
    return [fault_line(f"seat {seat} ({labels[seat] if seat < len(labels) else '?'})", faults)
            for seat, faults in sorted(seat_faults.items())]
