"""A game as a plugin: one declaration naming everything detente needs to play and show it.

A plugin is data: each part is a reference `"module:attribute"` imported only when that part is
used, so listing games loads no rules and building one game's actors loads no other game's code.
Built-in and third-party games declare themselves the same way, as a Python entry point in the
group `detente.games` whose value is a `GamePlugin` (see games/registry.py):

    [project.entry-points."detente.games"]
    mygame = "mygame.plugin:PLUGIN"

A library with its own registry of games declares a `GameFamily` in the group
`detente.game_families` instead: its games are made when named, never listed one by one.

The declaration sits above its game's rules and agents (the rules stay pure: games/<g>/ imports
nothing of ours but games.api), so a plugin may reference code at any level of detente.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Mapping


class PluginError(ValueError):
    """A plugin declaration that cannot be loaded (bad reference, wrong type, name clash)."""


@dataclass(frozen=True)
class Chart:
    """A chart of the game's course: `read(state)` -> {label: value} or None, folded over the log."""

    title: str
    read: str  # reference to a function State -> dict[str, float] | None
    x: str = "step"  # the x-axis label
    x_of: str | None = None  # reference to a function State -> float (e.g. a phase as a year); None: the step count


@dataclass(frozen=True)
class GamePlugin:
    """Everything one game brings. Only `name` and `rules` are required.

    - rules: the `games.api.Game` subclass (instantiated once, without arguments)
    - agents: modules or attributes holding a list of `actors.registry.AgentDef`
    - transcript: a function (log, player) -> (text, data); without one, the generic transcript
    - beliefs: a function (kb_change message dict) -> [(subject, quantity, value)], read off every
      Intelligence Office update; `quantities` declares each quantity's scale (name -> (lo, hi,
      what a higher value means)); "trust" is on the shared scale (0 none, 1 full) unless redeclared
    - charts: the game's course as numbers over steps
    - board: a function (state, player | None) -> SVG text (the debugger's board)
    - commands: a function (argparse subparsers) -> None adding `detente <game> ...` commands
    - exporters: format name -> function (log) -> str (e.g. a saved-game JSON)
    - short_options: game options for a short game (conformance checks of agents without a
      budget of their own for this game, quick demos)
    - report: a function (games: the played games of a tournament; `len()`, iterate for each
      recorded row as a dict with its `extra`, or `games.sql(query)` over a view `played` of the
      store's rows: ops.tournament.sections.Games) -> a list of report sections `{"title", "rows":
      [{"label", "value", "ci": [lo, hi] or None, "n"}], "histogram": {value: count} or None}` (a
      board game's solo and survival rates, a cooperative game's perfect scores); tournament
      reports print them in text, JSON and HTML. Counted in SQL, a section stays fast at a
      million games; iterating makes a dict of every game
    - rules_text: a reference to a string: the game's rules, mechanics only, about a page of plain
      text (the system prompt of a language-model agent, the generated reference page); without
      one, `doc`
    - libraries: distributions whose versions can change this game's results (e.g. "numpy" for
      agents that use it); each log header's `env` records their versions (bus.environment)
    """

    name: str
    rules: str
    doc: str = ""
    agents: tuple[str, ...] = ()
    transcript: str | None = None
    beliefs: str | None = None
    quantities: Mapping[str, tuple[float, float | None, str]] = field(default_factory=dict)
    charts: tuple[Chart, ...] = ()
    board: str | None = None
    commands: str | None = None
    exporters: Mapping[str, str] = field(default_factory=dict)
    short_options: Mapping[str, Any] = field(default_factory=dict)  # a short game, for checks and demos
    report: str | None = None
    libraries: tuple[str, ...] = ()
    rules_text: str | None = None


@dataclass(frozen=True)
class GameFamily:
    """Games another library registers, made on demand: an entry point `F` in the group
    `detente.game_families` whose value is a GameFamily holds the games `F-<member>` (e.g. `openspiel`:
    `openspiel-tic_tac_toe`). `names`: a reference to a function () -> the sorted member names (it
    may import the library); `plugin`: a reference to a function (member) -> the GamePlugin named
    `F-<member>`. Games a family's package also lists as entry points of `detente.games` are those."""

    names: str
    plugin: str
    doc: str = ""


def resolve(reference: str) -> Any:
    """The object a `"module:attribute"` (or plain `"module"`) reference names."""
    module_name, _, attribute = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PluginError(f"cannot import {module_name!r} (from {reference!r}): {exc}") from exc
    if not attribute:
        return module
    obj: Any = module
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise PluginError(f"{module_name!r} has no {attribute!r} (from {reference!r})") from None
    return obj
