"""Screenshots of every game's board at a few seqs (the start, the middle, the end) and of the
whole viewer, as PNG files for the README, taken with a headless Chromium driven by Selenium
(explicit binary and driver paths: nothing downloaded).

    python -m ops.debugger.screenshots [--out docs/screenshots] [LOG ...]

Without LOGs: one golden game of each game with a board (tests/golden/)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def default_logs() -> list[Path]:
    """One golden log of every installed game with a board, an Alpha agent's where there is one."""
    from games.registry import game_names, get_plugin

    golden = ROOT / "tests" / "golden"
    logs = []
    for name in game_names():
        if not get_plugin(name).board:
            continue
        found = sorted(golden.glob(f"{name}-*.log"), key=lambda p: ("alpha" not in p.name, p.name))
        if found:
            logs.append(found[0])
    return logs


def _seqs(game: Any) -> list[int]:
    changes = game.change_seqs or [game.last_seq()]
    return [changes[0], changes[len(changes) // 2], game.last_seq()]


def screenshots(driver: Any, out: Path, logs: list[Path] | None = None) -> list[Path]:
    """Write `<game>-<n>-seq<S>.png` per board and `viewer-<game>.png`; the paths written."""
    from ops.debugger.page import export_page
    from ops.debugger.source import open_source

    out.mkdir(parents=True, exist_ok=True)
    logs = logs or default_logs()
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        for log in logs:
            source = open_source(log)
            game = source.game(source.first_game())
            for n, seq in enumerate(_seqs(game)):
                page = Path(tmp) / f"{game.game}-{n}.html"
                page.write_text(f'<!doctype html><html><body style="margin:0;background:#fff">{game.board(seq, None)}</body></html>')
                driver.get(page.as_uri())
                target = out / f"{game.game}-{n}-seq{seq}.png"
                driver.find_element("css selector", "svg").screenshot(str(target))
                written.append(target)
            page = Path(tmp) / "viewer.html"  # and the whole viewer, at the middle seq
            page.write_text(export_page(game, None))
            mid = _seqs(game)[1]
            driver.get(page.as_uri() + f"#seq={mid}")
            _wait_ready(driver, mid)
            target = out / f"viewer-{game.game}.png"
            driver.save_screenshot(str(target))
            written.append(target)
    return written


def _wait_ready(driver: Any, seq: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if driver.find_element("tag name", "body").get_attribute("data-ready-seq") == str(seq):
            return
        time.sleep(0.05)
    raise TimeoutError(f"the viewer did not reach seq {seq}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--driver", default="/usr/bin/chromedriver")
    args = parser.parse_args(argv)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1500",
                "--hide-scrollbars"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(args.driver), options=options)
    try:
        for path in screenshots(driver, args.out, args.logs or None):
            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
