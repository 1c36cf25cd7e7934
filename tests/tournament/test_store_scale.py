"""The store benchmark (ops/bench/store.py) run at 10^4 games, with correctness asserts instead
of timings: a store built from 200 played games replicated with fresh ids, every replica a game
of its own that reads and verifies; loading games by id; the resume scan of the finished run
(nothing to play, no Ray started); `tournament report` (numbers as the seat rows give them, the
ratings as rating all 10^4 games from scratch, the same again once they are kept), and a report
after more games were added."""

from __future__ import annotations

import json
import random

import pytest

from ops.bench import store as bench
from ops.tournament import ratings
from ops.tournament.store import LOGS, Store, load_game
from replay.verify import verify_game

GAMES, SOURCES = 10_000, 200


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("store")
    bench.build(out, GAMES, SOURCES, workers=2)
    return out


def test_replicas_are_games_of_their_own(folder):
    with Store(folder, read_only=True) as store:
        assert store.count() == GAMES and store.recorded_below(GAMES) == GAMES
        rows = store.db.execute("select idx, game_id, seed, steps, nbytes, runner from games order by idx").fetchall()
    assert [r[0] for r in rows] == list(range(GAMES))
    assert {r[5] for r in rows[:SOURCES]} == {"source"} and {r[5] for r in rows[SOURCES:]} == {"replica"}
    for idx in random.Random(3).sample(range(SOURCES, GAMES), 3):
        game, bad = load_game(folder, rows[idx][1])
        source, _ = load_game(folder, rows[idx % SOURCES][1])
        assert bad is None and game.header["game_id"] == rows[idx][1] and game.header["seed"] == rows[idx][2]
        assert len(game.records) == len(source.records) and rows[idx][3] == rows[idx % SOURCES][3]
        assert all(r["game"] == rows[idx][1] for r in game.records)
        assert verify_game(game).ok


def test_load_by_id(folder):
    times = bench.load_times(folder, GAMES, samples=50)  # asserts each game is whole and the one asked for
    assert len(times) == 50 and bench.percentile(times, 0.95) >= bench.percentile(times, 0.5)
    assert len(bench.load_times(folder, GAMES, samples=5, through_store=True)) == 5


def test_resume_scan_of_the_finished_run(folder):
    _, summary = bench.resume_scan(folder, GAMES)
    assert summary.recorded_before == GAMES and summary.recorded_now == 0 and summary.runners == 0


def test_report_at_ten_thousand_games(folder, capsys):
    from ops.cli import main

    printed = []
    for _ in range(2):  # rated and kept, then read from what was kept
        assert main(["tournament", "report", str(folder), "--format", "json"]) == 0
        printed.append(json.loads(capsys.readouterr().out))
    first, second = printed
    assert first == second and first["games"] == GAMES
    with Store(folder, read_only=True) as store:
        assert json.loads(store.get_meta(ratings.META))["through"] == GAMES
        seats = dict(store.db.execute("select label, count(*) from seats group by label").fetchall())
        wins = dict(store.db.execute("select label, count(*) filter (where win) from seats group by label").fetchall())
        rows = store.db.execute("select seats, ranks, teams from games where aborted is null order by idx").fetchall()
    by = {a["agent"]: a for a in first["agents"]}
    assert {label: a["seats"] for label, a in by.items()} == seats
    assert all(a["win_rate"] == wins[label] / seats[label] for label, a in by.items())
    labels = [e["label"] for e in bench.SPEC["lineup"]]
    for a in labels:  # five labels, one seat each, in every game: every pair meets in every game
        assert {b: first["head_to_head"][a][b]["meetings"] for b in labels if b != a} == {b: GAMES for b in labels if b != a}
    games = []
    for seats_, ranks, teams in rows:
        teams = teams or [[s] for s in range(len(seats_))]
        games.append(([[seats_[s] for s in t] for t in teams], [min(ranks[s] for s in t) for t in teams]))
    table, history = ratings.from_scratch(games)
    assert first["rating_history"] == history
    assert {label: by[label]["rating"] for label in table} == table


def test_a_report_after_more_games_rates_only_them(folder, capsys, monkeypatch):
    from ops.cli import main

    # the first games rated and kept (by the test above, or here when it ran in another worker)
    assert main(["tournament", "report", str(folder), "--format", "json"]) == 0
    capsys.readouterr()
    bench.replicate(folder, GAMES, GAMES + 500, workers=1)
    calls = []
    real = ratings.Rater.rate
    monkeypatch.setattr(ratings.Rater, "rate", lambda self, t, r: calls.append(1) or real(self, t, r))
    assert main(["tournament", "report", str(folder), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == GAMES + 500 and len(calls) == 500
    assert (folder / LOGS).is_dir()
