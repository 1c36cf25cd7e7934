"""A test-only game brought as a plugin (tests/plugins/ on PYTHONPATH is its installation)."""
