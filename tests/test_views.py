"""The views of Battle Line, Hanabi and Dominoes on known positions: descriptions name what they act
on, a seat's text shows what it sees and not what it does not, and the tensor's bits lie where the
game's field table says (the conformance suite checks purity, shape and coverage for every game)."""

from __future__ import annotations

import random
import re

import numpy as np

from games.battleline import views as bl_views
from games.battleline.cards import CARD_OF as BL_CARD
from games.dominoes import views as do_views
from games.dominoes.tiles import INDEX as DO_TILE
from games.hanabi import views as ha_views
from games.hanabi.cards import DECK, NAMES as HA_NAMES
from games.registry import get_game


def _fields(table):
    return {name: (start, stop) for name, start, stop, _ in table}


def _covers(table, size):
    """The field table tiles the tensor: consecutive, from 0 to its size."""
    at = 0
    for _, start, stop, meaning in table:
        assert start == at and stop > start and meaning
        at = stop
    assert at == size


def _random_until(game, opts, seed, decisions):
    rng = random.Random(seed)
    state = game.new_initial_state(opts)
    done = 0
    while not state.is_terminal() and done < decisions:
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
        done += 1
    return state


# -- Hanabi ----------------------------------------------------------------------------------

def _hanabi_dealt():
    game = get_game("hanabi")
    opts = game.options({})
    state = game.new_initial_state(opts)
    state.apply_chance([HA_NAMES[c] for c in DECK])  # R1 R1 R1 R2 R2 | R3 R3 R4 R4 R5 | Y1 ...
    return game, opts, state


def test_hanabi_text_shows_the_partners_cards_and_not_ones_own():
    game, opts, state = _hanabi_dealt()
    state.apply_actions({0: "hint:1:rank:4"})
    text = game.observation_text(opts, 0, state.observation(0))
    own = text.split("Your hand")[1].split("Seat 1's hand")[0]
    partner = text.split("Seat 1's hand")[1].split("Discards")[0]
    assert not re.search(r"\b[RYGWB][1-5]\b", own), own  # its own cards are never named
    assert re.findall(r"\b[RYGWB][1-5]\b", partner) == ["R3", "R3", "R4", "R4", "R5"]
    assert partner.count("rank 4") == 2 and partner.count("not a 4") == 3  # what seat 1 learnt
    assert "seat 0 told seat 1 its 4s: slots 2, 3" in text
    # seat 1 sees seat 0's cards and only hint knowledge of its own
    text1 = game.observation_text(opts, 1, state.observation(1))
    seen = text1.split("Seat 0's hand")[1].split("Discards")[0]
    assert re.findall(r"\b[RYGWB][1-5]\b", seen) == ["R1"] * 3 + ["R2"] * 2
    assert "R5" not in text1.split("Seat 0's hand")[0]


def test_hanabi_descriptions_name_the_seat_colour_and_slot():
    game, opts, _ = _hanabi_dealt()
    hint = game.describe_action(opts, "hint:1:colour:R")
    assert "seat 1" in hint and "red" in hint
    assert "5s" in game.describe_action(opts, "hint:0:rank:5")
    assert "slot 3" in game.describe_action(opts, "play:3") and "life" in game.describe_action(opts, "play:3")
    assert "slot 0" in game.describe_action(opts, "discard:0") and "token" in game.describe_action(opts, "discard:0")


def test_hanabi_tensor_bits_where_the_layout_says():
    game, opts, state = _hanabi_dealt()
    state.apply_actions({0: "hint:1:rank:4"})
    table = ha_views.tensor_fields(opts)
    assert game.observation_shape(opts) == (660,)  # HLE's 658 for two players, and whose turn
    _covers(table, 660)
    f = _fields(table)
    t = game.observation_tensor(opts, 0, state.observation(0))
    hands = t[slice(*f["hands"])].reshape(5, 25)  # seat 1's cards only: seat 0 cannot see its own
    assert [int(np.argmax(row)) for row in hands] == [2, 2, 3, 3, 4] and hands.sum() == 5
    assert t[slice(*f["deck"])].sum() == 40 and t[slice(*f["deck"])][:40].all()
    assert t[slice(*f["hint_tokens"])].tolist() == [1.0] * 7 + [0.0]
    assert t[slice(*f["lives"])].sum() == 3 and t[slice(*f["fireworks"])].sum() == 0
    assert t[slice(*f["last_move_type"])].tolist() == [0, 0, 0, 1]  # a rank hint
    assert t[slice(*f["last_move_target"])].tolist() == [0, 1]  # to the next seat
    assert t[slice(*f["last_move_rank"])].tolist() == [0, 0, 0, 1, 0]
    assert t[slice(*f["last_move_touched"])].tolist() == [0, 0, 1, 1, 0]
    know = t[slice(*f["knowledge"])].reshape(2, 5, 35)
    assert know[0, :, :25].sum() == 125  # nothing known of its own cards: all 25 plausible
    assert know[1, 2, :25].sum() == 5 and know[1, 2, 25 + 5 + 3] == 1  # slot 2 of seat 1 is a 4, any colour
    assert know[1, 0, :25].sum() == 20 and know[1, 0, 30:].sum() == 0  # slot 0: not a 4
    assert t[slice(*f["current_player"])].tolist() == [0, 1]
    # the same position from seat 1: seat 0's R1 R1 R1 R2 R2 in the hands section
    t1 = game.observation_tensor(opts, 1, state.observation(1))
    assert [int(np.argmax(row)) for row in t1[slice(*f["hands"])].reshape(5, 25)] == [0, 0, 0, 1, 1]
    assert t1[slice(*f["last_move_target"])].tolist() == [1, 0]  # the hint was to seat 1 itself


