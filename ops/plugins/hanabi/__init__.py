"""Hanabi as a detente plugin: rules, Osawa's strategies and the Alpha agent, turn-by-turn transcript."""

from games.plugin import Chart, GamePlugin

PLUGIN = GamePlugin(
    name="hanabi",
    rules="games.hanabi.rules:Hanabi",
    doc="Hanabi, 2 to 5 players; Osawa's variant is completion_bonus=false.",
    agents=("actors.hanabi.agents",),
    transcript="ops.plugins.hanabi.transcript:transcript",
    charts=(Chart("score, hint tokens and lives", "ops.plugins.hanabi.views:course"),),
    board="ops.plugins.hanabi.board:board",
    report="ops.plugins.hanabi.report:report",
)
