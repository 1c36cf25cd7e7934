"""replay fork: the same game up to a point, then other agents; the fork log is self-contained."""

from __future__ import annotations

import pytest

from actors.match import record
from actors.registry import AgentSpec, parse_lineup
from bus.log import parse_log
from replay.conformance import play_to_bytes
from replay.fork import ForkError, fork_header
from replay.verify import verify_game


def _fork(original, at, lineup):
    header = fork_header(original, at, parse_lineup(lineup, 10))
    return parse_log(record(header)).games[0]


@pytest.mark.parametrize("version", [2, 3])
def test_fork_keeps_the_prefix_and_switches_at_the_next_decision(version):
    from actors.match import make_header

    header = {"format": version, **make_header("werewolves", 6, parse_lineup("random", 10))}
    original = parse_log(record(header)).games[0]
    forked = _fork(original, 40, "random:offices=")  # every seat: a President alone
    assert forked.header["format"] == version  # a fork keeps its original's format
    switch = forked.header["fork"]["at"]
    assert switch > 40
    assert original.records[switch]["msg"]["kind"] in ("act_request", "talk_turn")
    strip = lambda r: {k: v for k, v in r.items() if k != "game"}  # noqa: E731
    assert [strip(r) for r in forked.records[:switch]] == [strip(r) for r in original.records[:switch]]
    after = [r["msg"] for r in forked.records[switch:]]
    assert after and not any(m["kind"] == "office_request" for m in after)  # the new agents have no office
    # format 3: the random Strategy Office is asked directly, so its requests are no records either
    assert any(m["kind"] == "office_request" for m in (r["msg"] for r in original.records[switch:])) == (version == 2)
    assert verify_game(forked).ok  # self-contained: the header rebuilds both lineups
    assert forked.header["game_id"] == f"werewolves-6-fork{switch}"


def test_fork_errors():
    original = parse_log(play_to_bytes("werewolves", 6)).games[0]
    with pytest.raises(ForkError, match="same as the original"):
        fork_header(original, 10, [AgentSpec(name="random")] * 10)
    with pytest.raises(ForkError, match="nothing left"):
        fork_header(original, original.records[-1]["seq"], parse_lineup("random:offices=", 10))
    with pytest.raises(ForkError, match="seats 10"):
        fork_header(original, 10, [AgentSpec(name="random")] * 3)
