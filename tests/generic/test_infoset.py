"""The policy the generic agent derives from the rules alone (actors/alpha/generic/infoset.py): sure
gains, safe moves and gambles over a seat's information set, read in Hanabi, where the hints a seat
got are what its redrawn hands keep fixed, and a whole game that plays with it."""

from __future__ import annotations

import os
import random
import subprocess
import sys

from actors.alpha.generic.infoset import InfoSetPolicy
from actors.match import make_header, record
from actors.registry import parse_spec
from bus.environment import comparable
from bus.log import parse_log
from games.hanabi.cards import DECK, NAMES
from games.registry import get_game
from replay.verify import verify_game

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


SPEC = "generic:rollout=infoset;prune=true;tree_depth=1;max_steps=2;iterations=24"


def test_hanabi_table_with_the_derived_policy_never_bombs_out():
    """Two generic agents searching with the derived policy and the root filter keep a life (the
    filter never plays a card it cannot know is safe on the last life) and score more than a random
    table's usual 1-2 points; the log verifies (every office reply re-made)."""
    spec = parse_spec(SPEC)
    for seed in (11,):
        log = parse_log(record(make_header("hanabi", seed, [spec, spec], {}))).games[0]
        end = log.records[-1]["msg"]
        assert "bombed out" not in end["summary"], end["summary"]
        assert end["returns"][0] >= 5, end["summary"]
        verdict = verify_game(log)
        assert verdict.ok, verdict.message


def test_the_derived_policy_writes_the_same_bytes_under_two_hash_seeds(tmp_path):
    """No set or hash order reaches a decision: `detente play` of a Hanabi game with the derived
    policy in two processes under different PYTHONHASHSEEDs writes the same log bytes."""
    logs = []
    for hash_seed in ("0", "1"):
        path = tmp_path / f"h{hash_seed}.log"
        done = subprocess.run([sys.executable, "-m", "ops.cli", "play", "hanabi", "--seed", "5", "--agents", SPEC,
                               "--log", str(path)], env={**os.environ, "PYTHONHASHSEED": hash_seed},
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        logs.append(comparable(path.read_bytes()))
    assert logs[0] == logs[1]
