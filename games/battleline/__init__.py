"""Battle Line: rules (rules.py), cards (cards.py) and the formation evaluator (formations.py)."""
