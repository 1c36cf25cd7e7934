"""Hanabi as a detente plugin: rules, Osawa's strategies and the Alpha agent, turn-by-turn transcript."""

from games.plugin import Chart, GamePlugin

# the declaration is data: nothing of the game is imported until the game is used
# (the name matches ops/plugins/hanabi/views.py CANDIDATES)
QUANTITIES = {"candidates": (1.0, 25.0, "less known of that card")}

PLUGIN = GamePlugin(
    name="hanabi",
    rules_text="ops.plugins.hanabi.rules_text:TEXT",
    rules="games.hanabi.rules:Hanabi",
    doc="Hanabi, 2 to 5 players; Osawa's variant is completion_bonus=false.",
    agents=("actors.hanabi.agents",),
    transcript="ops.plugins.hanabi.transcript:transcript",
    beliefs="ops.plugins.hanabi.views:beliefs",
    quantities=QUANTITIES,
    charts=(Chart("score, hint tokens and lives", "ops.plugins.hanabi.views:course"),),
    board="ops.plugins.hanabi.board:board",
    report="ops.plugins.hanabi.report:report",
)
