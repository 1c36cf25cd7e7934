"""Shared fixtures."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="module")
def local_ray():
    """A real local Ray for one test module (2 CPUs, no dashboard, no auth token file)."""
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR", _node_ip_address="127.0.0.1")
    yield ray
    ray.shutdown()


@pytest.fixture(scope="session", autouse=True)
def _quiet_logs():
    """Operational logs as the CLI configures them (warnings to stderr), not structlog's defaults."""
    from ops.logging import configure

    configure()
