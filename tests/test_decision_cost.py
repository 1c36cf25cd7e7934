"""What a random agent's decision costs in log formats 3 and 4 (docs/design.md, "The cost of a decision"):
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


@pytest.mark.parametrize("name, players, options", [("dominoes", 4, {"target": 1}), ("werewolves", 7, {"players": 7})])
def test_format_4_random_decisions_compute_no_observation_and_play_the_same(name, players, options, monkeypatch):
    """Format 4: the random agent reads no observation, so the referee computes none for it and the
    log holds none (nor the legal actions); the actions are format 3's, and the log verifies."""
    from games.registry import get_game

    state_class = type(get_game(name).new_initial_state(get_game(name).options(options)))
    seen = []
    observation = state_class.observation
    monkeypatch.setattr(state_class, "observation", lambda self, seat: seen.append(seat) or observation(self, seat))
    new = _game(name, players, options, 4)
    assert seen == []  # not one observation made for agents that read none
    monkeypatch.undo()
    old = _game(name, players, options, 3)
    requests = [r["msg"] for r in new.records if r["msg"]["kind"] in ("act_request", "talk_turn")]
    assert requests and not any("observation" in m or "legal" in m for m in requests)
    acts = [(r["msg"]["sender"], r["msg"]["turn"], r["msg"]["action"]) for r in old.records if r["msg"]["kind"] == "act"]
    assert acts == [(r["msg"]["sender"], r["msg"]["turn"], r["msg"]["action"]) for r in new.records if r["msg"]["kind"] == "act"]
    assert verify_game(new).ok


def test_format_4_agents_that_read_observations_still_get_them():
    """A seat whose agent reads the observation is sent it in format 4; the random seat beside it is not."""
    from actors.lineup import build_actors
    from actors.placement import InlinePlacement
    from bus.bus import Bus
    from bus.messages import REFEREE, RUNNER, Start

    header = {"format": 4, **make_header("hanabi", 2, parse_lineup("alpha,random", 2), {"players": 2})}
    actors = build_actors(header)
    assert actors["referee"].observers == frozenset({0})
    placement = InlinePlacement(actors)
    sent: list[tuple[str, bool]] = []
    deliver = placement.deliver_wave

    def watched(wave):
        sent.extend((m.to, m.observation is not None) for _, m in wave if m.kind in ("act_request", "talk_turn"))
        return deliver(wave)
    placement.deliver_wave = watched

    class Sink:
        def record(self, payload):
            pass
    Bus("g", placement, Sink(), log_format=4).run(Start(sender=RUNNER, to=REFEREE))
    assert {"p0", "p1"} == {to for to, _ in sent}
    assert all(got == (to == "p0") for to, got in sent)
