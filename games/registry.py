"""Registry of games: every installed plugin of the entry-point group `detente.games`.

Entry points are read once with `importlib.metadata`; a game's plugin module and rules are
imported only when that game is asked for. `pip install` of a package declaring an entry point in
that group adds a game with no edit here (see games/plugin.py). A family (group
`detente.game_families`, a `GameFamily` named F) adds the games `F-<member>` of another library's
own registry: made when named, listed by `family_names`, not by `game_names`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, distribution, entry_points
from importlib.util import find_spec

from games.api import Game, Say, TalkItem
from games.plugin import GameFamily, GamePlugin, PluginError, resolve

GROUP = "detente.games"
FAMILIES = "detente.game_families"


class UnknownGame(KeyError):
    """No game registered under that name."""

    def __str__(self) -> str:
        if self.args[0] in _MISSING:
            return _MISSING[self.args[0]]
        return f"unknown game {self.args[0]!r} (known: {', '.join(game_names()) or 'none installed'})"


_MISSING: dict[str, str] = {}  # game -> why it is not listed: its entry point's extra is not installed


@lru_cache(maxsize=1)
def _entry_points() -> dict[str, str]:
    found: dict[str, str] = {}
    for ep in entry_points(group=GROUP):
        if ep.name in found and found[ep.name] != ep.value.partition("[")[0].strip():
            raise PluginError(f"two plugins for game {ep.name!r}: {found[ep.name]} and {ep.value}")
        missing = [extra for extra in ep.extras if not _extra_ready(ep.dist, extra)]
        if missing:  # `name = module:attr [extra]`: a game listed only where its optional extra is installed
            dist = ep.dist.metadata["Name"] if ep.dist is not None else "its package"
            _MISSING[ep.name] = f"game {ep.name!r} needs the optional extra: pip install '{dist}[{','.join(missing)}]'"
            continue
        found[ep.name] = ep.value.partition("[")[0].strip()  # the reference without its extras
    return dict(sorted(found.items()))


@lru_cache(maxsize=1)
def _family_points() -> dict[str, str]:
    """Family name -> its reference, for families whose extras are installed (the others: _MISSING)."""
    found: dict[str, str] = {}
    for ep in entry_points(group=FAMILIES):
        missing = [extra for extra in ep.extras if not _extra_ready(ep.dist, extra)]
        if missing:
            dist = ep.dist.metadata["Name"] if ep.dist is not None else "its package"
            _MISSING[ep.name + "-"] = f"{ep.name}-* games need the optional extra: pip install '{dist}[{','.join(missing)}]'"
            continue
        found[ep.name] = ep.value.partition("[")[0].strip()
    return dict(sorted(found.items()))


@lru_cache(maxsize=None)
def _family(name: str) -> tuple[GameFamily, frozenset[str]]:
    family = resolve(_family_points()[name])
    if not isinstance(family, GameFamily):
        raise PluginError(f"entry point {name!r} of {FAMILIES} is not a GameFamily")
    return family, frozenset(resolve(family.names)())


def families() -> list[str]:
    """Names of the installed game families, sorted (imports none)."""
    return list(_family_points())


def family_names(family: str | None = None) -> list[str]:
    """The games of one family (default: of all), sorted, as `F-<member>` (imports the families' libraries)."""
    chosen = [family] if family is not None else families()
    return sorted(f"{f}-{member}" for f in chosen for member in _family(f)[1])


def _from_family(name: str) -> GamePlugin | None:
    """The plugin of a family member called `name`, or None where no family has it."""
    for family_name in families():
        member = name[len(family_name) + 1:]
        if name.startswith(family_name + "-") and member:
            family, members = _family(family_name)
            if member in members:
                return resolve(family.plugin)(member)
    for prefix, why in sorted(_MISSING.items()):
        if prefix.endswith("-") and name.startswith(prefix):
            _MISSING[name] = why
    return None


def _extra_ready(dist, extra: str) -> bool:
    """Every distribution `extra` of `dist` requires is installed and its top-level modules importable."""
    return dist is not None and _requirements_ready(tuple(dist.requires or ()), extra)


@lru_cache(maxsize=None)
def _requirements_ready(requires: tuple[str, ...], extra: str) -> bool:
    for requirement in requires:
        spec, _, marker = requirement.partition(";")
        if not re.search(r"""extra\s*==\s*["']""" + re.escape(extra) + """["']""", marker):
            continue
        name = re.match(r"[A-Za-z0-9._-]+", spec.strip()).group(0)
        try:
            needed = distribution(name)
        except PackageNotFoundError:
            return False
        tops = {str(f).split("/")[0].split(".")[0] for f in needed.files or () if str(f).endswith((".py", ".so", ".pyd"))}
        for top in sorted(tops - {"", "__pycache__"}):
            try:
                if find_spec(top) is None:
                    return False
            except (ImportError, ValueError):
                return False
    return True


_PLUGINS: dict[str, GamePlugin] = {}
_GAMES: dict[str, Game] = {}
_TALK: dict[str, type[TalkItem]] = {"say": Say}  # talk kind -> model: the core's, then every game loaded so far


def game_names() -> list[str]:
    """Names of every installed game, sorted (imports no game)."""
    return list(_entry_points())


def get_plugin(name: str) -> GamePlugin:
    """The plugin declaration of game `name`; raises UnknownGame."""
    if name not in _PLUGINS:
        reference = _entry_points().get(name) if isinstance(name, str) else None
        plugin = resolve(reference) if reference is not None else _from_family(name) if isinstance(name, str) else None
        if plugin is None:
            raise UnknownGame(name)
        if not isinstance(plugin, GamePlugin) or plugin.name != name:
            raise PluginError(f"entry point {name!r} = {reference!r} is not a GamePlugin named {name!r}")
        _PLUGINS[name] = plugin
    return _PLUGINS[name]


def get_game(name: str) -> Game:
    """The registered game called `name` (its rules imported on first use); raises UnknownGame."""
    if name not in _GAMES:
        plugin = get_plugin(name)
        game = resolve(plugin.rules)()
        if not isinstance(game, Game) or game.name != name:
            raise PluginError(f"{plugin.rules} is not a Game named {name!r}")
        for model in game.talk_models:
            kind = model.model_fields["kind"].default
            if _TALK.get(kind, model) is not model:
                raise PluginError(f"talk kind {kind!r} of {name} is taken by another game")
            _TALK[kind] = model
        _GAMES[name] = game
    return _GAMES[name]


def talk_model(kind: str) -> type[TalkItem] | None:
    """The talk model of `kind` among the games loaded so far, else among all installed games."""
    if kind not in _TALK:
        for name in game_names():
            get_game(name)
    return _TALK.get(kind)
