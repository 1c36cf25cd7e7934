"""Risk (classic map): rules (rules.py), the map and deck as data (mapdata.py), exact dice odds (dice.py)."""
