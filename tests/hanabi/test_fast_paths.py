"""What makes Hanabi's rules fast stays the rules: the deal's shuffle is random.Random.shuffle's
permutation for the same generator, and the legal actions read from the table keyed by the hand
size, the tokens and the partners' colours and ranks are the ones the rules define, in string order."""

from __future__ import annotations

import random

import pytest

from games.api import IllegalAction
from games.hanabi.cards import COLOURS, DECK, NAMES
from games.hanabi.rules import MAX_HINTS, Hanabi, HanabiOptions, HanabiState

GAME = Hanabi()


def test_the_deal_is_random_shuffle_of_the_deck():
    for seed in range(300):
        expected = list(DECK)
        random.Random(seed).shuffle(expected)
        state = GAME.new_initial_state({})
        assert state.sample_chance(random.Random(seed)) == [NAMES[c] for c in expected]


def test_a_generator_of_another_kind_shuffles_with_its_own_shuffle():
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):
            Counting.calls += 1
            super().shuffle(x)

    deal = GAME.new_initial_state({}).sample_chance(Counting(3))
    assert Counting.calls == 1 and sorted(deal) == sorted(NAMES[c] for c in DECK)


def rules_legal(state, player: int) -> list[str]:
    """The legal actions straight from the rulebook: discard (not at 8 tokens), a hint of a colour or
    rank that some card of a partner has (not at 0 tokens), play; sorted."""
    hand_size = len(state._hands[player])  # noqa: SLF001
    out = [f"play:{i}" for i in range(hand_size)]
    if state._hints < MAX_HINTS:  # noqa: SLF001
        out += [f"discard:{i}" for i in range(hand_size)]
    if state._hints > 0:  # noqa: SLF001
        for t, hand in enumerate(state._hands):  # noqa: SLF001
            if t != player:
                out += sorted({f"hint:{t}:colour:{COLOURS[card // 5]}" for card in hand})
                out += sorted({f"hint:{t}:rank:{card % 5 + 1}" for card in hand})
    return sorted(out)


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3}, {"players": 4, "hand_size": 2},
                                     {"players": 5}, {"players": 2, "hand_size": 3}])
def test_legal_actions_from_the_table_are_the_rules(options):
    compared = 0
    for seed in range(20):
        state, rng = GAME.new_initial_state(options), random.Random(seed)
        state.apply_chance(state.sample_chance(rng))
        while not state.is_terminal():
            player = state.current_players()[0]
            legal = state.legal_actions(player)
            assert legal == rules_legal(state, player)
            compared += 1
            state.apply_actions({player: rng.choice(legal)})
    assert compared > 200


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3, "hand_size": 1}, {"players": 5}])
def test_apply_accepts_exactly_the_legal_actions_and_the_key_tells_legal_sets_apart(options):
    """apply_actions checks an action against the rules directly; it must accept exactly the listed
    legal actions (and nothing else: other seats' numbers, junk). Equal `legal_actions_key`s mean
    equal legal lists; a seat not to act has the key () and no legal action."""
    opts = GAME.options(options)
    vocabulary = GAME.action_vocabulary(opts) + ("hint:9:rank:1", "play:x", "", None, ["play:0"])
    by_key: dict[tuple, list[str]] = {}
    for seed in range(6):
        state, rng = GAME.new_initial_state(opts), random.Random(seed)
        state.apply_chance(state.sample_chance(rng))
        while not state.is_terminal():
            player = state.current_players()[0]
            legal = state.legal_actions(player)
            assert by_key.setdefault(state.legal_actions_key(player), legal) == legal
            for other in range(opts.players):
                if other != player:
                    assert state.legal_actions_key(other) == () and state.legal_actions(other) == []
            for action in vocabulary:
                trial = state.clone()
                try:
                    trial.apply_actions({player: action})
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (action in legal), (action, legal)
            state.apply_actions({player: rng.choice(legal)})
    assert len(by_key) > 20


def test_the_conformance_catches_a_key_that_stands_for_two_legal_lists():
    """A key that forgets the tokens (discards legal or not) fails check_action_encoding."""
    from games import conformance

    class Forgetful(HanabiState):
        def legal_actions_key(self, player):
            key = super().legal_actions_key(player)
            return key[:2] if key else key

    class Game(Hanabi):
        def new_initial_state(self, options=None):
            return Forgetful(options if isinstance(options, HanabiOptions) else self.options(options))

    conformance.check_action_encoding(GAME, seeds=range(2))
    with pytest.raises(AssertionError, match="legal_actions_key"):
        conformance.check_action_encoding(Game(), seeds=range(2))


def test_the_fast_tensor_of_states_taken_in_any_order_is_the_observations_tensor():
    """The fast encoder keeps the fireworks' and the discards' chunks beside the lists they came
    from: states of several games and options, asked in a shuffled order (each ask may find another
    state's chunk kept), give exactly the tensor of their observation."""
    from games.hanabi import views

    asked = []
    for options in ({"players": 2}, {"players": 3, "completion_bonus": True}, {"players": 2, "hand_size": 3}):
        opts = GAME.options(options)
        for seed in range(12):
            state, rng = GAME.new_initial_state(opts), random.Random(seed)
            state.apply_chance(state.sample_chance(rng))
            while not state.is_terminal():
                asked += [(opts, state.clone(), seat) for seat in range(opts.players)]
                player = state.current_players()[0]
                state.apply_actions({player: rng.choice(state.legal_actions(player))})
    random.Random(0).shuffle(asked)
    for opts, state, seat in asked:
        fast = views.state_observation_tensor(opts, state, seat)
        assert fast.tobytes() == views.observation_tensor(opts, seat, state.observation(seat)).tobytes()
    assert len(asked) > 600
