"""Test plugin: a game whose win chance peaks at a known option value (the tuning tests)."""
