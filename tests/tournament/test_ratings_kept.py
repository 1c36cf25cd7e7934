"""Ratings kept with the store (ops/tournament/ratings.py): a report rates only the games recorded
since the last one, and its ratings and history are exactly (float for float) those of rating
every played game from scratch in game order: after a resumed run that added games, with games
recorded out of order (the prefix not contiguous yet), across changes of the history's stride,
with aborted and one-team games, from a read-only store, chunk by chunk, and when the stored
checkpoint is not to be trusted."""

from __future__ import annotations

import json
import random

import pytest

from ops.tournament import ratings
from ops.tournament.report import build_report
from ops.tournament.store import Store

LABELS = ("a", "b", "c", "d")


def _rows(indices, seed: int = 7) -> list[dict]:
    """Synthetic recorded games: 2-5 seats of random labels and ranks; some in pairs (teams), some
    one team (rates nobody), some aborted (not rated)."""
    out = []
    for idx in indices:
        rng = random.Random(seed * 1_000_003 + idx)
        n = rng.randint(2, 5)
        seats = [rng.choice(LABELS) for _ in range(n)]
        kind = rng.random()
        teams = [[0, 1], list(range(2, n))] if kind < 0.25 and n >= 4 else [list(range(n))] if kind < 0.3 else None
        ranks = [float(rng.randint(1, n)) for _ in range(n)]
        aborted = "over its time budget" if rng.random() < 0.05 else None
        out.append({
            "game_id": f"g{idx:08d}", "idx": idx, "seed": idx, "seats": seats, "agents": [{"name": "random"}] * n,
            "scores": [None] * n if aborted else [float(-r) for r in ranks], "ranks": ranks,
            "winners": [] if aborted else [s for s in range(n) if ranks[s] == min(ranks)], "roles": [], "steps": 10,
            "records": 20, "summary": "synthetic", "errors": 0, "duration_ms": 1.0, "segment": "none.dlog",
            "offset": 12, "nbytes": 1, "runner": "t", "teams": teams, "extra": {}, "aborted": aborted,
            "blame": 0 if aborted else None, "seat_errors": [0] * n})
    return out


def _teams_of(seats, ranks, teams):
    """A game as it is rated: each team's labels and its rank (the best of its seats')."""
    teams = teams or [[s] for s in range(len(seats))]
    return [[seats[s] for s in t] for t in teams], [min(ranks[s] for s in t) for t in teams]


def _from_scratch(store: Store):
    """The reference: every played game of the store rated in game order, from nothing."""
    rows = store.db.execute("select seats, ranks, teams from games where aborted is null order by idx").fetchall()
    return ratings.from_scratch([_teams_of(*row) for row in rows])


def _report_equals_from_scratch(store: Store, counted: list | None = None) -> dict:
    """The report's ratings equal the reference's; with `counted`, it is left holding one entry
    per game the report (not the reference) rated."""
    report = build_report(store)
    rated = len(counted) if counted is not None else 0
    table, history = _from_scratch(store)
    assert report["rating_history"] == history  # == on floats: bit for bit
    assert {a["agent"]: a["rating"] for a in report["agents"]} == {label: table.get(label) for label in table}
    if counted is not None:
        del counted[rated:]
    return report


def _kept(store: Store) -> dict:
    return json.loads(store.get_meta(ratings.META))


@pytest.fixture
def counted(monkeypatch):
    """How many games each report rates (calls of Rater.rate)."""
    calls = []
    real = ratings.Rater.rate

    def rate(self, teams, ranks):
        calls.append(1)
        return real(self, teams, ranks)

    monkeypatch.setattr(ratings.Rater, "rate", rate)
    return calls


def _played(rows) -> int:
    return sum(1 for r in rows if not r["aborted"])


def test_a_report_after_a_resumed_run_rates_only_the_new_games(tmp_path, counted):
    first, more = _rows(range(60)), _rows(range(60, 140))
    with Store(tmp_path) as store:
        store.add(first)
        _report_equals_from_scratch(store, counted)
        assert _kept(store)["through"] == 60 and len(counted) == _played(first)
        counted.clear()
        store.add(more)  # the resumed run records its games
        _report_equals_from_scratch(store, counted)
        assert _kept(store)["through"] == 140 and len(counted) == _played(more)
        counted.clear()
        _report_equals_from_scratch(store, counted)  # nothing new: nothing rated
        assert counted == []


def test_games_recorded_out_of_order_are_kept_once_the_gap_is_filled(tmp_path, counted):
    early, late, gap = _rows(range(30)), _rows(range(40, 60)), _rows(range(30, 40))
    with Store(tmp_path) as store:
        store.add(early + late)  # games 30..39 not yet recorded: 40..59 may not be stored yet
        _report_equals_from_scratch(store)
        assert _kept(store)["through"] == 30
        counted.clear()
        _report_equals_from_scratch(store, counted)  # 40..59 are rated again, on top of the stored 0..29
        assert len(counted) == _played(late)
        counted.clear()
        store.add(gap)
        _report_equals_from_scratch(store, counted)
        assert _kept(store)["through"] == 60 and len(counted) == _played(gap) + _played(late)


