"""The plugin declaration: rules only; detente brings no agent of its own for this game."""

from games.plugin import GamePlugin

PLUGIN = GamePlugin(name="stag_talk", rules="stag_talk.rules:StagTalk",
                    doc="Stag talk: three hunters say pacts, then hunt stag or hare (a test plugin).",
                    short_options={"rounds": 3})
