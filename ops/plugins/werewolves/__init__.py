"""Werewolves of Miller's Hollow as a detente plugin: rules, AlphaWolf, transcript, trust charts."""

from games.plugin import Chart, GamePlugin

PLUGIN = GamePlugin(
    name="werewolves",
    rules="games.werewolves.rules:Werewolves",
    doc="Werewolves of Miller's Hollow with werewolves, villagers, seers and doctors.",
    agents=("actors.werewolves.agents",),
    transcript="ops.plugins.werewolves.transcript:transcript",
    beliefs="ops.plugins.werewolves.views:beliefs",
    quantities={"trust": (0.0, 2.0, "more trust (1 neutral)"), "P(werewolf)": (0.0, 1.0, "more likely a werewolf")},
    charts=(Chart("players alive", "ops.plugins.werewolves.views:alive"),),
    board="ops.plugins.werewolves.board:board",
    rules_text="ops.plugins.werewolves.rules_text:TEXT",
)
