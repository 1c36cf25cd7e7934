"""Risk (classic map): rules (rules.py), the map and deck as data (mapdata.py), the action
vocabulary (actions.py), card sets and values (cards.py), the battle resolver and exact odds (dice.py)."""
