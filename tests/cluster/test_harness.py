"""The cluster harness's own teardown, without Ray (a second or so): a process that left its
parent's session inside a worker's namespace is found and killed, the namespaces and their links
go, and namespaces a killed harness left behind are swept by the next one."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.cluster.harness import NetnsCluster, pids_in, sweep_stale
from tests.cluster.test_netns_cluster import _can_make_namespaces

pytestmark = pytest.mark.cluster


@pytest.fixture(autouse=True)
def _root():
    why = _can_make_namespaces()
    if why:
        pytest.skip(why)


def test_teardown_kills_detached_processes_and_deletes_namespaces():
    cluster = NetnsCluster(Path(tempfile.mkdtemp(prefix="dtc", dir="/tmp")))
    try:
        cluster.make_network()
        w1, w2 = cluster.workers
        # the workers reach the head over the test's subnet, and only that
        probe = [sys.executable, "-c", "import socket; s = socket.create_server(('%s', 7000)); s.accept()" % cluster.head.ip]
        server = cluster.popen(cluster.head, probe)
        reach = f"import socket, time\nfor _ in range(100):\n    try:\n        socket.create_connection(('{cluster.head.ip}', 7000), timeout=1); break\n    except OSError: time.sleep(0.05)\nelse: raise SystemExit(1)"
        assert cluster.popen(w1, [sys.executable, "-c", reach]).wait(timeout=30) == 0
        server.wait(timeout=10)
        routes = subprocess.run(["ip", "-n", w1.ns, "route"], capture_output=True, text=True, check=True).stdout
        assert "default" not in routes and routes.split()[0] == "10.213.7.0/24", routes
        # a daemon: its starter exits, it lives on in w2's namespace in a session of its own
        cluster.popen(w2, ["sh", "-c", "setsid sleep 600 >/dev/null 2>&1 &"]).wait(timeout=10)
        deadline = time.monotonic() + 10
        while not pids_in(w2.ns) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert pids_in(w2.ns), "the daemon did not start"
    finally:
        cluster.close()
    assert cluster.leftovers() == []


def test_namespaces_of_a_killed_harness_are_swept():
    child = subprocess.Popen(["sleep", "0"])
    child.wait()  # a pid that no longer runs
    name = f"dtc-{child.pid}-h"
    subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        subprocess.Popen(["ip", "netns", "exec", name, "sleep", "600"], start_new_session=True)
        deadline = time.monotonic() + 10
        while not pids_in(name) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert name in sweep_stale()
        assert name not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)
