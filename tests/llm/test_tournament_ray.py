"""A tournament of 200 games with a model seat against the scripted server answering after 200 ms,
on a real local Ray with 2 runners of 4 concurrent games each, the driver killed once and the same
spec run again: every game recorded once, no model call repeated for a recorded game (the server
counts the calls), and the endpoint's in-flight limit held across both runners (one named gate
actor). Kuhn poker through the OpenSpiel bridge: a model seat makes one or two calls a game."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ops.tournament.runner import run_tournament
from ops.tournament.spec import load_spec
from ops.tournament.store import Store
from tests.llm.scripted_server import ScriptedServer
from tests.llm.test_tournament import model_calls_in_logs
from tests.processes import kill_session

pytest.importorskip("pyspiel")
pytestmark = pytest.mark.ray
GAMES = 200
LIMIT = 6  # requests in flight at the endpoint; 2 runners x 4 games could make 8


class CountingServer(ScriptedServer):
    """The scripted server, also counting the requests it holds at once."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.now = self.peak = 0
        self._held = threading.Lock()

    def start(self):
        super().start()
        self._httpd.handle_error = lambda request, address: None  # the kill resets connections: expected
        return self

    def _serve(self, handler, body, number):
        with self._held:
            self.now += 1
            self.peak = max(self.peak, self.now)
        try:
            super()._serve(handler, body, number)
        finally:
            with self._held:
                self.now -= 1


def spec_file(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "llm_vs_random.toml"
    path.write_text(f"""game = "openspiel-kuhn_poker"
games = {GAMES}
seed = 3
batch = 10
concurrent_games = 4

[endpoints."{url}"]
max_in_flight = {LIMIT}

[[lineup]]
agent = "llm"
options = {{ endpoint = "{url}", model = "scripted" }}

[[lineup]]
agent = "random"
""")
    return path


def test_killed_and_resumed_every_game_once_no_call_repeated(tmp_path, local_ray):
    with CountingServer(delay=0.2) as server:
        spec = spec_file(tmp_path, server.url)
        out = tmp_path / "out"
        env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
        cmd = [sys.executable, "-m", "ops.cli", "tournament", "run", str(spec), "--out", str(out), "--runners", "2"]
        proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def recorded() -> int:
            try:
                with Store(out, read_only=True, wait=0.0) as store:
                    return store.count()
            except Exception:  # not made yet, or the driver is writing it
                return 0

        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and recorded() < 40:
            time.sleep(0.2)
        kill_session(proc.pid)  # the driver, its local Ray, its runners
        proc.wait()
        first_calls = server.calls
        summary = run_tournament(load_spec(str(spec)), out, runners=2)
        second_calls = server.calls - first_calls
        peak = server.peak
    assert 0 < summary.recorded_before < GAMES, "the kill came too early or too late"
    assert summary.recorded_before + summary.recorded_now == GAMES
    with Store(out, read_only=True) as store:
        ids = [r[0] for r in store.db.execute("select game_id from games").fetchall()]
        mine = set(summary.placement)  # the runners of the resumed run
        rows = store.db.execute("select game_id, runner from games").fetchall()
    assert len(ids) == len(set(ids)) == GAMES
    calls = model_calls_in_logs(out, GAMES)
    by_second = sum(1 for gid, runner in rows if runner in mine)
    assert by_second == summary.recorded_now
    # every call the resumed run made is one of its games' records: no recorded game played again
    second_recorded = len(model_calls_in_logs_of(out, [gid for gid, runner in rows if runner in mine]))
    assert second_calls == second_recorded
    # the first run's calls are its recorded games' calls plus those of games lost with the kill
    # (at most the batches in flight: 2 runners x 2 batches x 10 games, 2 calls a game)
    assert len(calls) - second_recorded <= first_calls <= len(calls) - second_recorded + 2 * 2 * 10 * 2
    print(f"recorded before the kill {summary.recorded_before}, after {summary.recorded_now}; server calls "
          f"{first_calls} + {second_calls}, recorded {len(calls)}; peak in flight {peak}")
    assert LIMIT - 1 <= peak <= LIMIT, f"{peak} requests at once (one runner holds 4 at most)"


def model_calls_in_logs_of(out: Path, game_ids: list[str]) -> list[dict]:
    from ops.tournament.store import load_game

    calls = []
    for gid in game_ids:
        calls += [r["msg"] for r in load_game(out, gid)[0].records if r["msg"]["kind"] == "model_call"]
    return calls
