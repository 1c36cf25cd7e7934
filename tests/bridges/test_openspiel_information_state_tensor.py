"""Information-state tensors of the exported detente games: declared with their shape, what they
hold (the observation's tensor, the seat's own action counts, its last action), kept by clones and
serialisation, and read by OpenSpiel's rl_environment and a learner of OpenSpiel's over it."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from games.registry import get_game, get_plugin  # noqa: E402
from ops.bridges.openspiel.export import register  # noqa: E402

GAMES = ["hanabi", "battleline", "dominoes", "werewolves", "risk"]


def _load(name: str, options: dict | None = None, seed: int = 0):
    register([name])
    options = dict(get_plugin(name).short_options) if options is None else options
    return pyspiel.load_game(f"detente_{name}", {"options": json.dumps(options), "seed": seed})


@pytest.mark.parametrize("name", GAMES)
def test_declared_with_its_shape(name):
    spiel = _load(name)
    detente = get_game(name)
    opts = detente.options(dict(get_plugin(name).short_options))
    observation = int(np.prod(detente.observation_shape(opts)))
    assert spiel.get_type().provides_information_state_tensor
    assert spiel.information_state_tensor_shape() == [observation + 2 * detente.num_distinct_actions(opts)]
    assert spiel.information_state_tensor_size() == spiel.information_state_tensor_shape()[0]


def _random_decisions(state, rng: random.Random, steps: int):
    """Play `steps` decisions at random (chance too); yields (player, action) after each decision."""
    done = 0
    while done < steps and not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        player = state.current_player()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        yield player, action
        done += 1


def test_what_the_hanabi_tensor_holds():
    """Observation tensor, then counts of the seat's own action numbers, then its last one: the
    other seat's actions never enter a seat's counts."""
    spiel = _load("hanabi", {}, seed=5)
    detente, opts = get_game("hanabi"), get_game("hanabi").options({})
    size, actions = int(np.prod(detente.observation_shape(opts))), detente.num_distinct_actions(opts)
    state, rng = spiel.new_initial_state(), random.Random(5)
    taken: list[list[int]] = [[], []]
    for player, action in _random_decisions(state, rng, 12):
        taken[player].append(action)
        for seat in range(2):
            tensor = np.asarray(state.information_state_tensor(seat), np.float32) if not state.is_chance_node() \
                else None
            if tensor is None:
                continue
            assert np.array_equal(tensor[:size], np.asarray(state.observation_tensor(seat), np.float32))
            assert np.array_equal(tensor[:size], detente.observation_tensor(opts, seat, state.inner.observation(seat)))
            assert np.array_equal(tensor[size:size + actions], np.bincount(taken[seat], minlength=actions))
            last = np.zeros(actions, np.float32)
            if taken[seat]:
                last[taken[seat][-1]] = 1.0
            assert np.array_equal(tensor[size + actions:], last)
    assert taken[0] and taken[1]


@pytest.mark.parametrize("name", ["battleline", "werewolves"])
def test_kept_by_clones_and_serialisation(name):
    spiel = _load(name, seed=2)
    state, rng, decisions = spiel.new_initial_state(), random.Random(2), 0
    while decisions < 20 and not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(spiel.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    players = range(spiel.num_players())
    before = [state.information_state_tensor(p) for p in players]
    assert any(sum(t[-2 * (spiel.num_distinct_actions() - (name == "werewolves")):]) for t in before)
    assert [state.clone().information_state_tensor(p) for p in players] == before
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(spiel, state))
    assert [back.information_state_tensor(p) for p in players] == before


def test_rl_environment_and_an_openspiel_learner_read_it():
    """rl_environment picks the information state by default (what its DQN and NFSP read) and its
    tabular Q-learner keys its table by the tensor."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    spiel = _load("hanabi", {"hand_size": 2}, seed=1)
    env = rl_environment.Environment(spiel)
    env.seed(1)
    size = env.observation_spec()["info_state"][0]
    assert size == spiel.information_state_tensor_size()
    np.random.seed(1)
    learners = [tabular_qlearner.QLearner(p, env.action_spec()["num_actions"]) for p in range(2)]
    for _ in range(15):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            assert len(step.observations["info_state"][player]) == size
            step = env.step([learners[player].step(step).action])
        for learner in learners:
            learner.step(step)
    keys = [json.loads(k) for learner in learners for k in learner._q_values]  # noqa: SLF001 - the learned table
    assert len(keys) > 15 and all(len(k) == size for k in keys)
