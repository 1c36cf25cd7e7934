"""The debugger in a real browser (headless Chromium): step by keyboard and by URL with the board
checked against the fold, a trust point clicked to its IO update, a fork from the page that
verifies, errors shown on the page, the tournament list filtered, an exported page offline."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from bus.log import read_log
from replay.fold import fold
from replay.verify import verify_game
from tests.debugger.conftest import golden

pytestmark = pytest.mark.browser
WAIT = 30


def _wait(browser, condition, what: str):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, WAIT, poll_frequency=0.05).until(lambda d: condition(d), message=what)


def _ready(browser, seq: int) -> None:
    _wait(browser, lambda d: d.find_element("tag name", "body").get_attribute("data-ready-seq") == str(seq),
          f"the viewer to stand at seq {seq}")


def _open(browser, url: str) -> None:
    browser.get("about:blank")
    browser.get(url)


def _key(browser, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(browser).send_keys(getattr(Keys, key)).perform()


def _board_matches_fold(browser, log, seq: int) -> None:
    """The board the page shows at `seq` holds exactly the units / players / cards of the fold."""
    state = fold(log, at=seq, check=False).state
    board = browser.find_element("id", "board")
    game = log.header["game"]
    if game == "diplomacy":
        shown = sorted((u.get_attribute("data-power"), u.get_attribute("data-unit"))
                       for u in board.find_elements("css selector", "g.unit") if u.get_attribute("data-dislodged") == "0")
        units = state.observation(0)["units"]
        assert shown == sorted((p, u) for p, us in units.items() for u in us), f"seq {seq}"
        centres = {c.get_attribute("data-centre"): c.get_attribute("data-owner") for c in board.find_elements("css selector", "circle.centre")}
        owned = {c: p for p, cs in state.observation(0)["centres"].items() for c in cs}
        assert {c: o for c, o in centres.items() if o} == owned
    elif game == "werewolves":
        data = state.to_json()
        seats = {int(s.get_attribute("data-seat")): (s.get_attribute("data-alive"), s.get_attribute("data-role"))
                 for s in board.find_elements("css selector", "g.seat")}
        assert seats == {q: (str(int(a)), (data["roles"] or [""] * len(data["alive"]))[q] or "")
                         for q, a in enumerate(data["alive"])}, f"seq {seq}"
    elif game == "hanabi":
        hands = state.to_json()["hands"]
        cards = {(int(c.get_attribute("data-seat")), int(c.get_attribute("data-slot"))): c.get_attribute("data-card")
                 for c in board.find_elements("css selector", "g.card")}
        assert cards == {(q, i): card for q, hand in enumerate(hands) for i, card in enumerate(hand)}, f"seq {seq}"


# diplomacy (~10 s) in the default suite (CI), out of the quick subset
@pytest.mark.parametrize("name", [pytest.param("diplomacy", marks=pytest.mark.slow), "werewolves", "hanabi"])
def test_step_by_keyboard_and_by_url(browser, serve, name):
    s = serve(golden(name))
    log = read_log(golden(name)).games[0]
    gid = log.header["game_id"]
    seqs = [r["seq"] for r in log.records]
    changes = [r["seq"] for r in log.records if r["msg"]["kind"] in ("step", "chance", "talk_round")]
    start = changes[len(changes) // 2]
    _open(browser, f"{s.url}?token={s.token}#game={gid}&seq={start}")
    _ready(browser, start)
    assert browser.find_element("tag name", "body").get_attribute("data-head-seq") == str(start)  # drawn first from the start
    assert browser.find_element("id", "seq").get_attribute("value") == str(start)
    _board_matches_fold(browser, log, start)
    _key(browser, "ARROW_RIGHT")
    _ready(browser, start + 1)
    assert f"seq={start + 1}" in browser.current_url
    _board_matches_fold(browser, log, start + 1)
    _key(browser, "ARROW_LEFT")
    _ready(browser, start)
    _key(browser, "ARROW_LEFT")
    _ready(browser, start - 1)  # before the change: the board is the one before it
    _board_matches_fold(browser, log, start - 1)
    phases = [p["seq"] for p in s.get(f"/api/game/{gid}")["phases"]]
    after = next(p for p in phases if p > start - 1)
    _key(browser, "ARROW_DOWN")
    _ready(browser, after)
    _board_matches_fold(browser, log, after)
    marks = s.get(f"/api/game/{gid}")["marks"]
    trust = next(t for t in marks["trust"] if t > after)
    browser.find_element("id", "next-trust").click()  # jump to the next trust change
    _ready(browser, trust)
    last = seqs[-1]
    browser.execute_script("location.hash = arguments[0]", f"#game={gid}&seq={last}")  # a linked position
    _ready(browser, last)
    _board_matches_fold(browser, log, last)
    row = browser.find_element("css selector", "#messages-body tr.here")
    assert row.get_attribute("data-seq") == str(last)


@pytest.mark.parametrize("name", ["diplomacy", "werewolves", "hanabi"])
def test_clicking_a_trust_point_jumps_to_its_io_update(browser, serve, name):
    s = serve(golden(name))
    log = read_log(golden(name)).games[0]
    gid = log.header["game_id"]
    _open(browser, f"{s.url}#game={gid}&seq=0")
    _ready(browser, 0)
    points = browser.find_elements("css selector", "#charts-body circle.point")
    assert points, "trust charts with points"
    point = points[len(points) // 2]
    seq, observer = int(point.get_attribute("data-seq")), int(point.get_attribute("data-observer"))
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", point)
    _ready(browser, seq)
    record = next(r for r in log.records if r["seq"] == seq)
    assert record["msg"]["kind"] == "kb_change" and record["msg"]["source"] == f"p{observer}/io"
    _wait(browser, lambda d: f"KB change at seq {seq}" in d.find_element("id", "detail").text, "the KB diff")
    cursor = browser.find_element("css selector", "#charts-body line.cursor")
    assert abs(float(cursor.get_attribute("x1")) - float(point.get_attribute("cx"))) < 0.5  # one x-axis


def test_a_fork_from_the_page_verifies(browser, serve, tmp_path):
    out = tmp_path / "forks-out"
    s = serve(golden("diplomacy"), out=out)
    _open(browser, f"{s.url}?token={s.token}#game=diplomacy-4&seq=100")
    _ready(browser, 100)
    browser.find_element("id", "fork-seat-3").send_keys("dumbbot")
    browser.find_element("id", "fork-go").click()
    _wait(browser, lambda d: "first difference" in d.find_element("id", "fork-result").text, "the fork")
    text = browser.find_element("id", "fork-result").text
    first = int(re.search(r"first difference at seq (\d+)", text).group(1))
    _ready(browser, first)
    assert "on" in browser.find_element("id", "compare").get_attribute("class")
    assert browser.find_elements("css selector", "#compare-right svg")
    forks = list((out / "forks").glob("*.log"))
    assert len(forks) == 1
    logfile = read_log(forks[0])
    verdict = verify_game(logfile.games[0], logfile.bad)
    assert verdict.ok, verdict.message
    assert browser.find_elements("css selector", "#charts-body polyline[stroke-dasharray]"), "the fork's curves overlaid"


def test_errors_show_on_the_page(browser, serve):
    s = serve(golden("hanabi"))
    _open(browser, f"{s.url}#game=no-such-game")
    _wait(browser, lambda d: "no game" in d.find_element("id", "banner").text, "an error for an unknown game")
    _open(browser, f"{s.url}#game=hanabi-6&seq=999999")
    _wait(browser, lambda d: "out of range" in d.find_element("id", "banner").text, "an error for a seq out of range")
    _ready(browser, 0)  # and the viewer still opens, at the start
    browser.get(f"{s.url}no/such/page")
    assert "no such page" in browser.find_element("id", "error").text and "Traceback" not in browser.page_source


def test_a_corrupt_or_missing_log_is_an_error_on_the_page(browser, serve, tournament200, tmp_path):
    import duckdb

    folder = tmp_path / "t"
    shutil.copytree(tournament200, folder)
    db = duckdb.connect(str(folder / "results.duckdb"), read_only=True)
    rows = db.execute('select game_id, segment, "offset" from games order by idx').fetchall()
    db.close()
    corrupt, segment, offset = rows[0]
    missing = next(r for r in rows if r[1] != segment)
    path = folder / "logs" / segment
    raw = bytearray(path.read_bytes())
    raw[offset + 40] ^= 0xFF  # inside the game's packed frame: its checksum fails
    path.write_bytes(bytes(raw))
    (folder / "logs" / missing[1]).unlink()
    s = serve(folder)
    _open(browser, f"{s.url}#game={corrupt}")
    _wait(browser, lambda d: "cannot be read" in d.find_element("id", "banner").text, "an error for a corrupt log")
    assert "checksum" in browser.find_element("id", "banner").text
    _open(browser, f"{s.url}#game={missing[0]}")
    _wait(browser, lambda d: "no such log" in d.find_element("id", "banner").text, "an error for a missing log")
    assert "Traceback" not in browser.page_source and not browser.find_element("id", "viewer").is_displayed()


def test_the_game_list_loads_and_filters_in_the_page(browser, serve, tournament200):
    s = serve(tournament200)
    _open(browser, s.url)
    _wait(browser, lambda d: d.find_element("id", "list-count").text.startswith("200 games"), "the list")
    assert len(browser.find_elements("css selector", "#games-body tr")) == 100
    expected = s.get("/api/games?agent=so&seat=werewolf")["total"]
    browser.find_element("id", "f-agent").send_keys("so")
    browser.find_element("id", "f-seat").send_keys("werewolf")
    browser.find_element("id", "f-go").click()
    _wait(browser, lambda d: d.find_element("id", "list-count").text.startswith(f"{expected} games"), "the filtered list")
    link = browser.find_element("css selector", "#games-body a.game-link")
    gid = link.get_attribute("data-game")
    link.click()
    _ready(browser, 0)
    assert gid in browser.find_element("id", "title").text


def test_an_exported_page_works_offline(browser, tmp_path):
    from ops.debugger.page import export_page
    from ops.debugger.source import open_source

    game = open_source(golden("werewolves")).game("werewolves-7")
    page = tmp_path / "game.html"
    page.write_text(export_page(game, 4))
    log = read_log(golden("werewolves")).games[0]
    mine = [r["seq"] for r in log.records if "p4" in (r["msg"]["sender"].split("/")[0], r["msg"]["to"].split("/")[0])]
    _open(browser, f"file://{page}#seq={mine[5]}")
    _ready(browser, mine[5])
    _key(browser, "ARROW_RIGHT")
    _ready(browser, mine[6])  # the arrow keys step through the seat's own records
    assert browser.find_element("id", "view").get_attribute("disabled")
    assert browser.find_element("css selector", "#board svg")
    seats = browser.find_elements("css selector", "#board g.seat")
    known = fold(log, at=mine[6], check=False).state.observation(4)["known_roles"]
    assert {s.get_attribute("data-seat"): s.get_attribute("data-role") for s in seats if s.get_attribute("data-role")} == known


@pytest.mark.slow  # in the default suite (CI), not the quick subset
def test_screenshots_of_every_board(browser, tmp_path):
    """DETENTE_SCREENSHOTS=docs/screenshots writes the README's pictures (committed once)."""
    from ops.debugger.screenshots import screenshots

    written = screenshots(browser, Path(os.environ.get("DETENTE_SCREENSHOTS") or tmp_path))
    assert {p.name.split("-")[0] for p in written} >= {"diplomacy", "werewolves", "hanabi"}
    assert all(p.stat().st_size > 2000 for p in written)
    assert all(Path(p).suffix == ".png" for p in written)


