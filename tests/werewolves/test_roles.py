"""The AIWolf roles and role sets (options possessed, bodyguards, mediums, inspect_result,
first_night_kill, preset): each rule as the AIWolf regulation and protocol 3.6 state it."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

import games.conformance as checks
from games.werewolves.rules import Werewolves

GAME = Werewolves()


def _state(options, deal):
    state = GAME.new_initial_state(options)
    state.apply_chance(deal)
    return state


def _types(state, seat):
    return [e["type"] for e in state.observation(seat)["events"]]


def test_defaults_keep_the_thesis_dump():
    """Games without the new roles dump exactly the options they always did (their logs keep their bytes)."""
    assert sorted(GAME.options({}).model_dump(mode="json")) == sorted(
        ["players", "werewolves", "seers", "doctors", "reveal_roles", "tie_rule", "end_at_parity",
         "discussion_rounds", "first_phase", "max_days"])
    assert "role_counts" not in _state({"players": 4, "werewolves": 1, "doctors": 0},
                                       ["werewolf", "seer", "villager", "villager"]).observation(0)


def test_presets_are_the_aiwolf_role_sets():
    """Regulation: 5 players = 2 villagers, seer, werewolf, possessed; 15 = 8 V, seer, medium,
    bodyguard, 3 werewolves, possessed; NLP division 13 = 6 villagers and the same specials."""
    five = GAME.options({"preset": "aiwolf5"})
    assert five.role_counts() == {"possessed": 1, "seer": 1, "villager": 2, "werewolf": 1}
    assert GAME.options({"preset": "aiwolf13"}).role_counts() == {
        "bodyguard": 1, "medium": 1, "possessed": 1, "seer": 1, "villager": 6, "werewolf": 3}
    assert GAME.options({"preset": "aiwolf15"}).role_counts()["villager"] == 8
    assert not five.reveal_roles and five.end_at_parity and five.tie_rule == "revote_then_random"
    assert GAME.options(five.model_dump(mode="json")) == five  # a header's options read back
    with pytest.raises(ValidationError, match="fixes players=5"):
        GAME.options({"preset": "aiwolf5", "players": 6})
    with pytest.raises(ValidationError, match="appears human"):
        GAME.options({"players": 6, "possessed": 1})


def test_possessed_is_human_to_the_seer_and_wins_with_the_wolves():
    state = _state({"preset": "aiwolf5"}, ["seer", "possessed", "werewolf", "villager", "villager"])
    assert state.current_players() == [0]  # AIWolf day 0: only the seer divines, no attack
    state.apply_actions({0: "inspect:1"})
    seen = [e for e in state.observation(0)["events"] if e["type"] == "inspect"][0]
    assert seen["species"] == "human" and "role" not in seen
    assert "1" not in state.observation(0)["known_roles"]
    assert "possessed" not in state.observation(2)["known_roles"].values()  # wolves do not know it
    assert state.observation(3)["role_counts"]["possessed"] == 1
    # day 1 the seer is voted out, night 2 a villager killed, day 2 a villager voted out: one wolf,
    # one human (the possessed) left, and the werewolves win at parity (AIWolf: wolves >= humans)
    state.apply_actions({p: "vote:0" for p in range(1, 5)} | {0: "vote:1"})
    state.apply_actions({2: "attack:3"})
    assert not state.is_terminal()
    state.apply_actions({1: "vote:4", 2: "vote:4", 4: "vote:1"})
    assert state.is_terminal()
    out = state.outcome()
    assert out.winners == (1, 2) and out.extra["winner"] == "werewolves"
    assert sorted(out.teams) == [(0, 3, 4), (1, 2)]


def test_bodyguard_guards_others_only_and_is_not_told():
    """AIWolf NLP server: a bodyguard cannot guard itself; nobody is told that a guard held."""
    deal = ["werewolf", "bodyguard", "seer", "villager", "villager", "villager", "werewolf"]
    state = _state({"players": 7, "doctors": 0, "bodyguards": 1}, deal)
    legal = state.legal_actions(1)
    assert "guard:1" not in legal and "guard:3" in legal and "guard:0" in legal
    state.apply_actions({0: "attack:3", 6: "attack:3", 1: "guard:3", 2: "inspect:0"})
    assert state.observation(3)["alive"] == list(range(7))
    assert "saved" not in _types(state, 1) and "guard" in _types(state, 1)
    assert "guard" not in _types(state, 0) and "nobody_killed" in _types(state, 0)


def test_medium_learns_the_species_of_the_voted_out():
    deal = ["werewolf", "medium", "possessed", "villager", "villager", "villager"]
    state = _state({"players": 6, "werewolves": 1, "seers": 0, "doctors": 0, "mediums": 1, "possessed": 1,
                    "inspect_result": "species", "reveal_roles": False}, deal)
    state.apply_actions({0: "attack:3"})
    state.apply_actions({p: "vote:2" for p in (0, 1, 4, 5)} | {2: "vote:1"})
    told = [e for e in state.observation(1)["events"] if e["type"] == "identified"]
    assert told == [{"actor": 1, "day": 1, "player": 2, "species": "human", "type": "identified"}]
    assert "identified" not in _types(state, 0) and "identified" not in _types(state, 4)


def test_resample_keeps_the_species_a_seer_learnt():
    state = _state({"preset": "aiwolf5"}, ["seer", "possessed", "werewolf", "villager", "villager"])
    state.apply_actions({0: "inspect:2"})
    rng = random.Random(1)
    for _ in range(20):
        roles = state.resample_hidden(0, rng).to_json()["roles"]
        assert roles[0] == "seer" and roles[2] == "werewolf"


@pytest.mark.parametrize("options", [{"preset": "aiwolf5"}, {"preset": "aiwolf13", "discussion_rounds": 1, "max_days": 6},
                                     {"players": 9, "possessed": 1, "bodyguards": 1, "mediums": 1,
                                      "inspect_result": "species", "discussion_rounds": 1}])
def test_rules_conformance_with_the_new_roles(options):
    """Random playthroughs, serialisation, information hiding and talk hold with every new role."""
    checks.run_all(GAME, options)


def test_a_state_rebuilt_from_an_observation_has_the_roles_in_play():
    state = _state({"preset": "aiwolf13"}, ["seer", "possessed", "werewolf", "villager", "villager", "villager",
                                            "werewolf", "medium", "bodyguard", "villager", "villager", "werewolf",
                                            "villager"])
    rebuilt = GAME.state_from_observation(7, state.observation(7))
    assert sorted(rebuilt.to_json()["roles"]) == sorted(state.to_json()["roles"])
    assert rebuilt.observation(7)["role_counts"] == state.observation(7)["role_counts"]


def test_the_experiment_specs_load():
    """The specs of the bluffing and AIWolf experiments name valid options and agents."""
    from pathlib import Path

    from actors.match import make_header
    from actors.registry import AgentSpec
    from ops.tournament.spec import load_spec

    paths = sorted(Path("ops/examples").glob("werewolves_bluff_*.toml")) + sorted(Path("ops/examples").glob("werewolves_aiwolf*.toml"))
    assert len(paths) == 12
    for path in paths:
        spec = load_spec(path)
        entry = spec.lineup[0]
        n = GAME.num_players(GAME.options(spec.options))
        make_header("werewolves", spec.seed, [AgentSpec(name=entry.agent, options=entry.options)] * n, spec.options)
