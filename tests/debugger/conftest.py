"""Fixtures of the debugger's tests: served sources on a free port, a 200-game tournament folder,
one headless Chromium (Debian's chromium and chromium-driver, driven by Selenium with explicit
paths: nothing is downloaded).

Browser tests are marked `browser`; they skip when Chromium, its driver or Selenium is missing,
except under CI=true, where a skipped browser test fails the run."""

from __future__ import annotations

import http.client
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
CHROMIUM = os.environ.get("DETENTE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("DETENTE_CHROMEDRIVER", "/usr/bin/chromedriver")
# the three games the issue names: a 7-power AlphaDip game, an AlphaWolf game, a Hanabi game
GAMES = {"diplomacy": "diplomacy-alphadip-4", "werewolves": "werewolves-alphawolf-7", "hanabi": "hanabi-alpha-6"}


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "browser: drives a real headless Chromium (skipped without one, except under CI=true)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and item.get_closest_marker("browser") and os.environ.get("CI") == "true":
        report.outcome = "failed"
        report.longrepr = f"a browser test may not be skipped under CI=true: {report.longrepr}"


def golden(name: str) -> Path:
    return GOLDEN / f"{GAMES.get(name, name)}.log"


class Served:
    """A debugger server in a background thread, and a small client for it."""

    def __init__(self, path: Path, out: Path):
        from ops.debugger.server import DebugServer
        from ops.debugger.source import open_source

        self.server = DebugServer(open_source(path), host="127.0.0.1", port=0, out=out)
        self.server.start()
        self.port = self.server.port
        self.url = self.server.url
        self.token = self.server.token
        self.host = f"127.0.0.1:{self.port}"

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        sent = {"Host": self.host, **(headers or {})}
        if data is not None:
            sent.setdefault("Content-Type", "application/json")
            sent["Content-Length"] = str(len(data))
        for key, value in sent.items():
            if value is not None:
                conn.putheader(key, value)
        conn.endheaders(data)
        response = conn.getresponse()
        raw = response.read()
        conn.close()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(raw) if kind.startswith("application/json") else raw.decode()

    def get(self, path: str) -> Any:
        status, data = self.call("GET", path)
        assert status == 200, (path, status, data)
        return data

    def fork(self, game: str, at: int, seats: dict[str, str]) -> tuple[int, Any]:
        return self.call("POST", f"/api/game/{game}/fork", {"at": at, "seats": seats},
                         {"X-Detente-Token": self.token, "Origin": f"http://{self.host}"})

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve(tmp_path):
    """serve(path) -> a running Served over that log or folder (stopped after the test)."""
    started: list[Served] = []

    def start(path: Path, out: Path | None = None) -> Served:
        s = Served(Path(path), out or tmp_path / "out")
        started.append(s)
        return s

    yield start
    for s in started:
        s.close()


@pytest.fixture(scope="session")
def tournament200(tmp_path_factory) -> Path:
    """A 200-game tournament folder (random Werewolves, two labels), written by the runner's own
    batch player and store."""
    from ops.tournament.runner import BatchPlayer
    from ops.tournament.spec import parse_spec
    from ops.tournament.store import Store

    out = tmp_path_factory.mktemp("t200")
    spec = parse_spec({"game": "werewolves", "games": 200, "seed": 5, "segment_mib": 1, "compress": False,
                       "options": {"discussion_rounds": 0},
                       "lineup": [{"agent": "random", "label": "so", "count": 5},
                                  {"agent": "random", "label": "pr", "count": 5, "options": {"offices": ""}}]})
    player = BatchPlayer(str(out), spec.model_dump(mode="json"), "t-r001")
    rows = player.play(list(range(200)))
    player.close()
    store = Store(out)
    store.set_meta("spec", json.dumps(spec.model_dump(mode="json", exclude={"games"}), sort_keys=True))
    assert store.add(rows) == 200
    store.close()
    return out


def browser_missing() -> str | None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists() and not shutil.which(p)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip install selenium)")
    return ", ".join(missing) or None


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session (Selenium, explicit binary and driver paths)."""
    missing = browser_missing()
    if missing:
        pytest.skip(f"no browser to test with: {missing} (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1600",
                "--disable-extensions", "--no-first-run", "--disable-background-networking"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
