"""A Ray cluster on one machine, nodes started the way a user starts them: a head and workers,
each in a network namespace of its own, joined on a private subnet made for the test.

Layout: the head's namespace holds a bridge (SUBNET.1/24); every worker namespace is
joined to it by a veth pair (the worker's end is its `eth0`, SUBNET.(i+1)). No interface, address
or route is added to the machine's own namespace, and no namespace has a route out: traffic
stays on the test's subnet and on each namespace's loopback. Every node runs `ray start --block`
from the project's venv inside `ip netns exec`, with its own Ray temp folder under the cluster's
root folder (nothing of it in /tmp/ray, where other Rays on the machine look).

A worker is lost the way a machine is: its link cut (the head's end of its veth set down, so
nothing answers for it, not even a reset) and every process in its namespace SIGKILLed, raylet
included. It rejoins with its link up again and a fresh `ray start --address`.

Teardown (`close`, idempotent; the fixture's finalizer and atexit call it) kills every process
in the cluster's namespaces by id (found through /proc/PID/ns/net, so a process Ray forked and
detached is found too), deletes the namespaces (which deletes their veths and the bridge) and
the root folder; `leftovers` lists whatever would still be there."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

VENV_BIN = Path(sys.executable).parent  # the project's venv: `ray` and the driver's Python
SUBNET = "10.213.7"  # a private /24 of the test's own, inside its namespaces only
HEAD_PORT = 6379
PREFIX = "dtc-"  # every namespace this harness makes is named dtc-<pid>-<node>
# a lost node noticed after 3 failed health checks a second apart (Ray's defaults: 5, 3 s apart)
FAST_DEATH = {"RAY_health_check_initial_delay_ms": "1000", "RAY_health_check_period_ms": "1000",
              "RAY_health_check_timeout_ms": "1000", "RAY_health_check_failure_threshold": "3"}
OBJECT_STORE = 80 * 1024 * 1024


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=30)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def sweep_stale() -> list[str]:
    """Namespaces of a harness whose process is gone (killed before its teardown ran): their
    processes killed, the namespaces deleted. Returns their names."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
    stale = []
    for line in listed.splitlines():
        name = line.split()[0] if line.split() else ""
        parts = name.split("-")
        if name.startswith(PREFIX) and len(parts) == 3 and parts[1].isdigit() and not _pid_alive(int(parts[1])):
            stale.append(name)
    for name in stale:
        _kill_in(name)
        _ip("netns", "del", name)
    return stale


def pids_in(ns: str) -> list[int]:
    """Every process whose network namespace is `ns`."""
    try:
        st = os.stat(f"/run/netns/{ns}")
    except FileNotFoundError:
        return []
    want = f"net:[{st.st_ino}]"
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/ns/net") == want:
                    found.append(int(entry))
            except OSError:
                pass
    return sorted(found)


def _kill_in(ns: str, timeout: float = 30) -> None:
    """SIGKILL every process in `ns`, by id, until none is left."""
    deadline = time.monotonic() + timeout
    while True:
        pids = pids_in(ns)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"processes left in {ns}: {pids}")
        time.sleep(0.05)


class Node:
    def __init__(self, name: str, ns: str, ip: str, head_link: str | None):
        self.name, self.ns, self.ip, self.head_link = name, ns, ip, head_link
        self.proc: subprocess.Popen | None = None  # its `ray start --block`
        self.starts = 0


