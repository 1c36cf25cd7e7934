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


@pytest.mark.parametrize("name", ["werewolves", "diplomacy", "risk"])
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


# -- Diplomacy ----------------------------------------------------------------------------------

def test_diplomacy_descriptions_name_the_provinces():
    game = get_game("diplomacy")
    opts = game.options({})
    assert game.describe_action(opts, "A PAR - BUR") == "A PAR - BUR: army in Paris moves to Burgundy"
    assert game.describe_action(opts, "F NTH C A YOR - NWY") == (
        "F NTH C A YOR - NWY: fleet in the North Sea convoys the army in Yorkshire to Norway")
    assert "supports the army in Paris moving to Marseilles" in game.describe_action(opts, "A BUR S A PAR - MAR")
    assert "St Petersburg (north coast)" in game.describe_action(opts, "F STP/NC B")
    line = game.describe_action(opts, "A PAR - BUR; F BRE - MAO; WAIVE")
    assert line.startswith("3 orders:") and "Brest to the Mid-Atlantic Ocean" in line and "\n" not in line
    with pytest.raises(ValueError):
        game.describe_action(opts, "A XYZ - PAR")
    state = game.new_initial_state(opts)
    for seat in state.current_players():  # every legal order of the first units parses and reads
        for action in state.legal_actions(seat):
            assert ": army in " in game.describe_action(opts, action) or ": fleet in " in game.describe_action(opts, action)


def test_diplomacy_text_and_deals_seen_by_parties_only():
    from games.diplomacy.talk import DipPropose, Peace

    game = get_game("diplomacy")
    opts = game.options({})
    state = game.new_initial_state(opts)
    france, england, germany = 2, 1, 3
    text = game.observation_text(opts, france, state.observation(france))
    assert "You are FRANCE" in text and "Phase S1901M: spring 1901, movement." in text
    assert "FRANCE: F BRE, A MAR, A PAR" in text and "You order next: F BRE (fleet in Brest)." in text
    state.apply_talk(france, "press", DipPropose(deal_id=0, commitments=(Peace(powers=("ENGLAND", "FRANCE"), until=1902),)))
    for seat in (france, england):
        assert "peace among ENGLAND, FRANCE until the end of 1902" in game.observation_text(
            opts, seat, state.observation(seat))
    seen = game.observation_text(opts, germany, state.observation(germany))
    assert "peace" not in seen and "Deals: none." in seen


def test_diplomacy_tensor_bits():
    from games.diplomacy import views

    game = get_game("diplomacy")
    opts = game.options({})
    state = game.new_initial_state(opts)
    x = game.observation_tensor(opts, 2, state.observation(2))
    fields = views.TENSOR_FIELDS
    _contiguous(fields, x.shape[0])
    area = views.AREAS.index
    start, stop = _field(fields, "unit_army")
    assert x[start + area("PAR")] == 1 and x[start + area("BUR")] == 0 and x[start:stop].sum() == 13  # 13 armies, 9 fleets in 1901
    start, _ = _field(fields, "unit_fleet")
    assert x[start + area("STP")] == 1 and x[start + area("STP/SC")] == 1 and x[start + area("STP/NC")] == 0
    start, _ = _field(fields, "unit_owner")
    assert x[start + area("PAR") * 7 + 2] == 1 and x[start + area("STP/SC") * 7 + 5] == 1
    start, _ = _field(fields, "centre_owner")
    centre = views.CENTRE_LIST.index
    assert x[start + centre("PAR") * 8 + 2] == 1 and x[start + centre("BEL") * 8 + 7] == 1
    start, stop = _field(fields, "next_unit")
    assert list(numpy.flatnonzero(x[start:stop])) == [area("BRE")]
    start, stop = _field(fields, "me")
    assert list(numpy.flatnonzero(x[start:stop])) == [2]
    start, _ = _field(fields, "season")
    assert x[start] == 1  # spring
    # France orders F BRE - MAO: its order shows in its own tensor, not in England's
    state.apply_actions({s: ("F BRE - MAO" if s == 2 else state.default_action(s)) for s in state.current_players()})
    mine = game.observation_tensor(opts, 2, state.observation(2))
    theirs = game.observation_tensor(opts, 1, state.observation(1))
    start, _ = _field(fields, "my_order_kind")
    assert mine[start + area("BRE") * len(views.ORDER_KINDS) + views.ORDER_KINDS.index("-")] == 1
    start, _ = _field(fields, "my_order_target")
    assert mine[start + area("MAO")] == 1 and theirs[start + area("MAO")] == 0