# -- Battle Line -----------------------------------------------------------------------------

def test_battleline_descriptions_name_the_flag_and_card():
    game = get_game("battleline")
    opts = game.options({})
    line = game.describe_action(opts, "claim:3")
    assert line.startswith("claim flag 3")
    assert "red 10" in game.describe_action(opts, "play:R10:2") and "flag 2" in game.describe_action(opts, "play:R10:2")
    traitor = game.describe_action(opts, "play:traitor:B4:7")
    assert "Traitor" in traitor and "blue 4" in traitor and "flag 7" in traitor
    assert "Mud" in game.describe_action(opts, "play:mud:5") and "flag 5" in game.describe_action(opts, "play:mud:5")
    assert "troops deck" in game.describe_action(opts, "draw:troops")


def test_battleline_text_and_tensor_of_a_position():
    game = get_game("battleline")
    opts = game.options({})
    state = _random_until(game, opts, seed=7, decisions=30)
    obs = state.observation(0)
    text = game.observation_text(opts, 0, obs)
    assert "Your hand: " + " ".join(obs["hand"]) + "." in text
    assert f"{obs['opponent_hand']['troops']} troop and {obs['opponent_hand']['tactics']} tactics cards" in text
    for f, flag in enumerate(obs["flags"]):
        line = next(x for x in text.splitlines() if x.startswith(f"  flag {f}: "))
        for card in flag["cards"][0] + flag["cards"][1]:
            assert card in line
    _covers(bl_views.TENSOR_FIELDS, bl_views.SIZE)
    fields = _fields(bl_views.TENSOR_FIELDS)
    t = game.observation_tensor(opts, 0, obs)
    assert t.shape == game.observation_shape(opts)
    hand = np.flatnonzero(t[slice(*fields["hand"])]).tolist()
    assert hand == sorted(BL_CARD[c] for c in obs["hand"])
    mine = t[slice(*fields["flags_mine"])].reshape(9, 70)
    theirs = t[slice(*fields["flags_theirs"])].reshape(9, 70)
    for f, flag in enumerate(obs["flags"]):
        assert np.flatnonzero(mine[f]).tolist() == sorted(BL_CARD[c] for c in flag["cards"][0])
        assert np.flatnonzero(theirs[f]).tolist() == sorted(BL_CARD[c] for c in flag["cards"][1])
    assert t[slice(*fields["deck_troops"])].sum() == obs["decks"]["troops"]
    # seat 1 sees the same table from its side: the sides swap in its tensor
    t1 = game.observation_tensor(opts, 1, state.observation(1))
    assert (t1[slice(*fields["flags_mine"])] == theirs.ravel()).all()


# -- Dominoes --------------------------------------------------------------------------------

def test_dominoes_views_of_a_position():
    game = get_game("dominoes")
    opts = game.options({})
    assert "3-5" in game.describe_action(opts, "3-5:left") and "left end" in game.describe_action(opts, "3-5:left")
    assert "seat 2" in game.describe_action(opts, "open:2")
    state = _random_until(game, opts, seed=3, decisions=9)
    obs = state.observation(2)
    text = game.observation_text(opts, 2, obs)
    assert "Your tiles: " + " ".join(obs["hand"]) + "." in text
    others = [name for q in (0, 1, 3) for name in state.observation(q)["hand"]]
    tiles_line = next(x for x in text.splitlines() if x.startswith("Your tiles"))
    assert not any(name in tiles_line for name in others)
    _covers(do_views.TENSOR_FIELDS, do_views.SIZE)
    fields = _fields(do_views.TENSOR_FIELDS)
    t = game.observation_tensor(opts, 2, obs)
    assert np.flatnonzero(t[slice(*fields["hand"])]).tolist() == sorted(DO_TILE[n] for n in obs["hand"])
    ends = t[slice(*fields["ends"])].reshape(2, 7)
    assert [int(np.argmax(ends[0])), int(np.argmax(ends[1]))] == obs["ends"]
    counts = t[slice(*fields["counts"])].reshape(4, 7).sum(axis=1).tolist()
    assert counts == [obs["counts"][(2 + rel) % 4] for rel in range(4)]
    played = t[slice(*fields["played_by"])].reshape(4, 28)
    for seat, action in obs["events"]:
        if action != "pass":
            assert played[(seat - 2) % 4, DO_TILE[action.split(":")[0]]] == 1
    assert played.sum() == sum(1 for _, a in obs["events"] if a != "pass")