class NetnsCluster:
    """`workers` worker namespaces and a head's; `start()` brings Ray up on the head and on
    the workers named (by default all)."""

    def __init__(self, root: Path, workers: int = 2, head_cpus: int = 0, worker_cpus: int = 1):
        self.root = Path(root)
        self.tag = f"{PREFIX}{os.getpid()}"
        self.head_cpus, self.worker_cpus = head_cpus, worker_cpus
        self.head = Node("head", f"{self.tag}-h", f"{SUBNET}.1", None)
        self.workers = [Node(f"w{i}", f"{self.tag}-w{i}", f"{SUBNET}.{i + 1}", f"d{os.getpid()}w{i}") for i in range(1, workers + 1)]
        self.bridge = f"d{os.getpid()}br"  # names of at most 15 characters, this run's own
        self.address = f"{self.head.ip}:{HEAD_PORT}"
        self.started: list[subprocess.Popen] = []  # every process this harness started
        self.closed = False
        atexit.register(self.close)

    @property
    def nodes(self) -> list[Node]:
        return [self.head, *self.workers]

    # -- network ---------------------------------------------------------------------------

    def make_network(self) -> None:
        sweep_stale()
        h = self.head.ns
        for node in self.nodes:
            _ip("netns", "add", node.ns)
            _ip("-n", node.ns, "link", "set", "lo", "up")
        _ip("-n", h, "link", "add", self.bridge, "type", "bridge")
        _ip("-n", h, "addr", "add", f"{self.head.ip}/24", "dev", self.bridge)
        _ip("-n", h, "link", "set", self.bridge, "up")
        for node in self.workers:
            _ip("-n", h, "link", "add", node.head_link, "type", "veth", "peer", "name", "eth0", "netns", node.ns)
            _ip("-n", h, "link", "set", node.head_link, "master", self.bridge)
            _ip("-n", h, "link", "set", node.head_link, "up")
            _ip("-n", node.ns, "addr", "add", f"{node.ip}/24", "dev", "eth0")
            _ip("-n", node.ns, "link", "set", "eth0", "up")

    def cut(self, node: Node) -> None:
        """The worker's link down: packets to and from it go nowhere."""
        _ip("-n", self.head.ns, "link", "set", node.head_link, "down")

    def relink(self, node: Node) -> None:
        _ip("-n", self.head.ns, "link", "set", node.head_link, "up")

    # -- processes ---------------------------------------------------------------------------

    def popen(self, node: Node, argv: list[str], env: dict[str, str] | None = None, **kwargs) -> subprocess.Popen:
        """`argv` inside `node`'s namespace, in a session of its own."""
        full = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0", **(env or {})}
        proc = subprocess.Popen(["ip", "netns", "exec", node.ns, *argv], env=full, start_new_session=True, **kwargs)
        self.started.append(proc)
        return proc

    def start_node(self, node: Node) -> None:
        node.starts += 1
        temp = self.root / f"{node.name}{node.starts}"  # short: Ray's socket paths must fit
        temp.mkdir(parents=True, exist_ok=True)
        argv = [str(VENV_BIN / "ray"), "start", "--block", "--node-ip-address", node.ip, "--temp-dir", str(temp),
                "--object-store-memory", str(OBJECT_STORE), "--disable-usage-stats"]
        if node is self.head:
            argv += ["--head", "--port", str(HEAD_PORT), "--num-cpus", str(self.head_cpus), "--include-dashboard", "false"]
            env = FAST_DEATH
        else:
            argv += ["--address", self.address, "--num-cpus", str(self.worker_cpus)]
            env = {}
        log = open(self.root / f"{node.name}{node.starts}.log", "w")
        node.proc = self.popen(node, argv, env=env, stdout=log, stderr=subprocess.STDOUT)
        log.close()

    def start(self, workers: list[Node] | None = None, timeout: float = 120) -> None:
        self.start_node(self.head)
        self.wait_started([self.head], timeout)
        for node in self.workers if workers is None else workers:
            self.start_node(node)
        self.wait_for_nodes(len(self.workers if workers is None else workers), timeout)

    def wait_started(self, nodes: list[Node], timeout: float = 120) -> None:
        """Until each node's `ray start` says its node is up (read from its log: no process to start)."""
        deadline = time.monotonic() + timeout
        for node in nodes:
            while "Ray runtime started" not in self.log_tail(node, whole=True):
                if node.proc is not None and node.proc.poll() is not None:
                    raise RuntimeError(f"`ray start` of {node.name} exited ({node.proc.returncode}): {self.log_tail(node)}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{node.name} did not start in {timeout:.0f}s: {self.log_tail(node)}")
                time.sleep(0.1)

    def alive(self) -> list[dict]:
        """The cluster's live nodes as the head's GCS knows them (asked from the head's namespace)."""
        code = ("import json, ray; ray.init(address=%r, logging_level='ERROR', log_to_driver=False); "
                "print(json.dumps([{'ip': n['NodeManagerAddress'], 'id': n['NodeID'], 'cpus': n['Resources'].get('CPU', 0)} "
                "for n in ray.nodes() if n['Alive']]))") % self.address
        proc = self.popen(self.head, [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return []
        return json.loads(out.strip().splitlines()[-1]) if proc.returncode == 0 and out.strip() else []

    def wait_for_nodes(self, workers: int, timeout: float = 120) -> list[dict]:
        """Until the head knows `workers` live workers (the head itself besides); asked once the
        nodes' `ray start` say they are up, since each question is a Python process of its own."""
        deadline = time.monotonic() + timeout
        self.wait_started([n for n in self.nodes if n.proc is not None and n.proc.poll() is None], timeout)
        while time.monotonic() < deadline:
            if self.head.proc is not None and self.head.proc.poll() is not None:
                raise RuntimeError(f"the head's `ray start` exited ({self.head.proc.returncode}): {self.log_tail(self.head)}")
            nodes = self.alive()
            if len([n for n in nodes if n["ip"] != self.head.ip]) == workers and any(n["ip"] == self.head.ip for n in nodes):
                return nodes
            time.sleep(0.5)
        raise RuntimeError(f"the cluster did not reach {workers} live workers in {timeout:.0f}s")

    def log_tail(self, node: Node, whole: bool = False) -> str:
        """What the node's latest `ray start` printed (its last 2,000 characters unless `whole`)."""
        path = self.root / f"{node.name}{node.starts}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return text if whole else text[-2000:]

    def pids_in(self, ns: str) -> list[int]:
        return pids_in(ns)

    def kill_namespace(self, ns: str, timeout: float = 30) -> None:
        """SIGKILL every process in `ns`, by id, until none is left; reap this process's children."""
        _kill_in(ns, timeout)
        for proc in self.started:  # reap what this process started
            if proc.poll() is None:
                try:
                    proc.wait(timeout=0.1)
                except subprocess.TimeoutExpired:
                    pass

    def lose(self, node: Node) -> None:
        """The worker goes the way a machine does: link cut, every process of it killed."""
        self.cut(node)
        self.kill_namespace(node.ns)

    # -- teardown ---------------------------------------------------------------------------

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        errors = []
        for node in reversed(self.nodes):
            try:
                self.kill_namespace(node.ns)
            except Exception as exc:  # go on: delete what can be deleted
                errors.append(str(exc))
        for proc in self.started:  # the `ip netns exec` wrappers and anything outside a namespace
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=10)
        for node in self.nodes:
            if os.path.exists(f"/run/netns/{node.ns}"):
                try:
                    _ip("netns", "del", node.ns)
                except subprocess.CalledProcessError as exc:
                    errors.append(exc.stderr)
        shutil.rmtree(self.root, ignore_errors=True)
        atexit.unregister(self.close)
        if errors:
            raise RuntimeError("; ".join(errors))

    def leftovers(self) -> list[str]:
        """What of this cluster is still on the machine: namespaces, processes, interfaces."""
        left = []
        namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
        left += [f"namespace {line.split()[0]}" for line in namespaces.splitlines() if line.startswith(self.tag)]
        for proc in self.started:
            if proc.poll() is None:
                left.append(f"process {proc.pid} {proc.args}")
        root = str(self.root)
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
                if root in cmdline or any(node.ns in cmdline for node in self.nodes):
                    left.append(f"process {entry} {cmdline[:120]}")
        links = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True, check=True).stdout
        mine = {self.bridge, *(n.head_link for n in self.workers)}
        left += [f"link {line.split(':')[1].strip()}" for line in links.splitlines()
                 if line.split(":")[1].strip().split("@")[0] in mine]
        if self.root.exists():
            left.append(f"folder {self.root}")
        return left
