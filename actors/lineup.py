"""A game's actors from its header: every seat's President and offices, and the referee.

Its own module so that the placements (inline and Ray) and the match runner all build lineups the
same way without importing each other.
"""

from __future__ import annotations

from typing import Any

from actors.actor import Actor
from actors.address import player_address, player_of, seat_of
from actors.referee import Referee
from actors.registry import EXTERNAL, AgentSpec, build_player
from bus.codec import FORMAT_VERSION, digest_every, observations_logged
from bus.messages import REFEREE
from games.registry import get_game


def build_actors(header: dict[str, Any], seats: list[int] | None = None, referee: bool = True,
                 part: str = "all") -> dict[str, Actor]:
    """The actors the header describes (all seats by default), by address, in address order.
    `part`: which lineup of a fork ("before", "after"); external agents are told the game begins."""
    game = get_game(header["game"])
    seed = header["seed"]
    actors: dict[str, Actor] = {}
    specs, hears_header = _lineup(header["agents"])
    talkers = set()
    for seat in range(len(specs)) if referee or seats is None else seats:
        for actor in build_player(specs[seat], header["game"], seat, seed, part):
            if actor.address in actors:
                raise ValueError(f"two actors at address {actor.address}")
            actors[actor.address] = actor
            if actor.address == player_address(seat) and getattr(actor, "speaks", False):
                talkers.add(seat)  # the referee opens talk rounds to this player
    if seats is not None:
        wanted = {player_address(s) for s in seats}
        actors = {a: x for a, x in actors.items() if player_of(a) in wanted}
    if "external" in header or hears_header:  # external and language-model agents hear the header
        for address, actor in sorted(actors.items()):
            begin = getattr(actor, "begin_game", None)
            if begin is not None:
                begin(header, seat_of(address))
    version = header.get("format", FORMAT_VERSION)
    for actor in actors.values():  # agents whose messages depend on the log format (President.log_format)
        if hasattr(actor, "log_format"):
            actor.log_format = version
            if version >= 3 and hasattr(actor, "attach_local"):
                actor.attach_local(actors)  # the offices it may ask directly, as built for this game
    if referee:
        actors[REFEREE] = Referee(game, _game_options(game, header["game"], header["options"]), seed, talkers=frozenset(talkers),
                                  chance_seed=header.get("chance_seed"),
                                  digest_every=digest_every(version), observers=observers(actors, len(specs), version))
    return dict(sorted(actors.items()))


# What a game's lineup is, whatever its seed: the same in every game of a tournament, so made once
# a process. Keyed by the header's values as repr writes them (JSON values: one repr each); what is
# kept is frozen (validated pydantic models, a bool), so games share it.
_SEEDLESS: dict[tuple[str, str], Any] = {}
_SEEDLESS_MAX = 512  # entries kept at most (then forgotten all at once)


def _lineup(agents: list[dict[str, Any]]) -> tuple[tuple[AgentSpec, ...], bool]:
    """The header's agent specs, validated, and whether a language-model seat or office is among
    them (such agents, like external ones, hear the header). Kept for a lineup of our own agents
    with plain options only (each builder validates its copy of them); an external or model seat,
    or an office given as a spec, is handed specs of its own each game, as its builder may keep them."""
    key = ("agents", repr(agents))
    found = _SEEDLESS.get(key)
    if found is None:
        specs = tuple(AgentSpec.model_validate(a) for a in agents)
        llm = any(a.get("name") == "llm" or any(isinstance(v, dict) and v.get("name") == "llm"
                                                for v in (a.get("options") or {}).values()) for a in agents)
        plain = all(s.name not in EXTERNAL and s.name != "llm" and not any(isinstance(v, (dict, list)) for v in s.options.values())
                    for s in specs)
        found = _remember(key, (specs, llm)) if plain else (specs, llm)
    return found


def _game_options(game: Any, name: str, raw: dict[str, Any]) -> Any:
    """`game.options(raw)` (`game` registered as `name`), validated once a process for the same
    game and raw options."""
    key = (name, repr(raw))
    found = _SEEDLESS.get(key)
    if found is None:
        found = _remember(key, game.options(raw))
    return found


def _remember(key: tuple[str, str], value: Any) -> Any:
    if len(_SEEDLESS) >= _SEEDLESS_MAX:
        _SEEDLESS.clear()
    _SEEDLESS[key] = value
    return value


def observers(actors: dict[str, Actor], seats: int, version: int) -> frozenset[int] | None:
    """The seats whose requests carry the rules' observation: every seat (None) in logs before
    format 4 (their records hold it); from format 4 on, the seats whose player does not declare
    `observes` false (President.observes: a base President whose offices are shown no observation)."""
    if observations_logged(version):
        return None
    return frozenset(seat for seat in range(seats)
                     if getattr(actors.get(player_address(seat)), "observes", True))
