"""The per-game bus: the single point of order.

It stamps each message with (game_id, seq) and the seq it answers (`cause`), appends it to the
log, then delivers it. Delivery runs in waves: every pending message is delivered (possibly in
parallel, by the placement), then the outputs are stamped in the order of the messages that
caused them. That order is exactly the order of a FIFO queue, so it is a pure function of the
log so far and does not depend on where or how fast actors run.

With `limits` (the header's; bus.messages.Limits) every seat's answers are checked here, before
anything of them is logged, so that no record exceeds what readers accept: an answer over a limit
is refused from the message that breaks it on and the referee hears of it (a `breach`); a seat
whose per-game budget runs out is retired (a `retire`: nothing is delivered to its actors again).
Both are functions of the log so far, so a replay reaches them by itself.

The wall clock decides two things only, and both are logged: a seat that overran its time is
retired (a placement with deadlines reports it: `timeouts`), and a game that overran its budget
ends there (the placement raises `Overtime`: an aborted `game_end` sent by the bus). A replay is
handed those records (`decided`, by the seq they answer) and posts them where they were posted
instead of calling the actors that overran, so it never waits on the clock.
"""

from __future__ import annotations

import os
from collections import deque
from typing import Any, Callable, Mapping, Protocol

import structlog

from bus.codec import FORMAT_VERSION, RecordCodec
from bus.codec import pack_now as _pack
from bus.log import MAX_FRAME, MAX_GAME_BYTES
from bus.messages import BUS, LOG, REFEREE, RUNNER, Breach, Fault, GameEnd, Limits, Message, Quiet, Retire

_log = structlog.get_logger("detente.bus")
_TRACE = os.environ.get("DETENTE_LOG_LEVEL", "").upper() == "DEBUG"
_RECORD_ONLY = frozenset({LOG, BUS, RUNNER})
_SEAT_RECORDS = frozenset({"kb_change", "model_call"})  # the kinds a seat's actors may send to the log
_FRAMING = 8  # bytes a frame adds to its payload (bus.log: length and crc32)


class GameStalled(RuntimeError):
    """Nothing left to deliver, the referee did not move on after a quiet signal."""


class GameTooLarge(RuntimeError):
    """A record, or the game's log, would exceed what readers accept (bus.log MAX_FRAME,
    MAX_GAME_BYTES): not something a seat can cause when limits are on, so the rules or the
    referee are at fault and the game is not kept."""


class Overtime(BaseException):
    """Raised by a placement when the game's wall-clock budget ran out while the message stamped
    `seq` was being delivered (or was next); `seat` is the seat it holds to blame. A BaseException,
    so that an agent's `except Exception` cannot swallow it."""

    def __init__(self, seq: int, seat: int | None, reason: str):
        super().__init__(reason)
        self.seq, self.seat, self.reason = seq, seat, reason


class Sink(Protocol):
    def record(self, payload: bytes) -> None: ...


class Placement(Protocol):
    """Where actors run. `deliver_wave` returns each message's outputs, in input order.

    A placement with deadlines also has `timeouts`: the seats whose actors overran their time in
    the last wave, each with the `Retire` to log (the bus places it; see `Bus._late`)."""

    addresses: frozenset[str]

    def deliver_wave(self, wave: list[tuple[int, Message]]) -> list[list[Message]]: ...


class _Seat:
    """One seat's budgets in this game, shared by its actors' addresses."""

    __slots__ = ("seat", "addresses", "allowed", "bytes", "kb", "messages", "retired")

    def __init__(self, seat: int):
        self.seat = seat
        self.addresses: set[str] = set()
        self.allowed: frozenset[str] = frozenset()  # where its actors may send: its own, the referee, the log
        self.bytes = self.kb = self.messages = 0
        self.retired = False


