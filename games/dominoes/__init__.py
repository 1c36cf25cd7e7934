"""Partnership Dominoes: rules (rules.py) and the tile and action tables shared with agents (tiles.py)."""
