"""Per-endpoint admission for model calls: requests in flight, requests and tokens per minute.

``gate(endpoint)`` hands out the endpoint's :class:`Gate` from a process-wide registry; the
client calls ``enter(tokens_estimate)`` before every HTTP try and ``leave(tokens_used)`` after
it. ``configure(endpoint, max_in_flight, rpm, tpm)`` sets the limits (``None`` or ``0`` = no
limit); an endpoint never configured has no limits.
"""

from __future__ import annotations

import threading
import time
from collections import deque

__all__ = ["Gate", "configure", "gate", "reset"]


class Gate:
    """Process-local gate: a condition variable over the in-flight count and a one-minute window."""

    def __init__(self, endpoint: str, max_in_flight: int | None = None,
                 rpm: int | None = None, tpm: int | None = None) -> None:
        self.endpoint = endpoint
        self.max_in_flight = max_in_flight or None
        self.rpm = rpm or None
        self.tpm = tpm or None
        self._cond = threading.Condition()
        self._in_flight = 0
        self._requests: deque[float] = deque()      # start times of requests in the last minute
        self._tokens: deque[tuple[float, int]] = deque()  # (time, tokens) in the last minute
        self._token_sum = 0

    def _expire(self, now: float) -> None:
        cutoff = now - 60.0
        while self._requests and self._requests[0] <= cutoff:
            self._requests.popleft()
        while self._tokens and self._tokens[0][0] <= cutoff:
            self._token_sum -= self._tokens.popleft()[1]

    def _wait_s(self, now: float, tokens_estimate: int) -> float | None:
        """None when admissible now, else how long to wait before looking again."""
        if self.max_in_flight is not None and self._in_flight >= self.max_in_flight:
            return 1.0  # woken by leave()
        if self.rpm is not None and len(self._requests) >= self.rpm:
            return max(0.001, self._requests[0] + 60.0 - now)
        if (self.tpm is not None and self._tokens
                and self._token_sum + max(0, tokens_estimate) > self.tpm):
            return max(0.001, self._tokens[0][0] + 60.0 - now)
        return None

    def enter(self, tokens_estimate: int = 0) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                self._expire(now)
                wait = self._wait_s(now, tokens_estimate)
                if wait is None:
                    break
                self._cond.wait(wait)
            self._in_flight += 1
            if self.rpm is not None:
                self._requests.append(now)

    def leave(self, tokens_used: int = 0) -> None:
        with self._cond:
            self._in_flight = max(0, self._in_flight - 1)
            if self.tpm is not None and tokens_used > 0:
                self._tokens.append((time.monotonic(), int(tokens_used)))
                self._token_sum += int(tokens_used)
            self._cond.notify_all()


_LOCK = threading.Lock()
_GATES: dict[str, Gate] = {}


def configure(endpoint: str, max_in_flight: int | None = None,
              rpm: int | None = None, tpm: int | None = None) -> Gate:
    """Set the endpoint's limits (replacing its gate); returns the gate."""
    with _LOCK:
        g = Gate(endpoint, max_in_flight, rpm, tpm)
        _GATES[endpoint] = g
        return g


def gate(endpoint: str) -> Gate:
    """The endpoint's gate (a no-limit one when never configured)."""
    with _LOCK:
        g = _GATES.get(endpoint)
        if g is None:
            g = _GATES[endpoint] = Gate(endpoint)
        return g


def reset() -> None:
    """Forget every gate (tests)."""
    with _LOCK:
        _GATES.clear()
