"""Risk on the classic map (2-6 players, cards optional) as a detente plugin: the rules, the
`heuristic` and `td` agents (actors.risk), transcript, board, charts, the Intelligence Office's beliefs,
report sections and `detente risk train`. Risk is a trademark of its publisher; detente implements the mechanics only."""

from games.plugin import Chart, GamePlugin

PLUGIN = GamePlugin(
    name="risk",
    rules="games.risk.rules:Risk",
    doc="Risk on the classic map, 2 to 6 players (2 with a neutral), cards optional; the mechanics only.",
    agents=("actors.risk.agents",),
    transcript="ops.plugins.risk.transcript:transcript",
    beliefs="ops.plugins.risk.views:beliefs",
    quantities={"strength": (0.0, 1.0, "a larger share of the armies on the board"),
                "aggression": (0.0, None, "more battle rolls per turn")},
    charts=(Chart("territories per player", "ops.plugins.risk.views:territories"),
            Chart("armies per player", "ops.plugins.risk.views:armies")),
    board="ops.plugins.risk.board:board",
    rules_text="ops.plugins.risk.rules_text:TEXT",
    commands="ops.plugins.risk.commands:commands",
    report="ops.plugins.risk.report:report",
    short_options={"max_rounds": 6},
)
