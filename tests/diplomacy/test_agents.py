"""The `dumbbot` agent through referee and bus: registration, options, per-unit advice from the
phase's plan, whole games that verify and repeat byte for byte; Diplomacy's ranks."""

from __future__ import annotations

import pytest

from actors.actor import actor_rng
from actors.diplomacy.dumbbot import plan
from actors.diplomacy.offices import DumbBotStrategyOffice
from actors.diplomacy.view import board_from_observation
from actors.registry import AgentSpec, AgentSpecError, build_player, parse_spec
from bus.log import parse_log
from bus.messages import OfficeRequest
from games.diplomacy.board import POWERS, Board
from games.diplomacy.rules import Diplomacy, DiplomacyOptions, DiplomacyState
from replay.verify import verify_game
from tests.play import play_bytes
from tests.bounds import bounded


def _log(agents: list[AgentSpec], seed: int, options: dict) -> bytes:
    return play_bytes("diplomacy", seed, agents, options)


def test_registered_with_checked_options():
    actors = build_player(parse_spec("dumbbot"), "diplomacy", 2, 5)
    assert [a.address for a in actors] == ["p2", "p2/so"]
    assert actors[0].traits.risk == 0.0
    tuned = build_player(parse_spec("dumbbot:params.play_alternative=0;width=1"), "diplomacy", 0, 5)
    assert tuned[1].params.play_alternative == 0 and tuned[1].width == 1
    with pytest.raises(AgentSpecError, match="does not play"):
        build_player(AgentSpec(name="dumbbot"), "hanabi", 0, 1)
    with pytest.raises(AgentSpecError, match="no office fo"):
        build_player(parse_spec("dumbbot:offices=so+fo"), "diplomacy", 0, 1)
    with pytest.raises(AgentSpecError, match="params.spring_proximity"):
        build_player(AgentSpec(name="dumbbot", options={"params": {"spring_proximity": [1]}}), "diplomacy", 0, 1)
    with pytest.raises(AgentSpecError, match="params.bogus"):
        build_player(parse_spec("dumbbot:params.bogus=1"), "diplomacy", 0, 1)


def test_office_answers_each_unit_from_one_plan_per_phase():
    state = Diplomacy().new_initial_state()
    so = DumbBotStrategyOffice("p2/so", 9)
    expected = plan(Board.initial(), "FRANCE", actor_rng(9, "p2/so"), so.params)  # the office's own rng
    given = []
    for _ in bounded(Diplomacy.max_steps):
        if 2 not in state.current_players():
            break
        obs = state.observation(2)
        request = OfficeRequest(sender="p2", to="p2/so", task="suggest", turn=len(given),
                                view={"observation": obs}, legal=tuple(state.legal_actions(2)))
        answer = so.suggest(request)
        top = answer.suggestions[0]
        assert top.utility == max(s.utility for s in answer.suggestions) and len(answer.suggestions) <= 3
        assert all(s.action in request.legal for s in answer.suggestions)
        given.append(top.action)
        state.apply_actions({p: top.action if p == 2 else state.default_action(p) for p in state.current_players()})
    assert so.plan.phase == "S1901M" and given == [so.plan.orders[u] for u in ("F BRE", "A MAR", "A PAR")]
    assert sorted(given) == expected.order_set()
    assert board_from_observation(Diplomacy().new_initial_state().observation(0)).to_json() == Board.initial().to_json()


@pytest.mark.slow  # ~5 s; in the default suite (CI), out of the quick subset
def test_whole_game_verifies_and_repeats():
    """Seven DumbBots to 1920 (or a solo): the log verifies and is the same for the same seed."""
    agents = [AgentSpec(name="dumbbot")] * 7
    first = _log(agents, 11, {})
    assert first == _log(agents, 11, {})
    game = parse_log(first).games[0]
    assert game.complete and verify_game(game).ok
    end = game.records[-1]["msg"]
    assert end["kind"] == "game_end" and end["roles"] == list(POWERS)
    kinds = {r["msg"]["kind"] for r in game.records}
    assert "error" not in kinds
    acts = [r["msg"] for r in game.records if r["msg"]["kind"] == "act"]
    assert any(" S " in a["action"] for a in acts) and any(a["action"].endswith(" B") for a in acts)
    assert _log(agents, 12, {"max_year": 1902}) != _log(agents, 11, {"max_year": 1902})


def test_one_dumbbot_beats_six_random_players():
    """The experiment in miniature: seat 0 takes most centres in each of a few games."""
    for seed in range(3):
        agents = [AgentSpec(name="random")] * 7
        agents[seed] = AgentSpec(name="dumbbot")
        end = parse_log(_log(agents, seed, {"max_year": 1906})).games[0].records[-1]["msg"]
        assert end["ranks"][seed] == 1.0, end["summary"]


def test_ranks_by_centres_then_phase_of_elimination():
    """Italy's last unit is dislodged with nowhere to go in S1901M: eliminated then, ranked last;
    the others by centres, ties sharing the mean rank."""
    b = Board.initial()
    b.centres = {c: ("FRANCE" if p == "ITALY" else p) for c, p in b.centres.items()}
    for p in ("NAP", "ROM", "VEN"):
        del b.units[p]
    b.units["TUS"] = ("ITALY", "A", "TUS")
    for p in ("PIE", "ROM", "VEN"):
        b.units[p] = ("FRANCE", "A", p)
    state = DiplomacyState(DiplomacyOptions(max_year=1901), b)
    moves = {"A PIE": "A PIE - TUS", "A ROM": "A ROM S A PIE - TUS"}
    for _ in bounded(Diplomacy.max_steps):
        if state.is_terminal():
            break
        acts = {}
        for p in state.current_players():
            unit = state.next_unit(p)
            spring = state.board.phase == "S1901M" and POWERS[p] == "FRANCE"
            acts[p] = moves.get(unit, state.default_action(p)) if spring else state.default_action(p)
        state.apply_actions(acts)
    out = state.outcome()
    assert out.extra["eliminated"] == [None, None, None, None, "S1901M", None, None]
    assert out.extra["centres"] == [3, 3, 6, 3, 0, 4, 3]
    assert out.ranks == (4.5, 4.5, 1.0, 4.5, 7.0, 2.0, 4.5)
    assert out.roles == tuple(POWERS)
    again = Diplomacy().state_from_json(state.to_json())
    assert again.to_json() == state.to_json() and again.outcome().extra == out.extra
