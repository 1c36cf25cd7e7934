"""Hanabi rules: each test quotes the rule it checks (rulebook of A. Bauza 2010; Osawa 2015 3.1)."""

from __future__ import annotations

import random

import pytest

from games import conformance
from games.api import IllegalAction
from games.hanabi.cards import CARD_OF, DECK, FULL, NAMES
from games.hanabi.rules import Hanabi, HanabiState
from tests.bounds import bounded

GAME = Hanabi()


def dealt(hands: list[list[str]], draws: list[str] = (), **options) -> HanabiState:
    """A state whose hands are `hands` and whose next draws are `draws`, then the rest."""
    state = GAME.new_initial_state({"players": len(hands), **options})
    left = list(DECK)
    order = []
    for card in [c for h in hands for c in h] + list(draws):
        left.remove(CARD_OF[card])
        order.append(card)
    state.apply_chance(order + [NAMES[c] for c in left])
    return state


def act(state: HanabiState, action: str) -> None:
    state.apply_actions({state.current_players()[0]: action})


TWO = [["R1", "R2", "G1", "G2", "R3"], ["Y1", "Y1", "B2", "W5", "G3"]]


def test_deal_and_sizes():
    """Hands of 5 with 2-3 players, of 4 with 4-5; 8 tokens, 3 lives; 50 cards in the deck."""
    assert len(DECK) == 50
    for players, size in ((2, 5), (3, 5), (4, 4), (5, 4)):
        state = GAME.new_initial_state({"players": players})
        state.apply_chance(state.sample_chance(random.Random(players)))
        obs = state.observation(0)
        assert [len(h) for h in obs["hands"]] == [size] * players
        assert obs["deck"] == 50 - size * players and obs["hints"] == 8 and obs["lives"] == 3


def test_hint_points_at_all_matching_cards():
    """A hint points at *all* the target's cards of that colour or number (Osawa 3.1)."""
    state = dealt(TWO)
    act(state, "hint:1:colour:Y")
    obs = state.observation(1)
    assert obs["history"][-1] == {"action": "hint:1:colour:Y", "player": 0, "slots": [0, 1]}
    yellow, not_yellow = 1 << 1, FULL & ~(1 << 1)
    know = obs["knowledge"][1]
    assert know[0] & 0b11111 == yellow and know[1] & 0b11111 == yellow
    assert all(k == not_yellow for k in know[2:])
    assert obs["hints"] == 7
    act(state, "hint:0:rank:1")
    assert state.observation(0)["history"][-1]["slots"] == [0, 2]


def test_hint_must_touch_a_card_and_needs_a_token():
    """No hint about a colour or number the target does not hold; none at 0 tokens."""
    state = dealt(TWO)
    legal = state.legal_actions(0)
    assert "hint:1:colour:R" not in legal and "hint:1:rank:4" not in legal
    assert "hint:1:colour:W" in legal and "hint:1:rank:5" in legal
    with pytest.raises(IllegalAction):
        act(state, "hint:1:colour:R")
    for _ in range(8):
        act(state, "hint:" + str(1 - state.current_players()[0]) + ":rank:2")
    assert state.observation(0)["hints"] == 0
    assert not any(a.startswith("hint") for a in state.legal_actions(state.current_players()[0]))


def test_discard_refused_at_eight_tokens():
    """Discarding gains a token, so it is not allowed while all 8 tokens are available."""
    state = dealt(TWO, draws=["B1"])
    assert not any(a.startswith("discard") for a in state.legal_actions(0))
    with pytest.raises(IllegalAction):
        act(state, "discard:0")
    act(state, "hint:1:rank:5")
    act(state, "discard:4")  # p1 discards G3 and draws B1 into the last slot
    obs = state.observation(0)
    assert obs["hints"] == 8 and obs["discards"] == ["G3"]
    assert obs["hands"][1] == ["Y1", "Y1", "B2", "W5", "B1"]


def test_play_success_and_misplay():
    """A card adding to its firework succeeds; any other is discarded and costs a life."""
    state = dealt(TWO, draws=["W1", "W2"])
    act(state, "play:0")  # R1 succeeds
    assert state.observation(0)["fireworks"] == [1, 0, 0, 0, 0]
    act(state, "play:3")  # W5 fails
    obs = state.observation(0)
    assert obs["lives"] == 2 and obs["discards"] == ["W5"]
    assert obs["history"][-1]["ok"] is False and obs["history"][-2]["ok"] is True
    assert obs["hands"][0] == [None] * 5 and obs["hands"][1][-1] == "W2"


