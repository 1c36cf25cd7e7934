"""Per-endpoint admission for model calls: requests in flight, requests and tokens per minute.

``gate(endpoint)`` hands out the endpoint's gate from a process-wide registry; the client calls
``enter(tokens_estimate)`` before every HTTP try and ``leave(tokens_used)`` after it.
``configure(endpoint, max_in_flight, rpm, tpm)`` sets the limits (``None`` = no limit); an
endpoint never configured has none, and its gate costs nothing.

Shared limits: ``configure(..., shared=NAME)`` backs the endpoint's gate by one named Ray actor
(``detente-gate/NAME``) that every process of the Ray job asks, so every runner on every node
draws from one budget; ``serve(NAME, ...)`` creates that actor (the tournament's driver does,
before its runners start; it lives as long as the driver's job). A gate is wall-clock by nature:
it decides *when* a call is made, never what a log holds.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

__all__ = ["Gate", "Limits", "RayGate", "configure", "gate", "reset", "serve"]

WINDOW = 60.0  # seconds: "per minute"


class Limits:
    """The admission rule of one endpoint over a sliding minute (no clock of its own: `now` is given)."""

    def __init__(self, max_in_flight: int | None = None, rpm: int | None = None, tpm: int | None = None) -> None:
        self.max_in_flight = max_in_flight or None
        self.rpm = rpm or None
        self.tpm = tpm or None
        self.in_flight = 0
        self._requests: deque[float] = deque()  # start times of the requests of the last minute
        self._tokens: deque[tuple[float, int]] = deque()  # (end time, tokens) of the last minute
        self._token_sum = 0

    @property
    def unlimited(self) -> bool:
        return self.max_in_flight is None and self.rpm is None and self.tpm is None

    def _expire(self, now: float) -> None:
        cutoff = now - WINDOW
        while self._requests and self._requests[0] <= cutoff:
            self._requests.popleft()
        while self._tokens and self._tokens[0][0] <= cutoff:
            self._token_sum -= self._tokens.popleft()[1]

    def wait(self, now: float, tokens_estimate: int) -> float | None:
        """None when a request may start now (and it is counted), else seconds before asking again
        (a free in-flight slot is signalled by `leave` sooner)."""
        self._expire(now)
        if self.max_in_flight is not None and self.in_flight >= self.max_in_flight:
            return WINDOW
        if self.rpm is not None and len(self._requests) >= self.rpm:
            return max(0.001, self._requests[0] + WINDOW - now)
        # a request larger than the whole per-minute budget still goes once the minute is empty
        if self.tpm is not None and self._tokens and self._token_sum + max(0, tokens_estimate) > self.tpm:
            return max(0.001, self._tokens[0][0] + WINDOW - now)
        self.in_flight += 1
        if self.rpm is not None:
            self._requests.append(now)
        return None

    def leave(self, now: float, tokens_used: int) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        if self.tpm is not None and tokens_used > 0:
            self._tokens.append((now, int(tokens_used)))
            self._token_sum += int(tokens_used)

    def stats(self) -> dict[str, int]:
        return {"in_flight": self.in_flight, "requests_last_minute": len(self._requests),
                "tokens_last_minute": self._token_sum}


class Gate:
    """The process-local gate: threads of this process wait on one condition."""

    def __init__(self, endpoint: str, max_in_flight: int | None = None, rpm: int | None = None,
                 tpm: int | None = None) -> None:
        self.endpoint = endpoint
        self.limits = Limits(max_in_flight, rpm, tpm)
        self._cond = threading.Condition()

    def enter(self, tokens_estimate: int = 0) -> None:
        if self.limits.unlimited:
            return
        with self._cond:
            while (wait := self.limits.wait(time.monotonic(), tokens_estimate)) is not None:
                self._cond.wait(wait)

    def leave(self, tokens_used: int = 0) -> None:
        if self.limits.unlimited:
            return
        with self._cond:
            self.limits.leave(time.monotonic(), tokens_used)
            self._cond.notify_all()

    def stats(self) -> dict[str, int]:
        with self._cond:
            return self.limits.stats()


def _actor_class():
    import asyncio

    import ray

    @ray.remote(num_cpus=0, max_concurrency=10_000)
    class GateActor:
        """One endpoint's limits for a whole Ray job (async: a waiting `enter` holds no thread)."""

        def __init__(self, max_in_flight: int | None, rpm: int | None, tpm: int | None) -> None:
            self.limits = Limits(max_in_flight, rpm, tpm)
            self.changed: asyncio.Event | None = None
            self.peak = 0

        async def enter(self, tokens_estimate: int) -> None:
            if self.changed is None:
                self.changed = asyncio.Event()
            while (wait := self.limits.wait(time.monotonic(), tokens_estimate)) is not None:
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), wait)
                except asyncio.TimeoutError:
                    pass
            self.peak = max(self.peak, self.limits.in_flight)

        async def leave(self, tokens_used: int) -> None:
            self.limits.leave(time.monotonic(), tokens_used)
            if self.changed is not None:
                self.changed.set()

        async def stats(self) -> dict[str, int]:
            return {**self.limits.stats(), "peak_in_flight": self.peak}

    return GateActor


def actor_name(name: str) -> str:
    return f"detente-gate/{name}"


def serve(name: str, max_in_flight: int | None = None, rpm: int | None = None, tpm: int | None = None) -> Any:
    """Create (or find) the named Ray actor holding one endpoint's limits; returns its handle."""
    cls = _actor_class()
    return cls.options(name=actor_name(name), get_if_exists=True).remote(max_in_flight, rpm, tpm)


class RayGate:
    """A gate whose limits live in the named Ray actor `detente-gate/NAME`, shared by every process."""

    def __init__(self, endpoint: str, name: str) -> None:
        import ray

        self.endpoint = endpoint
        self.name = name
        self._actor = ray.get_actor(actor_name(name))

    def enter(self, tokens_estimate: int = 0) -> None:
        import ray

        ray.get(self._actor.enter.remote(int(tokens_estimate)))

    def leave(self, tokens_used: int = 0) -> None:
        import ray

        ray.get(self._actor.leave.remote(int(tokens_used)))

    def stats(self) -> dict[str, int]:
        import ray

        return ray.get(self._actor.stats.remote())


_LOCK = threading.Lock()
_GATES: dict[str, Any] = {}


def configure(endpoint: str, max_in_flight: int | None = None, rpm: int | None = None,
              tpm: int | None = None, shared: str | None = None) -> Any:
    """Set the endpoint's limits (replacing its gate) and return the gate; with `shared`, the
    gate asks the named Ray actor `serve(shared, ...)` made (the limits given here are then its)."""
    with _LOCK:
        g: Any = RayGate(endpoint, shared) if shared is not None else Gate(endpoint, max_in_flight, rpm, tpm)
        _GATES[endpoint] = g
        return g


def gate(endpoint: str) -> Any:
    """The endpoint's gate (one without limits when never configured)."""
    g = _GATES.get(endpoint)
    if g is not None:
        return g
    with _LOCK:
        return _GATES.setdefault(endpoint, Gate(endpoint))


def reset() -> None:
    """Forget every gate of this process."""
    with _LOCK:
        _GATES.clear()
