"""The partner signal in the rules (option `signal`, ours, after seed 3.4: the pair's roles are
"comunicado al agente companero solo al principio del juego a traves de una senal que solo el
entiende"): one private talk round per hand, before its first decision, only with the option on."""

from __future__ import annotations

import random

import pytest

from actors.match import make_header, record
from actors.registry import parse_lineup
from bus.log import parse_log
from games import conformance
from games.api import TALK
from games.dominoes.rules import Dominoes, DominoesSignal
from replay.verify import verify_game
from tests.bounds import bounded

GAME = Dominoes()
ON = {"signal": True}


def _to_next_hand_start(state, rng):
    """Play random moves until the next node where a hand's first decision waits."""
    for _ in bounded(GAME.max_steps):
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            p = state.current_players()[0]
            state.apply_actions({p: rng.choice(state.legal_actions(p))})
        data = state.to_json()
        if state.is_terminal() or (not state.is_chance() and not data["events"]):
            return


def test_without_the_option_nothing_talks_and_the_options_dump_is_unchanged():
    """Off by default: no channel, no TALK for the variant, and `signal` absent from the dump
    (so log headers and digests of earlier games keep their bytes; tests/golden checks them)."""
    opts = GAME.options()
    assert "signal" not in opts.model_dump(mode="json")
    assert TALK not in GAME.capabilities_for(opts) and TALK in GAME.capabilities_for(GAME.options(ON))
    assert GAME.options(ON).model_dump(mode="json")["signal"] is True
    rng = random.Random(1)
    state = GAME.new_initial_state({"target": 30})
    for _ in bounded(GAME.max_steps):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        assert state.talk() is None
        p = state.current_players()[0]
        state.apply_actions({p: rng.choice(state.legal_actions(p))})


@pytest.mark.parametrize("opener", ["winner", "pair_choice", "last_tile"])
def test_one_round_on_the_partner_channels_before_each_hands_first_decision(opener):
    """The channels are the pairs' own (pair0: seats 0 & 2, pair1: 1 & 3), one round, only at the
    hand's first decision: the opening, or under pair_choice the choice of opener (not the opening
    after it)."""
    rng = random.Random(4)
    state = GAME.new_initial_state({"target": 60, "opener": opener, **ON})
    talks, hands = 0, 0
    for _ in bounded(GAME.max_steps):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            hands += 1
            continue
        spec = state.talk()
        data = state.to_json()
        first = not data["events"] and (data["phase"] == "choose" or data["hand"] == 0 or opener != "pair_choice")
        assert (spec is not None) == first
        if spec is not None:
            talks += 1
            assert spec.channels == {"pair0": (0, 2), "pair1": (1, 3)} and spec.max_rounds == 1
        p = state.current_players()[0]
        state.apply_actions({p: rng.choice(state.legal_actions(p))})
    assert talks == hands > 1


def test_only_a_signal_for_this_hand_on_ones_own_pairs_channel_is_kept():
    state = GAME.new_initial_state(ON)
    state.apply_chance(state.sample_chance(random.Random(0)))
    good = DominoesSignal(hand=0, code=9)
    assert state.validate_talk(0, "pair0", good) is None
    assert "own pair" in state.validate_talk(1, "pair0", good)
    assert "hand 0" in state.validate_talk(2, "pair0", DominoesSignal(hand=3, code=9))
    p = state.current_players()[0]
    state.apply_actions({p: "6-6"})
    assert "start of a hand" in state.validate_talk(0, "pair0", good)
    with pytest.raises(ValueError):
        DominoesSignal(hand=0, code=64)  # six bits


def test_conformance_with_the_signal():
    """The rules' conformance checks with the option on (a few seeds: the test-time budget)."""
    options = {"target": 40, **ON}
    conformance.check_random_playthroughs(GAME, options, range(3))
    conformance.check_serialisation(GAME, options, range(2))
    conformance.check_information_hiding(GAME, options, range(3))
    conformance.check_talk(GAME, options, range(3))


def test_signals_are_logged_heard_by_partners_only_and_replay():
    """A logged match with the glutton-blocker pair signalling: each hand one signal per speaker,
    heard by its partner (and itself) only; the log verifies."""
    lineup = parse_lineup("glutton-blocker,individualist,glutton-blocker,individualist", 4)
    log = parse_log(record(make_header("dominoes", 5, lineup, {"target": 30, **ON}))).games[0]
    talks = [r["msg"] for r in log.records if r["msg"]["kind"] == "talk"]
    heard = [r["msg"] for r in log.records if r["msg"]["kind"] == "heard"]
    hands = log.records[-1]["msg"]["extra"]["hands"]
    assert sorted(m["sender"] for m in talks) == ["p0"] * hands + ["p2"] * hands
    assert {m["to"] for m in heard} == {"p0", "p2"} and {m["channel"] for m in heard} == {"pair0"}
    assert all(line["says"][0]["kind"] == "dom_signal" for m in heard for line in m["lines"])
    assert verify_game(log).ok
