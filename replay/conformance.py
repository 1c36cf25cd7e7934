"""Log-level conformance checks any registered game can run (rules-level ones: games.conformance).

Same seed, same bytes; replay equals live play; every log verifies. They play through the real
bus and referee with the `random` agent in every seat.
"""

from __future__ import annotations

from typing import Any

from actors.match import make_header, record
from actors.registry import AgentSpec
from bus.log import parse_log
from games.registry import get_game
from replay.fold import fold
from replay.verify import verify_game


def play_to_bytes(game_name: str, seed: int, options: dict[str, Any] | None = None, runtime: str = "inline") -> bytes:
    """A whole log of one game with random agents, as bytes."""
    game = get_game(game_name)
    players = game.num_players(game.options(options))
    return record(make_header(game_name, seed, [AgentSpec(name="random")] * players, options), runtime=runtime)


def check_same_seed_same_bytes(game_name: str, seeds=range(3), options=None) -> None:
    for seed in seeds:
        first, second = play_to_bytes(game_name, seed, options), play_to_bytes(game_name, seed, options)
        assert first == second, f"{game_name} seed {seed}: two runs gave different log bytes"
    assert play_to_bytes(game_name, 0, options) != play_to_bytes(game_name, 1, options), (
        f"{game_name}: seeds 0 and 1 gave the same log: is the seed used?"
    )


def check_replay_equals_live(game_name: str, seeds=range(3), options=None) -> None:
    for seed in seeds:
        log = parse_log(play_to_bytes(game_name, seed, options))
        assert log.bad is None and len(log.games) == 1
        game = log.games[0]
        assert game.complete, f"{game_name} seed {seed}: no game_end record"
        end = game.records[-1]["msg"]
        folded = fold(game)  # checks every recorded digest on the way
        assert folded.state.is_terminal(), f"{game_name} seed {seed}: replayed state is not terminal"
        assert folded.state.digest() == end["digest"], f"{game_name} seed {seed}: replayed final state differs"
        assert list(folded.state.outcome().returns) == end["returns"], f"{game_name} seed {seed}: returns differ"
        verdict = verify_game(game)
        assert verdict.ok, f"{game_name} seed {seed}: verify failed: {verdict.message}"


def run_all(game_name: str, options=None) -> None:
    check_same_seed_same_bytes(game_name, options=options)
    check_replay_equals_live(game_name, options=options)
