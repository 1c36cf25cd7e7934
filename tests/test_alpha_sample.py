"""The random Strategy Office's sampling is rng.sample's, draw for draw (actors.alpha.baseline)."""

from __future__ import annotations

import random

import pytest

from actors.alpha.baseline import randbelow, sample_indices


@pytest.mark.parametrize("n", [1, 2, 3, 7, 11, 21, 22, 40, 300])
def test_same_indices_and_generator_state_as_rng_sample(n):
    for k in sorted({0, 1, 2, 3, 5, 6, 9, min(n, 30), n} & set(range(n + 1))):
        for seed in range(40):
            a, b = random.Random(f"s/{seed}/{n}/{k}"), random.Random(f"s/{seed}/{n}/{k}")
            assert sample_indices(a, n, k) == b.sample(range(n), k), (n, k, seed)
            assert a.getstate() == b.getstate()


def test_refuses_what_rng_sample_refuses():
    for n, k in ((3, 4), (0, 1), (5, -1)):
        with pytest.raises(ValueError):
            sample_indices(random.Random(1), n, k)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 300])
def test_randbelow_is_randrange_draw_for_draw(n):
    a, b = random.Random(f"r/{n}"), random.Random(f"r/{n}")
    assert [randbelow(a, n) for _ in range(200)] == [b.randrange(n) for _ in range(200)]
    assert a.getstate() == b.getstate()
