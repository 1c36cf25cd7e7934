"""Differential play against the `diplomacy` package (test-only reference engine).

DETENTE_DIFF_GAMES sets how many random games to 1920 (default 30 here; the full check is
`DETENTE_DIFF_GAMES=1000`, or `python -m tests.diplomacy.differential 1000`).
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("diplomacy", reason="the reference engine is a test-only dependency")

from tests.diplomacy.differential import Mismatch, play_one

GAMES = int(os.environ.get("DETENTE_DIFF_GAMES", "30"))


@pytest.mark.slow  # in the default suite (CI), not the quick subset
def test_random_games_match_the_reference_engine_phase_by_phase():
    mismatches, phases = [], 0
    for seed in range(GAMES):
        try:
            phases += play_one(seed)
        except Mismatch as exc:
            mismatches.append(str(exc))
    assert not mismatches, "\n\n".join(mismatches[:3])
    assert phases > GAMES * 40
