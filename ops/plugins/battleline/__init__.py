"""Battle Line (all ten tactics cards; the no-tactics variant as an option) as a detente plugin.
Battle Line is a trademark of its publisher; detente implements the mechanics only."""

from games.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="battleline",
    rules="games.battleline.rules:BattleLine",
    doc="Battle Line with all ten tactics cards (tactics=false: the no-tactics variant); the mechanics only.",
)
