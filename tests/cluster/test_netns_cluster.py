"""A tournament on a Ray cluster started the way a user starts one: `ray start --head` in one
network namespace, `ray start --address HEAD:6379` in two others, on a private subnet of the
test's own (tests/cluster/harness.py), and `detente tournament run --address HEAD:6379` from a
driver in the head's namespace.

Placement: the head offers no CPU (`--num-cpus 0`), each worker one; a runner asks for one CPU,
so the driver starts one runner per worker and none can land on the head. Storage: every runner
writes its segments into the tournament folder, a folder every namespace sees (they share the
machine's filesystem, as cluster nodes share an NFS or EFS volume); the driver indexes them
there. Nothing is shipped back through Ray but the rows.

The run: 2,000 random Werewolves games, played once in one process on this machine (the
reference, `runners=0`: the runner's code without Ray, while the cluster starts), then across
both workers, where one worker is lost mid-run (its link cut, every process of it killed, raylet
included), the driver is killed once it has noticed, the lost worker rejoins, and a second driver
finishes the run. Every game is recorded once, the games and the report are the reference's, and
a sample replays. After teardown no namespace, Ray process or veth is left.

Needs root and `ip` (iproute2); marked `cluster` and `slow`."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from bus.log import read_log
from ops.tournament.runner import RUNNERS
from ops.tournament.store import Store
from tests.cluster.harness import NetnsCluster

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

EXAMPLE = Path("ops/examples/werewolves.toml")
GAMES, BATCH = 2000, 10
GAME_BYTES = 10_000  # about one game's log in a segment (random Werewolves, ten players)
# the driver's last line: "2,000/2,000 games recorded in OUT (N now, M before; R runners on K nodes, X restarts, Ss)"
_LAST = re.compile(r"^([\d,]+)/[\d,]+ games recorded .*; (\d+) runners(?: on (\d+) nodes)?, (\d+) restarts, ([\d.]+)s\)",
                   re.MULTILINE)


def _can_make_namespaces() -> str | None:
    if os.geteuid() != 0:
        return "needs root (network namespaces)"
    if shutil.which("ip") is None:
        return "needs `ip` (iproute2)"
    return None


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory):
    """The example spec in batches of ten (a lost worker loses a few batches, not hundreds)."""
    path = tmp_path_factory.mktemp("spec") / "werewolves.toml"
    path.write_text(EXAMPLE.read_text().replace("seating = ", f"batch = {BATCH}\nseating = ", 1))
    return path


@pytest.fixture(scope="module")
def reference_run(spec_file, tmp_path_factory):
    """The spec played on this machine alone, in one process (the runner's code, segments and
    store, without Ray: `run_tournament(runners=0)`); started before the cluster, which it
    overlaps, and waited for by `one_node`."""
    why = _can_make_namespaces()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the cluster test {why}; CI must run it")
        pytest.skip(why)
    out = tmp_path_factory.mktemp("one") / "out"
    code = ("import sys; from ops.tournament.spec import load_spec; from ops.tournament.runner import run_tournament; "
            "s = run_tournament(load_spec(sys.argv[1], games=int(sys.argv[3])), sys.argv[2], runners=0); "
            "print(s.recorded_now, s.runners, f'{s.seconds:.1f}')")
    proc = subprocess.Popen([sys.executable, "-c", code, str(spec_file), str(out), str(GAMES)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    yield proc, out
    if proc.poll() is None:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def cluster(reference_run):
    made = NetnsCluster(Path(tempfile.mkdtemp(prefix="dtc", dir="/tmp")))
    try:
        t0 = time.monotonic()
        made.make_network()
        made.start()
        print(f"\ncluster up (head and two workers) in {time.monotonic() - t0:.1f}s")
        yield made
    finally:
        made.close()


@pytest.fixture(scope="module")
def one_node(reference_run):
    proc, out = reference_run
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr[-3000:]
    recorded, runners, seconds = stdout.split()
    assert int(recorded) == GAMES and int(runners) == 1, stdout
    print(f"\none node, one process: {GAMES} games in {seconds}s")
    return out


def test_worker_lost_driver_killed_run_resumed(cluster, spec_file, one_node):
    w1, w2 = cluster.workers
    out = cluster.root / "shared" / "out"
    phases: dict[str, float] = {}
    t = time.monotonic()

    def phase(name: str) -> None:
        nonlocal t
        phases[name] = round(time.monotonic() - t, 1)
        t = time.monotonic()

    # 1. both workers play; the second is lost once its runner has written a few batches
    first = _driver(cluster, spec_file, out, tag="first")
    on = _wait_for_runners(out, {w1.ip, w2.ip}, first)
    _wait_for_bytes(out, on[w2.ip], 3 * BATCH * GAME_BYTES, first)
    doomed = {pid: _name(pid) for pid in cluster.pids_in(w2.ns)}
    runner_pid = _pid_of(out, on[w2.ip])
    assert "raylet" in doomed.values() and runner_pid in doomed, doomed
    cluster.lose(w2)  # link cut, then every process in its namespace SIGKILLed (raylet and runner among them)
    assert cluster.pids_in(w2.ns) == [] and not any(_alive(pid) for pid in doomed)
    t_lost = time.monotonic()

    # 2. the driver notices (the runner's games go back to the queue), then is killed itself
    _wait_for_warning(out, "first", "runner lost", first)
    noticed = time.monotonic() - t_lost
    os.killpg(first.pid, signal.SIGKILL)
    first.wait(timeout=30)
    recorded_first = len(_index(out))
    assert 0 < recorded_first < GAMES, f"the first driver recorded {recorded_first} of {GAMES}: not mid-run"
    phase("first driver, worker lost, driver killed")

    # 3. the lost worker rejoins (a new node for Ray) and a second driver finishes the run
    cluster.relink(w2)
    cluster.start_node(w2)
    cluster.wait_for_nodes(2)
    phase("worker rejoined")
    second = _driver(cluster, spec_file, out, tag="second")
    line = _finished(second, out, tag="second")
    assert line["recorded"] == GAMES and line["now"] == GAMES - recorded_first, line
    assert line["runners"] == 2 and line["nodes"] == 2, line
    phase("second driver")
    print(f"\nworker lost after {on[w2.ip]} wrote {3 * BATCH} games, noticed in {noticed:.1f}s; "
          f"first driver killed at {recorded_first} recorded; second driver: {line}")

    # where each game was played: both workers in each driver's run, the rejoined one a new node
    entries = [json.loads(x) for x in (out / RUNNERS).read_text().splitlines()]
    assert {e["ip"] for e in entries} == {w1.ip, w2.ip}
    w2_nodes = {e["node"] for e in entries if e["ip"] == w2.ip}
    assert len(w2_nodes) == 2, entries  # the lost node and the rejoined one
    by_ip = Counter(_ip_of_game(out).values())
    print(f"games recorded per worker: {dict(sorted(by_ip.items()))}")
    assert set(by_ip) == {w1.ip, w2.ip} and min(by_ip.values()) > 0

    # every game recorded exactly once; copies the lost runner wrote of games it never returned
    # sit in its segments, indexed nowhere
    rows = _index(out)
    assert [idx for idx, *_ in rows] == list(range(GAMES))
    assert len({gid for _, gid, *_ in rows}) == GAMES
    stale = _unindexed_copies(out, on[w2.ip], rows)
    print(f"copies left unindexed in the lost runner's segments: {len(stale)}")

    # the same games as on one node, row for row and byte for byte, and the same report
    assert _results(out) == _results(one_node)
    assert _log_bytes(out) == _log_bytes(one_node)
    assert _report(out) == _report(one_node)
    phase("store, logs and report compared")
    verify = _cli("replay", "verify", str(out), "--sample", "100")
    assert verify.returncode == 0 and "ok: 100 games reproduced" in verify.stdout, verify.stdout + verify.stderr
    phase("sample verified")
    print(f"seconds: {phases}")


def test_nothing_left_after_teardown(cluster):
    cluster.close()
    assert cluster.leftovers() == []
    names = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
    assert cluster.tag not in names
    assert not any(cluster.pids_in(node.ns) for node in cluster.nodes)
    assert not cluster.root.exists()


# -- helpers -----------------------------------------------------------------------------------


def _driver(cluster: NetnsCluster, spec_file: Path, out: Path, tag: str = "run") -> subprocess.Popen:
    """`detente tournament run SPEC --out OUT --address HEAD:6379` in the head's namespace; its
    output goes to OUT.<tag>.stdout and .stderr."""
    out.parent.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "ops.cli", "tournament", "run", str(spec_file), "--out", str(out),
            "--games", str(GAMES), "--address", cluster.address]
    with open(f"{out}.{tag}.stdout", "w") as stdout, open(f"{out}.{tag}.stderr", "w") as stderr:
        return cluster.popen(cluster.head, argv, stdout=stdout, stderr=stderr, cwd=Path.cwd())


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ops.cli", *args], capture_output=True, text=True, timeout=300,
                          check=False)


def _finished(proc: subprocess.Popen, out: Path, tag: str = "run") -> dict[str, int]:
    """The driver's exit (0) and what its last line says."""
    code = proc.wait(timeout=300)
    assert code == 0, Path(f"{out}.{tag}.stderr").read_text()[-3000:]
    text = Path(f"{out}.{tag}.stdout").read_text()
    found = _LAST.findall(text)
    assert found, text
    recorded, runners, nodes, restarts, seconds = found[-1]
    last = [line for line in text.splitlines() if _LAST.match(line)][-1]
    now = int(last.split("(", 1)[1].split(" now", 1)[0].replace(",", ""))
    print(f"\n{out.name} {tag}: {last}")
    return {"recorded": int(recorded.replace(",", "")), "now": now, "runners": int(runners),
            "nodes": int(nodes or 1), "restarts": int(restarts), "seconds": float(seconds)}


