"""OpenSpiel's games as detente games (rules.py, plugin.py) and OpenSpiel's bots as detente agents.

Needs the optional extra `detente[openspiel]` (the `open_spiel` package); nothing here imports
`pyspiel` before a bridged game is played."""
