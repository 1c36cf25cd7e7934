"""Hanabi: rules (rules.py) and the card/knowledge encoding shared with agents (cards.py)."""
