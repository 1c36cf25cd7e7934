"""One walk over a logged game: every record with its typed message and the state after it.

Transcripts, charts, belief series and exporters read this walk instead of folding the log
themselves (DESIGN.md section 7: one fold, many projections). The state is folded with the same
`apply_record` as replay, so a projection sees exactly what the rules saw.

From log format 4 on, act requests and talk turns are logged without their observation (a pure
function of the state at the request): the walk puts it back, computed by the rules from the state
it has folded so far, into the record it yields and into the log's own list of records, so every
reader after a walk (transcripts, the debugger) sees each request with its observation (and an act
request with its legal actions, also left out), as a format-3 log held it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from actors.address import seat_of
from bus.codec import load, observations_logged
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
    restore = not observations_logged(log.header.get("format", 2))
    records = log.records
    for i, (record, offset) in enumerate(zip(list(records), offsets)):
        msg = record["msg"]
        if restore and msg.get("kind") in _REQUESTS and "observation" not in msg:
            record = records[i] = _with_observation(record, state, offset)
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


_REQUESTS = ("act_request", "talk_turn")


def _with_observation(record: dict[str, Any], state: State, offset: int | None) -> dict[str, Any]:
    """A format-4 request's record with the observation its seat was sent (or would have been:
    a seat whose agent reads none was sent None) and, for an act request, its legal actions, both
    recomputed from the state at the request (fields in the model's order, as format 3 held them)."""
    msg = record["msg"]
    act = msg["kind"] == "act_request"
    seat = msg.get("player") if act else seat_of(str(msg.get("to")))
    try:
        observation = state.observation(seat)
        legal = list(state.legal_actions(seat)) if act else None
    except Exception as exc:  # the rules cannot observe for a seat the log names: not a log they made
        raise RejectedByRules(offset, f"{msg['kind']} for seat {seat!r}: the rules cannot say what it was sent "
                              f"({type(exc).__name__}: {str(exc)[:120]})", record.get("seq")) from exc
    if act:
        return {**record, "msg": {**{k: v for k, v in msg.items() if k != "legal"}, "legal": legal,
                                  "observation": observation}}
    return {**record, "msg": {**msg, "observation": observation}}
