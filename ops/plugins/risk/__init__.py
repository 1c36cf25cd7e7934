"""Risk on the classic map (2-6 players, cards optional) as a detente plugin. Risk is a trademark
of its publisher; detente implements the mechanics only."""

from games.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="risk",
    rules="games.risk.rules:Risk",
    doc="Risk on the classic map, 2 to 6 players (2 with a neutral), cards optional; the mechanics only.",
    short_options={"max_rounds": 6},
)
