"""Limits hold where they are set, not only far past them: with `message_bytes` at 8 KiB, an answer
whose record is a quarter under it is logged, one a quarter over it is refused (a breach naming
the limit), so a check looser than the header's limit shows (bus/bus.py `_answer`)."""

from __future__ import annotations

import io

import pytest

from actors.match import make_header, play
from actors.registry import AGENTS, AgentDef, AgentSpec
from bus.log import LogWriter, parse_log
from bus.messages import Limits
from ops.bench.misbehaving import Huge
from replay.verify import verify_game

LIMIT = 8192
BAD = 2


def _game(monkeypatch, action_bytes: int):
    build = lambda game, seat, seed, opts: [Huge(f"p{seat}", seed, {"bytes": action_bytes})]  # noqa: E731
    monkeypatch.setitem(AGENTS, "huge-edge", AgentDef("huge-edge", None, build, "test agent"))
    agents = [AgentSpec(name="random")] * 10
    agents[BAD] = AgentSpec(name="huge-edge")
    header = make_header("werewolves", 4, agents, limits=Limits(message_bytes=LIMIT))
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    play(header, writer)
    writer.end_game()
    return parse_log(buf.getvalue()).games[0]


@pytest.mark.parametrize("share,refused", [(0.75, False), (1.25, True)])
def test_message_bytes_holds_at_its_value(monkeypatch, share, refused):
    log = _game(monkeypatch, int(LIMIT * share))
    breaches = [r["msg"] for r in log.records if r["msg"]["kind"] == "error" and r["msg"]["category"] == "limit"]
    sizes = [len(p) + 8 for p, r in zip(log.payloads, log.records)
             if r["msg"]["kind"] == "act" and r["msg"]["sender"] == f"p{BAD}"]
    if refused:
        assert breaches and all("limit message_bytes" in b["reason"] for b in breaches)
        assert not sizes  # none of its acts was logged
    else:
        assert not breaches and sizes and max(sizes) <= LIMIT
    assert verify_game(log).ok
