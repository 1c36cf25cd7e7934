"""Partnership Dominoes (double-six, pairs 0 & 2 against 1 & 3, matches to 100) as a detente plugin."""

from games.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="dominoes",
    rules="games.dominoes.rules:Dominoes",
    doc="Partnership double-six Dominoes, four players in pairs (0 & 2 against 1 & 3), matches to a target.",
    agents=("actors.dominoes.agents",),
    short_options={"target": 30},
)