class Bus:
    """Runs one game: stamps, logs, delivers, until the referee's game_end (or an aborted end)."""

    def __init__(self, game_id: str, placement: Placement, sink: Sink, trace: bool | None = None,
                 limits: Limits | None = None, seats: Mapping[str, int] | None = None,
                 decided: dict[int, Message] | None = None,
                 abort_end: Callable[[int | None, str], GameEnd] | None = None, log_format: int = FORMAT_VERSION):
        """`seats`: the seat of every seat actor's address (the caller knows the address
        convention: actors.address); limits and retirements apply to these actors. `log_format`:
        the header's format, which decides how records are encoded (bus.codec.RecordCodec)."""
        self.game_id = game_id
        self.placement = placement
        self.sink = sink
        self.seq = -1
        self._codec = RecordCodec(log_format)  # bulky fields stored as deltas: a function of the log so far
        self.end: GameEnd | None = None
        self.errors = 0  # error events the referee logged (failed or misbehaving actors)
        self.seat_errors: dict[int, int] = {}  # of those, per seat they name
        self.seat_faults: dict[int, SeatFaults] = {}  # of those, per seat: counts by category, the first
        self.nbytes = 0  # frame bytes logged so far
        self.limits = limits
        self.decided = dict(decided or {})  # replay: seq -> the wall-clock decision recorded in answer to it
        self.abort_end = abort_end or _bare_abort_end
        self.retired: dict[int, Retire] = {}
        self._retired_to: set[str] = set()  # addresses of retired seats: logged, never delivered
        self.seat_of: Mapping[str, int] = dict(seats or {})
        self._seats: dict[str, _Seat] = _seats(self.seat_of) if limits is not None else {}
        self._bounds = () if limits is None else (
            limits.answer_messages, limits.talk_items, limits.message_bytes, limits.seat_bytes, limits.seat_messages,
            limits.kb_bytes, limits.game_bytes)
        self._timed = hasattr(placement, "timeouts")
        # an inline placement's actors, which the bus calls itself (Placement: `direct`); None: deliver_wave
        self._direct: Mapping[str, Any] | None = getattr(placement, "direct", None)
        # one structlog debug event per message (game_id, seq, actor), only when asked for with
        # DETENTE_LOG_LEVEL=DEBUG: decided once per game, so the hot path pays nothing otherwise
        self._trace = _TRACE if trace is None else trace

    # -- stamping -----------------------------------------------------------------------------

    def _post(self, message: Message, cause: int, wave: list[tuple[int, Message]]) -> None:
        to = message.to
        if to not in self.placement.addresses and to not in _RECORD_ONLY:
            message = Fault(
                sender=BUS, to=message.sender, actor=message.sender, error=f"unknown address {to!r}", cause=cause
            )
            to = message.to
        self.seq = seq = self.seq + 1
        codec = self._codec
        cls = type(message)
        if cls in codec.plain:  # codec.encode_model's first two cases, in place
            payload = _pack({"game": self.game_id, "seq": seq, "cause": cause, "msg": message.__dict__})
        elif cls in codec.trimmed:
            keys, values = codec.trimmed[cls]
            payload = _pack({"game": self.game_id, "seq": seq, "cause": cause, "msg": dict(zip(keys, values(message.__dict__)))})
        else:
            payload = codec.encode_model(self.game_id, seq, cause, message)[0]
        n = len(payload) + _FRAMING
        self.nbytes += n
        if n > MAX_FRAME or self.nbytes > MAX_GAME_BYTES:
            self._too_large(message, n)
        self.sink.record(payload)
        if self._trace:
            _log.debug("message", game_id=self.game_id, seq=self.seq, actor=message.sender, kind=message.kind, to=to)
        kind = message.kind
        if kind == "game_end":
            self.end = message
        elif kind == "error":
            self.errors += 1
            seat = self.seat_of.get(message.actor)
            if seat is not None:
                self.seat_errors[seat] = self.seat_errors.get(seat, 0) + 1
            self._count_fault(message.actor, message.category, message.reason)
        elif to not in _RECORD_ONLY:
            if kind == "fault" and to != REFEREE:  # an office failed its President: no error event follows
                self._count_fault(message.actor, "raised", message.error)
            if kind == "retire":
                self._mark_retired(message)
            if not self._retired_to or to not in self._retired_to:
                wave.append((self.seq, message))

    def _count_fault(self, actor: str, category: str, reason: str) -> None:
        """One more error event (or office fault) naming a seat's actor, for the seat's summary."""
        seat = self.seat_of.get(actor)
        if seat is None:
            return
        faults = self.seat_faults.get(seat)
        if faults is None:
            faults = self.seat_faults[seat] = SeatFaults(self.seq, category, reason, actor)
        faults.by_category[category] = faults.by_category.get(category, 0) + 1

    def _too_large(self, message: Message, n: int) -> None:
        what = f"a {message.kind} record of {n:,} bytes" if n > MAX_FRAME else f"the game's log past {MAX_GAME_BYTES:,} bytes"
        raise GameTooLarge(f"game {self.game_id}: {what} from {message.sender} would not be readable")

    def _answer(self, seat: _Seat, actor: str, outs: list[Message], cause: int, wave: list[tuple[int, Message]]) -> None:
        """Post one answer of a seat's actor within the limits (see the module's docstring)."""
        if seat.retired:
            return  # retired earlier in this wave: what it still answered is dropped
        lim = self.limits
        answer_messages, talk_items, message_bytes, seat_bytes, seat_messages, kb_bytes, game_bytes = self._bounds
        if len(outs) > answer_messages:
            return self._breach(actor, "answer_messages", f"an answer of {len(outs):,} messages", answer_messages, cause, wave)
        encode, allowed, game_id, retired_to = self._codec.encode_model, seat.allowed, self.game_id, self._retired_to
        plain = self._codec.plain
        for out in outs:
            if out.sender != actor:  # the bus's own (a Fault for an actor that raised, a timeout's Retire)
                self._post(out, cause, wave)
                continue
            to, kind = out.to, out.kind
            if to not in allowed or (to == LOG and kind not in _SEAT_RECORDS):
                return self._breach(actor, "address", f"a {kind} message to {to[:40]!r}", None, cause, wave)
            if kind == "talk" and len(out.says) > talk_items:
                return self._breach(actor, "talk_items", f"{len(out.says):,} talk items in a round", talk_items, cause, wave)
            # the codec remembers a delta's base only once the record is kept (`commit` below)
            if type(out) in plain:  # encode's first case, in place
                payload, pending = _pack({"game": game_id, "seq": self.seq + 1, "cause": cause, "msg": out.__dict__}), None
            else:
                payload, pending = encode(game_id, self.seq + 1, cause, out, False)
            n = len(payload) + _FRAMING
            if n > message_bytes:
                return self._breach(actor, "message_bytes", f"a {kind} record of {n:,} bytes", message_bytes, cause, wave)
            seat.bytes += n
            seat.messages += 1
            if kind == "kb_change":
                seat.kb += n
            if seat.bytes > seat_bytes or seat.messages > seat_messages or seat.kb > kb_bytes or self.nbytes + n > game_bytes:
                return self._retire(seat, f"limit {_spent(seat, lim, self.nbytes + n)}", cause, wave)
            if pending:
                self._codec.commit(pending)
            self.seq += 1
            self.nbytes += n
            self.sink.record(payload)
            if self._trace:
                _log.debug("message", game_id=game_id, seq=self.seq, actor=actor, kind=kind, to=to)
            if to not in _RECORD_ONLY and (not retired_to or to not in retired_to):
                wave.append((self.seq, out))

    def _breach(self, actor: str, limit: str, what: str, bound: int | None, cause: int, wave: list[tuple[int, Message]]) -> None:
        if bound is None:
            reason = f"forbidden address: {what} (a seat's actors send to their own player's actors, the referee and, kb_change and model_call only, the log)"
        else:
            reason = f"limit {limit}: {what} (at most {bound:,})"
        category = "forbidden_address" if bound is None else "limit"
        self._post(Breach(sender=BUS, to=REFEREE, actor=actor, limit=limit, reason=reason, category=category), cause, wave)

    def _retire(self, seat: _Seat, reason: str, cause: int, wave: list[tuple[int, Message]]) -> None:
        self._post(Retire(sender=BUS, to=REFEREE, seat=seat.seat, reason=reason, category="limit"), cause, wave)

    def _mark_retired(self, retire: Retire) -> None:
        seat = retire.seat
        self.retired[seat] = retire
        self._retired_to |= {a for a, s in self.seat_of.items() if s == seat}
        for address in self._retired_to:
            if address in self._seats:
                self._seats[address].retired = True

    # -- the loop -----------------------------------------------------------------------------

    def run(self, first: Message) -> GameEnd:
        """Post `first` (normally the runner's Start) and deliver until the game ends."""
        structlog.contextvars.bind_contextvars(game_id=self.game_id)
        wave: list[tuple[int, Message]] = []
        self._post(first, -1, wave)
        quiet_at = -2
        seats = self._seats
        direct = self._direct
        if direct is not None and not self.decided and not self._timed:
            return self._run_direct(wave, direct, seats)
        while self.end is None:
            if not wave:
                quiet_at = self._quiet(quiet_at, wave)
                continue
            try:
                outputs = self._replayed(wave) if self.decided else self.placement.deliver_wave(wave)
            except Overtime as over:
                self._post(self.abort_end(over.seat, over.reason), over.seq, [])
                return self.end
            if self.end is not None:  # a replayed abort
                return self.end
            if self._timed and self.placement.timeouts:
                self._late(wave, outputs, self.placement.timeouts)
            nxt: list[tuple[int, Message]] = []
            for (seq, m), outs in zip(wave, outputs):
                if not outs:
                    continue
                seat = seats.get(m.to) if seats else None
                if seat is not None:
                    self._answer(seat, m.to, outs, seq, nxt)
                    continue
                for out in outs:
                    self._post(out, seq, nxt)
                    if self.end is not None:
                        return self.end
            wave = nxt
        return self.end

    def _quiet(self, quiet_at: int, into: Any) -> int:
        """Nothing left to deliver: tell the referee (a `Quiet`), or stop the game if nothing has
        happened since the last one. The seq of this quiet."""
        if quiet_at == self.seq:
            raise GameStalled(f"game {self.game_id}: no progress after quiet at seq {self.seq}")
        self._post(Quiet(sender=BUS, to=REFEREE), -1, into)
        return self.seq

    def _run_direct(self, wave: list[tuple[int, Message]], direct: Mapping[str, Any],
                    seats: dict[str, _Seat]) -> GameEnd:
        """`run`'s loop where the bus calls the actors itself (`direct`: an inline placement, no
        deadlines, nothing replayed): one message at a time from a FIFO queue. The actors are called
        in the same order as wave by wave, and every output is stamped in the same order (stamping
        calls no actor), so the log is the same; what is saved is a wave's lists."""
        queue = deque(wave)
        take = queue.popleft
        quiet_at = -2
        while self.end is None:
            if not queue:
                quiet_at = self._quiet(quiet_at, queue)
                continue
            seq, m = take()
            to = m.to
            actor = direct[to]
            try:  # deliver_one, written out: one call fewer a message
                outs = actor.handle(m)
                address = actor.address
                for out in outs:
                    if not isinstance(out, Message) or out.sender != address:
                        outs = _checked(actor, outs)
                        break
            except Exception as exc:
                outs = _failed(actor, m, seq, exc)
            if not outs:
                continue
            seat = seats.get(to) if seats else None
            if seat is not None:
                self._answer(seat, to, outs, seq, queue)
                continue
            for out in outs:
                self._post(out, seq, queue)
                if self.end is not None:
                    return self.end
        return self.end

    def _late(self, wave: list[tuple[int, Message]], outputs: list[list[Message]], late: dict[int, Retire]) -> None:
        """A seat that overran in this wave answers nothing in it: its `Retire` stands in for its
        first message of the wave, whatever its actors answered to the others (so the record is
        the same whichever placement ran it, and a replay can place it from the log alone)."""
        placed: set[int] = set()
        seat_of = self.seat_of.get
        for i, (_, m) in enumerate(wave):
            seat = seat_of(m.to)
            if seat in late:
                outputs[i] = [] if seat in placed else [late[seat]]
                placed.add(seat)

    def _replayed(self, wave: list[tuple[int, Message]]) -> list[list[Message]]:
        """Replay: the wave's deliveries, less those the recorded wall-clock decisions stand in for
        (an aborted end: nothing of the wave; a timeout: the seat's messages of the wave)."""
        decided = self.decided
        late: dict[int, Retire] = {}
        for seq, _ in wave:
            decision = decided.get(seq)
            if isinstance(decision, GameEnd):
                self._post(decision, seq, [])
                return []
            if isinstance(decision, Retire):
                late[decision.seat] = decision
        if not late:
            return self.placement.deliver_wave(wave)
        keep = [i for i, (_, m) in enumerate(wave) if self.seat_of.get(m.to) not in late]
        outputs: list[list[Message]] = [[] for _ in wave]
        if keep:
            for i, outs in zip(keep, self.placement.deliver_wave([wave[i] for i in keep])):
                outputs[i] = outs
        self._late(wave, outputs, late)
        return outputs


