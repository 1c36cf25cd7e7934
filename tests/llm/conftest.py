"""Shared helpers of the language-model agent's tests: games played in memory against a server."""

from __future__ import annotations


def play_game(game: str, agents: str, seed: int = 1, options: dict | None = None):
    """(log bytes, the game as read back) of one game played here."""
    from actors.match import game_options, make_header, record
    from actors.registry import parse_lineup
    from bus.log import parse_log
    from games.registry import get_game

    players = get_game(game).num_players(game_options(game, options))
    data = record(make_header(game, seed, parse_lineup(agents, players), options))
    log = parse_log(data)
    assert log.bad is None and len(log.games) == 1
    return data, log.games[0]


def kinds(game) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in game.records:
        out[r["msg"]["kind"]] = out.get(r["msg"]["kind"], 0) + 1
    return out


def of_kind(game, kind: str) -> list[dict]:
    return [r["msg"] for r in game.records if r["msg"]["kind"] == kind]


def llm(url: str, **options) -> str:
    """An `llm` agent spec against `url`."""
    opts = {"endpoint": url, "model": "scripted", "backoff": 0.01, **options}
    return "llm:" + ";".join(f"{k}={v}" for k, v in opts.items())


# short games: Werewolves with one discussion round and a night first, a few days at most
WEREWOLVES_SHORT = {"players": 5, "discussion_rounds": 1, "max_days": 3}
