"""Battle Line's tournament report sections (ops/plugins/battleline/report.py): how games end (1.1
"Win": breakthrough, three adjacent flags; envelopment, any five; ours: a drawn double pass), per
agent its wins of each kind and the flags it claims, and how often the first mover wins."""

from __future__ import annotations

from ops.plugins.battleline.report import report


def _game(winner, how, flags, first):
    return {"winner": winner, "how": how, "flags": flags, "points": [0, 0], "first": first}


def _row(seats, *results):
    return {"seats": seats, "winners": [], "extra": {"points": [0, 0], "games": list(results)}}


def test_sections_count_ends_wins_flags_and_the_first_mover():
    games = [_row(["deep-barca", "naive"], _game(0, "breakthrough", [3, 1], 0)),
             _row(["naive", "deep-barca"], _game(1, "envelopment", [2, 5], 0)),
             _row(["deep-barca", "naive"], _game(None, "double pass", [1, 1], 1)),
             # a series of two: each game of the match counts
             _row(["naive", "deep-barca"], _game(0, "breakthrough", [3, 0], 0), _game(1, "breakthrough", [2, 3], 1))]
    ends, agents, flags, first = report(games)
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


def test_a_tournament_report_carries_the_battleline_sections(tmp_path):
    from ops.tournament.html import format_html
    from ops.tournament.report import build_report, format_text
    from ops.tournament.runner import BatchPlayer, _check_meta
    from ops.tournament.spec import parse_spec
    from ops.tournament.store import Store

    spec = parse_spec({"game": "battleline", "games": 4, "seed": 3, "options": {"tactics": False},
                       "seating": "permute_deal", "lineup": [{"agent": "naive", "count": 1},
                                                             {"agent": "random", "count": 1}]})
    store = Store(tmp_path)
    _check_meta(store, spec)
    store.add(BatchPlayer(str(tmp_path), spec.model_dump(mode="json"), "t-b001").play(list(range(4))))
    built = build_report(store)
    store.close()
    sections = {s["title"].split(" (")[0]: s["rows"] for s in built["sections"]}
    assert sum(round(r["value"] * r["n"]) for r in sections["how games end"]) == 4
    wins = sum(round(r["value"] * r["n"]) for r in sections["per agent"])
    assert wins == sum(round(r["value"] * r["n"]) for r in sections["how games end"][:2])  # every win is of a kind
    text, page = format_text(built), format_html(built)
    assert "naive: won by breakthrough" in text and "won by the seat that moved first" in page
