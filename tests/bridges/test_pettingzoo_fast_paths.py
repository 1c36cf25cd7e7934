"""What makes the PettingZoo environments fast stays correct: a game's tensor read from its state
equals the tensor of the seat's observation (and the views conformance catches one that does not),
masks are shared read-only arrays of exactly the legal numbers, and reset(seed) still seeds the
action spaces."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games import conformance
from games.registry import get_game

pytest.importorskip("pettingzoo")

from ops.bridges.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3, "reveal_own_cards": True},
                                     {"players": 4, "completion_bonus": False}, {"players": 5, "hand_size": 2}])
def test_hanabi_tensor_from_the_state_is_the_tensor_of_the_observation(options):
    game = get_game("hanabi")
    opts = game.options(options)
    compared = 0
    for seed in range(8):
        state, rng = game.new_initial_state(opts), random.Random(seed)
        while True:
            for seat in range(opts.players):
                direct = game.state_observation_tensor(opts, state, seat)
                assert direct.dtype == np.float32
                assert np.array_equal(direct, game.observation_tensor(opts, seat, state.observation(seat)))
                compared += 1
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            player = state.current_players()[0]
            state.apply_actions({player: rng.choice(state.legal_actions(player))})
    assert compared > 100


def test_views_conformance_catches_a_state_tensor_that_shows_more():
    """A game whose tensor from the state shows the seat its own first card fails check_views."""
    hanabi = get_game("hanabi")

    class Leaky(type(hanabi)):
        def state_observation_tensor(self, options, state, seat):
            tensor = super().state_observation_tensor(options, state, seat)
            if state.is_chance() or not state._hands[seat]:  # noqa: SLF001
                return tensor
            tensor = tensor.copy()
            tensor[state._hands[seat][0]] = 1.0  # noqa: SLF001 - the own card, in the first partner slot's bits
            return tensor

    conformance.check_views(hanabi, seeds=range(1))
    with pytest.raises(AssertionError, match="state_observation_tensor"):
        conformance.check_views(Leaky(), seeds=range(1))


def test_masks_are_shared_read_only_and_exactly_the_legal_numbers():
    e = env("hanabi")
    e.reset(seed=4)
    game, opts = e.game, e.game_options
    seen: dict[tuple[str, ...], np.ndarray] = {}
    rng = random.Random(4)
    for agent in e.agent_iter(200):
        _, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        mask = info["action_mask"]
        legal = tuple(e.state.legal_actions(e._seat[agent]))  # noqa: SLF001
        assert not mask.flags.writeable and mask.dtype == np.int8
        assert [game.decode_action(opts, int(i)) for i in np.flatnonzero(mask)] == sorted(legal, key=e._encode.get)  # noqa: SLF001
        if legal in seen:
            assert seen[legal] is mask  # built once for the same legal actions
        seen[legal] = mask
        illegal = int(np.flatnonzero(mask == 0)[0])
        for wrong in (illegal, -1, e.num_actions):
            with pytest.raises(ValueError, match="not legal"):
                e.step(wrong)
        e.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert len(seen) < 200


def test_reset_seeds_the_action_spaces():
    """Seeded when first asked for after reset(seed): the same seed, the same samples; another seed, others."""
    def samples(seed: int) -> list[int]:
        e = env("battleline")
        e.reset(seed=seed)
        mask = e.infos[e.agent_selection]["action_mask"]
        return [int(e.action_space(e.agent_selection).sample(mask)) for _ in range(12)]

    assert samples(3) == samples(3) != samples(4)
    e = env("battleline")
    e.reset(seed=3)
    space = e.action_space("player_0")
    e.reset(seed=None)  # an unseeded reset forgets the seed that was waiting
    assert e.action_space("player_0") is space
