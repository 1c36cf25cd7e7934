"""The per-game bus: the single point of order.

It stamps each message with (game_id, seq) and the seq it answers (`cause`), appends it to the
log, then delivers it. Delivery runs in waves: every pending message is delivered (possibly in
parallel, by the placement), then the outputs are stamped in the order of the messages that
caused them. That order is exactly the order of a FIFO queue, so it is a pure function of the
log so far and does not depend on where or how fast actors run.
"""

from __future__ import annotations

import os
from typing import Protocol

import structlog

from bus.codec import RecordCodec, dump
from bus.messages import BUS, LOG, RUNNER, Fault, GameEnd, Message, Quiet, REFEREE

_log = structlog.get_logger("detente.bus")
_TRACE = os.environ.get("DETENTE_LOG_LEVEL", "").upper() == "DEBUG"
_RECORD_ONLY = frozenset({LOG, BUS, RUNNER})


class GameStalled(RuntimeError):
    """Nothing left to deliver, the referee did not move on after a quiet signal."""


class Sink(Protocol):
    def record(self, payload: bytes) -> None: ...


class Placement(Protocol):
    """Where actors run. `deliver_wave` returns each message's outputs, in input order."""

    addresses: frozenset[str]

    def deliver_wave(self, wave: list[tuple[int, Message]]) -> list[list[Message]]: ...


class Bus:
    """Runs one game: stamps, logs, delivers, until the referee's game_end."""

    def __init__(self, game_id: str, placement: Placement, sink: Sink, trace: bool | None = None):
        self.game_id = game_id
        self.placement = placement
        self.sink = sink
        self.seq = -1
        self._codec = RecordCodec()  # bulky fields stored as deltas: a function of the log so far
        self.end: GameEnd | None = None
        self.errors = 0  # error events the referee logged (failed or misbehaving actors)
        # one structlog debug event per message (game_id, seq, actor), only when asked for with
        # DETENTE_LOG_LEVEL=DEBUG: decided once per game, so the hot path pays nothing otherwise
        self._trace = _TRACE if trace is None else trace

    def _post(self, message: Message, cause: int, wave: list[tuple[int, Message]]) -> None:
        to = message.to
        if to not in self.placement.addresses and to not in _RECORD_ONLY:
            message = Fault(
                sender=BUS, to=message.sender, actor=message.sender, error=f"unknown address {to!r}", cause=cause
            )
            to = message.to
        self.seq += 1
        self.sink.record(self._codec.encode(self.game_id, self.seq, cause, dump(message)))
        if self._trace:
            _log.debug("message", game_id=self.game_id, seq=self.seq, actor=message.sender, kind=message.kind, to=to)
        if isinstance(message, GameEnd):
            self.end = message
        elif message.kind == "error":
            self.errors += 1
        elif to not in _RECORD_ONLY:
            wave.append((self.seq, message))

    def run(self, first: Message) -> GameEnd:
        """Post `first` (normally the runner's Start) and deliver until the game ends."""
        structlog.contextvars.bind_contextvars(game_id=self.game_id)
        wave: list[tuple[int, Message]] = []
        self._post(first, -1, wave)
        quiet_at = -2
        while self.end is None:
            if not wave:
                if quiet_at == self.seq:
                    raise GameStalled(f"game {self.game_id}: no progress after quiet at seq {self.seq}")
                self._post(Quiet(sender=BUS, to=REFEREE), -1, wave)
                quiet_at = self.seq
                continue
            outputs = self.placement.deliver_wave(wave)
            nxt: list[tuple[int, Message]] = []
            for (seq, _), outs in zip(wave, outputs):
                for out in outs:
                    self._post(out, seq, nxt)
                    if self.end is not None:
                        return self.end
            wave = nxt
        return self.end


def deliver_one(actor, message: Message, seq: int) -> list[Message]:
    """Run one actor on one message; an exception or a forged sender becomes a Fault."""
    try:
        outs = actor.handle(message)
        for out in outs:
            if not isinstance(out, Message) or out.sender != actor.address:
                raise TypeError(f"{actor.address} returned a message not sent by itself: {out!r:.80}")
        return outs
    except Exception as exc:  # an agent's failure is data: its sender hears about it
        if actor.address == REFEREE:
            raise  # the rules or the referee are broken: the game cannot go on meaningfully
        _log.warning("actor_failed", actor=actor.address, seq=seq, error=f"{type(exc).__name__}: {exc}")
        return [Fault(sender=BUS, to=message.sender, actor=actor.address, error=f"{type(exc).__name__}: {exc}", cause=seq)]
