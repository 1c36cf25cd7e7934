"""What a random agent's decision costs in log format 3 (docs/design.md, "The cost of a decision"):
its President asks its random Strategy Office by a direct call (no office request or reply on the
bus) and draws the very same actions as in format 2, where the advice crossed the bus; the log
still verifies, and a format-2 header still gives the format-2 records."""

from __future__ import annotations

import pytest

from actors.match import make_header, record
from actors.registry import parse_lineup
from bus.log import parse_log
from replay.verify import verify_game


def _game(name: str, players: int, options: dict, version: int):
    header = {"format": version, **make_header(name, 5, parse_lineup("random", players), options)}
    return parse_log(record(header)).games[0]


@pytest.mark.parametrize("name, players, options", [("dominoes", 4, {"target": 1}), ("werewolves", 7, {"players": 7})])
def test_format_3_random_decisions_send_no_office_messages_and_play_the_same(name, players, options):
    old, new = _game(name, players, options, 2), _game(name, players, options, 3)
    kinds = {r["msg"]["kind"] for r in new.records}
    assert "office_request" in {r["msg"]["kind"] for r in old.records}
    assert not kinds & {"office_request", "office_reply"}
    acts = [(r["msg"]["sender"], r["msg"]["turn"], r["msg"]["action"]) for r in old.records if r["msg"]["kind"] == "act"]
    assert acts == [(r["msg"]["sender"], r["msg"]["turn"], r["msg"]["action"]) for r in new.records if r["msg"]["kind"] == "act"]
    assert old.records[-1]["msg"]["returns"] == new.records[-1]["msg"]["returns"]
    assert verify_game(new).ok and verify_game(old).ok