def test_a_fork_made_on_the_command_line_opens_beside_its_original(browser, serve, tmp_path):
    from ops.cli import main

    shutil.copy(golden("hanabi"), tmp_path / "original.log")
    assert main(["replay", "fork", str(golden("hanabi")), "--at", "200", "--agents", "alpha,random,alpha",
                 "--out", str(tmp_path / "fork.log")]) == 0
    fork = read_log(tmp_path / "fork.log").games[0]
    s = serve(tmp_path / "fork.log")
    s.server.api.source.add_logs(tmp_path / "original.log")  # `replay serve fork.log --with original.log`
    _open(browser, f"{s.url}#game={fork.header['game_id']}&seq=300")
    _ready(browser, 300)
    _wait(browser, lambda d: "on" in d.find_element("id", "compare").get_attribute("class"), "the side by side")
    title = browser.find_element("id", "compare-title").text
    assert "original hanabi-6 (left)" in title and f"fork {fork.header['game_id']} (right)" in title
    assert re.search(r"first difference at seq \d+", title)
    assert browser.find_elements("css selector", "#compare-left svg") and browser.find_elements("css selector", "#compare-right svg")
    _key(browser, "ARROW_RIGHT")  # stepping moves both sides
    _wait(browser, lambda d: "at seq 300;" not in d.find_element("id", "compare-title").text, "the pair to follow the step")
