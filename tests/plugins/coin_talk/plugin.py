"""The plugin declaration: nothing of this game is named anywhere in detente."""

from games.plugin import Chart, GamePlugin

PLUGIN = GamePlugin(
    name="coin_talk",
    rules="coin_talk.rules:CoinTalk",
    doc="Coin talk: say a side, call a hidden coin (a test plugin).",
    agents=("coin_talk.agents",),
    transcript="coin_talk.views:transcript",
    beliefs="coin_talk.views:beliefs",
    charts=(Chart("scores", "coin_talk.views:scores"),),
    board="coin_talk.views:board",
    commands="coin_talk.views:commands",
    exporters={"coin-csv": "coin_talk.views:export_calls"},
)
