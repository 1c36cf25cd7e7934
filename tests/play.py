"""The one play-to-bytes helper of the tests: a seeded game with a lineup, recorded in memory."""

from __future__ import annotations

from typing import Any

from actors.match import game_options, make_header, record
from actors.registry import AgentSpec, parse_lineup
from bus.log import GameLog, parse_log
from games.registry import get_game


def lineup(game: str, agents: str | list[str] | list[AgentSpec], options: dict[str, Any] | None = None) -> list[AgentSpec]:
    """Agent specs for every seat: one spec text for all, a comma list, or a list of specs or texts."""
    players = get_game(game).num_players(game_options(game, options))
    if isinstance(agents, str):
        return parse_lineup(agents, players)
    return [a if isinstance(a, AgentSpec) else parse_lineup(a, 1)[0] for a in agents]


def play_bytes(game: str, seed: int, agents: str | list = "random", options: dict[str, Any] | None = None,
               runtime: str = "inline") -> bytes:
    """The whole one-game log (magic, header, records) of a seeded game, as bytes."""
    return record(make_header(game, seed, lineup(game, agents, options), options or {}), runtime=runtime)


def play_log(game: str, seed: int, agents: str | list = "random", options: dict[str, Any] | None = None,
             runtime: str = "inline") -> GameLog:
    """The same game, read back as a GameLog."""
    return parse_log(play_bytes(game, seed, agents, options, runtime)).games[0]
