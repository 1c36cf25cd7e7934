"""Diplomacy as a detente plugin: rules, DumbBot, DipBlue and AlphaDip, transcript, the package's JSON."""

from games.plugin import Chart, GamePlugin

PLUGIN = GamePlugin(
    name="diplomacy",
    rules="games.diplomacy.rules:Diplomacy",
    doc="Standard Diplomacy on the 1901 map, DATC-correct adjudication.",
    agents=("actors.diplomacy.agents",),
    transcript="ops.plugins.diplomacy.transcript:transcript",
    beliefs="ops.plugins.diplomacy.views:beliefs",
    # DipBlue's and AlphaDip's trust ratio (Ferreira et al. 2015): 1 neutral, lower = more trust
    quantities={"trust ratio": (0.0, None, "less trust (1 neutral)")},
    charts=(Chart("supply centres", "ops.plugins.diplomacy.views:centres",
                  x="year (spring .0, fall .5, winter .8)", x_of="ops.plugins.diplomacy.views:phase_x"),),
    board="ops.plugins.diplomacy.board:board",
    rules_text="ops.plugins.diplomacy.rules_text:TEXT",
    report="ops.plugins.diplomacy.report:report",
    exporters={"diplomacy-json": "ops.plugins.diplomacy.export:export_json"},
    short_options={"max_year": 1902},
)
