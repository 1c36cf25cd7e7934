"""Misbehaving agents: the referee logs an error event naming them, applies the default, and the
game completes (and its log still verifies, since failures are deterministic data)."""

from __future__ import annotations

import io

import pytest

from actors.actor import Actor
from actors.alpha.offices import Answer, StrategyOffice
from actors.alpha.president import President
from actors.alpha.traits import Traits
from actors.match import make_header, play
from actors.registry import AGENTS, AgentDef, AgentSpec
from bus.log import LogWriter, parse_log
from bus.messages import Act, ActRequest, Message
from replay.verify import verify_game


class RaisingPresident(President):
    def handle(self, message: Message) -> list[Message]:
        if isinstance(message, ActRequest):
            raise RuntimeError("boom")
        return super().handle(message)


class IllegalPresident(Actor):
    def handle(self, message: Message) -> list[Message]:
        if isinstance(message, ActRequest):
            return [Act(sender=self.address, to="referee", turn=message.turn, action="fly:away")]
        return []


class SilentPresident(Actor):
    def handle(self, message: Message) -> list[Message]:
        return []


class RaisingOffice(StrategyOffice):
    def suggest(self, request) -> Answer:
        raise ValueError("no idea")


def _solo(cls):
    return lambda game, seat, seed, opts: [cls(f"p{seat}", seed)]


def _raising_pr(game, seat, seed, opts):
    return [RaisingPresident(f"p{seat}", seed, seat, {}, Traits())]


def _raising_so(game, seat, seed, opts):
    return [
        President(f"p{seat}", seed, seat, {"so": f"p{seat}/so"}, Traits()),
        RaisingOffice(f"p{seat}/so", seed),
    ]


BAD_SEATS = {"p0", "p1", "p2"}

BAD = {  # agent: (builder, reason text, typed category)
    "raises": (_raising_pr, "raised RuntimeError: boom", "raised"),
    "illegal": (_solo(IllegalPresident), "illegal action 'fly:away'", "illegal_action"),
    "silent": (_solo(SilentPresident), "no reply", "silent"),
}


def _play(monkeypatch, name, build):
    monkeypatch.setitem(AGENTS, name, AgentDef(name, None, build, "test agent"))
    agents = [AgentSpec(name=name)] * 3 + [AgentSpec(name="random")] * 7  # 3 bad seats: some act
    header = make_header("werewolves", 3, agents)
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    result = play(header, writer)
    return result, parse_log(buf.getvalue()).games[0]


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_player_gets_error_event_and_default(monkeypatch, name):
    build, reason, category = BAD[name]
    result, log = _play(monkeypatch, name, build)
    assert result.end.summary  # the game completed
    errors = [r["msg"] for r in log.records if r["msg"]["kind"] == "error"]
    assert errors, "no error event"
    assert {e["actor"] for e in errors} <= BAD_SEATS
    assert any(reason in e["reason"] and e["applied"] in ("abstain", "silence") for e in errors)
    assert {e["category"] for e in errors if reason in e["reason"]} == {category}  # readers need not parse reason
    steps = [r["msg"] for r in log.records if r["msg"]["kind"] == "step"]
    acted = [a for s in steps for p, a in s["actions"].items() if f"p{p}" in BAD_SEATS]
    assert acted and set(acted) == {"abstain"}
    assert verify_game(log).ok


def test_failing_office_falls_back_to_president(monkeypatch):
    result, log = _play(monkeypatch, "badso", _raising_so)
    faults = [r["msg"] for r in log.records if r["msg"]["kind"] == "fault"]
    assert faults and all(f["actor"] == f["to"] + "/so" and f["to"] in BAD_SEATS for f in faults)
    assert "ValueError: no idea" in faults[0]["error"]
    # the President still acted on its own, legally: no referee error for p0
    assert not [r for r in log.records if r["msg"]["kind"] == "error"]
    acts = [r["msg"] for r in log.records if r["msg"]["kind"] == "act" and r["msg"]["sender"] in BAD_SEATS]
    assert acts
