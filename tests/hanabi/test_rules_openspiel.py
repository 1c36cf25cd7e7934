"""Cross-check against OpenSpiel's Hanabi (the Hanabi Learning Environment inside `open-spiel`).

Both engines get the same deck order (OpenSpiel draws one card per chance node; we feed it our
deck's cards in order) and the same random moves; at every step the legal moves, the player to
act, the end and the score must agree. HLE's rules are the published ones with a zeroed score on
bomb-out, so ours run with completion_bonus=true and bomb_out_scores_zero=true here.
Skipped where `open-spiel` is not installed (it is a test-only dependency: pip install open-spiel).
"""

from __future__ import annotations

import random

import pytest

from games.hanabi.cards import CARD_OF
from games.hanabi.rules import Hanabi
from tests.bounds import bounded

pyspiel = pytest.importorskip("pyspiel")


def _ours(os_action: str, player: int, n: int) -> str:
    """OpenSpiel's action string, e.g. '(Reveal player +1 color R)', in our notation."""
    words = os_action.strip("()").split()
    if words[0] == "Play":
        return f"play:{words[1]}"
    if words[0] == "Discard":
        return f"discard:{words[1]}"
    assert words[0] == "Reveal", os_action
    target = (player + int(words[2])) % n
    kind = "colour" if words[3] == "color" else "rank"
    return f"hint:{target}:{kind}:{words[4]}"


def _cross_check(players: int, seed: int) -> int:
    game = Hanabi()
    ours = game.new_initial_state({"players": players, "bomb_out_scores_zero": True})
    rng = random.Random(seed)
    deck = ours.sample_chance(rng)
    ours.apply_chance(deck)
    theirs = pyspiel.load_game("hanabi", {"players": players}).new_initial_state()
    draws = iter(deck)
    steps = 0
    for _ in bounded(Hanabi.max_steps):
        while theirs.is_chance_node():
            card = CARD_OF[next(draws)]
            assert card in dict(theirs.chance_outcomes()), f"seed {seed}: OpenSpiel cannot draw {card}"
            theirs.apply_action(card)
        where = f"{players} players, seed {seed}, step {steps}"
        assert ours.is_terminal() == theirs.is_terminal(), f"{where}: end differs"
        if ours.is_terminal():
            assert ours.outcome().returns[0] == theirs.returns()[0], f"{where}: final score differs"
            return steps
        p = theirs.current_player()
        assert ours.current_players() == [p], f"{where}: player to act differs"
        mapping = {_ours(theirs.action_to_string(a), p, players): a for a in theirs.legal_actions()}
        assert ours.legal_actions(p) == sorted(mapping), f"{where}: legal moves differ"
        score = ours.score() if ours._lives > 0 else 0
        assert score == theirs.returns()[0], f"{where}: score differs"
        action = rng.choice(ours.legal_actions(p))
        ours.apply_actions({p: action})
        theirs.apply_action(mapping[action])
        steps += 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_same_moves_and_scores_as_openspiel(players):
    """200 random 2-player games (50 for each larger table), same deck order, every step."""
    games = 200 if players == 2 else 50
    steps = sum(_cross_check(players, seed) for seed in range(games))
    assert steps > games * 5


def test_long_games_reach_the_last_round():
    """Random moves that never misplay (discard or hint only) run the deck out: the last round."""
    for seed in range(20):
        game = Hanabi()
        ours = game.new_initial_state({"players": 2 + seed % 4, "bomb_out_scores_zero": True})
        rng = random.Random(seed)
        deck = ours.sample_chance(rng)
        ours.apply_chance(deck)
        n = 2 + seed % 4
        theirs = pyspiel.load_game("hanabi", {"players": n}).new_initial_state()
        draws = iter(deck)
        for _ in bounded(Hanabi.max_steps):
            while theirs.is_chance_node():
                theirs.apply_action(CARD_OF[next(draws)])
            assert ours.is_terminal() == theirs.is_terminal(), f"seed {seed}: end differs"
            if ours.is_terminal():
                assert ours.outcome().extra["end"] == "deck out"
                break
            p = theirs.current_player()
            mapping = {_ours(theirs.action_to_string(a), p, n): a for a in theirs.legal_actions()}
            assert ours.legal_actions(p) == sorted(mapping)
            safe = [a for a in sorted(mapping) if not a.startswith("play")]
            plays = [a for a in sorted(mapping) if a.startswith("play")]
            action = rng.choice(safe if safe and rng.random() < 0.9 else plays)
            if ours._lives == 1 and safe:
                action = rng.choice(safe)
            ours.apply_actions({p: action})
            theirs.apply_action(mapping[action])
        assert ours.outcome().returns[0] == theirs.returns()[0]
