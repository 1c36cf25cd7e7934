"""The policy the generic agent derives from the rules alone (actors/alpha/generic/infoset.py): sure
gains, safe moves and gambles over a seat's information set, read in Hanabi, where the hints a seat
got are what its redrawn hands keep fixed, and a whole game that plays with it."""

from __future__ import annotations

import random

from actors.alpha.generic.infoset import InfoSetPolicy
from actors.match import make_header, record
from actors.registry import parse_spec
from bus.log import parse_log
from games.hanabi.cards import DECK, NAMES
from games.registry import get_game

# one fixed deal: seat 0 holds R1 Y2 G3 W4 B5 and seat 1 R1 Y1 G2 W2 B3 (names from games.hanabi.cards)
HANDS = [["R1", "Y2", "G3", "W4", "B5"], ["R1", "Y1", "G2", "W2", "B3"]]


def _dealt():
    game = get_game("hanabi")
    state = game.new_initial_state({})
    deck = [NAMES[c] for c in DECK]
    for card in HANDS[0] + HANDS[1]:
        deck.remove(card)
    state.apply_chance(HANDS[0] + HANDS[1] + deck)
    return game, state


def _samples(state, seat, k=8, seed=3):
    rng = random.Random(seed)
    return [state.resample_hidden(seat, rng) for _ in range(k)]


def test_a_hinted_playable_card_is_a_sure_gain_and_blind_plays_are_gambles():
    """After a rank-1 hint, seat 1's 1s are playable in every redraw of its hand (the hint keeps them
    1s, and no firework is started): the filter offers exactly those plays. Before the hint no play is
    sure and the filter offers the safe moves (hints, no blind play) instead."""
    game, state = _dealt()
    policy = InfoSetPolicy(game, samples=8)
    state.apply_actions({0: "hint:1:rank:1"})
    allowed, why = policy.classify(_samples(state, 1), 1, state.legal_actions(1), random.Random(1))
    assert why == "sure" and allowed == ["play:0", "play:1"]
    assert policy.work > 0

    game, fresh = _dealt()
    allowed, why = policy.classify(_samples(fresh, 0), 0, fresh.legal_actions(0), random.Random(1))
    assert why == "safe" and allowed and not any(a.startswith("play:") for a in allowed)
    assert all(a.startswith("hint:") for a in allowed)


def test_the_sure_gain_does_not_depend_on_the_hidden_cards():
    """The seat's own cards are what it cannot see: with the same hints, two different true hands
    give the filter the same answer (it reads only redraws of the information set)."""
    game, state = _dealt()
    state.apply_actions({0: "hint:1:rank:1"})
    data = state.to_json()
    other = dict(data, hands=[data["hands"][0], ["Y1", "R1", "B2", "R2", "W3"]])
    deck = list(data["deck"])
    for card in ["Y1", "R1", "B2", "R2", "W3"]:
        deck.remove(card)
    other["deck"] = deck + ["R1", "Y1", "G2", "W2", "B3"]
    twin = game.state_from_json(other)
    assert twin.observation(1) == state.observation(1)
    answers = []
    for truth in (state, twin):
        policy = InfoSetPolicy(game, samples=8)
        answers.append(policy.classify(_samples(truth, 1), 1, truth.legal_actions(1), random.Random(1)))
    assert answers[0] == answers[1] == (["play:0", "play:1"], "sure")


def test_a_game_without_a_measure_of_progress_is_left_whole():
    """Where the rules give no provisional returns the filter cannot tell, and keeps every action;
    the playout policy then draws uniformly."""
    game = get_game("openspiel-kuhn_poker")
    state = game.new_initial_state({})
    rng = random.Random(0)
    while state.is_chance():
        state.apply_chance(state.sample_chance(rng))
    if state.provisional_returns() is not None:  # the bridge gained a measure: nothing to test here
        return
    p = state.current_players()[0]
    legal = state.legal_actions(p)
    policy = InfoSetPolicy(game)
    assert policy.classify(_samples(state, p, 4), p, legal, rng) == (legal, "all")
    assert policy.rollout(state, p, legal, rng) in legal


def test_hanabi_table_with_the_derived_policy_never_bombs_out():
    """Two generic agents searching with the derived policy and the root filter keep a life in both
    of two deals (the filter never plays a card it cannot know is safe on the last life) and score
    more than the rules' floor of a random table's usual 1-2 points; the log verifies on replay."""
    spec = parse_spec("generic:rollout=infoset;prune=true;tree_depth=1;max_steps=2;iterations=24")
    for seed in (11, 12):
        data = record(make_header("hanabi", seed, [spec, spec], {}))
        end = parse_log(data).games[0].records[-1]["msg"]
        assert "bombed out" not in end["summary"], end["summary"]
        assert end["returns"][0] >= 5, end["summary"]
