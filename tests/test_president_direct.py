"""A base President whose one office is the random Strategy Office asks it by a direct call
(`suggest_legal`) and leaves the KB writes until the KB is read: the same acts, the same KB, as the
template's run through an office request and answer."""

from __future__ import annotations

from actors.alpha.president import President
from actors.lineup import build_actors
from actors.match import make_header, record
from actors.registry import parse_lineup
from bus.messages import ActRequest, TalkTurn


def _seat(direct: bool, spec: str = "random"):
    header = {"format": 4, **make_header("dominoes", 3, parse_lineup(spec, 4), {"target": 1})}
    actors = build_actors(header)
    president = actors["p0"]
    assert president._direct is not None
    if not direct:
        president._direct = None  # the template's run: the office asked by a request it answers
    return president


def _requests():
    legals = [("a", "b", "c", "d"), ("x",), (), ("p", "q"), tuple(f"m{i}" for i in range(40))]
    for turn, legal in enumerate(legals):
        yield ActRequest(sender="referee", to="p0", turn=turn, player=0, legal=legal, observation={"turn": turn})


def test_direct_decisions_act_and_know_as_the_template_does():
    direct, template = _seat(True), _seat(False)
    held = direct.kb  # a reference held across decisions sees them too
    for request in _requests():
        assert [m.__dict__ for m in direct.handle(request)] == [m.__dict__ for m in template.handle(request)]
        assert direct.kb.data == template.kb.data and list(direct.kb.data) == list(template.kb.data)
    assert held.data == template.kb.data


def test_kb_written_only_when_read_holds_every_decision():
    direct, template = _seat(True), _seat(False)
    for request in _requests():  # never read in between: the last decision and the last advice are written
        direct.handle(request)
        template.handle(request)
    assert direct.kb.data == template.kb.data and list(direct.kb.data) == list(template.kb.data)
    assert direct.kb.data["suggestions"] and direct.kb.data["legal"] == [f"m{i}" for i in range(40)]


def test_a_talk_turn_and_a_set_between_decisions_keep_their_place():
    direct, template = _seat(True), _seat(False)
    turn = TalkTurn(sender="referee", to="p0", turn=0, channel="all", round=0, max_rounds=1, members=(0, 1),
                    observation={"talk": True})
    for pr in (direct, template):
        pr.handle(turn)
        pr.kb.set(("beliefs", "1"), {"x": 0.5})
    requests = list(_requests())
    for pr in (direct, template):
        pr.handle(requests[0])
        pr.kb.set(("trust", "2"), 0.25)
        pr.handle(requests[1])
    assert "talk" not in direct.kb.data
    assert direct.kb.data == template.kb.data and list(direct.kb.data) == list(template.kb.data)


def test_only_the_base_president_with_the_random_office_alone_is_direct():
    _seat(True, "random:width=2")  # options change nothing of it
    header = {"format": 4, **make_header("hanabi", 1, parse_lineup("alpha,random", 2), {"players": 2})}
    actors = build_actors(header)
    assert actors["p0"]._direct is None and actors["p1"]._direct is not None
    header = {"format": 2, **make_header("hanabi", 1, parse_lineup("random", 2), {"players": 2})}
    assert build_actors(header)["p0"]._direct is None  # format 2: the office's messages are logged


def test_the_same_log_as_the_template(monkeypatch):
    header = {"format": 4, **make_header("dominoes", 7, parse_lineup("random", 4), {"target": 1})}
    fast = record(header)
    monkeypatch.setattr(President, "_direct_office", lambda self: None)
    assert record(header) == fast
