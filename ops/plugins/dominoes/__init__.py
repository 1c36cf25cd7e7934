"""Partnership Dominoes (double-six, pairs 0 & 2 against 1 & 3, matches to 100) as a detente plugin:
rules, the seed's individualist and glutton-blocker pair, the Alpha pair, transcript, board, charts."""

from games.plugin import Chart, GamePlugin

# the declaration is data: nothing of the game is imported until the game is used
# (the names match ops/plugins/dominoes/views.py LACKED and PIPS_HELD)
QUANTITIES = {"numbers lacked": (0.0, 7.0, "more numbers the seat is known to lack"),
              "expected pips": (0.0, None, "a heavier hand believed")}

PLUGIN = GamePlugin(
    name="dominoes",
    rules_text="ops.plugins.dominoes.rules_text:TEXT",
    rules="games.dominoes.rules:Dominoes",
    doc="Partnership double-six Dominoes, four players in pairs (0 & 2 against 1 & 3), matches to a target; "
        "option signal=true opens the partner signal.",
    agents=("actors.dominoes.agents",),
    transcript="ops.plugins.dominoes.transcript:transcript",
    beliefs="ops.plugins.dominoes.views:beliefs",
    quantities=QUANTITIES,
    charts=(Chart("pair scores", "ops.plugins.dominoes.views:scores"),),
    board="ops.plugins.dominoes.board:board",
    short_options={"target": 30},
)
