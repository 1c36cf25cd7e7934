"""Every installed game's plugin board (the debugger's view of a state) renders well-formed SVG
for the whole-game view and for each seat, at the start, mid-game and at the end."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from games.plugin import resolve
from games.registry import game_names, get_game, get_plugin

WITH_BOARD = [name for name in game_names() if get_plugin(name).board]


def _states(name: str):
    game = get_game(name)
    opts = game.options(dict(get_plugin(name).short_options))
    state, rng, seen = game.new_initial_state(opts), random.Random(4), []
    for step in range(4000):
        if step in (0, 40) or state.is_terminal():
            seen.append(state.clone())
        if state.is_terminal():
            return game.num_players(opts), seen
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
    return game.num_players(opts), seen


@pytest.mark.parametrize("name", WITH_BOARD)
def test_board_renders_for_every_view(name):
    draw = resolve(get_plugin(name).board)
    players, states = _states(name)
    assert len(states) >= 2
    for state in states:
        for player in [None, *range(players)]:
            root = ET.fromstring(draw(state, player))
            assert root.tag.endswith("svg") and root.get("aria-label")
            assert len(list(root.iter())) > 3


def test_built_in_games_have_boards():
    assert {"werewolves", "hanabi", "diplomacy"} <= set(WITH_BOARD)
