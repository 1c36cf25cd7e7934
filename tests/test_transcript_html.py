"""Transcript pages: the course of a game as numbers (folded through the rules) and the HTML page
with its plots, for Werewolves, Diplomacy and Hanabi."""

from __future__ import annotations

import re

import pytest

from ops.cli import main
from ops.transcript_html import transcript_html, view_charts
from replay.series import state_series
from replay.transcript import transcript
from tests.play import play_log


def _game(game: str, seed: int, agents: list[str], options: dict | None = None):
    return play_log(game, seed, agents, options)


def _svgs(page: str) -> int:
    return len(re.findall(r"<svg ", page))


def test_werewolves_course_and_a_players_beliefs():
    game = _game("werewolves", 3, ["alphawolf"] * 10)
    (chart,) = state_series(game)
    wolves, others = chart["series"]["werewolves alive"], chart["series"]["others alive"]
    assert wolves[0][1] == 2 and others[0][1] == 8  # the default deal: 2 wolves among 10
    assert all(b[1] <= a[1] for a, b in zip(others, others[1:]))  # nobody comes back
    folded = sum(r["msg"]["kind"] in ("chance", "step", "talk_round") for r in game.records)
    assert wolves[-1][0] == others[-1][0] == folded  # both lines run to the last state
    _, data = transcript(game, player=2)
    titles = [c["title"] for c in view_charts(data["beliefs"])]
    assert titles == ["P(werewolf) of p2 by subject, by seq", "trust of p2 by subject, by seq"]
    page = transcript_html(game, player=2)
    assert page.startswith("<!doctype html>") and _svgs(page) == 3
    assert "y: trust (0..2; higher = more trust (1 neutral))" in page  # AlphaWolf's scale, named on the axis
    assert "<script" not in page and "http" not in page  # self-contained
    assert "p2 after IO update" in page  # the text transcript is on the page


def test_diplomacy_centres_and_each_alpha_players_trust():
    game = _game("diplomacy", 1, ["alphadip"] * 2 + ["dumbbot"] * 5, {"max_year": 1902})
    (chart,) = state_series(game)
    first = {power: pts[0][1] for power, pts in chart["series"].items()}
    assert first == {"AUSTRIA": 3, "ENGLAND": 3, "FRANCE": 3, "GERMANY": 3, "ITALY": 3, "RUSSIA": 4, "TURKEY": 3}
    last = {power: pts[-1][1] for power, pts in chart["series"].items()}
    assert 22 <= sum(last.values()) <= 34
    _, data = transcript(game)
    assert [c["title"] for c in view_charts(data["beliefs"])] == ["trust ratio of p0 by subject, by seq",
                                                                  "trust ratio of p1 by subject, by seq"]
    page = transcript_html(game)
    assert _svgs(page) == 3 and "y: trust ratio (0..; higher = less trust (1 neutral))" in page


def test_hanabi_score_line_ends_at_the_score(tmp_path, capsys):
    game = _game("hanabi", 2, ["alpha"] * 2)
    (chart,) = state_series(game)
    assert chart["series"]["score"][-1][1] == game.records[-1]["msg"]["extra"]["fireworks"]
    assert chart["series"]["lives"][0][1] == 3 and chart["series"]["hint tokens"][0][1] == 8
    log = tmp_path / "h.log"
    assert main(["play", "hanabi", "--seed", "2", "--agents", "alpha", "--log", str(log)]) == 0
    page = tmp_path / "h.html"
    assert main(["replay", "transcript", str(log), "--format", "html", "--out", str(page)]) == 0
    text = page.read_text()
    assert _svgs(text) == 3 and "turn 0 (seq" in text  # the course; each Alpha IO's candidates for its own cards
    # the candidates are counted for the observer's own slots, not for other players
    assert "candidates of p0 by subject, by seq" in text
    capsys.readouterr()
    assert main(["replay", "transcript", str(log), "--out", str(page)]) == 2
    assert "--out is for --format html" in capsys.readouterr().err


def test_werewolves_whole_game_transcript_holds_every_observers_trust():
    """Without --player the transcript holds every AlphaWolf IO's series, JSON and HTML alike."""
    game = _game("werewolves", 3, ["alphawolf"] * 10)
    _, data = transcript(game)
    points = data["beliefs"]["points"]
    updates = [r for r in game.records if r["msg"]["kind"] == "kb_change" and r["msg"]["source"].endswith("/io")]
    observers = {r["msg"]["sender"] for r in updates if any(u["path"] == ["trust"] and u["value"] for u in r["msg"]["updates"])}
    assert len(observers) >= 5  # every player that lived to see a day's votes judged
    assert {p["observer"] for p in points if p["quantity"] == "trust"} == observers
    assert data["beliefs"]["scales"]["trust"] == {"quantity": "trust", "lo": 0.0, "hi": 2.0, "higher": "more trust (1 neutral)"}
    for p in points:  # each point is a value the IO wrote into the KB at that seq
        msg = next(r["msg"] for r in updates if r["seq"] == p["seq"])
        written = {tuple(u["path"]): u["value"] for u in msg["updates"]}
        if p["quantity"] == "trust":
            assert written[("trust",)][p["subject"][1:]] == p["value"]
    page = transcript_html(game)
    trust_charts = re.findall(r'aria-label="trust of (p\d+) by subject', page)
    assert sorted(trust_charts) == sorted(observers)


@pytest.mark.parametrize("steps", [False, True])
def test_line_chart_points(steps):
    from ops.svg import line_chart

    svg = line_chart({"a": [[0, 1], [2, 3]], "b": [[1, 2]]}, "t", "x", steps=steps)
    points = re.findall(r'points="([^"]*)"', svg)
    assert len(points) == 2 and len(points[0].split()) == (3 if steps else 2)
    assert line_chart({}, "empty") == ""
