"""games.conformance: the werewolves game passes, and deliberately broken games are rejected."""

from __future__ import annotations

from typing import Literal

import pytest

from games import conformance
from games.api import TalkItem
from games.werewolves.rules import Werewolves, WerewolvesState

VARIANTS = [
    None,
    {"tie_rule": "revote_then_random", "reveal_roles": False},
    {"players": 5, "werewolves": 1, "first_phase": "day", "end_at_parity": True,
     "discussion_rounds": 0, "max_days": 2},
    {"players": 12, "werewolves": 3, "seers": 2, "doctors": 2},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_werewolves_passes_run_all(options):
    conformance.run_all(Werewolves(), options)


def _broken(state_methods: dict, game_attrs: dict | None = None) -> Werewolves:
    """A Werewolves game whose states are a subclass overriding `state_methods`."""
    broken_state = type("BrokenState", (WerewolvesState,), state_methods)

    def new_initial_state(self, options=None):
        state = Werewolves.new_initial_state(self, options)
        state.__class__ = broken_state  # clone() and resample_hidden() keep the class
        return state

    return type("BrokenGame", (Werewolves,), {"new_initial_state": new_initial_state,
                                              **(game_attrs or {})})()


class _NoDefaultKind(TalkItem):
    kind: Literal["ww_broken"]


BROKEN = [
    ("unsorted legal actions",
     lambda: _broken({"legal_actions": lambda s, p: WerewolvesState.legal_actions(s, p)[::-1]}),
     conformance.check_random_playthroughs, "not sorted"),
    ("an illegal action that is accepted",
     lambda: _broken({"apply_actions": lambda s, a: WerewolvesState.apply_actions(
         s, {p: x if x in s.legal_actions(p) else "abstain" for p, x in a.items()})}),
     conformance.check_random_playthroughs, "must raise IllegalAction"),
    ("an observation that leaks every role",
     lambda: _broken({"observation": lambda s, p: {
         **WerewolvesState.observation(s, p), "roles": s.to_json()["roles"]}}),
     conformance.check_information_hiding, "can tell a resampled state apart"),
    ("a resample that redraws nothing",
     lambda: _broken({"resample_hidden": lambda s, p, rng: s.clone()}),
     conformance.check_information_hiding, "proves nothing"),
    ("a clone that shares its state",
     lambda: _broken({"clone": lambda s: s}),
     conformance.check_serialisation, "changed the original"),
    ("a talk model without a kind default",
     lambda: _broken({}, {"talk_models": Werewolves.talk_models + (_NoDefaultKind,)}),
     conformance.check_talk, "must default"),
]


@pytest.mark.parametrize("what,make,check,message", BROKEN, ids=[c[0] for c in BROKEN])
def test_broken_games_are_rejected(what, make, check, message):
    with pytest.raises(AssertionError, match=message):
        check(make(), None, seeds=range(3))
