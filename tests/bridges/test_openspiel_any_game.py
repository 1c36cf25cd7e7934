"""Any game OpenSpiel registers, through the bridge's game family (`openspiel-<name>`, made when
named): bounds from the game loaded with its options, games that draw their own chance verified,
OpenSpiel's MCTS on perfect-information games, and the sweep over every registered name (slow)."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from games.registry import UnknownGame, family_names, game_names, get_game  # noqa: E402
from replay.transcript import transcript  # noqa: E402
from replay.verify import verify_game  # noqa: E402
from tests.play import play_log  # noqa: E402


def test_every_registered_name_is_a_family_member_and_none_is_listed_by_hand():
    names = family_names("openspiel")
    assert names == sorted("openspiel-" + n for n in pyspiel.registered_names())
    assert "openspiel-tic_tac_toe" in names and "openspiel-tic_tac_toe" not in game_names()
    with pytest.raises(UnknownGame):
        get_game("openspiel-no_such_game")


def test_a_family_game_plays_with_its_parameters_as_options():
    game = get_game("openspiel-goofspiel")
    assert game.options({"num_cards": 5}).num_cards == 5
    log = play_log("openspiel-goofspiel", 2, "random", {"num_cards": 5})
    bids = [r for r in log.records if r["msg"]["kind"] == "act"]
    assert len(bids) == 2 * 4  # both players bid in each of five rounds but the last (forced: OpenSpiel plays it)
    log = play_log("openspiel-tic_tac_toe", 1)
    assert verify_game(log).ok and "end: returns" in transcript(log)[0]


@pytest.mark.parametrize("short", ["kuhn_poker", "leduc_poker"])
@pytest.mark.parametrize("players", [3, 4])
def test_bounds_come_from_the_game_with_its_options(short, players):
    """Kuhn and Leduc poker with 3 and 4 players: the step bound and return bounds are the loaded
    game's (with the default game's bound, 3-player Kuhn poker stopped: 'no end after 6 steps')."""
    game = get_game("openspiel-" + short)
    opts = game.options({"players": players})
    spiel = pyspiel.load_game(short, {"players": players})
    assert game.max_steps_for(opts) == spiel.max_game_length() + spiel.max_chance_nodes_in_history() + 1
    assert game.max_steps_for(opts) > game.max_steps_for(game.options({}))
    assert game.return_bounds(opts) == (spiel.min_utility(), spiel.max_utility())
    lo, hi = game.return_bounds(opts)
    for seed in range(12):
        log = play_log("openspiel-" + short, seed, "random", {"players": players})
        end = log.records[-1]["msg"]
        assert end["kind"] == "game_end" and len(end["returns"]) == players
        assert all(lo <= r <= hi for r in end["returns"]) and abs(sum(end["returns"])) < 1e-9
    assert verify_game(log).ok


@pytest.mark.parametrize("short", ["negotiation", "tarok"])
def test_a_game_that_draws_its_own_chance_verifies(short):
    """OpenSpiel's negotiation and tarok draw chance from the game's own generator (one declared
    outcome): the bridge logs a seed and draws from the game loaded with that rng_seed, so the log
    fixes the draw. Before, verify failed at the first record after the chance record."""
    logs = [play_log("openspiel-" + short, seed) for seed in (1, 2)]
    chance = [[r["msg"]["outcome"] for r in log.records if r["msg"]["kind"] == "chance"] for log in logs]
    assert chance[0] and chance[0] != chance[1] and all(isinstance(o, int) for o in chance[0])
    for log in logs:
        verdict = verify_game(log)
        assert verdict.ok, verdict.message
    game = get_game("openspiel-" + short)
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_chance(12345)
    b.apply_chance(12345)
    assert a.digest() == b.digest() and str(a.inner) == str(b.inner)
    other = game.new_initial_state()
    other.apply_chance(54321)
    assert str(other.inner) != str(a.inner)


def test_mcts_plays_perfect_information_games_from_the_observed_history():
    """Tic-tac-toe's observation holds its public history; MCTS rebuilds and searches it, and beats
    random (seat 0, 100 simulations: it never loses these games)."""
    from actors.registry import load_all_agents

    mcts = load_all_agents()["openspiel-mcts"]
    assert "openspiel-tic_tac_toe" in mcts.games and "openspiel-connect_four" in mcts.games
    assert "openspiel-goofspiel" not in mcts.games  # simultaneous: MCTS does not search joint steps
    assert "openspiel-liars_dice" not in mcts.games  # hidden dice: no position from one observation
    returns = []
    for seed in range(4):
        log = play_log("openspiel-tic_tac_toe", seed, ["openspiel-mcts:simulations=100;samples=1", "random"])
        assert not [r for r in log.records if r["msg"]["kind"] in ("error", "fault")]
        returns.append(log.records[-1]["msg"]["returns"][0])
    assert verify_game(log).ok
    assert min(returns) >= 0 and sum(returns) >= 2, returns


def test_sampled_chance_draws_are_spread():
    """The seeds the referee draws for a self-drawing game differ from game to game."""
    state = get_game("openspiel-negotiation").new_initial_state()
    draws = {state.sample_chance(random.Random(seed)) for seed in range(20)}
    assert len(draws) == 20


@pytest.mark.slow
def test_sweep_every_registered_game():
    """Every registered name through play, verify and transcript, each in its own process: at
    least 40 pass (docs/bridges/openspiel_games.md lists them and why the others cannot)."""
    from ops.bridges.openspiel.sweep import sweep

    results = sweep(timeout=60, jobs=2)
    passed = [r["game"] for r in results if r["ok"]]
    assert len(passed) >= 40, [r for r in results if not r["ok"]]
    assert {"tic_tac_toe", "negotiation", "kuhn_poker", "goofspiel", "chess"} <= set(passed)
    for r in results:
        assert r["ok"] or r["why"], r


@pytest.mark.slow
@pytest.mark.ray
@pytest.mark.parametrize("short", ["kuhn_poker", "leduc_poker"])
@pytest.mark.parametrize("players", [3, 4])
def test_100_game_tournaments_with_more_players(short, players, tmp_path):
    """Kuhn and Leduc poker with 3 and 4 players: a 100-game tournament of random agents, reported."""
    import os
    import subprocess
    import sys

    spec = tmp_path / "spec.toml"
    spec.write_text(f'game = "openspiel-{short}"\ngames = 100\nseed = 1\n[options]\nplayers = {players}\n'
                    f'[[lineup]]\nagent = "random"\nlabel = "random"\ncount = {players}\n')
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    for args in (["run", str(spec), "--out", str(tmp_path / "out"), "--runners", "1"], ["report", str(tmp_path / "out")]):
        done = subprocess.run([sys.executable, "-m", "ops.cli", "tournament", *args], capture_output=True, text=True,
                              timeout=600, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
    assert "100 games recorded (0 aborted over their time budget, 0 with agent errors)" in done.stdout
    assert f"random                {100 * players}" in done.stdout
