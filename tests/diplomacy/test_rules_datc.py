"""DATC sections 6.A-6.J (v2.4 preferences) as test tables, one test per case id."""

from __future__ import annotations

import pytest

from tests.diplomacy.datc_cases import CASES, VARIANT_CASES
from tests.diplomacy.datc_runner import parse_cases, run_case

ALL = parse_cases(CASES)
VARIANT = parse_cases(VARIANT_CASES)


def test_every_section_is_covered():
    ids = [c.id for c in ALL]
    assert len(ids) == len(set(ids))
    per = {}
    for i in ids:
        per[i[:3]] = per.get(i[:3], 0) + 1
    # DATC v2.4 counts: 6.A 12, 6.B 14, 6.C 7, 6.D 34, 6.E 15, 6.F 24, 6.G 18, 6.H 16, 6.I 7, 6.J 11
    assert per == {"6.A": 12, "6.B": 14, "6.C": 7, "6.D": 34, "6.E": 15, "6.F": 24, "6.G": 18,
                   "6.H": 16, "6.I": 7, "6.J": 11}


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_datc_v24(case):
    run_case(case)


@pytest.mark.parametrize("case", VARIANT, ids=[c.id for c in VARIANT])
def test_datc_explicit_adjacent_convoy_variant(case):
    run_case(case, datc="3.0")
