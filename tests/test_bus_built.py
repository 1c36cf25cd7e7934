"""Messages our own code builds without validation (bus.messages.built) are the objects validation
would make: the same fields in the same order, of the same types, with the same values; and the
golden games, played with every such message validated and compared (CHECK_BUILT), keep their bytes."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bus import messages
from bus.codec import encode_message
from bus.messages import Act, ActRequest, OfficeReply, Suggestion, built
from tests.golden.cases import CASES, HERE, comparable, record_case, sha256


def _act_request(**changes):
    fields = {"sender": "referee", "to": "p1", "kind": "act_request", "turn": 3, "player": 1,
              "legal": ("abstain", "vote:2"), "observation": {"me": 1, "events": []}}
    return {**fields, **changes}


def test_built_is_what_validation_makes():
    fields = _act_request()
    made = built(ActRequest, dict(fields))
    checked = ActRequest(**fields)
    assert made == checked and type(made) is ActRequest
    assert list(made.__dict__) == list(checked.__dict__)
    assert encode_message(made) == encode_message(checked)
    assert made.model_fields_set >= checked.model_fields_set
    assert made.model_copy(update={"turn": 4}).turn == 4 and made.turn == 3  # as a validated message copies
    with pytest.raises(ValidationError, match="frozen"):
        made.turn = 4  # frozen like any message
    nested = built(OfficeReply, {"sender": "p1/so", "to": "p1", "kind": "office_reply", "task": "suggest", "turn": 0,
                                 "suggestions": (built(Suggestion, {"action": "a", "utility": 1.0}),), "says": (),
                                 "updates": ()})
    assert encode_message(nested) == encode_message(OfficeReply(sender="p1/so", to="p1", task="suggest", turn=0,
                                                                suggestions=(Suggestion(action="a", utility=1.0),)))


@pytest.mark.parametrize("fields, why", [
    (_act_request(legal=["abstain"]), "legal"),  # a list where validation makes a tuple
    ({k: v for k, v in _act_request().items() if k != "kind"}, "order"),  # kind missing: filled elsewhere
    (dict(reversed(list(_act_request().items()))), "order"),
    (_act_request(turn=True), "turn"),  # validation makes an int of it (or refuses it)
])
def test_check_built_refuses_what_validation_would_change(monkeypatch, fields, why):
    monkeypatch.setattr(messages, "CHECK_BUILT", True)
    with pytest.raises(Exception, match=why):
        built(ActRequest, fields)


def test_check_built_refuses_a_float_field_given_an_int(monkeypatch):
    monkeypatch.setattr(messages, "CHECK_BUILT", True)
    with pytest.raises(AssertionError, match="utility"):
        built(Suggestion, {"action": "a", "utility": 1})  # msgpack would write 1, not 1.0
    built(Suggestion, {"action": "a", "utility": 1.0})
    with pytest.raises(Exception, match="extra"):
        built(Act, {"sender": "p1", "to": "referee", "kind": "act", "turn": 0, "action": "abstain", "extra": 1})


QUICK = [c for c in CASES if not c[0].startswith(("diplomacy-alphadip", "diplomacy-dipblue", "battleline-deep"))]
SLOW = [c for c in CASES if c not in QUICK]


def _same_bytes_checked(monkeypatch, case):
    import json

    monkeypatch.setattr(messages, "CHECK_BUILT", True)
    manifest = json.loads((HERE / "manifest.json").read_text())
    assert sha256(comparable(record_case(case))) == manifest[case[0]]


@pytest.mark.parametrize("case", QUICK, ids=[c[0] for c in QUICK])
def test_golden_games_with_every_built_message_checked(monkeypatch, case):
    _same_bytes_checked(monkeypatch, case)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW, ids=[c[0] for c in SLOW])
def test_long_golden_games_with_every_built_message_checked(monkeypatch, case):
    _same_bytes_checked(monkeypatch, case)
