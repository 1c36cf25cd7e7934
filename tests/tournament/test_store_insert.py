"""The store's columnar insert (`Store.add`) against a plain insert of one parameter per value
and row: the same values in every column, for rows with every kind of value a result row carries
(aborted games without scores, teams, a game's extra facts, the largest seed, unicode names)."""

from __future__ import annotations

import json
import math

from ops.tournament.store import _COLUMNS, _QUOTED, Store, row_values


def _row(i: int, **over) -> dict:
    row = {
        "game_id": f"g{i:08d}", "idx": i, "seed": 2**63 - 1 - i, "seats": ["so", "pr", "så"],
        "agents": [{"name": "random", "options": {}}, {"name": "random", "options": {"offices": ""}},
                   {"name": "heuristic", "options": {"k": 0.1}}],
        "scores": [1.0, 0.0, 1 / 3], "ranks": [1.0, 2.5, 2.5], "winners": [0], "roles": ["a", "b", "c"],
        "steps": 300 + i, "records": 221, "summary": f"p0 wins 'quoted' \"twice\" {i}", "errors": i % 2,
        "duration_ms": 6.25 + i / 7, "segment": "abc-r001-0000.dlog", "offset": 1234 * i, "nbytes": 7000 + i,
        "runner": "abc-r001", "teams": [[0, 2], [1]], "extra": {"days": i, "nested": {"x": [1, 2]}},
        "aborted": None, "blame": None, "seat_errors": [0, i % 2, 0],
    }
    row.update(over)
    return row


ROWS = [
    _row(0),
    _row(1, scores=[None, None, None], ranks=[1.0, 1.0, 3.0], winners=[], aborted="over 5 s", blame=2),
    _row(2, teams=None, extra=None, seat_errors=None, roles=[]),
    _row(3, winners=[0, 1], scores=[0.5, 0.5, 0.0]),
    _row(4, seed=2**64 - 1, summary="emoji \U0001f600, a backslash \\ and a newline\n", seats=["\u00e9\x00", "\u2028", "\U0010ffff"],
         duration_ms=1e-300, scores=[-0.0, 1e308, 0.1 + 0.2]),
]


def _plain_insert(store: Store, rows: list[dict]) -> None:
    """The reference: one `?` per value, one row of them per game."""
    marks = "(" + ", ".join("?" * len(_COLUMNS)) + ")"
    for r in rows:
        values = list(row_values(r))
        store.db.execute(f"insert into games ({_QUOTED}) values {marks}", values)


def _table(store: Store) -> list[tuple]:
    return store.db.execute("select * from games order by idx").fetchall()


def test_columnar_insert_stores_what_a_plain_insert_stores(tmp_path):
    (tmp_path / "ours").mkdir()
    (tmp_path / "plain").mkdir()
    ours, plain = Store(tmp_path / "ours"), Store(tmp_path / "plain")
    assert ours.add(ROWS) == len(ROWS)
    _plain_insert(plain, ROWS)
    got, want = _table(ours), _table(plain)
    assert got == want and len(got) == len(ROWS)
    by_id = {row[0]: dict(zip(_COLUMNS, row)) for row in got}
    assert by_id["g00000001"]["scores"] == [None, None, None] and by_id["g00000001"]["blame"] == 2
    assert by_id["g00000000"]["seed"] == 2**63 - 1 and by_id["g00000002"]["teams"] == [[0], [1], [2]]
    assert by_id["g00000004"]["seed"] == 2**64 - 1 and by_id["g00000004"]["scores"] == [-0.0, 1e308, 0.1 + 0.2]
    assert by_id["g00000004"]["summary"] == ROWS[4]["summary"]
    assert json.loads(by_id["g00000003"]["extra"]) == {"days": 3, "nested": {"x": [1, 2]}}
    # the seats view reads the columnar rows as it reads the others
    view = "select game_id, seat, label, score, win from seats order by all"
    assert ours.db.execute(view).fetchall() == plain.db.execute(view).fetchall()
    ours.close()
    plain.close()


def test_columnar_insert_skips_recorded_games_and_counts_the_new(tmp_path):
    store = Store(tmp_path)
    assert store.add(ROWS[:2]) == 2
    assert store.add(ROWS) == len(ROWS) - 2  # the first two were recorded: identity by game id
    assert store.add([]) == 0
    assert store.count() == len(ROWS) and store.recorded() == set(range(len(ROWS)))
    store.close()


def test_a_game_twice_in_one_write_is_recorded_once_as_it_came_first(tmp_path):
    store = Store(tmp_path)
    again = _row(1, segment="other-r002-0000.dlog", offset=99)  # the same game from another runner
    assert store.add([ROWS[0], ROWS[1], again, ROWS[0]]) == 2
    assert store.count() == 2 and store.locate("g00000001") == (ROWS[1]["segment"], ROWS[1]["offset"])
    nan_twice = [_row(5, duration_ms=float("nan")), _row(5, duration_ms=float("nan"))]  # the list binding too
    assert store.add(nan_twice) == 1 and store.count() == 3
    store.close()


def test_rows_json_has_no_text_for_go_in_as_python_lists(tmp_path):
    """A NaN or an infinity (no JSON text for them) takes the list binding: stored as it is."""
    store = Store(tmp_path)
    rows = [_row(0, duration_ms=float("nan")), _row(1, scores=[float("inf"), float("-inf"), 0.0])]
    assert store.add(rows) == 2
    got = {row[0]: dict(zip(_COLUMNS, row)) for row in _table(store)}
    assert math.isnan(got["g00000000"]["duration_ms"]) and got["g00000001"]["scores"] == [math.inf, -math.inf, 0.0]
    assert got["g00000001"]["summary"] == rows[1]["summary"] and got["g00000001"]["seats"] == ["so", "pr", "så"]
    store.close()
