"""A tournament on a real multi-node Ray cluster (issue 18, part 4): Ray's own test cluster
(`ray.cluster_utils.Cluster`) on this machine, nodes of one CPU each bound to loopback, the
driver the CLI joining with `--address`. The same spec on one node and on three gives the same
games, row for row and byte for byte; a node removed in the middle of a run takes its runner
with it, its batches are played again elsewhere, every game is recorded once and verifies.

What one machine cannot show: the output folder is one local disk, not storage shared over a
network (NFS, EFS), and the nodes talk over loopback, not a network that drops or delays.
Marked `ray` and `slow` (about two minutes on two cores)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from bus.log import read_game_at, read_log
from ops.tournament.runner import RUNNERS
from ops.tournament.store import Store

pytestmark = [pytest.mark.ray, pytest.mark.slow]

EXAMPLE = Path("ops/examples/werewolves.toml")
GAMES, BATCH = 900, 5  # a node removed after a dozen of its games goes mid-run even on a quiet box
NODE = {"num_cpus": 1, "object_store_memory": 80 * 1024 * 1024, "node_ip_address": "127.0.0.1",
        "include_dashboard": False}
# a dead node noticed after 3 failed health checks a second apart (Ray's defaults: 5, 3 s apart)
FAST_DEATH = {"health_check_initial_delay_ms": 1000, "health_check_period_ms": 1000, "health_check_failure_threshold": 3}


@pytest.fixture(scope="module")
def cluster():
    """A head node of one CPU; tests add workers. Its own Ray temp folder (short: Ray's socket
    paths must fit), so nothing of it reaches /tmp/ray, where other Rays on this machine look."""
    saved = {k: os.environ.get(k) for k in ("RAY_TMPDIR", "RAY_AUTH_MODE")}
    tmp = tempfile.mkdtemp(prefix="dtc", dir="/tmp")
    os.environ["RAY_TMPDIR"], os.environ["RAY_AUTH_MODE"] = tmp, "disabled"
    from ray.cluster_utils import Cluster

    made = Cluster(initialize_head=True, head_node_args={**NODE, "_system_config": FAST_DEATH})
    try:
        yield made
    finally:
        made.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory):
    """The example spec, in batches of five games (so a lost node loses a few, not dozens)."""
    path = tmp_path_factory.mktemp("spec") / "werewolves.toml"
    text = EXAMPLE.read_text()
    path.write_text(text.replace("seating = ", f"batch = {BATCH}\nseating = ", 1))
    return path


@pytest.fixture(scope="module")
def one_node(cluster, spec_file, tmp_path_factory):
    """The spec played on the head node alone (before any worker joins): the reference."""
    assert not cluster.worker_nodes
    out = tmp_path_factory.mktemp("one") / "out"
    proc = _driver(cluster, spec_file, out)
    line = _finished(proc, out)
    assert line["runners"] == 1 and line["recorded"] == GAMES, line
    return out


@pytest.fixture(scope="module")
def three_nodes(cluster, one_node):
    """Two worker nodes of one CPU joined to the head."""
    while len(cluster.worker_nodes) < 2:
        cluster.add_node(**NODE)
    cluster.wait_for_nodes()
    return cluster


def test_same_spec_on_one_and_three_nodes_gives_the_same_games(three_nodes, spec_file, one_node, tmp_path):
    out = tmp_path / "out"
    proc = _driver(three_nodes, spec_file, out)
    line = _finished(proc, out)
    assert line["runners"] == 3 and line["nodes"] == 3 and line["restarts"] == 0, line
    nodes = _node_of_game(out)
    games_per_node = Counter(nodes.values())
    print(f"\n3 nodes, games per node: {sorted(games_per_node.values())}")
    assert len(games_per_node) == 3 and min(games_per_node.values()) > 0  # every node played
    assert _results(out) == _results(one_node)
    assert _log_bytes(out) == _log_bytes(one_node)


def test_node_removed_mid_run_every_game_recorded_once(three_nodes, spec_file, one_node, tmp_path):
    out = tmp_path / "out"
    victim = min(three_nodes.worker_nodes, key=lambda n: n.node_id)
    proc = _driver(three_nodes, spec_file, out)
    runner = _wait_for_runner_on(out, victim.node_id, proc)
    written = _wait_for_bytes(out, runner, 12 * 7000, proc)  # about a dozen games: two or more batches
    t0 = time.monotonic()
    three_nodes.remove_node(victim, allow_graceful=False)  # the raylet and its runner, SIGKILLed
    line = _finished(proc, out)
    assert line["recorded"] == GAMES and line["restarts"] >= 1, line
    # the driver's warnings: the runner of the lost node, with the games it held; a replacement
    # placed there before the node was known dead is lost too, while starting (games=0, node unknown)
    lost = [dict(kv.split("=", 1) for kv in entry.split()[1:] if "=" in kv)
            for entry in _warnings(out) if entry.startswith("runner lost")]
    assert lost and lost[0]["runner"] == runner and lost[0]["node"] == victim.node_id, lost
    assert int(lost[0]["games"]) > 0
    assert all(e["games"] == "0" and e["node"] in ("None", victim.node_id) for e in lost[1:]), lost
    print(f"\nnode removed after its runner wrote {written} bytes; run ended {time.monotonic() - t0:.1f} s later")

    nodes = _node_of_game(out)
    lost_node_games = sum(1 for node in nodes.values() if node == victim.node_id)
    assert 0 < lost_node_games < GAMES  # games it finished before it went are kept
    assert len(set(nodes.values())) == 3
    # exactly once: every index once in the store, and copies the lost runner had written of
    # games it never returned are in its segments but indexed nowhere (another runner's copy is)
    store_rows = _index(out)
    assert [idx for idx, *_ in store_rows] == list(range(GAMES))
    stale, torn = _unindexed_copies(out, runner, store_rows)
    print(f"lost node: {lost_node_games} games recorded, {len(stale)} copies left unindexed, torn tail: {torn}")
    indexed_at = {gid: segment for _, gid, segment, _, _ in store_rows}
    assert all(not indexed_at[gid].startswith(runner) for gid in stale)
    verify = _cli("replay", "verify", str(out))
    assert verify.returncode == 0 and f"ok: {GAMES} games reproduced" in verify.stdout, verify.stderr
    # and the games are those of the run on one node, row for row and byte for byte
    assert _results(out) == _results(one_node)
    assert _log_bytes(out) == _log_bytes(one_node)
    # the stale copies are bytes no index entry points at: compaction reclaims them, games unchanged
    compact = _cli("tournament", "compact", str(out))
    assert compact.returncode == 0, compact.stderr
    assert _log_bytes(out) == _log_bytes(one_node)


# -- helpers -----------------------------------------------------------------------------------


def _driver(cluster, spec_file: Path, out: Path) -> subprocess.Popen:
    """`detente tournament run SPEC --out OUT --address HEAD`, a process of its own; its output
    goes to OUT.stdout and OUT.stderr."""
    cmd = [sys.executable, "-m", "ops.cli", "tournament", "run", str(spec_file), "--out", str(out),
           "--games", str(GAMES), "--address", cluster.address]
    with open(f"{out}.stdout", "w") as stdout, open(f"{out}.stderr", "w") as stderr:
        return subprocess.Popen(cmd, env={**os.environ, "RAY_AUTH_MODE": "disabled"}, stdout=stdout, stderr=stderr)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ops.cli", *args], capture_output=True, text=True, timeout=300,
                          check=False)


_LAST = re.compile(r"^([\d,]+)/[\d,]+ games recorded .*; (\d+) runners(?: on (\d+) nodes)?, (\d+) restarts, ([\d.]+)s\)",
                   re.MULTILINE)


def _warnings(out: Path) -> list[str]:
    """The driver's operational warnings (structlog's console lines), their text from the event on."""
    lines = Path(f"{out}.stderr").read_text().splitlines()
    return [line.split("[warning  ]", 1)[1].strip() for line in lines if "[warning  ]" in line]


def _finished(proc: subprocess.Popen, out: Path) -> dict[str, int]:
    """The driver's exit (0) and what its last line says."""
    code = proc.wait(timeout=300)
    assert code == 0, Path(f"{out}.stderr").read_text()[-3000:]
    text = Path(f"{out}.stdout").read_text()
    found = _LAST.findall(text)
    assert found, text
    recorded, runners, nodes, restarts, seconds = found[-1]
    print(f"\n{out.parent.name}: {[line for line in text.splitlines() if _LAST.match(line)][-1]}")
    return {"recorded": int(recorded.replace(",", "")), "runners": int(runners), "nodes": int(nodes or 1),
            "restarts": int(restarts), "seconds": float(seconds)}