def _placement(out: Path) -> dict[str, str]:
    """runner id -> the address of the node it ran on, from OUT/runners.jsonl."""
    path = out / RUNNERS
    lines = path.read_text().splitlines() if path.is_file() else []
    return {entry["runner"]: entry["ip"] for entry in map(json.loads, lines)}


def _pid_of(out: Path, runner: str) -> int:
    """The process id of `runner`, as OUT/runners.jsonl has it."""
    return next(e["pid"] for e in map(json.loads, (out / RUNNERS).read_text().splitlines()) if e["runner"] == runner)


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")  # a zombie is dead
    except OSError:
        return False


def _wait_for_runners(out: Path, ips: set[str], proc: subprocess.Popen) -> dict[str, str]:
    """node address -> the first runner up there, once one is up on each of `ips`."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        on: dict[str, str] = {}
        for runner, ip in _placement(out).items():
            on.setdefault(ip, runner)
        if set(on) >= ips:
            return on
        time.sleep(0.05)
    pytest.fail(f"no runner came up on each of {sorted(ips)} (driver exit {proc.poll()})")


def _wait_for_bytes(out: Path, runner: str, at_least: int, proc: subprocess.Popen) -> int:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        written = sum(p.stat().st_size for p in (out / "logs").glob(f"{runner}-*.dlog"))
        if written >= at_least:
            return written
        time.sleep(0.02)
    pytest.fail(f"runner {runner} did not write {at_least} bytes while the run went on (driver exit {proc.poll()})")


def _wait_for_warning(out: Path, tag: str, text: str, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    path = Path(f"{out}.{tag}.stderr")
    while time.monotonic() < deadline and proc.poll() is None:
        if any("[warning  ]" in line and text in line for line in path.read_text().splitlines()):
            return
        time.sleep(0.05)
    pytest.fail(f"the driver never warned {text!r} (exit {proc.poll()}): {path.read_text()[-2000:]}")


def _index(out: Path) -> list[tuple]:
    store = Store(out, read_only=True)
    try:
        return store.db.execute('select idx, game_id, segment, "offset", nbytes from games order by idx').fetchall()
    finally:
        store.close()


def _ip_of_game(out: Path) -> dict[str, str]:
    """game id -> the address of the worker whose runner played the recorded copy."""
    placement = _placement(out)
    return {gid: placement[segment.rsplit("-", 1)[0]] for _, gid, segment, _, _ in _index(out)}


def _unindexed_copies(out: Path, runner: str, rows: list[tuple]) -> list[str]:
    indexed = {(segment, offset) for _, _, segment, offset, _ in rows}
    stale = []
    for path in sorted((out / "logs").glob(f"{runner}-*.dlog")):
        log = read_log(path, check=False)
        stale += [g.header["game_id"] for g in log.games if (path.name, g.header_offset) not in indexed]
    return stale


def _results(out: Path) -> list[tuple]:
    """Every column of every game but where and how fast it was played."""
    store = Store(out, read_only=True)
    try:
        return store.db.execute(
            'select * exclude (segment, "offset", runner, duration_ms) from games order by game_id'
        ).fetchall()
    finally:
        store.close()


def _log_bytes(out: Path) -> dict[str, bytes]:
    """game id -> the bytes of its log as stored, read through the index (as bytes only: decoding
    2,000 games twice would take a third of the test; the sample replayed decodes some)."""
    games = {}
    handles: dict[str, object] = {}
    try:
        for _, gid, segment, offset, nbytes in _index(out):
            f = handles.get(segment) or handles.setdefault(segment, open(out / "logs" / segment, "rb"))
            f.seek(offset)
            games[gid] = f.read(nbytes)
            assert len(games[gid]) == nbytes, (gid, segment)
    finally:
        for f in handles.values():
            f.close()
    return games


def _report(out: Path) -> dict:
    """`detente tournament report --format json`, but for how fast the games were played."""
    proc = _cli("tournament", "report", str(out), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    report.pop("mean_game_ms")
    return report
