"""Battle Line tests: the `slow` marker (a test of a few seconds or more on 2 cores; none is
skipped by default, `-m "not slow"` leaves them out)."""

from __future__ import annotations


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a Battle Line test of a few seconds or more on 2 cores")
