"""The built-in games' plugin declarations (one package per game), registered in pyproject.toml
under the entry-point group `detente.games` exactly as a third-party game registers its own."""
