"""Float sums that reach a decision are the same on every Python: since 3.12 `sum()` of floats is
compensated (`sum([0.1] * 10)` is 1.0 there, 0.9999999999999999 on 3.11), so agents and rules sum
floats with `math.fsum` (exactly rounded, the same everywhere). This test plays a seeded game of
every agent in every game it plays with `sum` watched: a bare `sum()` over floats called from
detente's agents or rules fails it, naming the line."""

from __future__ import annotations

import builtins
import sys

import pytest

from replay import agent_conformance

REAL_SUM = builtins.sum
PACKAGES = ("actors.", "games.")


def _watching(found: set[str]):
    def watched_sum(iterable, /, start=0):
        caller = sys._getframe(1)
        module = caller.f_globals.get("__name__", "")
        if not module.startswith(PACKAGES):
            return REAL_SUM(iterable, start)
        items = list(iterable)
        if isinstance(start, float) or any(type(x) is float for x in items):
            found.add(f"{caller.f_code.co_filename.rsplit('/', 3)[-3:]}:{caller.f_lineno} ({module})")
        return REAL_SUM(items, start)

    return watched_sum


PAIRS = agent_conformance.agent_game_pairs()


@pytest.mark.parametrize("agent,game", PAIRS, ids=[f"{a}-{g}" for a, g in PAIRS])
def test_no_bare_float_sum_in_agents_or_rules(agent, game, monkeypatch):
    found: set[str] = set()
    monkeypatch.setattr(builtins, "sum", _watching(found))
    options, seeds = agent_conformance.budget(agent, game)
    agent_conformance.play_in_process(agent, game, seeds[:1], options)
    assert not found, "bare sum() over floats (use math.fsum): " + "; ".join(sorted(found))