@pytest.mark.parametrize("zero", [False, True])
def test_third_life_ends_the_game(zero):
    """Three misplays end the game; the score is kept, or 0 under bomb_out_scores_zero."""
    state = dealt(TWO, draws=["R4", "R5", "Y5", "G5"], bomb_out_scores_zero=zero)
    act(state, "play:0")  # R1
    for action in ("play:3", "play:3", "play:4"):  # W5, then R4, then Y5... all misplays
        assert not state.is_terminal()
        act(state, action)
    assert state.is_terminal()
    out = state.outcome()
    assert out.extra["lives"] == 0 and out.extra["fireworks"] == 1
    assert out.returns == ((0.0, 0.0) if zero else (1.0, 1.0))


def test_last_round_after_the_deck_runs_out():
    """Once the last card is drawn every player, its drawer included, has exactly one more turn."""
    state = GAME.new_initial_state({"players": 3})
    state.apply_chance(state.sample_chance(random.Random(3)))
    turns_after = None
    for _ in bounded(GAME.max_steps):
        if state.is_terminal():
            break
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        safe = [a for a in legal if a.startswith("discard")] or [a for a in legal if a.startswith("hint")]
        act(state, safe[0])
        obs = state.observation(0)
        if obs["deck"] == 0:
            turns_after = 0 if turns_after is None else turns_after + 1
    assert turns_after == 3  # 3 players: 3 turns after the turn that drew the last card
    assert state.outcome().extra["end"] == "deck out"


@pytest.mark.parametrize("bonus", [True, False])
def test_completion_bonus(bonus):
    """Completing a firework returns a token under completion_bonus (off in Osawa's study)."""
    state = dealt([["R1", "R2", "R3", "R4", "R5"], ["Y1", "Y1", "B2", "W5", "G3"]],
                  completion_bonus=bonus)
    for _ in range(4):
        act(state, "play:0")  # R1..R4: later cards move down, so R(k+1) is in slot 0
        act(state, _any_hint(state))
    assert state.observation(0)["fireworks"][0] == 4
    tokens = state.observation(0)["hints"]
    act(state, "play:0")  # R5 completes red
    assert state.observation(0)["fireworks"][0] == 5
    assert state.observation(0)["hints"] == tokens + (1 if bonus else 0)


def _any_hint(state: HanabiState) -> str:
    return next(a for a in state.legal_actions(state.current_players()[0]) if a.startswith("hint"))


def test_perfect_game_ends_at_25():
    """All five fireworks complete ends the game at once with 25 points."""
    state = GAME.new_initial_state({"players": 2})
    state.apply_chance(state.sample_chance(random.Random(0)))
    data = state.to_json()
    data["fireworks"] = [5, 5, 5, 5, 4]
    data["hands"][0][0] = "B5"  # a made-up position: state_from_json does not count cards
    state = GAME.state_from_json(data)
    act(state, "play:0")
    assert state.is_terminal() and state.outcome().returns == (25.0, 25.0)
    assert state.outcome().winners == (0, 1)


def test_information_hiding_own_cards_swapped():
    """Nothing a player observes changes when only its own cards are swapped with unseen ones."""
    rng = random.Random(5)
    for seed in range(30):
        state = GAME.new_initial_state({"players": 2 + seed % 4})
        state.apply_chance(state.sample_chance(random.Random(seed)))
        for _ in range(rng.randrange(25)):
            if state.is_terminal():
                break
            act(state, rng.choice(state.legal_actions(state.current_players()[0])))
        p = seed % state._n
        data = state.to_json()
        if not data["deck"]:
            continue
        # swap own slot 0 with a deck card, unhinted slots only (hints are public knowledge)
        if data["knowledge"][p][0] != FULL:
            continue
        data["hands"][p][0], data["deck"][0] = data["deck"][0], data["hands"][p][0]
        other = GAME.state_from_json(data)
        assert other.observation(p) == state.observation(p)
        q = (p + 1) % state._n
        if data["hands"][p][0] != state.to_json()["hands"][p][0]:
            assert other.observation(q) != state.observation(q)


def test_open_hands_variant_shows_own_cards():
    """reveal_own_cards: observations show the own hand too (the full-information baseline)."""
    state = dealt(TWO, reveal_own_cards=True)
    assert state.observation(0)["hands"][0] == TWO[0]
    assert dealt(TWO).observation(0)["hands"][0] == [None] * 5


@pytest.mark.parametrize("options", [
    {}, {"players": 3}, {"players": 4, "bomb_out_scores_zero": True},
    {"players": 5, "completion_bonus": False}, {"reveal_own_cards": True}, {"hand_size": 3},
])
def test_conformance(options):
    conformance.run_all(GAME, options)
