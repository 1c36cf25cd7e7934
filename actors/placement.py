"""Placements: where a game's actors run. Same actor code, same messages, same log bytes.

- `inline`: every actor in this process; a wave is delivered message by message.
- `ray-players`: one Ray actor per player (President and offices together).
- `ray-modules`: one Ray actor per module.
The referee always runs beside the bus. Ray is imported only when a Ray placement is chosen.

Wall-clock deadlines (`DeadlinePlacement` inline, `RayPlacement.set_deadlines`): a seat's actor that
overruns `decision_seconds` on one message retires its seat (reported to the bus in `timeouts`); the
game's budget `game_seconds` running out ends the game (`bus.bus.Overtime`, blaming the seat whose
actors used the most time). Only these decisions depend on the clock, and the bus logs both.
"""

from __future__ import annotations

import signal
import threading
import time

from actors.address import seat_of
from bus.bus import Overtime, deliver_one
from bus.messages import BUS, REFEREE, Message, Retire

RUNTIMES = ("inline", "ray-players", "ray-modules")


def seat_addresses(addresses) -> dict[str, int]:
    """The seat of every seat actor among `addresses` (what the bus needs to apply limits)."""
    return {a: seat for a in sorted(addresses) if (seat := seat_of(a)) is not None}


class InlinePlacement:
    """All actors in one process, single-threaded."""

    def __init__(self, actors: dict):
        self.actors = actors
        self.addresses = frozenset(actors)

    def deliver_wave(self, wave: list[tuple[int, Message]]) -> list[list[Message]]:
        actors = self.actors
        return [deliver_one(actors[m.to], m, seq) for seq, m in wave]

    @property
    def direct(self) -> dict | None:
        """The actors by address, where delivering a wave is `deliver_one` on each message in turn
        (this class's `deliver_wave`: not a subclass's, not one set on the instance), for the bus
        to make those calls itself; else None."""
        if type(self).deliver_wave is InlinePlacement.deliver_wave and "deliver_wave" not in vars(self):
            return self.actors
        return None

    def close(self) -> None:
        pass


def group_key(address: str, runtime: str) -> str:
    """Which host runs `address`: the whole player for ray-players, itself for ray-modules."""
    return address.split("/", 1)[0] if runtime == "ray-players" else address


class ForkPlacement(InlinePlacement):
    """Inline placement that hands some players over to other agents from seq `at` on.

    Messages stamped before `at` go to the original actors, the rest to the replacements where
    the seat was re-assigned (`replay fork`). `at` is the first request of a decision or talk
    round, so no replaced player has work in flight when the switch happens."""

    def __init__(self, before: dict, after: dict, at: int, talkers: frozenset[int],
                 observers: frozenset[int] | None = None):
        super().__init__(before)
        self.after = after
        self.at = at
        self.talkers = talkers
        self.observers = observers
        self.addresses = frozenset(before) | frozenset(after)
        self.switched = False

    def deliver_wave(self, wave: list[tuple[int, Message]]) -> list[list[Message]]:
        out = []
        for seq, m in wave:
            if seq >= self.at and not self.switched:
                self.switched = True
                self.actors["referee"].talkers = self.talkers  # who speaks is the new lineup's
                self.actors["referee"].observers = self.observers  # and who reads observations
            actor = self.after.get(m.to) if seq >= self.at else None
            out.append(deliver_one(actor or self.actors[m.to], m, seq))
        return out


class _Alarm(BaseException):
    """The deadline of the delivery under way passed (raised by the SIGALRM handler)."""


class Clock:
    """A game's wall-clock budgets and the seconds each seat's actors used (placements share it)."""

    def __init__(self, decision_seconds: float | None = None, game_seconds: float | None = None):
        self.decision_seconds = decision_seconds
        self.game_seconds = game_seconds
        self.deadline: float | None = None
        self.used: dict[int, float] = {}

    def start(self) -> None:
        self.used = {}
        self.deadline = time.monotonic() + self.game_seconds if self.game_seconds is not None else None

    def budget(self, seq: int) -> float | None:
        """Seconds the next delivery may take (None: no limit); Overtime if the game has none left."""
        left = None if self.deadline is None else self.deadline - time.monotonic()
        if left is not None and left <= 0:
            self.overtime(seq)
        if self.decision_seconds is None:
            return left
        return self.decision_seconds if left is None else min(left, self.decision_seconds)

    def charge(self, seat: int, seconds: float) -> None:
        self.used[seat] = self.used.get(seat, 0.0) + seconds

    def game_over(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def overtime(self, seq: int) -> None:
        blame = min(self.used, key=lambda s: (-self.used[s], s)) if self.used else None
        who = f"; seat {blame}'s actors took {self.used[blame]:.2f} s, the most" if blame is not None else ""
        raise Overtime(seq, blame, f"over the game's budget of {self.game_seconds:g} s{who}")

    def timeout(self, seat: int) -> Retire:
        return Retire(sender=BUS, to=REFEREE, seat=seat, category="timeout",
                      reason=f"no answer within {self.decision_seconds:g} s")


class DeadlinePlacement(InlinePlacement):
    """Inline, each delivery to a seat's actor under a deadline (the referee's are not timed).

    The deadline is a SIGALRM timer, so it interrupts Python code and sleeps (not a long call inside
    a C extension: the tournament's runner watchdog is the backstop) and works in the main thread
    only; elsewhere the budgets are checked between deliveries. The timer repeats until the
    delivery returns, so an agent that swallows one interruption gets the next."""

    REPEAT = 0.05  # seconds between interruptions once the deadline passed

    def __init__(self, actors: dict, clock: Clock):
        super().__init__(actors)
        self.clock = clock
        self.seats = seat_addresses(actors)
        self.timeouts: dict[int, Retire] = {}
        self._armed = False
        self._previous = None
        self._signals = threading.current_thread() is threading.main_thread()

    def start(self) -> None:
        """The game begins: its clock starts and the alarm handler is ours until `close`."""
        self.clock.start()
        if self._signals:
            self._previous = signal.signal(signal.SIGALRM, self._on_alarm)

    def _on_alarm(self, signum, frame) -> None:
        if self._armed:
            raise _Alarm()

    def deliver_wave(self, wave: list[tuple[int, Message]]) -> list[list[Message]]:
        self.timeouts = {}
        out: list[list[Message]] = []
        for seq, m in wave:
            seat = self.seats.get(m.to)
            if seat is None:
                out.append(deliver_one(self.actors[m.to], m, seq))
            elif seat in self.timeouts:
                out.append([])  # the seat overran earlier in this wave: the bus places its Retire
            else:
                out.append(self._timed(seat, m, seq))
        return out

    def _timed(self, seat: int, m: Message, seq: int) -> list[Message]:
        clock = self.clock
        budget = clock.budget(seq)
        t0 = time.monotonic()
        if budget is not None and self._signals:
            self._armed = True
            signal.setitimer(signal.ITIMER_REAL, budget, self.REPEAT)
        try:
            outs = deliver_one(self.actors[m.to], m, seq)
            self._armed = False
        except _Alarm:
            self._armed = False
            outs = None
        finally:
            if budget is not None and self._signals:
                signal.setitimer(signal.ITIMER_REAL, 0)
        clock.charge(seat, time.monotonic() - t0)
        if outs is not None and (budget is None or time.monotonic() - t0 <= budget):
            return outs
        if clock.game_over() or clock.decision_seconds is None:
            clock.overtime(seq)
        self.timeouts[seat] = clock.timeout(seat)
        return []

    def close(self) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGALRM, self._previous)
            self._previous = None
