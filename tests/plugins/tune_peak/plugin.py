"""The plugin declaration of `tune_peak` (test only)."""

from games.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="tune_peak",
    rules="tune_peak.rules:TunePeak",
    doc="Tune peak: pick a level; the chance to hit peaks at level 7 (a test plugin).",
    agents=("tune_peak.agents",),
)
