"""Risk's tournament report sections (ops/plugins/risk/report.py): wins against draws at the round
cap, per agent wins, leads at the cap and survival, territories at the end, game lengths, counted
in the store; checked on hand-made rows and against the per-game Python count they replaced
(`python_report`, kept here as the reference) over real played games."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ops.plugins.risk.report import report
from ops.tournament.sections import Games, mean, rate
from tests.store_rows import full_row, played, same_sections, stored

DECADE = 10


def python_report(games: Any) -> list[dict[str, Any]]:
    """The reference: the sections as the plugin counted them before, iterating every game."""
    n = len(games)
    won = sum(1 for g in games if g["winners"])
    seats: dict[str, list[tuple[bool, bool, bool]]] = defaultdict(list)  # (won, leads at the cap, survived)
    held: dict[str, list[int]] = defaultdict(list)
    rounds, lengths = [], {}
    for g in games:
        extra = g["extra"] or {}
        territories = extra.get("territories") or [0] * len(g["seats"])
        gone = extra.get("eliminated") or [None] * len(g["seats"])
        top = max(territories, default=0)
        for seat, label in enumerate(g["seats"]):
            leads = not g["winners"] and territories[seat] == top and territories.count(top) == 1
            seats[label].append((seat in g["winners"], leads, gone[seat] is None))
            held[label].append(territories[seat])
        if "rounds" in extra:
            rounds.append(extra["rounds"])
            bar = str(-(-extra["rounds"] // DECADE) * DECADE)
            lengths[bar] = lengths.get(bar, 0) + 1
    agents = []
    for label, rows in sorted(seats.items()):
        agents.append(rate(f"{label}: won", sum(w for w, _, _ in rows), len(rows)))
        agents.append(rate(f"{label}: leads at the cap", sum(lead for _, lead, _ in rows), len(rows)))
        agents.append(rate(f"{label}: survived", sum(s for _, _, s in rows), len(rows)))
    return [
        {"title": "outcome (share of games [95% CI] (games))", "histogram": None,
         "rows": [rate("won", won, n), rate("drawn at the round cap", n - won, n)]},
        {"title": "per agent (share of seats played [95% CI] (seats)); leads: a drawn game's sole territory leader",
         "rows": agents, "histogram": None},
        {"title": "territories at the end, per agent (mean [95% CI] (seats))",
         "rows": [mean(label, values) for label, values in sorted(held.items())], "histogram": None},
        {"title": f"rounds played (mean [95% CI] (games)); games per {DECADE} rounds, by the last round",
         "rows": [mean("rounds", rounds)] if rounds else [],
         "histogram": dict(sorted(lengths.items(), key=lambda kv: int(kv[0]))) or None},
    ]


def _row(i, seats, winners, territories, eliminated, rounds):
    return full_row(i, seats, {"territories": territories, "eliminated": eliminated, "rounds": rounds}, winners)


def test_sections_count_wins_leads_at_the_cap_and_survival(tmp_path):
    rows = [_row(0, ["td", "random"], [0], [42, 0], [None, 9], 9),  # td wins in round 9
            _row(1, ["random", "td"], [], [30, 12], [None, None], 60),  # drawn at the cap, random leads
            _row(2, ["td", "random"], [], [21, 21], [None, None], 60),  # drawn, a tie: nobody leads
            full_row(3, ["td", "random"], None, aborted="over 5 s")]  # aborted: not counted
    store = stored(tmp_path, rows)
    outcome, agents, held, length = report(Games(store.db))
    assert [(r["label"], r["value"], r["n"]) for r in outcome["rows"]] == [
        ("won", 1 / 3, 3), ("drawn at the round cap", 2 / 3, 3)]
    values = {r["label"]: r["value"] * r["n"] for r in agents["rows"]}
    assert values == {"random: won": 0, "random: leads at the cap": 1, "random: survived": 2,
                      "td: won": 1, "td: leads at the cap": 0, "td: survived": 3}
    assert {r["label"]: r["value"] for r in held["rows"]} == {"random": 17.0, "td": 25.0}
    assert length["rows"][0]["value"] == 43.0 and length["histogram"] == {"10": 1, "60": 2}
    store.close()


def test_edge_rows_count_as_the_python_count_did(tmp_path):
    """Ties for the lead among three (two of them tied below a sole leader; three tied), a game
    won by a seat that does not lead, 2-player games (the neutral is no entry of `territories`),
    games without territories or eliminations (every seat holds 0 and survives), without rounds,
    and an `extra` of NULL (a store from before extra facts)."""
    rows = [_row(0, ["a", "b", "c"], [], [20, 11, 11], [None, None, None], 40),
            _row(1, ["c", "a", "b"], [], [14, 14, 14], [None, None, None], 40),
            _row(2, ["b", "c", "a"], [], [25, 17, 0], [None, None, 30], 40),
            _row(3, ["a", "b", "c"], [2], [10, 11, 21], [None, None, None], 33),
            _row(4, ["a", "b"], [], [18, 18], [None, None], 40),
            _row(5, ["b", "a"], [1], [0, 30], [12, None], 15),
            full_row(6, ["a", "b"], {"rounds": 40}),
            full_row(7, ["b", "a"], {"territories": [], "eliminated": []}),
            full_row(8, ["a"], {"territories": [], "rounds": 1}),  # one seat: holds 0 and leads
            full_row(9, ["a", "b"], None),
            _row(10, ["a", "b"], [0], [42, 0], [None, 0], 0)]
    store = stored(tmp_path, rows)
    games = Games(store.db)
    got, want = report(games), python_report(list(games))
    assert same_sections(got, want)
    leads = {r["label"]: round(r["value"] * r["n"]) for r in got[1]["rows"] if "leads" in r["label"]}
    assert leads == {"a: leads at the cap": 2, "b: leads at the cap": 1, "c: leads at the cap": 0}
    assert got[0]["rows"][0]["n"] == 11 and got[3]["histogram"] == {"0": 1, "10": 1, "20": 1, "40": 6}
    store.close()


def test_an_empty_store_gives_the_sections_without_games(tmp_path):
    store = stored(tmp_path, [])
    games = Games(store.db)
    got = report(games)
    assert same_sections(got, python_report(list(games)))
    assert got[0]["rows"][0]["n"] == 0 and got[1]["rows"] == [] and got[3] == {
        "title": got[3]["title"], "rows": [], "histogram": None}
    store.close()


def test_sections_counted_in_the_store_equal_the_python_count_over_played_games(tmp_path):
    """Real games: 2-player (with the neutral) and 3-player, caps low enough that some are drawn
    at the cap and some won, eliminations in the 3-player games; both together in one store."""
    (tmp_path / "two").mkdir()
    (tmp_path / "three").mkdir()
    two = played(tmp_path / "two", {"game": "risk", "games": 14, "seed": 5, "options": {"players": 2, "max_rounds": 8},
                                   "seating": "rotate", "lineup": [{"agent": "heuristic", "count": 1},
                                                                   {"agent": "random", "count": 1}]})
    three = played(tmp_path / "three", {"game": "risk", "games": 12, "seed": 7, "options": {"players": 3, "max_rounds": 10},
                                       "seating": "rotate", "lineup": [{"agent": "heuristic", "count": 2},
                                                                       {"agent": "random", "count": 1}]})
    for i, row in enumerate(three):  # fresh ids after the 2-player games
        row.update(game_id=f"g{100 + i:08d}", idx=100 + i)
    assert {bool(r["winners"]) for r in two + three} == {True, False}  # won and drawn at the cap
    assert any(e is not None for r in three for e in r["extra"]["eliminated"])
    assert all(len(r["extra"]["territories"]) == 2 for r in two)  # the neutral holds land but is no seat
    store = stored(tmp_path, two + three)
    games = Games(store.db)
    got, want = report(games), python_report(list(games))
    assert same_sections(got, want)
    assert got[0]["rows"][0]["n"] == 26 and sum(r["n"] for r in got[2]["rows"]) == 2 * 14 + 3 * 12
    store.close()


def test_a_tournament_report_carries_the_risk_sections(tmp_path):
    from ops.tournament.html import format_html
    from ops.tournament.report import build_report, format_text

    spec = {"game": "risk", "games": 4, "seed": 3, "options": {"players": 2, "max_rounds": 8},
            "seating": "rotate", "lineup": [{"agent": "heuristic", "count": 1}, {"agent": "random", "count": 1}]}
    store = stored(tmp_path, played(tmp_path, spec, "t-r001"))
    built = build_report(store)
    store.close()
    titles = [s["title"] for s in built["sections"]]
    assert len(titles) == 4 and titles[0].startswith("outcome")
    outcome = built["sections"][0]["rows"]
    assert sum(round(r["value"] * r["n"]) for r in outcome) == 4
    text, page = format_text(built), format_html(built)
    assert "heuristic: leads at the cap" in text and "drawn at the round cap" in page
