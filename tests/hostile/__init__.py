"""Hostile input: logs, agents, arguments and specs that try to break detente."""
