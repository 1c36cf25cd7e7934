"""A third-party game for the generic agent's tests (tests/generic/plugins/ on PYTHONPATH is its installation)."""
