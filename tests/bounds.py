"""Step bounds for the tests' own loops: a loop that runs a game (or routes messages) until some
condition holds stops with a failure after a bound, instead of spinning when a seeded bug (hints
that cost nothing, a phase that never advances) keeps the condition from ever holding.

    for _ in bounded(GAME.max_steps, "random playthrough"):
        if state.is_terminal():
            break
        ...

The bound is the game's own length bound (`Game.max_steps`: decisions and chance nodes) where the
loop takes one step per turn, else a count the loop can never reach in a correct run.
"""

from __future__ import annotations

from typing import Iterator


def bounded(limit: int, what: str = "loop") -> Iterator[int]:
    """0, 1, ... limit - 1; then fails the test: the loop should have stopped by itself."""
    yield from range(limit)
    raise AssertionError(f"{what}: not done after {limit} steps (a rule or an agent that never ends it?)")
