"""Agents within limits, deterministically (issue 12, part 2), inline: each limit of the header
broken by an agent gives an error event naming the actor and the limit, the rules' default, a game
that goes on, and a log that verifies; budgets that run out retire the seat; the wall clock retires a
seat or aborts the game, and replay reproduces both from the log without calling the agent."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from actors.actor import Actor
from actors.alpha.offices import Answer, StrategyOffice
from actors.alpha.president import President
from actors.alpha.traits import Traits
from actors.match import make_header, play
from actors.registry import AGENTS, AgentDef, AgentSpec
from bus.codec import unpack
from bus.log import MAX_FRAME, MAX_GAME_BYTES, LogWriter, parse_log
from bus.messages import MAX_MESSAGE_BYTES, Act, ActRequest, KBChange, KBUpdate, Limits, Message, OfficeRequest, TalkTurn
from ops.bench.misbehaving import Flood, Hang, Huge, Plain, Sleepy
from replay.verify import verify_game

BAD = 2  # the misbehaving seat


def _register(monkeypatch, name, build):
    monkeypatch.setitem(AGENTS, name, AgentDef(name, None, build, "test agent"))


def _solo(cls, **options):
    return lambda game, seat, seed, opts: [cls(f"p{seat}", seed, options)]


def _play(monkeypatch, build, limits=None, seed=4, **budgets):
    _register(monkeypatch, "bad", build)
    agents = [AgentSpec(name="random")] * 10
    agents[BAD] = AgentSpec(name="bad")
    header = make_header("werewolves", seed, agents, {"discussion_rounds": 2}, limits=limits)
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    result = play(header, writer, **budgets)
    writer.end_game()
    return result, parse_log(buf.getvalue()).games[0]


def _errors(log, category=None):
    return [r["msg"] for r in log.records if r["msg"]["kind"] == "error" and category in (None, r["msg"]["category"])]


def _verified(log, within=None):
    t0 = time.monotonic()
    verdict = verify_game(log)
    assert verdict.ok, verdict.message
    if within is not None:
        assert time.monotonic() - t0 < within, "verify waited on the agent"


def test_limits_sit_below_what_readers_accept():
    assert Limits().message_bytes <= MAX_MESSAGE_BYTES < MAX_FRAME
    assert Limits().game_bytes <= Limits.model_fields["game_bytes"].metadata[-1].le < MAX_GAME_BYTES
    header = make_header("werewolves", 1, [AgentSpec(name="random")] * 10)
    assert header["limits"] == Limits().model_dump()  # every default filled: the log says what held


def test_huge_answer_is_refused_before_logging(monkeypatch):
    result, log = _play(monkeypatch, _solo(Huge, bytes=3 * 1024 * 1024))
    assert result.end.summary and result.end.sender == "referee"  # the game went on to its end
    errors = _errors(log, "limit")
    assert errors and {e["actor"] for e in errors} == {f"p{BAD}"}
    assert all("limit message_bytes" in e["reason"] and e["applied"] != "ignored" for e in errors)
    assert max(len(p) for p in log.payloads) < Limits().message_bytes  # no frame near it was written
    steps = [r["msg"]["actions"] for r in log.records if r["msg"]["kind"] == "step"]
    assert all(not a.get(str(BAD), "").startswith("xxx") for a in steps)
    _verified(log)


def test_talk_flood_is_silence(monkeypatch):
    result, log = _play(monkeypatch, _solo(Flood, items=100_000))
    errors = _errors(log, "limit")
    assert errors and all("limit talk_items: 100,000 talk items" in e["reason"] and e["applied"] == "silence" for e in errors)
    assert not any(r["msg"]["kind"] == "talk" and r["msg"]["sender"] == f"p{BAD}" for r in log.records)
    assert result.end.sender == "referee"
    _verified(log)


class Meddler(Plain):
    """Tells another player's Strategy Office what to do, and forges the game's end."""

    asked = 0

    def handle(self, message: Message) -> list[Message]:
        if isinstance(message, ActRequest):
            self.asked += 1
        if isinstance(message, ActRequest) and self.asked % 2:
            return [OfficeRequest(sender=self.address, to="p0/so", task="suggest", turn=message.turn, view={})]
        if isinstance(message, ActRequest):
            from bus.messages import GameEnd

            return [GameEnd(sender=self.address, to="log", returns=(), winners=(), summary="I win", steps=0, digest="")]
        return super().handle(message)


def test_forbidden_addresses(monkeypatch):
    result, log = _play(monkeypatch, _solo(Meddler))
    errors = _errors(log, "forbidden_address")
    reasons = {e["reason"].split(" (")[0] for e in errors}
    assert reasons == {"forbidden address: a office_request message to 'p0/so'", "forbidden address: a game_end message to 'log'"}
    assert {e["actor"] for e in errors} == {f"p{BAD}"}
    assert result.end.sender == "referee" and result.end.summary != "I win"
    assert not any(r["msg"]["sender"] == f"p{BAD}" and r["msg"]["kind"] in ("office_request", "game_end") for r in log.records)
    _verified(log)


class Chatter(Plain):
    def act(self, request):
        return super().act(request)

    def handle(self, message):
        outs = super().handle(message)
        if isinstance(message, ActRequest):
            return [Act(sender=self.address, to="referee", turn=message.turn, action=outs[0].action)] * 100
        return outs


def test_answer_of_too_many_messages(monkeypatch):
    result, log = _play(monkeypatch, _solo(Chatter))
    errors = _errors(log, "limit")
    assert errors and all("limit answer_messages: an answer of 100 messages (at most 64)" in e["reason"] for e in errors)
    assert not any(r["msg"]["kind"] == "act" and r["msg"]["sender"] == f"p{BAD}" for r in log.records)
    _verified(log)


class Hoarder(President):
    """Logs a 200 KB KB change before every move."""

    def handle(self, message):
        outs = super().handle(message)
        if isinstance(message, ActRequest):
            junk = KBUpdate(path=("junk", str(message.turn)), value="k" * 200_000)
            outs = [KBChange(sender=self.address, to="log", turn=message.turn, source=self.address, updates=(junk,))] + outs
        return outs


def test_kb_budget_retires_the_seat(monkeypatch):
    build = lambda game, seat, seed, opts: [Hoarder(f"p{seat}", seed, seat, {}, Traits())]  # noqa: E731
    result, log = _play(monkeypatch, build, limits=Limits(kb_bytes=500_000))
    retires = [r["msg"] for r in log.records if r["msg"]["kind"] == "retire"]
    assert len(retires) == 1 and retires[0]["seat"] == BAD and retires[0]["category"] == "limit"
    assert "kb_bytes" in retires[0]["reason"] and result.retired == {BAD: retires[0]["reason"]}
    at = next(r["seq"] for r in log.records if r["msg"]["kind"] == "retire")
    later = [r["msg"] for r in log.records if r["seq"] > at]
    assert not any(m["to"].startswith(f"p{BAD}") or m["sender"].startswith(f"p{BAD}") for m in later)
    assert any(str(BAD) in m["actions"] for m in later if m["kind"] == "step")  # its moves: the default
    assert sum(len(p) for r, p in zip(log.records, log.payloads) if r["msg"]["kind"] == "kb_change"
               and r["msg"]["sender"] == f"p{BAD}") <= 500_000
    _verified(log)


class Looper(StrategyOffice):
    """Asks its own President for work for ever (a logical hang inside one player)."""

    def handle(self, message):
        if isinstance(message, OfficeRequest):
            return [OfficeRequest(sender=self.address, to=message.sender, task="suggest", turn=message.turn, view={})]
        return []

    def suggest(self, request) -> Answer:
        return Answer()


class Echoing(President):
    def handle(self, message):
        if isinstance(message, OfficeRequest) and message.sender == self.offices["so"]:
            return [OfficeRequest(sender=self.address, to=message.sender, task="suggest", turn=message.turn, view={})]
        return super().handle(message)


def test_message_budget_ends_a_loop_between_modules(monkeypatch):
    def build(game, seat, seed, opts):
        return [Echoing(f"p{seat}", seed, seat, {"so": f"p{seat}/so"}, Traits()), Looper(f"p{seat}/so", seed)]

    result, log = _play(monkeypatch, build, limits=Limits(seat_messages=300))
    retires = [r["msg"] for r in log.records if r["msg"]["kind"] == "retire"]
    assert [(m["seat"], m["category"]) for m in retires] == [(BAD, "limit")] and "seat_messages" in retires[0]["reason"]
    assert sum(1 for r in log.records if r["msg"]["sender"].startswith(f"p{BAD}")) == 300
    assert result.end.sender == "referee"
    _verified(log)


def test_same_seed_same_bytes_with_limits(monkeypatch):
    logs = []
    for _ in range(2):
        _, log = _play(monkeypatch, _solo(Flood, items=200), seed=9)
        logs.append(log.payloads)
    assert logs[0] == logs[1]


def test_a_header_without_limits_means_none(monkeypatch):
    """Logs written before limits: the bus checks nothing, as then (a 2 MB answer is logged)."""
    _register(monkeypatch, "bad", _solo(Huge, bytes=2 * 1024 * 1024))
    agents = [AgentSpec(name="random")] * 10
    agents[BAD] = AgentSpec(name="bad")
    header = make_header("werewolves", 4, agents)
    del header["limits"]
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    play(header, writer)
    log = parse_log(buf.getvalue()).games[0]
    assert "limits" not in log.header and not _errors(log, "limit")
    assert max(len(p) for p in log.payloads) > 2 * 1024 * 1024


# -- the wall clock ----------------------------------------------------------------------------


def test_decision_timeout_retires_the_seat_and_replay_never_calls_it(monkeypatch):
    t0 = time.monotonic()
    result, log = _play(monkeypatch, _solo(Hang), decision_seconds=0.3)
    assert time.monotonic() - t0 < 10
    retires = [r for r in log.records if r["msg"]["kind"] == "retire"]
    assert len(retires) == 1
    msg = retires[0]["msg"]
    assert (msg["seat"], msg["category"], msg["reason"]) == (BAD, "timeout", "no answer within 0.3 s")
    assert log.records[retires[0]["cause"]]["msg"]["to"] == f"p{BAD}"  # in answer to the move it never made
    error = next(e for e in _errors(log, "timeout"))
    assert error["actor"] == f"p{BAD}" and error["applied"] not in ("ignored", "retired")
    assert result.end.sender == "referee" and result.retired == {BAD: "no answer within 0.3 s"}
    _verified(log, within=5)  # a hanging agent: verify would hang if it called it


def test_a_fork_after_a_timeout_retirement_never_calls_the_hung_agent(monkeypatch):
    """The fork's prefix posts the recorded retirement where it was made (replay.fork.play_fork),
    as verify does: re-asking the agent that hung would hang the fork."""
    from replay.fork import fork_header, play_fork

    _, log = _play(monkeypatch, _solo(Hang), decision_seconds=0.3)
    retired_at = next(r["seq"] for r in log.records if r["msg"]["kind"] == "retire")
    lineup = [AgentSpec.model_validate(a) for a in log.header["agents"]]
    lineup[0] = AgentSpec(name="random", options={"offices": ""})
    header = fork_header(log, retired_at + 1, lineup)
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    t0 = time.monotonic()
    result = play_fork(log, header, writer)
    writer.end_game()
    assert time.monotonic() - t0 < 10, "the fork waited on the hung agent"
    fork = parse_log(buf.getvalue()).games[0]
    assert result.retired == {BAD: "no answer within 0.3 s"}
    strip = lambda r: {k: v for k, v in r.items() if k != "game"}  # noqa: E731
    switch = header["fork"]["at"]
    assert [strip(r) for r in fork.records[:switch]] == [strip(r) for r in log.records[:switch]]
    _verified(fork, within=5)


def test_game_budget_aborts_and_blames_the_slow_seat(monkeypatch):
    result, log = _play(monkeypatch, _solo(Sleepy, seconds=10), game_seconds=0.5)
    end = log.records[-1]["msg"]
    assert end["kind"] == "game_end" and end["sender"] == "bus" and log.complete
    assert end["extra"]["blame"] == BAD and result.blame == BAD and result.aborted == end["extra"]["aborted"]
    assert "over the game's budget of 0.5 s" in result.aborted and end["winners"] == []
    assert end["ranks"][BAD] == 10.0 and max(end["ranks"][:BAD] + end["ranks"][BAD + 1:]) < 10
    _verified(log, within=5)


def test_a_slow_but_finishing_seat_is_retired_only_when_over(monkeypatch):
    """Under the budget nothing happens: the same bytes as without one."""
    _, timed = _play(monkeypatch, _solo(Sleepy, seconds=0.001), seed=5, decision_seconds=2.0, game_seconds=30.0)
    _, plain = _play(monkeypatch, _solo(Sleepy, seconds=0.001), seed=5)
    assert timed.payloads == plain.payloads


def test_retired_talker_is_neither_asked_nor_told(monkeypatch):
    class SlowTalker(Flood):
        def say(self, turn):
            time.sleep(5)
            return ()

    result, log = _play(monkeypatch, _solo(SlowTalker), decision_seconds=0.2)
    at = next(r["seq"] for r in log.records if r["msg"]["kind"] == "retire")
    assert not [r for r in log.records if r["seq"] > at and r["msg"]["to"] == f"p{BAD}"]
    assert result.end.sender == "referee"
    _verified(log, within=5)


NOLIMITS = sorted((Path(__file__).parents[1] / "golden" / "older").glob("v3-nolimits-*.log"))


@pytest.mark.parametrize("path", NOLIMITS, ids=[p.stem for p in NOLIMITS])
def test_logs_from_before_limits_verify(path):
    """The goldens as recorded before headers held limits: no limits then, none now."""
    log = parse_log(path.read_bytes()).games[0]
    assert "limits" not in log.header
    _verified(log)


class Stubborn(Plain):
    """Swallows the first interruption and goes on sleeping."""

    def act(self, request):
        try:
            time.sleep(3600)
        except BaseException:
            pass
        time.sleep(3600)


def test_an_agent_that_swallows_the_interruption_gets_the_next(monkeypatch):
    t0 = time.monotonic()
    result, log = _play(monkeypatch, _solo(Stubborn), decision_seconds=0.2)
    assert time.monotonic() - t0 < 10 and result.retired == {BAD: "no answer within 0.2 s"}
    _verified(log, within=5)