# -- Risk ---------------------------------------------------------------------------------------

def _risk_game(options, steps, seed=1):
    game = get_game("risk")
    opts = game.options(options)
    state = game.new_initial_state(opts)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
    return game, opts, state


def test_risk_descriptions_name_the_territories():
    game = get_game("risk")
    opts = game.options({})
    assert game.describe_action(opts, "attack:ALA,KAM,3") == "attack Kamchatka (KAM) from Alaska (ALA) with 3 dice"
    assert game.describe_action(opts, "place:ARG:1") == "place 1 army on Argentina (ARG)"
    assert "Great Britain (infantry)" in game.describe_action(opts, "trade:ALA,GBR,W1")
    assert "from Siam (SIA) to India (IND)" in game.describe_action(opts, "fortify:SIA,IND")
    for bad in ("attack:ALA,XXX,3", "trade:ALA,GBR", "fly:ALA"):
        with pytest.raises(ValueError):
            game.describe_action(opts, bad)


def test_risk_text_shows_own_cards_only():
    game, opts, state = _risk_game({"cards": True, "max_rounds": 8}, 900)
    hands = state.to_json()["hands"]
    seat = max(range(3), key=lambda q: len(hands[q]))
    assert hands[seat], "a hand to show"
    def shown(q):
        text = game.observation_text(opts, q, state.observation(q))
        line = [x for x in text.splitlines() if x.startswith("Your cards: ")][0]
        body = line[len("Your cards: "):].rstrip(".")
        return text, [] if body == "none" else [c.split(" (")[0] for c in body.split(", ")]

    mine, cards = shown(seat)
    assert cards == hands[seat]
    for other in range(3):
        if other != seat:  # another seat's text lists its own hand, none of this one's cards
            assert shown(other)[1] == hands[other] and not set(shown(other)[1]) & set(cards)
    assert "North America (+5): ALA " in mine


def test_risk_tensor_bits():
    from games.risk import views
    from games.risk.mapdata import CODES

    game, opts, state = _risk_game({"players": 3}, 60)
    fields = views.TENSOR_FIELDS
    obs = state.observation(1)
    x = game.observation_tensor(opts, 1, obs)
    _contiguous(fields, x.shape[0])
    start, _ = _field(fields, "owner")
    for t, owner in enumerate(obs["owner"]):
        row = x[start + t * 7:start + t * 7 + 7]
        if owner == -1:
            assert not row.any()
        else:  # relative seats: seat 1 sees itself in column 0, seat 2 in column 1, seat 0 in column 2
            assert list(numpy.flatnonzero(row)) == [(owner - 1) % 3], CODES[t]
    start, _ = _field(fields, "armies")
    assert x[start + 5] == numpy.float32(obs["armies"][5] / views.ARMY_SCALE)
    start, stop = _field(fields, "phase")
    assert list(numpy.flatnonzero(x[start:stop])) == [views.PHASES.index(obs["phase"])]
    start, stop = _field(fields, "players")
    assert list(numpy.flatnonzero(x[start:stop])) == [1]  # 3 players
    # the neutral of a two-player game sits in the owner block's last column
    game, opts, state = _risk_game({"players": 2}, 1)
    obs = state.observation(0)
    x = game.observation_tensor(opts, 0, obs)
    start, _ = _field(fields, "owner")
    neutral = [t for t, q in enumerate(obs["owner"]) if q == obs["neutral"]]
    assert len(neutral) == 14 and all(x[start + t * 7 + views.NEUTRAL_COLUMN] == 1 for t in neutral)


def test_risk_tensor_phases_match_the_rules():
    from games.risk import rules, views

    assert views.PHASES == rules._PHASES


def test_risk_views_conformance_with_cards_and_neutral():
    checks.check_views(get_game("risk"), {"players": 2, "cards": True, "max_rounds": 2}, seeds=range(1))