def _spent(seat: _Seat, lim: Limits, game_bytes: int) -> str | None:
    """The per-game budget `seat` has run out of, if any (named as in Limits)."""
    if seat.bytes > lim.seat_bytes:
        return f"seat_bytes: the seat's actors would log more than {lim.seat_bytes:,} bytes in the game"
    if seat.messages > lim.seat_messages:
        return f"seat_messages: the seat's actors would send more than {lim.seat_messages:,} messages in the game"
    if seat.kb > lim.kb_bytes:
        return f"kb_bytes: the seat's knowledge base would take more than {lim.kb_bytes:,} bytes of updates in the game"
    if game_bytes > lim.game_bytes:
        return f"game_bytes: the game's log would pass {lim.game_bytes:,} bytes"
    return None


class SeatFaults:
    """The error events naming one seat's actors in a game: counts by category, and the first one."""

    __slots__ = ("first_seq", "first_category", "first_reason", "first_actor", "by_category")

    def __init__(self, seq: int, category: str, reason: str, actor: str) -> None:
        self.first_seq, self.first_category, self.first_reason, self.first_actor = seq, category, reason, actor
        self.by_category: dict[str, int] = {}

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: {"by_category": {category: n}, "first": {"seq", "category", "reason", "actor"}}."""
        return {"by_category": dict(sorted(self.by_category.items())),
                "first": {"seq": self.first_seq, "category": self.first_category, "reason": self.first_reason,
                          "actor": self.first_actor}}


def _seats(seat_of: Mapping[str, int]) -> dict[str, _Seat]:
    """Each seat actor's address -> its seat's budgets (one object per seat)."""
    by_seat: dict[int, _Seat] = {}
    for address, seat in sorted(seat_of.items()):
        found = by_seat.get(seat)
        if found is None:
            found = by_seat[seat] = _Seat(seat)
        found.addresses.add(address)
    for seat in by_seat.values():
        seat.allowed = frozenset(seat.addresses | {REFEREE, LOG})
    return {address: seat for seat in by_seat.values() for address in seat.addresses}


def _bare_abort_end(seat: int | None, reason: str) -> GameEnd:
    return GameEnd(sender=BUS, to=LOG, returns=(), winners=(), summary=f"aborted: {reason}", steps=0, digest="",
                   extra={"aborted": reason, "blame": seat})


def deliver_one(actor, message: Message, seq: int) -> list[Message]:
    """Run one actor on one message; an exception or a forged sender becomes a Fault."""
    try:
        return _checked(actor, actor.handle(message))
    except Exception as exc:  # an agent's failure is data: its sender hears about it
        return _failed(actor, message, seq, exc)


def _checked(actor, outs: list[Message]) -> list[Message]:
    """`outs`, if every one is a message sent by `actor` (raises TypeError otherwise)."""
    for out in outs:
        if not isinstance(out, Message) or out.sender != actor.address:
            if getattr(actor, "given", False) and isinstance(out, Message):
                continue  # a replay's stand-in for an external agent: the log's records, the bus's included
            raise TypeError(f"{actor.address} returned a message not sent by itself: {out!r:.80}")
    return outs


def _failed(actor, message: Message, seq: int, exc: Exception) -> list[Message]:
    """What an actor that raised `exc` on `message` answers: a Fault to its sender (the referee's
    exception is raised again: the rules or the referee are broken, the game cannot go on)."""
    if actor.address == REFEREE:
        raise exc
    if not getattr(exc, "quiet", False):  # an agent already stopped this game: its first failure said why
        _log.warning("actor_failed", actor=actor.address, seq=seq, error=f"{type(exc).__name__}: {exc}")
    return [Fault(sender=BUS, to=message.sender, actor=actor.address, error=f"{type(exc).__name__}: {exc}", cause=seq)]