def test_kept_ratings_stay_exact_as_the_history_stride_grows(tmp_path):
    with Store(tmp_path) as store:
        for lo, hi in ((0, 150), (150, 450), (450, 700), (700, 1000)):  # strides 1, 2, 4 and 8 over the played games
            store.add(_rows(range(lo, hi)))
            report = _report_equals_from_scratch(store)
        assert ratings.stride(store.db.execute("select count(*) from games where aborted is null").fetchone()[0]) == 8
        assert len(report["rating_history"]) <= ratings.POINTS + 1


def test_update_in_chunks_keeps_what_one_report_keeps(tmp_path):
    rows = _rows(range(90))
    for name in ("report", "chunks"):
        (tmp_path / name).mkdir()
        with Store(tmp_path / name) as store:
            store.add(rows)
            if name == "report":
                build_report(store)
        if name == "chunks":
            assert ratings.update(tmp_path / name, chunk=7) == _played(rows)
    kept = {}
    for name in ("report", "chunks"):
        with Store(tmp_path / name, read_only=True) as store:
            kept[name] = (_kept(store), store.db.execute("select * from ratings order by label").fetchall(),
                          store.db.execute("select * from rating_points order by game, label").fetchall())
            _report_equals_from_scratch(store)
    assert kept["report"] == kept["chunks"]


def test_a_read_only_report_rates_the_same_and_keeps_nothing(tmp_path, counted):
    rows = _rows(range(50))
    with Store(tmp_path) as store:
        store.add(rows)
    with Store(tmp_path, read_only=True) as store:
        _report_equals_from_scratch(store)
        assert store.get_meta(ratings.META) is None and store.db.execute("select count(*) from ratings").fetchone()[0] == 0


def test_the_cli_report_keeps_ratings_and_prints_the_same(tmp_path, capsys):
    from ops.cli import main

    with Store(tmp_path) as store:
        store.add(_rows(range(40)))
    printed = []
    for _ in range(2):
        assert main(["tournament", "report", str(tmp_path), "--format", "json"]) == 0
        printed.append(json.loads(capsys.readouterr().out))
        with Store(tmp_path, read_only=True) as store:
            assert _kept(store)["through"] == 40
    assert printed[0] == printed[1]
    with Store(tmp_path, read_only=True) as store:
        _, history = _from_scratch(store)
    assert printed[1]["rating_history"] == history


@pytest.mark.parametrize("tamper", ["model", "edited"])
def test_a_checkpoint_not_to_be_trusted_is_rated_again(tmp_path, counted, tamper):
    rows = _rows(range(40))
    with Store(tmp_path) as store:
        store.add(rows)
        build_report(store)
        if tamper == "model":  # made under another library version or model
            info = {**_kept(store), "model": "openskill 0.0 PlackettLuce()"}
            store.set_meta(ratings.META, json.dumps(info))
        else:  # the store no longer holds the games it covers (edited by hand)
            store.db.execute("update games set aborted = 'edited' where idx = 3")
        counted.clear()
        _report_equals_from_scratch(store, counted)
        assert len(counted) == _played(rows) - (tamper == "edited" and not rows[3]["aborted"])
        assert _kept(store)["model"] == ratings.model_name()


def test_rating_on_from_a_stored_state_is_bit_identical_to_rating_from_scratch():
    import duckdb

    games = [_teams_of(r["seats"], r["ranks"], r["teams"]) for r in _rows(range(300))]
    whole = ratings.Rater()
    for teams, ranks in games:
        whole.rate(teams, ranks)
    db = duckdb.connect()
    db.execute("create table ratings (label varchar primary key, mu double, sigma double)")
    for cut in (1, 77, 150, 299):
        first = ratings.Rater()
        for teams, ranks in games[:cut]:
            first.rate(teams, ranks)
        db.execute("delete from ratings")
        for label, (mu, sigma) in first.snapshot().items():
            db.execute("insert into ratings values (?, ?, ?)", [label, mu, sigma])
        resumed = ratings.Rater({l: (mu, s) for l, mu, s in db.execute("select * from ratings").fetchall()})
        for teams, ranks in games[cut:]:
            resumed.rate(teams, ranks)
        assert resumed.snapshot() == whole.snapshot()


@pytest.mark.ray
def test_the_report_after_a_real_resumed_run(tmp_path, capsys, counted, local_ray):
    """A run of 40 games, its report; the same tournament resumed to 70 games, its report: the
    second rates the 30 new games only, and both equal rating from scratch."""
    from ops.cli import main
    from ops.tournament.runner import run_tournament
    from ops.tournament.spec import load_spec

    for games, new in ((40, 40), (70, 30)):
        assert run_tournament(load_spec("ops/examples/werewolves.toml", games=games), tmp_path).recorded_now == new
        counted.clear()
        assert main(["tournament", "report", str(tmp_path), "--format", "json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert len(counted) == new  # every game of the example is played to its end: none aborted
        with Store(tmp_path, read_only=True) as store:
            table, history = _from_scratch(store)
            assert _kept(store)["through"] == games
        assert report["rating_history"] == history
        assert {a["agent"]: a["rating"] for a in report["agents"]} == table
