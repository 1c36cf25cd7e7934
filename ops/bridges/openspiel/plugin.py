"""OpenSpiel's games as detente plugins: the family `openspiel` (pyproject.toml's entry point in
`detente.game_families`, conditional on the `openspiel` extra) makes `openspiel-<short name>` for
every name `pyspiel.registered_names()` gives, when it is named; a few are also listed one by one
(entry points `openspiel-<name>` in `detente.games`, so the registry-wide checks play them with a
short game). Names use '-' because entry-point names allow no ':'.

The debugger's board is generic: the state's string as the viewer may see it (OpenSpiel's
observation string for a seat; the whole state's string for the whole-game view)."""

from __future__ import annotations

from games.api import State
from games.plugin import GameFamily, GamePlugin
from ops.svg import svg, text

LINE_H = 15
# short games for the registry-wide checks (conformance of rules, logs and agents)
SHORT = {"goofspiel": {"num_cards": 4}, "hanabi": {"colors": 2, "ranks": 3, "hand_size": 3},
         "colored_trails": {}, "bargaining": {"max_turns": 4}}
DOCS = {
    "bargaining": "OpenSpiel's bargaining (Lewis et al. 2017's item division), 2 players, offers as actions",
    "colored_trails": "OpenSpiel's Colored Trails (de Jong et al. 2011), 3 players: two proposers and a responder",
    "goofspiel": "OpenSpiel's Goofspiel: simultaneous sealed bids for point cards (joint actions)",
    "hanabi": "OpenSpiel's Hanabi (the Hanabi Learning Environment), cooperative",
    "kuhn_poker": "OpenSpiel's Kuhn poker, a three-card poker",
    "leduc_poker": "OpenSpiel's Leduc poker, a six-card two-round poker",
    "liars_dice": "OpenSpiel's Liar's Dice",
}


def board(state: State, player: int | None = None) -> str:
    """SVG of the state's string for the whole-game view, the observation string for a seat."""
    if player is None:
        lines = str(state.render()).splitlines()
        title = "whole state (OpenSpiel's string)"
    else:
        seen = state.observation(player)
        lines = str(seen.get("string") or "(no observation string)").splitlines()
        title = f"p{player}'s observation (OpenSpiel's string)"
    if state.is_terminal():
        status = "over: returns " + " ".join(f"{r:g}" for r in state.outcome().returns)
    else:
        status = "chance" if state.is_chance() else "to act: " + ", ".join(f"p{p}" for p in state.current_players())
    lines = [title, status, *(lines[:60] or ["(empty)"])]
    width = 20 + 7 * max(len(line) for line in lines)
    height = 30 + len(lines) * LINE_H
    parts = [f'<rect x="1" y="1" width="{min(width, 1600) - 2}" height="{height - 2}" fill="#fafafa" stroke="#999"/>']
    parts += [text(10, 18 + i * LINE_H, line, 12 if i == 0 else 11) for i, line in enumerate(lines)]
    return svg(min(width, 1600), height, parts, title)


def _plugin(short_name: str, class_name: str | None = None) -> GamePlugin:
    return GamePlugin(
        name="openspiel-" + short_name,
        rules=f"ops.bridges.openspiel.rules:{class_name or 'OpenSpiel_' + short_name}",
        doc=DOCS.get(short_name, f"OpenSpiel's {short_name}"),
        agents=("ops.bridges.openspiel.agents",),
        board="ops.bridges.openspiel.plugin:board",
        short_options=SHORT.get(short_name, {}),
        libraries=("open_spiel",),
    )


BARGAINING = _plugin("bargaining", "Bargaining")
COLORED_TRAILS = _plugin("colored_trails", "ColoredTrails")
GOOFSPIEL = _plugin("goofspiel", "Goofspiel")
HANABI = _plugin("hanabi", "Hanabi")
KUHN_POKER = _plugin("kuhn_poker", "KuhnPoker")
LEDUC_POKER = _plugin("leduc_poker", "LeducPoker")
LIARS_DICE = _plugin("liars_dice", "LiarsDice")


def member_names() -> list[str]:
    """The short names of OpenSpiel's registered games (imports pyspiel)."""
    from ops.bridges.openspiel.rules import pyspiel

    return sorted(pyspiel().registered_names())


def member_plugin(short_name: str) -> GamePlugin:
    """The plugin of `openspiel-<short_name>` (its rules class made by ops.bridges.openspiel.rules)."""
    return _plugin(short_name)


FAMILY = GameFamily(names="ops.bridges.openspiel.plugin:member_names", plugin="ops.bridges.openspiel.plugin:member_plugin",
                    doc="OpenSpiel's registered games, each by its short name with its parameters as options")
