"""Progress of a long run: a one-line bar on a terminal, quiet periodic lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Call with (done, total); shows games done / total, games/s and ETA."""

    def __init__(self, stream: TextIO | None = None, every: float = 10.0):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.every = every
        self.t0 = time.monotonic()
        self.start: int | None = None
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.start is None:
            self.start, self.t0 = done, now
        rate = (done - self.start) / (now - self.t0) if now > self.t0 else 0.0
        eta = (total - done) / rate if rate > 0 else float("inf")
        eta_text = f"{eta:,.0f}s" if eta != float("inf") else "?"
        text = f"{done:,}/{total:,} games  {rate:,.1f} games/s  ETA {eta_text}"
        if self.tty:
            width = 30
            filled = int(width * done / total) if total else width
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {text}   ")
            if done >= total:
                self.stream.write("\n")
            self.stream.flush()
        elif done >= total or now - self.last >= self.every or self.last == 0.0:
            self.stream.write(text + "\n")
            self.stream.flush()
            self.last = now
