"""Battle Line's tournament report sections (ops/plugins/battleline/report.py): how games end (1.1
"Win": breakthrough, three adjacent flags; envelopment, any five; ours: a drawn double pass), per
agent its wins of each kind and the flags it claims, and how often the first mover wins, counted
in the store; checked on hand-made rows and against the per-game Python count they replaced
(`python_report`, kept here as the reference) over real played games and series."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ops.plugins.battleline.report import ENDS, report
from ops.tournament.sections import Games, mean, rate
from tests.store_rows import full_row, played, same_sections, stored


def python_report(games: Any) -> list[dict[str, Any]]:
    """The reference: the sections as the plugin counted them before, iterating every game."""
    ends: dict[str, int] = defaultdict(int)
    won: dict[tuple[str, str], int] = defaultdict(int)  # (agent, how) -> games it won so
    seats: dict[str, int] = defaultdict(int)  # agent -> games of Battle Line it played
    flags: dict[str, list[int]] = defaultdict(list)
    first_won = decided = 0
    for g in games:
        labels = g["seats"]
        for result in (g["extra"] or {}).get("games", []):
            how, winner = result["how"], result["winner"]
            ends[how] += 1
            for seat, label in enumerate(labels):
                seats[label] += 1
                flags[label].append(result["flags"][seat])
            if winner is not None:
                won[(labels[winner], how)] += 1
                decided += 1
                first_won += winner == result["first"]
    n = sum(ends.values())
    agents = []
    for label in sorted(seats):
        agents.append(rate(f"{label}: won by breakthrough", won[(label, "breakthrough")], seats[label]))
        agents.append(rate(f"{label}: won by envelopment", won[(label, "envelopment")], seats[label]))
    return [
        {"title": "how games end (share of games [95% CI] (games))", "histogram": None,
         "rows": [rate(how, ends.get(how, 0), n) for how in ENDS]
         + [rate(how, count, n) for how, count in sorted(ends.items()) if how not in ENDS]},
        {"title": "per agent (share of the games it played [95% CI] (games))", "rows": agents, "histogram": None},
        {"title": "flags claimed a game, per agent (mean [95% CI] (games))",
         "rows": [mean(label, values) for label, values in sorted(flags.items())], "histogram": None},
        {"title": "the first mover (share of decided games [95% CI] (games))", "histogram": None,
         "rows": [rate("won by the seat that moved first", first_won, decided)]},
    ]


def _game(winner, how, flags, first):
    return {"winner": winner, "how": how, "flags": flags, "points": [0, 0], "first": first}


def _row(i, seats, *results):
    return full_row(i, seats, {"points": [0, 0], "games": list(results)})


def test_sections_count_ends_wins_flags_and_the_first_mover(tmp_path):
    rows = [_row(0, ["deep-barca", "naive"], _game(0, "breakthrough", [3, 1], 0)),
            _row(1, ["naive", "deep-barca"], _game(1, "envelopment", [2, 5], 0)),
            _row(2, ["deep-barca", "naive"], _game(None, "double pass", [1, 1], 1)),
            # a series of two: each game of the match counts
            _row(3, ["naive", "deep-barca"], _game(0, "breakthrough", [3, 0], 0), _game(1, "breakthrough", [2, 3], 1)),
            full_row(4, ["naive", "deep-barca"], None, aborted="over 5 s")]  # aborted: not counted
    store = stored(tmp_path, rows)
    ends, agents, flags, first = report(Games(store.db))
    assert [(r["label"], round(r["value"] * r["n"]), r["n"]) for r in ends["rows"]] == [
        ("breakthrough", 3, 5), ("envelopment", 1, 5), ("double pass", 1, 5)]
    won = {r["label"]: (round(r["value"] * r["n"]), r["n"]) for r in agents["rows"]}
    assert won == {"deep-barca: won by breakthrough": (2, 5), "deep-barca: won by envelopment": (1, 5),
                   "naive: won by breakthrough": (1, 5), "naive: won by envelopment": (0, 5)}
    # deep-barca claimed 3, 5, 1, then 0 and 3; naive 1, 2, 1, then 3 and 2
    assert {r["label"]: r["value"] for r in flags["rows"]} == {"deep-barca": 12 / 5, "naive": 9 / 5}
    assert all(lo <= r["value"] <= hi for r in agents["rows"] + ends["rows"] for lo, hi in [r["ci"]])
    # four decided games; the first mover won the first (seat 0 moved first) and both of the series
    assert (round(first["rows"][0]["value"] * 4), first["rows"][0]["n"]) == (3, 4)
    store.close()


def test_edge_rows_count_as_the_python_count_did(tmp_path):
    """A series of three with a drawn game inside, a label playing itself (both seats one agent),
    an end of a kind outside ENDS (listed after them), a match with no games recorded, a NULL
    extra (a store from before extra facts), and nothing decided for one agent."""
    rows = [_row(0, ["a", "b"], _game(0, "breakthrough", [3, 2], 1), _game(None, "double pass", [2, 2], 0),
                 _game(1, "envelopment", [1, 5], 1)),
            _row(1, ["a", "a"], _game(1, "breakthrough", [0, 3], 0), _game(0, "envelopment", [5, 4], 1)),
            _row(2, ["c", "b"], _game(None, "double pass", [4, 4], 0), _game(0, "timeout", [2, 1], 0)),
            _row(3, ["b", "c"]),
            full_row(4, ["c", "a"], None),
            full_row(5, ["a", "c"], {})]
    store = stored(tmp_path, rows)
    games = Games(store.db)
    got, want = report(games), python_report(list(games))
    assert same_sections(got, want)
    assert [r["label"] for r in got[0]["rows"]] == ["breakthrough", "envelopment", "double pass", "timeout"]
    assert got[0]["rows"][0]["n"] == 7 and got[3]["rows"][0]["n"] == 5
    assert {r["label"]: r["n"] for r in got[2]["rows"]} == {"a": 7, "b": 5, "c": 2}
    store.close()


def test_an_empty_store_gives_the_sections_without_games(tmp_path):
    store = stored(tmp_path, [])
    games = Games(store.db)
    got = report(games)
    assert same_sections(got, python_report(list(games)))
    assert [r["n"] for r in got[0]["rows"]] == [0, 0, 0] and got[1]["rows"] == got[2]["rows"] == []
    store.close()


def test_sections_counted_in_the_store_equal_the_python_count_over_played_games(tmp_path):
    """Real games: single games and series of three (several games a match, the first move
    alternating), three agents in one store."""
    (tmp_path / "one").mkdir()
    (tmp_path / "series").mkdir()
    lineup = [{"agent": "naive", "count": 1}, {"agent": "random", "count": 1}]
    one = played(tmp_path / "one", {"game": "battleline", "games": 12, "seed": 3, "options": {"tactics": False},
                                   "seating": "permute_deal", "lineup": lineup})
    series = played(tmp_path / "series", {"game": "battleline", "games": 6, "seed": 4,
                                         "options": {"tactics": False, "series": 3}, "seating": "permute_deal",
                                         "lineup": [{"agent": "naive", "count": 1}, {"agent": "deep-barca", "count": 1}]})
    for i, row in enumerate(series):  # fresh ids after the single games
        row.update(game_id=f"g{100 + i:08d}", idx=100 + i)
    assert all(len(r["extra"]["games"]) == 3 for r in series)
    assert {g["first"] for r in series for g in r["extra"]["games"]} == {0, 1}
    store = stored(tmp_path, one + series)
    games = Games(store.db)
    got, want = report(games), python_report(list(games))
    assert same_sections(got, want)
    assert sum(r["n"] for r in got[2]["rows"]) == 2 * (12 + 3 * 6)
    store.close()


def test_a_tournament_report_carries_the_battleline_sections(tmp_path):
    from ops.tournament.html import format_html
    from ops.tournament.report import build_report, format_text

    spec = {"game": "battleline", "games": 4, "seed": 3, "options": {"tactics": False},
            "seating": "permute_deal", "lineup": [{"agent": "naive", "count": 1}, {"agent": "random", "count": 1}]}
    store = stored(tmp_path, played(tmp_path, spec, "t-b001"))
    built = build_report(store)
    store.close()
    sections = {s["title"].split(" (")[0]: s["rows"] for s in built["sections"]}
    assert sum(round(r["value"] * r["n"]) for r in sections["how games end"]) == 4
    wins = sum(round(r["value"] * r["n"]) for r in sections["per agent"])
    assert wins == sum(round(r["value"] * r["n"]) for r in sections["how games end"][:2])  # every win is of a kind
    text, page = format_text(built), format_html(built)
    assert "naive: won by breakthrough" in text and "won by the seat that moved first" in page
