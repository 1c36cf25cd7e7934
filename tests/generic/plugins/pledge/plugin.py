"""The plugin declaration: rules only, and only the Game API's required part (no optional hook)."""

from games.plugin import GamePlugin

PLUGIN = GamePlugin(name="pledge", rules="pledge.rules:Pledge",
                    doc="Pledge: hidden cards, talk, then give to a doubled pot or keep, all at once (a test plugin).",
                    short_options={"rounds": 3})
