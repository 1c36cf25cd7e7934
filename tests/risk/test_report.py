"""Risk's tournament report sections (ops/plugins/risk/report.py): wins against draws at the round
cap, per agent wins, leads at the cap and survival, territories at the end, game lengths."""

from __future__ import annotations

from ops.plugins.risk.report import report


def _row(seats, winners, territories, eliminated, rounds):
    return {"seats": seats, "winners": winners, "extra": {"territories": territories, "eliminated": eliminated,
                                                          "rounds": rounds}}


def test_sections_count_wins_leads_at_the_cap_and_survival():
    games = [_row(["td", "random"], [0], [42, 0], [None, 9], 9),  # td wins in round 9
             _row(["random", "td"], [], [30, 12], [None, None], 60),  # drawn at the cap, random leads
             _row(["td", "random"], [], [21, 21], [None, None], 60)]  # drawn, a tie: nobody leads
    outcome, agents, held, length = report(games)
    assert [(r["label"], r["value"], r["n"]) for r in outcome["rows"]] == [
        ("won", 1 / 3, 3), ("drawn at the round cap", 2 / 3, 3)]
    values = {r["label"]: r["value"] * r["n"] for r in agents["rows"]}
    assert values == {"random: won": 0, "random: leads at the cap": 1, "random: survived": 2,
                      "td: won": 1, "td: leads at the cap": 0, "td: survived": 3}
    assert {r["label"]: r["value"] for r in held["rows"]} == {"random": 17.0, "td": 25.0}
    assert length["rows"][0]["value"] == 43.0 and length["histogram"] == {"10": 1, "60": 2}


def test_a_tournament_report_carries_the_risk_sections(tmp_path):
    from ops.tournament.html import format_html
    from ops.tournament.report import build_report, format_text
    from ops.tournament.runner import BatchPlayer, _check_meta
    from ops.tournament.spec import parse_spec
    from ops.tournament.store import Store

    spec = parse_spec({"game": "risk", "games": 4, "seed": 3, "options": {"players": 2, "max_rounds": 8},
                       "seating": "rotate", "lineup": [{"agent": "heuristic", "count": 1}, {"agent": "random", "count": 1}]})
    store = Store(tmp_path)
    _check_meta(store, spec)
    store.add(BatchPlayer(str(tmp_path), spec.model_dump(mode="json"), "t-r001").play(list(range(4))))
    built = build_report(store)
    store.close()
    titles = [s["title"] for s in built["sections"]]
    assert len(titles) == 4 and titles[0].startswith("outcome")
    outcome = built["sections"][0]["rows"]
    assert sum(round(r["value"] * r["n"]) for r in outcome) == 4
    text, page = format_text(built), format_html(built)
    assert "heuristic: leads at the cap" in text and "drawn at the round cap" in page
