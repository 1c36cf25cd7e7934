"""One walk over a logged game: every record with its typed message and the state after it.

Transcripts, charts, belief series and exporters read this walk instead of folding the log
themselves (DESIGN.md section 7: one fold, many projections). The state is folded with the same
`apply_record` as replay, so a projection sees exactly what the rules saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from bus.codec import load
from bus.errors import LogError, RejectedByRules
from bus.log import GameLog
from bus.messages import Message
from games.api import State
from replay.fold import apply_record, initial_state
from replay.guard import note_walked


@dataclass
class Step:
    """One record of the walk. `state` is the live state after the record: clone it to keep it."""

    record: dict[str, Any]  # {"game", "seq", "cause", "msg"} as decoded
    state: State
    changed: bool  # the record changed the state (chance, step, talk round)
    steps: int  # state changes so far, this one included

    @property
    def seq(self) -> int:
        return self.record["seq"]

    @property
    def msg(self) -> dict[str, Any]:
        return self.record["msg"]

    def message(self) -> Message:
        """The record's message as its typed model (validated on demand)."""
        return load(self.msg)


def walk(log: GameLog) -> Iterator[Step]:
    """Every record of `log` in seq order, with the state after it. A record the rules refuse
    raises RejectedByRules with its seq and offset, as the fold does (never the rules' own error)."""
    state = initial_state(log.header)
    steps = 0
    offsets = log.offsets if len(log.offsets) == len(log.records) else [None] * len(log.records)
    for record, offset in zip(log.records, offsets):
        msg = record["msg"]
        note_walked(record["seq"])  # where a guarded plugin part is reading (replay/guard.py)
        try:
            changed = apply_record(state, msg)
        except LogError:
            raise
        except Exception as exc:  # the rules' own error for a move or outcome they cannot apply
            raise RejectedByRules(offset, f"{msg.get('kind')} refused by the {log.header.get('game')} rules "
                                  f"({type(exc).__name__}: {str(exc)[:120]})", record["seq"]) from exc
        steps += changed
        yield Step(record=record, state=state, changed=changed, steps=steps)
