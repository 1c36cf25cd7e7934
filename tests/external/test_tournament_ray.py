"""A tournament with an external agent on a real local Ray: 200 Battle Line games, the Java client
(a real JVM per runner and seat) against the built-in random agent, 2 runners, the driver killed
once and the same command run again. Every game recorded once, a sample verifies without Java, the
report names the Java agent. Marked `ray` and `slow` (about a minute)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ops.cli import main
from ops.tournament.runner import run_tournament
from tests.processes import kill_session
from ops.tournament.spec import load_spec
from ops.tournament.store import Store

pytestmark = [pytest.mark.ray, pytest.mark.slow]
JAVA = Path("ops/examples/agents/java/RandomAgent.java")
GAMES = 200


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    """The Java client compiled with javac into a folder of its own."""
    if shutil.which("javac") is None:
        if os.environ.get("CI"):
            pytest.fail("javac is missing: CI runs the Java client (a JDK >= 11)")
        pytest.skip("no JDK here")
    out = tmp_path_factory.mktemp("java")
    subprocess.run(["javac", "-d", str(out), str(JAVA)], check=True, timeout=120)
    return out


def spec_file(tmp_path: Path, classes: Path) -> Path:
    path = tmp_path / "java_vs_random.toml"
    path.write_text(f"""game = "battleline"
games = {GAMES}
seed = 11
batch = 10

[[lineup]]
agent = "exec"
options = {{ cmd = ["java", "-cp", "{classes}", "RandomAgent"], stderr = "discard" }}

[[lineup]]
agent = "random"
""")
    return path


def test_java_against_random_killed_and_resumed(tmp_path, classes, local_ray, capsys):
    spec = spec_file(tmp_path, classes)
    out = tmp_path / "out"
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    cmd = [sys.executable, "-m", "ops.cli", "tournament", "run", str(spec), "--out", str(out), "--runners", "2"]
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def written() -> int:
        return sum(p.stat().st_size for p in (out / "logs").glob("*.dlog")) if (out / "logs").is_dir() else 0

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and written() < 700_000:
        time.sleep(0.05)  # kill once about a fifth of the games' packed logs (~17 KB each) are written
    kill_session(proc.pid)  # the driver, its local Ray, its runners (and their agents)
    proc.wait()
    summary = run_tournament(load_spec(str(spec)), out, runners=2)
    assert summary.recorded_before > 0 and summary.recorded_before < GAMES, "the kill came too early or too late"
    assert summary.recorded_before + summary.recorded_now == GAMES
    store = Store(out, read_only=True)
    try:
        ids = [r[0] for r in store.db.execute("select game_id from games").fetchall()]
        errors = store.db.execute("select sum(errors) from games").fetchone()[0]
    finally:
        store.close()
    assert len(ids) == len(set(ids)) == GAMES
    assert errors == 0, "the Java client answered every request of every game"
    capsys.readouterr()
    path = os.environ["PATH"]
    try:
        os.environ["PATH"] = str(tmp_path / "nothing")  # verify needs no Java: answers come from the logs
        assert main(["replay", "verify", str(out), "--sample", "20"]) == 0
    finally:
        os.environ["PATH"] = path
    assert main(["tournament", "report", str(out)]) == 0
    assert "exec:RandomAgent" in capsys.readouterr().out
