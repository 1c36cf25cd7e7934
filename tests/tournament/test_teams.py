"""Teams in tournaments: seating keeps partners together, reports give team win rates and rate
teams. The game is partnership Dominoes: teams (0, 2) and (1, 3)."""

from __future__ import annotations

from collections import Counter

import pytest

from actors.match import OptionsError
from games.registry import get_game
from ops.tournament.report import build_report, format_text, wilson
from ops.tournament.runner import BatchPlayer
from ops.tournament.spec import check_options, parse_spec, rotate_teams
from ops.tournament.store import Store

PAIRS = ((0, 2), (1, 3))
SPEC = {
    "game": "dominoes",
    "games": 8,
    "seed": 3,
    "options": {"target": 20},
    # the lineup a, b, a, b: seats 0 and 2 (partners) play `a`, seats 1 and 3 play `b`
    "lineup": [{"agent": "random", "label": "a"}, {"agent": "random", "label": "b", "options": {"width": 1}},
               {"agent": "random", "label": "a"}, {"agent": "random", "label": "b", "options": {"width": 1}}],
}


def test_rotation_keeps_partners_and_balances_team_positions():
    """Over a block of 4 games each label holds each team and each seat equally often, and
    partners always share a label."""
    block = [rotate_teams(["a", "b", "a", "b"], PAIRS, i) for i in range(4)]
    for seated in block:
        assert all(seated[x] == seated[y] for x, y in PAIRS)
    teams_held = Counter((seated[team[0]], t) for seated in block for t, team in enumerate(PAIRS))
    assert teams_held == {("a", 0): 2, ("a", 1): 2, ("b", 0): 2, ("b", 1): 2}
    seats_held = Counter((label, seat) for seated in block for seat, label in enumerate(seated))
    assert set(seats_held.values()) == {2} and len(seats_held) == 8


def test_rotation_without_teams_is_the_plain_rotation():
    seats = list("abcdefg")
    singles = tuple((s,) for s in range(7))
    for i in range(10):
        shift = i % 7
        assert rotate_teams(seats, singles, i) == seats[shift:] + seats[:shift]
        assert rotate_teams(seats, (tuple(range(7)),), i) == seats[shift:] + seats[:shift]  # one team


def test_teams_remembered_per_options_are_the_games_own_and_bad_options_stay_refused():
    spec = parse_spec(SPEC)
    assert spec.teams() == spec.teams() == get_game("dominoes").teams(check_options("dominoes", SPEC["options"]))
    bad = spec.model_copy(update={"options": {"target": "20"}})  # a string for a number
    for _ in range(2):  # a refusal is not remembered as an answer
        with pytest.raises(OptionsError, match="target"):
            bad.teams()


def test_spec_seats_teams_and_the_report_rates_them(tmp_path):
    spec = parse_spec(SPEC)
    assert spec.teams() == PAIRS
    plans = [spec.game_plan(i)[1] for i in range(8)]
    assert all(p[x].name == p[y].name for p in plans for x, y in PAIRS)
    player = BatchPlayer(str(tmp_path), spec.model_dump(mode="json"), "t-r001")
    rows = player.play(list(range(8)))
    assert all(r["teams"] == [[0, 2], [1, 3]] for r in rows)
    store = Store(tmp_path)
    store.add(rows)
    report = build_report(store)
    store.close()
    teams = {t["team"]: t for t in report["teams"]}
    assert set(teams) == {"a", "b"} and teams["a"]["games"] == teams["b"]["games"] == 8
    assert teams["a"]["wins"] + teams["b"]["wins"] <= 8  # one pair wins a match (or none: a draw)
    wins = teams["a"]["wins"]
    rate, lo, hi = wilson(wins, 8)
    assert teams["a"]["win_rate"] == rate and teams["a"]["win_rate_ci"] == [lo, hi]
    assert {pos: b["games"] for pos, b in teams["a"]["by_position"].items()} == {"0": 4, "1": 4}
    assert report["agents"][0]["rating"]["sigma"] < 25 / 3  # rated as teams
    assert "teams: win rate" in format_text(report)
