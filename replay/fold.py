"""Rebuild a game's state at any seq by folding the referee's events through the rules.

Live play and replay are the same fold: the referee applies chance outcomes and joint actions
to a `State`; here the recorded `chance` and `step` events are applied in seq order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bus.codec import load
from bus.errors import LogError, RejectedByRules
from bus.header import check_header
from bus.log import GameLog
from games.api import CHEAP_TALK, State
from games.registry import get_game


class DigestMismatch(Exception):
    """The rules did not reproduce a recorded state digest."""

    def __init__(self, seq: int, recorded: str, rebuilt: str):
        super().__init__(f"seq {seq}: state digest {rebuilt} differs from recorded {recorded}")
        self.seq = seq


@dataclass
class Folded:
    state: State
    seq: int  # last record folded
    steps: int


def initial_state(header: dict[str, Any]) -> State:
    """The game's starting state, once the header passes its typed check (BadHeader if not)."""
    check_header(header)
    game = get_game(header["game"])
    return game.new_initial_state(game.options(header["options"]))


def fold(log: GameLog, at: int | None = None, check: bool = True) -> Folded:
    """The state after record `at` (default: the last record); checks digests when asked.
    The log is checked first (`GameLog.check`: a typed LogError, never a fold past a record out
    of order); a record the rules refuse raises RejectedByRules with its seq and offset."""
    log.check()
    state = initial_state(log.header)
    last, steps = -1, 0
    final = log.header.get("format", 2) >= 3  # format 3: digests at checkpoints, and game_end's checked
    for record, offset in zip(log.records, log.offsets):
        seq = record["seq"]
        if at is not None and seq > at:
            break
        last = seq
        msg = record["msg"]
        try:
            applied = apply_record(state, msg)
        except LogError:
            raise
        except Exception as exc:  # the rules' own error for a move or outcome they cannot apply
            raise RejectedByRules(offset, f"{msg['kind']} refused by the {log.header['game']} rules "
                                  f"({type(exc).__name__}: {str(exc)[:120]})", seq) from exc
        if not applied:
            if final and check and msg["kind"] == "game_end" and msg["digest"] and state.digest() != msg["digest"]:
                raise DigestMismatch(seq, msg["digest"], state.digest())
            continue
        steps += 1
        if check and msg["digest"] and state.digest() != msg["digest"]:  # "": no checkpoint (format 3)
            raise DigestMismatch(seq, msg["digest"], state.digest())
    return Folded(state=state, seq=last, steps=steps)


def apply_record(state: State, msg: dict[str, Any]) -> bool:
    """Apply a referee's `chance`, `step` or `talk_round` record to `state`; False for any
    other record (they do not change the state)."""
    kind = msg["kind"]
    if kind == "chance":
        state.apply_chance(msg["outcome"])
    elif kind == "step":
        state.apply_actions({int(p): a for p, a in msg["actions"].items()})
    elif kind == "talk_round":
        for line in load(msg).lines:
            for item in line.says:
                if item.kind not in CHEAP_TALK:  # free text changes no state (the referee's rule)
                    state.apply_talk(line.speaker, msg["channel"], item)
    else:
        return False
    return True
