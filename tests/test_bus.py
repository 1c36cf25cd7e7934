"""The bus: stamping, wave order equal to FIFO order, faults, unknown addresses, stalls."""

from __future__ import annotations

import random

import pytest

from actors.actor import Actor
from actors.placement import InlinePlacement
from bus.bus import Bus, GameStalled
from bus.codec import dump, load, unpack
from bus.messages import LOG, REFEREE, RUNNER, Act, Fault, GameEnd, Message, Quiet, Start


class ListSink:
    def __init__(self):
        self.payloads: list[bytes] = []

    def record(self, payload: bytes) -> None:
        self.payloads.append(payload)

    def messages(self):
        return [unpack(p) for p in self.payloads]


class Echo(Actor):
    """Each 'act' it gets fans out into two more to peers until a depth, then ends the game."""

    def __init__(self, address, seed, peers):
        super().__init__(address, seed)
        self.peers = peers
        self.seen = []

    def handle(self, message):
        self.seen.append(message.turn if isinstance(message, Act) else -1)
        if isinstance(message, Start) or (isinstance(message, Act) and message.turn < 4):
            turn = message.turn + 1 if isinstance(message, Act) else 0
            peers = self.rng.sample(self.peers, 2)
            return [Act(sender=self.address, to=p, turn=turn, action=f"{self.address}>{p}") for p in peers]
        return []


class Ender(Actor):
    """A referee stand-in: starts the echo and ends the game on quiet."""

    def handle(self, message):
        if isinstance(message, Start):
            return [Act(sender=REFEREE, to="a", turn=0, action="go")]
        if isinstance(message, Quiet):
            return [GameEnd(sender=REFEREE, to=LOG, returns=(), winners=(), summary="done", steps=0, digest="")]
        return []


def _actors():
    names = ["a", "b", "c", "d"]
    actors = {n: Echo(n, 1, [p for p in names if p != n]) for n in names}
    actors[REFEREE] = Ender(REFEREE, 1)
    return actors


class ShuffledPlacement(InlinePlacement):
    """Delivers a wave in a random order (as parallel hosts might), returns in wave order."""

    def deliver_wave(self, wave):
        order = list(range(len(wave)))
        random.Random(len(wave)).shuffle(order)
        results = [None] * len(wave)
        # keep per-actor order (a host handles its share in order); shuffle across actors
        by_actor = {}
        for i in order:
            by_actor.setdefault(wave[i][1].to, []).append(i)
        for to in sorted(by_actor, reverse=True):
            for i in sorted(by_actor[to]):
                seq, m = wave[i]
                results[i] = super().deliver_wave([(seq, m)])[0]
        return results


def test_seq_stamped_in_order_and_causes_point_back():
    sink = ListSink()
    end = Bus("g1", InlinePlacement(_actors()), sink).run(Start(sender=RUNNER, to=REFEREE))
    assert end.summary == "done"
    records = sink.messages()
    assert [r["seq"] for r in records] == list(range(len(records)))
    assert all(r["game"] == "g1" for r in records)
    assert all(r["cause"] < r["seq"] for r in records)
    assert records[-1]["msg"]["kind"] == "game_end"
    assert any(r["msg"]["kind"] == "quiet" for r in records)


def test_delivery_order_does_not_change_the_log():
    logs = []
    for placement in (InlinePlacement(_actors()), ShuffledPlacement(_actors())):
        sink = ListSink()
        Bus("g", placement, sink).run(Start(sender=RUNNER, to=REFEREE))
        logs.append(sink.payloads)
    assert logs[0] == logs[1]
    assert len(logs[0]) > 20


class Misaddress(Actor):
    def handle(self, message):
        if isinstance(message, Start):
            return [Act(sender=REFEREE, to="nobody", turn=0, action="x")]
        if isinstance(message, Fault):
            return [GameEnd(sender=REFEREE, to=LOG, returns=(), winners=(), summary=message.error, steps=0, digest="")]
        return []


def test_unknown_address_becomes_fault_to_sender():
    sink = ListSink()
    end = Bus("g", InlinePlacement({REFEREE: Misaddress(REFEREE, 0)}), sink).run(Start(sender=RUNNER, to=REFEREE))
    assert "unknown address 'nobody'" in end.summary


class Forger(Actor):
    def handle(self, message):
        return [Act(sender="someone-else", to=REFEREE, turn=0, action="x")]


class Stuck(Actor):
    def handle(self, message):
        if isinstance(message, Start):
            return [Act(sender=REFEREE, to="f", turn=0, action="x")]
        return []


def test_forged_sender_is_a_fault_and_silence_stalls():
    sink = ListSink()
    with pytest.raises(GameStalled):
        Bus("g", InlinePlacement({REFEREE: Stuck(REFEREE, 0), "f": Forger("f", 0)}), sink).run(
            Start(sender=RUNNER, to=REFEREE)
        )
    kinds = [r["msg"]["kind"] for r in sink.messages()]
    assert "fault" in kinds and kinds[-1] == "quiet"


def test_dump_packs_like_json_mode_for_every_kind():
    from bus.codec import pack
    from bus.messages import (
        ChanceEvent, ErrorEvent, Heard, KBChange, KBUpdate, Line, OfficeReply, OfficeRequest, StepEvent, Suggestion, Talk,
        TalkTurn,
    )
    from games.werewolves.talk import WwAccuse, WwClaim

    samples: list[Message] = [
        Start(sender=RUNNER, to=REFEREE),
        ChanceEvent(sender=REFEREE, to=LOG, step=1, outcome=["a", "b"], digest="ff"),
        StepEvent(sender=REFEREE, to=LOG, step=2, turn=0, actions={"0": "vote:1"}, digest="00"),
        ErrorEvent(sender=REFEREE, to=LOG, actor="p1", turn=0, reason="r", applied="abstain"),
        TalkTurn(sender=REFEREE, to="p1", turn=0, channel="public", round=0, max_rounds=3, members=(1, 2), observation={"x": [1]}),
        Talk(sender="p1", to=REFEREE, turn=0, channel="public", round=0, says=(WwClaim(role="seer"), WwAccuse(target=2))),
        Heard(sender=REFEREE, to="p1", turn=0, channel="public", round=0, lines=(Line(speaker=1, says=(WwAccuse(target=2),)),)),
        OfficeRequest(sender="p1", to="p1/so", task="suggest", turn=0, view={"trust": {"2": 1.0}}, legal=("a", "b")),
        OfficeReply(sender="p1/so", to="p1", task="suggest", turn=0, suggestions=(Suggestion(action="a", utility=1),), updates=(KBUpdate(path=("trust", "2"), value=0.5),)),
        KBChange(sender="p1", to=LOG, turn=0, source="p1/io", updates=(KBUpdate(path=("x",), value=[1, 2]),)),
        Fault(sender="bus", to="p1", actor="p1/so", error="E: x", cause=3),
    ]
    for message in samples:
        assert pack(dump(message)) == pack(message.model_dump(mode="json")), message.kind
        assert load(unpack(pack(dump(message)))) == message


class BrokenReferee(Actor):
    def handle(self, message):
        raise RuntimeError("rules bug")


def test_a_failing_referee_stops_the_game_instead_of_becoming_a_fault():
    """Agents' failures are data; the referee's (the rules') are bugs and must surface."""
    with pytest.raises(RuntimeError, match="rules bug"):
        Bus("g", InlinePlacement({REFEREE: BrokenReferee(REFEREE, 0)}), ListSink()).run(Start(sender=RUNNER, to=REFEREE))
