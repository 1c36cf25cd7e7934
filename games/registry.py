"""Registry of games by name. Adding a game: one import and one entry below."""

from __future__ import annotations

from games.api import Game, TalkItem
from games.diplomacy.rules import Diplomacy
from games.hanabi.rules import Hanabi
from games.werewolves.rules import Werewolves


class UnknownGame(KeyError):
    """No game registered under that name."""

    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r} (known: {', '.join(sorted(GAMES))})"


GAMES: dict[str, Game] = {game.name: game for game in (Werewolves(), Hanabi(), Diplomacy())}


def get_game(name: str) -> Game:
    """The registered game called `name`; raises UnknownGame."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(name) from None


def game_names() -> list[str]:
    return sorted(GAMES)


def talk_models() -> list[type[TalkItem]]:
    """Every registered game's talk vocabulary, in game-name order."""
    return [model for name in sorted(GAMES) for model in GAMES[name].talk_models]
