"""The lockstep check of Risk's rules (ops/bench/risk_lockstep.py), on which every speed change of
the rules relies: rules that play the same games pass it, rules that differ in one rule fail it,
naming what differs."""

from __future__ import annotations

import pytest

from games.risk.rules import Risk, RiskState
from ops.bench.risk_lockstep import VARIANTS, Diverged, lockstep


class _OneMoreArmy(RiskState):
    """The rules with ceil instead of floor in max(3, territories / 3) (notes 2.3 say floor)."""

    def _begin_turn(self) -> None:
        super()._begin_turn()
        held = self._own_mask.bit_count()
        if held > 9 and held % 3:  # where the ceiling is above 3 and above the floor
            self._reinf += 1


class _Mutant(Risk):
    def new_initial_state(self, options=None):
        return _OneMoreArmy(self.options(options))


@pytest.mark.parametrize("options", [VARIANTS[1], VARIANTS[3]], ids=["two-players", "dealt-connected-chosen-cards"])
def test_the_same_rules_pass_in_lockstep(options):
    assert lockstep(Risk(), Risk(), options, 0, "same") > 500


def test_one_changed_rule_is_caught_and_named():
    # the first turn's reinforce list already differs (14 territories: 5 armies, not 4)
    with pytest.raises(Diverged, match="step 106: legal actions of seat 0"):
        lockstep(Risk(), _Mutant(), VARIANTS[0], 1, "ceil")
