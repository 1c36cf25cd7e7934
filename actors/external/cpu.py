"""One CPU shared by a runner and the agent processes it starts (the `exec` agent's `pin` option).

A runner and its agents take turns: while an agent thinks, the runner waits for its answer, and
while the runner plays the rules and the other seats, the agent waits for its next request. On one
CPU each hand-over is a switch between two processes; across CPUs it is a wake-up of an idle CPU,
which on a virtual machine costs several times more (docs/results/benchmarks.md has both). So
`pin=true` puts the thread that talks to the agent, and with it every process it starts afterwards
(a child inherits its parent thread's CPU mask), on one CPU.

Which CPU: one this process claims among those it may use, by holding a lock on a file per CPU in
the temporary folder, so that the runners of one machine take different CPUs (a lock is released
when its process ends, however it ends). When every CPU is claimed, nothing is pinned. Linux only:
elsewhere `pin` is accepted and does nothing. `release()` gives the CPU back and restores the
thread's mask (connection.close_all calls it), so a process that goes on with other work is not
left on one CPU.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO

_claim: IO[str] | None = None  # the open lock file of this process's CPU
_cpu: int | None = None
_before: set[int] | None = None  # the thread's mask before pinning


def share() -> int | None:
    """Pin the calling thread to this process's claimed CPU (claiming one the first time); the CPU,
    or None where nothing could be pinned."""
    global _claim, _cpu, _before
    if not hasattr(os, "sched_setaffinity"):
        return None
    if _cpu is None:
        allowed = sorted(os.sched_getaffinity(0))
        if len(allowed) == 1:
            _cpu = allowed[0]
        else:
            _claim, _cpu = _claim_one(allowed)
            if _cpu is None:
                return None
    if _before is None:
        _before = set(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {_cpu})
    return _cpu


def _claim_one(cpus: list[int]) -> tuple[IO[str] | None, int | None]:
    import fcntl

    folder = Path(tempfile.gettempdir()) / f"detente-cpus-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return None, None
    for cpu in cpus:
        try:
            handle = open(folder / f"{cpu}.lock", "w")
        except OSError:
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        return handle, cpu
    return None, None


def release() -> None:
    """Give the claimed CPU back and restore the calling thread's mask."""
    global _claim, _cpu, _before
    if _before is not None:
        try:
            os.sched_setaffinity(0, _before)
        except OSError:
            pass
    if _claim is not None:
        _claim.close()
    _claim = _cpu = _before = None


def pinned() -> int | None:
    """The CPU this process pinned to (None: none)."""
    return _cpu if _before is not None else None
