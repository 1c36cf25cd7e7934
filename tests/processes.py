"""Helpers for tests that kill what they started."""

from __future__ import annotations

import os
import signal
import subprocess


def kill_session(leader: int) -> None:
    """SIGKILL every process of the session `leader` started (start_new_session=True): a driver,
    its local Ray, its runners and whatever they started."""
    listing = subprocess.run(["ps", "-eo", "pid,sid"], capture_output=True, text=True).stdout
    for line in listing.splitlines()[1:]:
        pid, sid = map(int, line.split())
        if sid == leader:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
