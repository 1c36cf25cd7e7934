"""Standard Diplomacy: map data, board and orders, the pure adjudicator, the Game/State pair,
and a scripting API for rule tests. Nothing here imports the `diplomacy` package."""
