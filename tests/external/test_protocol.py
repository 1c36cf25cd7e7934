"""The protocol's lines: what an external actor receives is exactly the bus message's JSON, and
what it answers becomes exactly the message validation makes."""

from __future__ import annotations

import json

import pydantic_core
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actors.external.protocol import _PLAIN_ACT, ProtocolError, encode, encode_message, parse_answer
from bus.codec import load
from bus.log import parse_log
from bus.messages import MESSAGE, Act, ActRequest
from tests.external.conftest import HERE


def test_each_delivered_message_is_its_model_dump():
    """Every message delivered to a seat in a golden game with talk, deals and office requests:
    its line is its model dump's, and byte for byte what pydantic's own serializer writes (the
    writer orjson falls back on)."""
    seen = set()
    for name in ("werewolves-alphawolf-7.log", "diplomacy-alphadip-4.log", "hanabi-exec-7.log"):
        game = parse_log((HERE.parent / "golden" / name).read_bytes()).games[0]
        for r in game.records:
            if r["msg"]["to"].startswith("p"):
                message = load(r["msg"])
                dumped = message.model_dump(mode="json")
                assert encode_message(message) == encode(dumped)
                assert encode(dumped) == pydantic_core.to_json(dumped, inf_nan_mode="null") + b"\n"
                seen.add(message.kind)
    assert {"act_request", "talk_turn", "heard", "office_request"} <= seen


def test_an_act_answer_is_what_validation_makes():
    request = ActRequest(sender="referee", to="p1", turn=4, player=1, legal=("a", "b"), observation={})
    fast = parse_answer(b'[{"kind":"act","turn":4,"action":"b"}]', "p1", request)
    slow = MESSAGE.validate_python({"kind": "act", "turn": 4, "action": "b", "sender": "p1", "to": "referee"})
    assert fast == [slow] and type(fast[0]) is type(slow) and fast[0].model_dump() == slow.model_dump()
    # anything less plain goes through validation: a float turn is refused, not coerced silently
    with pytest.raises(ProtocolError, match="act message"):
        parse_answer(b'[{"kind":"act","turn":"x","action":"b"}]', "p1", request)
    with pytest.raises(ProtocolError, match="sent as 'p0'"):
        parse_answer(b'[{"kind":"act","turn":4,"action":"b","sender":"p0"}]', "p1", request)
    with pytest.raises(ProtocolError, match="not 'game_end'"):
        parse_answer(json.dumps([{"kind": "game_end"}]).encode(), "p1", request)
    with pytest.raises(ProtocolError, match="invalid JSON"):
        parse_answer(b"[{", "p1", request)


def test_hostile_lines_are_protocol_errors_not_crashes():
    """Nesting deep enough to exhaust a recursive parser, bytes that are not UTF-8, a lone
    surrogate (which no log could hold): each is one line of error, never a RecursionError."""
    request = ActRequest(sender="referee", to="p1", turn=4, player=1, legal=("a", "b"), observation={})
    for line in (b"[" * 100_000 + b"]" * 100_000, b'[{"kind":"act","turn":4,"action":"\xff"}]',
                 b'[{"kind":"act","turn":4,"action":"\\ud800"}]'):
        with pytest.raises(ProtocolError, match="invalid JSON"):
            parse_answer(line, "p1", request)


def test_a_float_that_is_not_a_number_reaches_the_agent_as_null():
    """JSON has no NaN or infinity: the line stays JSON any parser reads."""
    request = ActRequest(sender="referee", to="p1", turn=4, player=1, legal=("a",),
                         observation={"x": float("nan"), "y": float("inf"), "z": 0.5})
    assert json.loads(encode_message(request))["observation"] == {"x": None, "y": None, "z": 0.5}


def test_what_the_fast_writer_refuses_is_written_all_the_same():
    """An integer past 64 bits or a key that is not a string: orjson refuses it, pydantic's
    serializer writes it, and the line is the model dump's as ever."""
    request = ActRequest(sender="referee", to="p1", turn=4, player=1, legal=("a",),
                         observation={"big": 2**70, "by_seat": {0: "x", 1: "y"}})
    line = encode_message(request)
    assert line == encode(request.model_dump(mode="json"))
    assert json.loads(line)["observation"] == {"big": 2**70, "by_seat": {"0": "x", "1": "y"}}


@settings(max_examples=300, deadline=None)
@given(turn=st.integers(min_value=-5, max_value=2**70), action=st.text(max_size=12),
       ascii_only=st.booleans(), spaced=st.booleans())
def test_the_plain_act_answer_is_read_as_json_reads_it(turn, action, ascii_only, spaced):
    """The byte match for the common answer makes the message the JSON parser and validation make,
    and a line it does not match (escapes, spaces, a turn past 18 digits) still reads as JSON."""
    request = ActRequest(sender="referee", to="p1", turn=4, player=1, legal=("a",), observation={})
    obj = [{"kind": "act", "turn": turn, "action": action}]
    line = json.dumps(obj, ensure_ascii=ascii_only, separators=(", ", ": ") if spaced else (",", ":")).encode()
    expected = MESSAGE.validate_python({**obj[0], "sender": "p1", "to": "referee"})
    got = parse_answer(line, "p1", request)
    assert got == [expected] and type(got[0]) is Act
    plain = not spaced and 0 <= turn < 10**18 and all(" " <= c <= "~" and c not in '"\\' for c in action)
    assert (_PLAIN_ACT.fullmatch(line) is not None) == plain
