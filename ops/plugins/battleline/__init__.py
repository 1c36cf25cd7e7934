"""Battle Line (all ten tactics cards; the no-tactics variant as an option) as a detente plugin:
rules, the naive and Deep Barca agents, a turn-by-turn transcript with the Strategy Office's
numbers, the board, the course of a game, the Intelligence Office's reading of the other hand and
the tournament report's sections (how games end, wins of each kind and flags per agent).
Battle Line is a trademark of its publisher; detente implements the mechanics only."""

from games.plugin import Chart, GamePlugin

PLUGIN = GamePlugin(
    name="battleline",
    rules_text="ops.plugins.battleline.rules_text:TEXT",
    rules="games.battleline.rules:BattleLine",
    doc="Battle Line with all ten tactics cards (tactics=false: the no-tactics variant); the mechanics only.",
    agents=("actors.battleline.agents",),
    transcript="ops.plugins.battleline.transcript:transcript",
    beliefs="ops.plugins.battleline.views:beliefs",
    quantities={"hand information": (0.0, 1.0, "more known of the opponent's hand")},
    charts=(Chart("flags claimed and cards left", "ops.plugins.battleline.views:course"),),
    board="ops.plugins.battleline.board:board",
    report="ops.plugins.battleline.report:report",
)
