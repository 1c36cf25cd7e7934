"""DumbBot on hand-set positions: stage-1 numbers (sizes, attack/defence, proximity, strength,
competition, values) and the orders chosen; the constants are those of reference 3.1
(/work/shared/references/diplomacy-bots.md). `BEST` turns the randomised walk off
(PLAY_ALTERNATIVE 0) so the chosen orders are the best candidates whatever the seed."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from actors.diplomacy.dumbbot import DumbBotParams, evaluate, plan, walk
from games.diplomacy.script import Script

BEST = DumbBotParams(play_alternative=0)


def orders(script: Script, power: str, seed: int = 0, params: DumbBotParams = BEST) -> list[str]:
    return plan(script.board, power, random.Random(seed), params).order_set()


def test_sizes_attack_defence_and_first_proximity_maps():
    """size = n^2 + 4n + 16; attack = size of the owner (unowned: size of the #unowned, the C++
    neutral power); defence = size of the largest other power with a unit able to move in."""
    s = (Script("S1901M").clear_centres().centres("F", "PAR", "BRE", "MAR", "SPA", "POR")
         .centres("E", "LON", "EDI").centres("G", "MUN")
         .units("F", "A PAR").units("E", "F ENG").units("G", "A BUR"))
    ev = evaluate(s.board, "FRANCE")
    assert ev.size["FRANCE"] == 25 + 20 + 16 == 61
    assert ev.size["ENGLAND"] == 4 + 8 + 16 == 28
    assert ev.size["GERMANY"] == 21 and ev.size["ITALY"] == 16
    assert ev.size["NEUTRAL"] == 26 * 26 + 4 * 26 + 16 == 796  # 34 - 8 owned
    assert ev.defence == {"BRE": 28, "MAR": 21, "PAR": 21, "POR": 0, "SPA": 0}  # F ENG; A BUR
    assert ev.attack["LON"] == 28 and ev.attack["MUN"] == 21 and ev.attack["BEL"] == 796
    assert "PAR" not in ev.attack and "BUR" not in ev.attack  # own centre; not a centre
    # spring: proximity[0] = attack * 700 + defence * 300
    assert ev.proximity[0]["A PAR"] == 21 * 300 == 6300
    assert ev.proximity[0]["F BRE"] == ev.proximity[0]["A BRE"] == 28 * 300
    assert ev.proximity[0]["A MUN"] == 21 * 700
    # proximity[1] = (own + neighbours) // 5: PAR's neighbours BRE, BUR, GAS, PIC
    assert ev.proximity[1]["A PAR"] == (6300 + 8400 + 0 + 0 + 0) // 5 == 2940
    # fall: (600, 400)
    fall = evaluate(Script("F1901M").clear_centres().centres("F", "PAR").units("G", "A BUR").board, "FRANCE")
    assert fall.proximity[0]["A PAR"] == 16 * 400 and fall.attack["MUN"] == 33 * 33 + 4 * 33 + 16  # 33 unowned; German size 16


def test_initial_board_values():
    """1901: twelve unowned centres -> 208 (reference 3.1's worked number); Russia 4 -> 48."""
    s = Script("S1901M")
    s.board = type(s.board).initial()
    ev = evaluate(s.board, "FRANCE")
    assert ev.size["NEUTRAL"] == 208 and ev.size["RUSSIA"] == 48 and ev.size["ENGLAND"] == 37
    assert ev.attack["SPA"] == 208 and ev.attack["MUN"] == 37 and ev.attack["STP"] == 48
    assert ev.proximity[0]["A SPA"] == 208 * 700 == 145600
    # BUR: BEL 145600 (neutral) + MUN 37 * 700; the rest 0
    assert ev.proximity[1]["A BUR"] == (145600 + 25900) // 5 == 34300
    assert ev.value["A BUR"] == 38622508 and ev.strength["BUR"] == 2 and ev.competition["BUR"] == 1
    assert orders(s, "FRANCE") == ["A MAR - SPA", "A PAR - BUR", "F BRE - MAO"]


def test_two_coasts_of_one_province_blur_once_but_count_twice():
    """Proximity: MAO's neighbours SPA/NC and SPA/SC count once (the larger). Strength and
    competition: 1 per adjacent coast (C++ quirk), so F MAO counts 2 for SPA unless switched off."""
    s = Script("S1901M").units("E", "F MAO").units("F", "A GAS", "A MAR")
    ev = evaluate(s.board, "ENGLAND")
    neutral = (34 * 34 + 4 * 34 + 16) * 700  # nothing owned: 34 unowned
    assert ev.proximity[0]["F SPA/NC"] == ev.proximity[0]["F SPA/SC"] == ev.proximity[0]["F POR"] == neutral
    assert ev.proximity[1]["F MAO"] == (0 + 3 * neutral) // 5  # BRE, POR, SPA (once)
    fr = evaluate(s.board, "FRANCE")
    assert (fr.strength["SPA"], fr.competition["SPA"]) == (2, 2)
    once = evaluate(s.board, "FRANCE", DumbBotParams(coast_double_count=False))
    assert (once.strength["SPA"], once.competition["SPA"]) == (2, 1)
    assert once.value["A SPA"] - fr.value["A SPA"] == 1000  # competition weight
    zero = evaluate(s.board, "FRANCE", DumbBotParams(neutral_attack="zero"))
    assert zero.attack == {} and zero.proximity[0]["A SPA"] == 0


def _belgium(phase: str) -> Script:
    return (Script(phase).clear_centres().centres("F", "PAR", "MAR", "BRE")
            .centres("G", "MUN", "KIE", "BER", "HOL"))


def test_fall_move_with_support_where_there_is_competition():
    """Fall weights favour the centre itself; the second unit finds a friend already moving there
    and supports it because competition(BEL) = 2 > 0 (German HOL and RUH)."""
    s = _belgium("F1901M").units("F", "A BUR", "A PIC").units("G", "A RUH", "A HOL")
    ev = evaluate(s.board, "FRANCE")
    assert ev.competition["BEL"] == 2 and ev.strength["BEL"] == 2
    assert ev.value["A BEL"] == 530878591 > ev.value["A MUN"] == 54797562 > ev.value["A BUR"] == 24251318
    seen = {tuple(orders(s, "FRANCE", seed)) for seed in range(6)}  # both processing orders
    assert seen == {("A BUR - BEL", "A PIC S A BUR - BEL"), ("A BUR S A PIC - BEL", "A PIC - BEL")}


def test_postponed_unit_follows_the_friend_it_waited_for():
    """PAR's best is BUR, held by our unordered unit: PAR waits until BUR is ordered (BUR may not
    pick PAR meanwhile), BUR goes to BEL, PAR follows into BUR: the same set in either order."""
    s = _belgium("F1901M").units("F", "A BUR", "A PAR").units("G", "A RUH", "A HOL")
    for seed in range(6):
        assert orders(s, "FRANCE", seed) == ["A BUR - BEL", "A PAR - BUR"]
    p = plan(s.board, "FRANCE", random.Random(1), BEST)
    assert p.ranked["A PAR"][:2] == [("A PAR - BUR", 24251319.0), ("A PAR - GAS", 18321850.0)]


def test_attack_with_support_and_wasted_hold_turned_into_support():
    s = (Script("F1901M").clear_centres().centres("G", "HOL", "BEL", "BER", "KIE", "MUN")
         .centres("E", "LON", "EDI", "LVP").units("G", "F HOL", "F BEL").units("E", "F ENG", "F NTH"))
    assert {tuple(orders(s, "GERMANY", seed)) for seed in range(4)} == {
        ("F BEL - NTH", "F HOL S F BEL - NTH"), ("F BEL S F HOL - NTH", "F HOL - NTH")}
    # every centre owned: nothing is worth a move; BEL holds, and HOL's hold is wasted, so it
    # supports BEL (competition(BEL) = 2 > 1: F ENG and F NTH)
    full = (Script("F1905M").clear_centres().centres("G", "BEL", "BER", "HOL", "KIE", "MUN")
            .centres("E", "BRE", "EDI", "LON", "LVP").centres("F", "MAR", "PAR")
            .centres("A", "BUD", "GRE", "TRI", "VIE").centres("I", "NAP", "ROM", "VEN")
            .centres("R", "MOS", "RUM", "SEV", "STP", "WAR").centres("T", "ANK", "BUL", "CON", "SMY")
            .units("G", "F HOL", "F BEL").units("E", "F ENG", "F NTH"))
    p = plan(full.board, "GERMANY", random.Random(0), BEST)
    assert p.orders == {"F BEL": "F BEL H", "F HOL": "F HOL S F BEL"}
    assert p.ranked["F HOL"][:2] == [("F HOL S F BEL", 21821189.0), ("F HOL H", 21821188.0)]


def test_retreats_never_share_a_province():
    s = (Script("F1901R").clear_centres().centres("F", "PAR", "MAR", "BRE").units("G", "A BUR")
         .dislodged_unit("F", "A GAS", ["BRE", "SPA"]).dislodged_unit("F", "A MAR", ["PIE", "SPA"]))
    ev = evaluate(s.board, "FRANCE")
    assert ev.value["A SPA"] > ev.value["A PIE"] > ev.value["A BRE"]
    seen = {tuple(orders(s, "FRANCE", seed)) for seed in range(6)}
    assert seen == {("A GAS R SPA", "A MAR R PIE"), ("A GAS R BRE", "A MAR R SPA")}
    alone = Script("F1901R").dislodged_unit("F", "A GAS", [])
    assert orders(alone, "FRANCE") == ["A GAS D"]


def test_builds_best_sites_one_per_province_and_removals_least_valued():
    s = (Script("W1901A").clear_centres().centres("F", "PAR", "MAR", "BRE", "SPA", "POR")
         .centres("G", "MUN", "BER", "KIE").units("F", "A SPA", "F POR", "A PIC")
         .units("G", "A BUR", "A RUH", "F HOL"))
    ev = evaluate(s.board, "FRANCE")
    # winter: build weights [1000, 100, ...] and defence * 1000 (PAR, MAR: German A BUR, size 37)
    assert ev.defence["PAR"] == ev.defence["MAR"] == 37 and ev.defence["BRE"] == 0
    assert ev.value["A MAR"] == 17903732 > ev.value["A PAR"] == 16696779 > ev.value["F MAR"] == 14545136
    assert orders(s, "FRANCE") == ["A MAR B", "A PAR B"]
    one_site = Script("W1901A").clear_centres().centres("F", "PAR", "SPA").units("F", "A SPA", "A BRE")
    one_site.centres("F", "POR", "MAR").units("F", "A MAR")  # 4 centres, 3 units; PAR free
    assert orders(one_site, "FRANCE") == ["A PAR B"]
    r = (Script("W1901A").clear_centres().centres("F", "PAR").centres("G", "MUN", "BER", "KIE", "BEL")
         .units("F", "A PAR", "A BUR", "F MAO").units("G", "A RUH", "A HOL"))
    ev = evaluate(r.board, "FRANCE")
    assert ev.value["A PAR"] == 28343943 < ev.value["A BUR"] == 40813331 < ev.value["F MAO"] == 88825787
    assert orders(r, "FRANCE") == ["A PAR D", "A BUR D"]


class _Draws(random.Random):
    """Hands out fixed randrange results."""

    def __init__(self, draws: list[int]):
        super().__init__(0)
        self.draws = list(draws)

    def randrange(self, n: int) -> int:
        return self.draws.pop(0)


def test_randomised_walk():
    """Go on from i when rand(100) < 50 and rand(100) >= |v_i - v_i+1| * 500 / |v_i|."""
    assert walk(_Draws([70]), [1000, 900, 100]) == 0  # first draw fails: stay
    # 100 * 500 / 1000 = 50: 60 passes; then 800 * 500 / 900 = 444: 99 fails
    assert walk(_Draws([10, 60, 10, 99]), [1000, 900, 100]) == 1
    assert walk(_Draws([10, 49]), [1000, 900]) == 0  # 49 < 50: stay
    assert walk(_Draws([10, 0]), [0, -5]) == 1  # v_i = 0: the second test always passes
    # magnitudes with negative values: |-20 - -21| * 500 / |-20| = 25
    assert walk(_Draws([10, 30]), [-20, -21]) == 1 and walk(_Draws([10, 20]), [-20, -21]) == 0
    assert walk(_Draws([]), [5]) == 0


def test_walk_sometimes_plays_the_second_best():
    """With the reference constants the walk leaves near-equal candidates about half the time."""
    rng = random.Random(7)
    picks = [walk(rng, [1000, 999, 10]) for _ in range(2000)]
    assert 0.40 < picks.count(1) / 2000 < 0.55 and picks.count(2) == 0


def test_params_are_checked():
    with pytest.raises(ValidationError, match="10 numbers"):
        DumbBotParams(spring_proximity=(1, 2, 3))
    with pytest.raises(ValidationError):
        DumbBotParams(play_alternative=101)
    with pytest.raises(ValidationError):
        DumbBotParams(bogus=1)
