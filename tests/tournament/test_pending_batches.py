"""A rerun plays exactly the games not yet recorded (ops/tournament/runner.py `pending_batches`):
in order, a batch at a time, none recorded, none twice, made lazily."""

from __future__ import annotations

import itertools

from ops.tournament.runner import pending_batches


def test_only_the_games_not_recorded_in_order_and_in_batches():
    done = {0, 1, 5, 6, 7, 11}
    batches = list(pending_batches(13, done, 3))
    assert batches == [[2, 3, 4], [8, 9, 10], [12]]
    assert list(pending_batches(4, set(range(4)), 2)) == []  # a finished run plays nothing
    assert list(pending_batches(5, set(), 5)) == [[0, 1, 2, 3, 4]]


def test_a_billion_games_are_planned_lazily():
    first = list(itertools.islice(pending_batches(10**9, {0, 2}, 4), 2))
    assert first == [[1, 3, 4, 5], [6, 7, 8, 9]]
