"""Reports as rich as the data: the HTML report holds every number of the text report, its game
links resolve, a cooperative game is reported by score (no ranks, no ratings), and a game's plugin
adds its own sections (Diplomacy's solo and centres, Hanabi's perfect games)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ops.tournament.html import format_html, write_game_pages
from ops.tournament.report import build_report, format_text
from ops.tournament.runner import BatchPlayer
from ops.tournament.spec import parse_spec
from ops.tournament.store import Store

SPECS = {
    "werewolves": {"game": "werewolves", "games": 6, "seed": 2,
                   "lineup": [{"agent": "random", "label": "so", "count": 5},
                              {"agent": "random", "label": "pr", "count": 5, "options": {"offices": ""}}]},
    "hanabi": {"game": "hanabi", "games": 6, "seed": 2, "options": {"players": 3},
               "lineup": [{"agent": "rational", "count": 2}, {"agent": "osawa-random", "count": 1}]},
    "diplomacy": {"game": "diplomacy", "games": 7, "seed": 2, "options": {"max_year": 1902},
                  "lineup": [{"agent": "dumbbot", "count": 2}, {"agent": "random", "count": 5}]},
}
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def _folder(tmp_path: Path, game: str) -> tuple[Path, dict]:
    spec = parse_spec(SPECS[game])
    from ops.tournament.runner import _check_meta

    store = Store(tmp_path)
    _check_meta(store, spec)
    rows = BatchPlayer(str(tmp_path), spec.model_dump(mode="json"), "t-r001").play(list(range(spec.games)))
    store.add(rows)
    report = build_report(store)
    store.close()
    return tmp_path, report


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in NUMBER.findall(text)}


@pytest.mark.parametrize("game", sorted(SPECS))
def test_every_text_number_is_in_the_html_and_links_resolve(tmp_path, game):
    folder, report = _folder(tmp_path, game)
    text = format_text(report)
    page = format_html(report)
    shown = re.sub(r"<[^>]+>", " ", page)
    missing = sorted(_numbers(text) - _numbers(shown))
    assert not missing, f"numbers of the text report missing from the HTML: {missing}"
    assert write_game_pages(str(folder), report, str(folder)) == len(report["games_listed"]) > 0
    links = re.findall(r'href="([^"]+)"', page)
    assert len(links) == len(report["games_listed"])
    for link in links:
        target = folder / link
        assert target.is_file() and target.read_text().startswith("<!doctype html>")


def test_a_cooperative_game_is_reported_by_score(tmp_path):
    _, report = _folder(tmp_path, "hanabi")
    assert report["cooperative"] and report["format"] == 2
    assert report["head_to_head"] == {} and report["rating_history"] == []
    assert all("mean_rank" not in a and "rating" not in a for a in report["agents"])
    scores = report["scores"]
    assert sum(scores["histogram"].values()) == 6 and scores["mean_ci"][0] <= scores["mean"] <= scores["mean_ci"][1]
    (ends,) = report["sections"]
    assert [r["label"] for r in ends["rows"]] == ["perfect (25)", "bombed out", "deck out"]
    assert sum(round(r["value"] * r["n"]) for r in ends["rows"]) == 6
    text, page = format_text(report), format_html(report)
    assert "mean rank" not in text and "rating" not in text and "mean rank" not in page
    assert "perfect (25)" in text and "perfect (25)" in page


def test_diplomacy_sections_count_solos_survival_and_centres(tmp_path):
    _, report = _folder(tmp_path, "diplomacy")
    assert not report["cooperative"] and report["game"] == "diplomacy"
    outcome, agents, centres = report["sections"]
    assert [r["n"] for r in outcome["rows"]] == [7, 7]
    assert {r["label"] for r in agents["rows"]} == {"dumbbot: solo", "dumbbot: survived", "random: solo", "random: survived"}
    assert len(centres["rows"]) == 7 and all(0 <= r["value"] <= 18 for r in centres["rows"])
    assert 20 <= sum(r["value"] for r in centres["rows"]) <= 34  # 22 at the start, up to 34 owned
