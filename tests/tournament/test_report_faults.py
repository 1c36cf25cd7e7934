"""A tournament's report names an unlabelled external agent by what its handshake said (its label
beside it) and carries, per agent, its error events: count by category, and the first with its
game and seq, the same facts `detente play` prints per seat."""

from __future__ import annotations

import sys

from ops.tournament.report import build_report, format_text
from ops.tournament.runner import run_tournament
from ops.tournament.spec import game_id, parse_spec
from ops.tournament.store import Store, load_game
from tests.external.conftest import MISBEHAVING

GAMES = 4


def test_the_report_names_the_external_agent_by_its_hello_and_counts_its_errors(tmp_path):
    spec = parse_spec({"game": "battleline", "games": GAMES, "seed": 11, "seating": "rotate", "lineup": [
        {"agent": "exec", "options": {"cmd": [sys.executable, str(MISBEHAVING), "illegal", "3"], "stderr": "discard"}},
        {"agent": "random"}]})
    summary = run_tournament(spec, tmp_path, runners=0)
    assert summary.recorded_now == GAMES and not summary.failed
    errors, first = [], None
    for i in range(GAMES):
        game = load_game(tmp_path, game_id(i))[0]
        mine = [r for r in game.records if r["msg"]["kind"] == "error"]
        assert mine and all(r["msg"]["category"] == "illegal_action" for r in mine)
        errors += mine
        first = first or (game_id(i), mine[0])
    with Store(tmp_path, read_only=True) as store:
        report = build_report(store)
    by = {a["agent"]: a for a in report["agents"]}
    label = next(name for name in by if name != "random")
    assert label.startswith("exec:") and set(by) == {label, "random"}  # the label the spec defaulted to
    assert by[label]["name"].startswith("misbehaving-illegal ") and by[label]["name"].endswith(f" ({label})")
    assert by["random"]["name"] == "random" and by["random"]["errors"] is None
    errs = by[label]["errors"]
    assert errs["count"] == len(errors) and errs["games"] == GAMES
    assert errs["by_category"] == {"illegal_action": len(errors)}
    assert (errs["first"]["game_id"], errs["first"]["seq"]) == (first[0], first[1]["seq"])
    text = format_text(report)
    assert f"{by[label]['name']}: {len(errors)} errors in {GAMES} games (illegal_action {len(errors)}); " \
           f"first in {first[0]} at seq {first[1]['seq']}, illegal_action by " in text
    table = text.splitlines()[2:6]
    assert any(row.startswith(by[label]["name"]) for row in table)  # the agent table names it by its hello too
