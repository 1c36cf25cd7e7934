"""Partnership Dominoes agents: the seed's individualist and glutton-blocker pair, and an Alpha pair (agents.py)."""
