"""The views of Werewolves, Diplomacy and Risk: descriptions name what an action touches, the text
shows what the seat's observation holds and nothing it does not, and the tensor's bits sit where
the game's TENSOR_FIELDS say."""

from __future__ import annotations

import random

import numpy
import pytest

import games.conformance as checks
from games.api import VIEWS
from games.plugin import resolve
from games.registry import get_game, get_plugin


def _field(fields, name):
    found = [(start, stop) for n, start, stop, _ in fields if n == name]
    assert found, f"no field {name!r}"
    return found[0]


def _contiguous(fields, size):
    at = 0
    for name, start, stop, meaning in fields:
        assert start == at and stop > start and meaning, name
        at = stop
    assert at == size


@pytest.mark.parametrize("name", ["werewolves"])
def test_views_declared_and_rules_text(name):
    game = get_game(name)
    assert game.has(VIEWS, game.options({}))
    text = resolve(get_plugin(name).rules_text)
    assert isinstance(text, str) and 1500 < len(text) < 6000


# -- Werewolves ---------------------------------------------------------------------------------

def _werewolves_day(seed=3, steps=4, options=None):
    game = get_game("werewolves")
    opts = game.options(options or {})
    state = game.new_initial_state(opts)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
    return game, opts, state


def test_werewolves_descriptions_name_the_player():
    game = get_game("werewolves")
    opts = game.options({})
    assert game.describe_action(opts, "vote:3") == "vote to eliminate player 3"
    assert "player 7" in game.describe_action(opts, "attack:7")
    assert "role" in game.describe_action(opts, "inspect:2")
    species = game.options({"preset": "aiwolf5"})
    assert "species" in game.describe_action(species, "inspect:2")
    with pytest.raises(ValueError):
        game.describe_action(opts, "vote:10")  # seats 0..9


def test_werewolves_text_shows_the_pack_to_wolves_only():
    game, opts, state = _werewolves_day()
    roles = state.to_json()["roles"]
    wolves = [q for q, r in enumerate(roles) if r == "werewolf"]
    villager = roles.index("villager")
    wolf_text = game.observation_text(opts, wolves[0], state.observation(wolves[0]))
    assert f"Your fellow werewolves: {wolves[1]}." in wolf_text
    assert "werewolf votes" in wolf_text  # the pack's night votes
    text = game.observation_text(opts, villager, state.observation(villager))
    assert "your role: villager" in text
    assert "werewolf votes" not in text and "fellow werewolves" not in text
    for q in wolves:  # unless revealed at death, a villager does not see a wolf's role
        if q in state.observation(villager)["alive"]:
            assert f"{q} werewolf" not in text


def test_werewolves_tensor_bits():
    from games.werewolves import views

    game, opts, state = _werewolves_day()
    roles = state.to_json()["roles"]
    wolf = roles.index("werewolf")
    obs = state.observation(wolf)
    x = game.observation_tensor(opts, wolf, obs)
    fields = views.tensor_fields(opts)
    assert fields == views.TENSOR_FIELDS  # default options: 10 seats
    _contiguous(fields, x.shape[0])
    start, stop = _field(fields, "me")
    assert list(numpy.flatnonzero(x[start:stop])) == [wolf]
    start, stop = _field(fields, "role")
    assert x[start + views.ALL_ROLES.index("werewolf")] == 1 and x[start:stop].sum() == 1
    start, stop = _field(fields, "alive")
    assert list(numpy.flatnonzero(x[start:stop])) == obs["alive"]
    start, stop = _field(fields, "known_role")
    k = len(views.ALL_ROLES)
    for q, r in enumerate(roles):
        if r == "werewolf":  # the wolf knows its pack
            assert x[start + q * k + views.ALL_ROLES.index("werewolf")] == 1
    start, stop = _field(fields, "phase")
    assert x[start + views.PHASES.index(obs["phase"])] == 1
    votes = [e for e in obs["events"] if e["type"] == "wolf_votes"][-1]["votes"]
    start, stop = _field(fields, "wolf_votes")
    n = opts.players
    for a, b in votes:
        if b is not None:
            assert x[start + a * n + b] == 1
    # a villager's tensor holds no werewolf vote, and its known roles leave the living wolves out
    villager = roles.index("villager")
    y = game.observation_tensor(opts, villager, state.observation(villager))
    start, stop = _field(fields, "wolf_votes")
    assert not y[start:stop].any()


def test_werewolves_views_conformance_aiwolf():
    checks.check_views(get_game("werewolves"), {"preset": "aiwolf13"}, seeds=range(2))