def _placement(out: Path) -> dict[str, str]:
    """runner id -> node id, from the driver's OUT/runners.jsonl."""
    path = out / RUNNERS
    lines = path.read_text().splitlines() if path.is_file() else []
    return {entry["runner"]: entry["node"] for entry in map(json.loads, lines)}


def _wait_for_runner_on(out: Path, node_id: str, proc: subprocess.Popen) -> str:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        on_node = [r for r, n in _placement(out).items() if n == node_id]
        if on_node:
            return on_node[0]
        time.sleep(0.1)
    pytest.fail(f"no runner came up on node {node_id} (driver exit {proc.poll()})")


def _wait_for_bytes(out: Path, runner: str, at_least: int, proc: subprocess.Popen) -> int:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        written = sum(p.stat().st_size for p in (out / "logs").glob(f"{runner}-*.dlog"))
        if written >= at_least:
            return written
        time.sleep(0.05)
    pytest.fail(f"runner {runner} did not write {at_least} bytes while the run went on")


def _index(out: Path) -> list[tuple]:
    store = Store(out, read_only=True)
    try:
        return store.db.execute('select idx, game_id, segment, "offset", nbytes from games order by idx').fetchall()
    finally:
        store.close()


def _node_of_game(out: Path) -> dict[str, str]:
    """game id -> the node whose runner played the recorded copy (a segment is named after its runner)."""
    placement = _placement(out)
    return {gid: placement[segment.rsplit("-", 1)[0]] for _, gid, segment, _, _ in _index(out)}


def _unindexed_copies(out: Path, runner: str, rows: list[tuple]) -> tuple[list[str], bool]:
    """Game ids with a copy in `runner`'s segments that the index does not point at, and whether
    one of those segments ends in a torn game."""
    indexed = {(segment, offset) for _, _, segment, offset, _ in rows}
    stale, torn = [], False
    for path in sorted((out / "logs").glob(f"{runner}-*.dlog")):
        log = read_log(path, check=False)
        torn = torn or log.bad is not None or any(not g.complete for g in log.games)
        stale += [g.header["game_id"] for g in log.games if (path.name, g.header_offset) not in indexed]
    return stale, torn


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
    """game id -> the bytes of its log as stored, read whole through the index."""
    games = {}
    for _, gid, segment, offset, nbytes in _index(out):
        game, bad = read_game_at(out / "logs" / segment, offset, game_id=gid)
        assert bad is None and game.complete
        with open(out / "logs" / segment, "rb") as f:
            f.seek(offset)
            games[gid] = f.read(nbytes)
    return games
