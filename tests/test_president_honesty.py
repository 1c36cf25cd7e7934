"""A President keeps a confirmed deal with probability `honesty` (actors/alpha/traits.py), measured.

Each trial offers a committed action and a different one to break it with, so a kept deal and a
broken one are told apart by the action alone. Over N seeds the number kept is Binomial(N, honesty):
at N = 400 one standard deviation is at most 10, and the bounds below are 4 of them, so the rates
0, 0.25, 0.5 and 1 are told apart (a President that ignores the trait, inverts it or halves it
lands outside them) and a correct one is refused with probability < 1e-4 per bound.
"""

from __future__ import annotations

import random

import pytest

from actors.alpha.president import President
from actors.alpha.traits import Traits
from actors.werewolves.president import WerewolvesPresident
from bus.messages import ActRequest, OfficeReply, Suggestion

N = 400
HONESTY = (0.0, 0.25, 0.5, 1.0)
KEEP, BREAK = "vote:2", "vote:1"


def _bounds(honesty: float) -> tuple[int, int]:
    """The kept counts accepted at this honesty: the mean within 4 standard deviations."""
    mean, sd = N * honesty, (N * honesty * (1 - honesty)) ** 0.5
    return int(mean - 4 * sd), int(mean + 4 * sd + 0.999)


def _request(observation: dict) -> ActRequest:
    return ActRequest(sender="referee", to="p0", turn=4, player=0, legal=("abstain", BREAK, KEEP),
                      observation=observation)


def _generic_keeps(honesty: float, seed: int) -> bool:
    """The Alpha President through its whole pipeline: request, the SO's suggestion, its Act."""
    pr = President("p0", seed, 0, {"so": "p0/so"}, Traits(honesty=honesty))
    pr.kb.set(("commitments", "4"), KEEP)
    [ask] = pr.handle(_request({"me": 0}))
    assert ask.to == "p0/so"
    reply = OfficeReply(sender="p0/so", to="p0", task="suggest", turn=4,
                        suggestions=(Suggestion(action=BREAK, utility=1.0),))
    [act] = pr.handle(reply)
    assert act.action in (KEEP, BREAK)
    return act.action == KEEP


def _werewolves_keeps(honesty: float, seed: int) -> bool:
    """AlphaWolf's President choosing by day (a villager: no sealed wolf bid to keep)."""
    pr = WerewolvesPresident("p0", seed, 0, {"village": {}, "wolves": {}}, Traits(honesty=honesty))
    request = _request({"role": "villager", "phase": "day"})
    pr.observe(request)
    pr.kb.set(("commitments", "4"), KEEP)
    action = pr.choose(request, [Suggestion(action=BREAK, utility=1.0)])
    assert action in (KEEP, BREAK)
    return action == KEEP


@pytest.mark.parametrize("honesty", HONESTY)
@pytest.mark.parametrize("keeps", [_generic_keeps, _werewolves_keeps], ids=["alpha", "alphawolf"])
def test_deals_kept_at_the_rate_of_honesty(keeps, honesty):
    kept = sum(keeps(honesty, seed) for seed in range(N))
    low, high = _bounds(honesty)
    assert low <= kept <= high, f"honesty {honesty}: kept {kept} of {N} deals, expected {low}..{high}"


def test_the_rates_are_told_apart():
    """The accepted ranges of neighbouring honesty values do not overlap."""
    ranges = [_bounds(h) for h in HONESTY]
    assert all(a[1] < b[0] for a, b in zip(ranges, ranges[1:]))


def test_a_wolf_keeps_its_packs_night_bid_whatever_its_honesty():
    for seed in range(50):
        pr = WerewolvesPresident("p0", seed, 0, {"village": {}, "wolves": {}}, Traits(honesty=0.0))
        request = _request({"role": "werewolf", "phase": "night"})
        pr.observe(request)
        pr.kb.set(("commitments", "4"), KEEP)
        assert pr.choose(request, [Suggestion(action=BREAK, utility=1.0)]) == KEEP


@pytest.mark.parametrize("honesty", HONESTY)
def test_alphadip_breaks_a_paying_deal_at_the_rate_of_dishonesty(honesty):
    """AlphaDip's President (actors/diplomacy/alphadip/president.py `_pick`): a move breaking a deal
    that pays more is taken with probability 1 - honesty."""
    from actors.registry import build_player, parse_spec

    pr = build_player(parse_spec(f"alphadip:offices=so;traits.honesty={honesty}"), "diplomacy", 0, 1)[0]
    obs = {"phase": "S1901M", "deals": {"confirmed": []}}
    moves = [{"orders": {"PAR": "A PAR H"}, "needs": [], "utility": 1.0},
             {"orders": {"PAR": "A PAR - BUR"}, "needs": [], "utility": 2.0, "breaks": True}]
    kept = 0
    for seed in range(N):
        pr.rng = random.Random(seed)
        chosen, why = pr._pick(obs, moves)
        assert why in ("kept", "broke") and (why == "broke") == bool(chosen.get("breaks"))
        kept += why == "kept"
    low, high = _bounds(honesty)
    assert low <= kept <= high, f"honesty {honesty}: kept {kept} of {N} deals, expected {low}..{high}"
