"""The result words of convoys: which unit reports `no convoy`, which `disrupted`.

The words are the reference engine's (the `diplomacy` package, test-only). Each case quotes the
rule it tests; `ref` says whether the reference engine gives the same results for the units listed
(checked below when it is installed), and where it does not, the case says why.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from games.diplomacy.script import Script, _power

ARMY = ("A convoyed move that fails for want of its convoy (no chain of convoying fleets, every chain broken "
        "by a dislodged fleet, or cancelled by the paradox rule) reports 'no convoy', not 'bounce'.")
UNUSED = ("A convoy order for the move its army makes, on no chain that move uses (or the army goes by land), "
          "convoys nothing: 'no convoy', then 'void'. One for another move, or for an army that holds: 'void'.")
FLEETS = ("When a convoyed move fails for want of its convoy, each fleet convoying it that stays reports "
          "'no convoy'; a dislodged one reports 'dislodged' only, never 'disrupted' with it.")
PARADOX = ("A fleet whose convoy the paradox rule (Szykman) cancelled because its own dislodgement depended on "
           "that convoy reports 'disrupted' when it stays.")
SUPPORT = "A support given to a convoyed move that fails for want of its convoy reports 'no convoy'; a cut one: 'cut'."
ARRIVES = ("A convoy that carries its army gives its fleets no word: not when the army then bounces, "
           "not when a fleet of a second route is dislodged (that fleet: 'dislodged').")


@dataclass(frozen=True)
class Case:
    name: str
    rule: str
    orders: dict[str, list[str]]  # power -> orders; each ordered unit is placed first
    want: dict[str, list[str]]  # unit -> its results, exactly
    ref: bool = True  # the reference engine reports the same
    datc: str = "2.4"


CASES = [
    Case("no chain of convoying fleets", ARMY + " " + UNUSED,
         {"E": ["A WAL - NWY", "F ENG C A WAL - NWY", "F NTH H"]},
         {"A WAL": ["no convoy"], "F ENG": ["no convoy", "void"], "F NTH": []}),
    Case("a chain of two fleets broken by a dislodged fleet", ARMY + " " + FLEETS + " " + SUPPORT,
         {"E": ["A WAL - NWY", "F ENG C A WAL - NWY", "F NTH C A WAL - NWY", "F SKA S A WAL - NWY"],
          "F": ["F BEL - ENG", "F PIC S F BEL - ENG"]},
         {"A WAL": ["no convoy"], "F ENG": ["dislodged"], "F NTH": ["no convoy"], "F SKA": ["no convoy"],
          "F BEL": [], "F PIC": []}),
    Case("the same, its support cut", SUPPORT,
         {"E": ["A WAL - NWY", "F ENG C A WAL - NWY", "F NTH C A WAL - NWY", "F SKA S A WAL - NWY"],
          "F": ["F BEL - ENG", "F PIC S F BEL - ENG"], "R": ["F SWE - SKA"]},
         {"A WAL": ["no convoy"], "F ENG": ["dislodged"], "F NTH": ["no convoy"], "F SKA": ["cut"],
          "F SWE": ["bounce"]}),
    Case("DATC 6.F.14 simple convoy paradox", ARMY + " " + FLEETS,
         {"E": ["F LON S F WAL - ENG", "F WAL - ENG"], "F": ["A BRE - LON", "F ENG C A BRE - LON"]},
         {"A BRE": ["no convoy"], "F ENG": ["dislodged"], "F LON": [], "F WAL": []}),
    Case("DATC 6.F.17 pandin's extended paradox", PARADOX + " " + SUPPORT,
         {"E": ["F LON S F WAL - ENG", "F WAL - ENG"],
          "F": ["A BRE - LON", "F ENG C A BRE - LON", "F YOR S A BRE - LON"],
          "G": ["F NTH S F BEL - ENG", "F BEL - ENG"]},
         {"A BRE": ["no convoy"], "F ENG": ["disrupted"], "F YOR": ["no convoy"], "F LON": [],
          "F WAL": ["bounce"], "F BEL": ["bounce"], "F NTH": []}),
    Case("DATC 6.F.18 betrayal paradox", ARMY + " " + PARADOX + " " + SUPPORT,
         {"E": ["F NTH C A LON - BEL", "A LON - BEL", "F ENG S A LON - BEL"], "F": ["F BEL S F NTH"],
          "G": ["F HEL S F SKA - NTH", "F SKA - NTH"]},
         {"A LON": ["no convoy"], "F NTH": ["disrupted"], "F ENG": ["no convoy"], "F BEL": [],
          "F SKA": ["bounce"], "F HEL": []}),
    Case("DATC 6.F.24 second order paradox with no resolution", PARADOX + " " + FLEETS,
         {"E": ["F EDI - NTH", "F LON S F EDI - NTH", "F IRI - ENG", "F MAO S F IRI - ENG"],
          "F": ["A BRE - LON", "F ENG C A BRE - LON", "F BEL S F ENG"],
          "R": ["A NWY - BEL", "F NTH C A NWY - BEL"]},
         {"A BRE": ["no convoy"], "A NWY": ["no convoy"], "F ENG": ["disrupted"], "F NTH": ["dislodged"]}),
    Case("DATC 6.G.2 kidnapping an army", UNUSED,
         {"E": ["A NWY - SWE"], "R": ["F SWE - NWY"], "G": ["F SKA C A NWY - SWE"]},
         {"A NWY": ["bounce"], "F SWE": ["bounce"], "F SKA": ["no convoy", "void"]}),
    Case("DATC 6.G.11 a convoy to an adjacent place with a paradox", ARMY + " " + FLEETS + " " + SUPPORT,
         {"E": ["F NWY S F NTH - SKA", "F NTH - SKA"],
          "R": ["A SWE - NWY", "F SKA C A SWE - NWY", "F BAR S A SWE - NWY"]},
         {"A SWE": ["no convoy"], "F SKA": ["dislodged"], "F BAR": ["no convoy"], "F NWY": [], "F NTH": []}),
    Case("a convoy for a move the army does not make", UNUSED,
         {"E": ["A LON - YOR", "F NTH C A LON - BEL"]},
         {"A LON": [], "F NTH": ["void"]}),
    Case("a convoy for an army that holds", UNUSED,
         {"E": ["A LON H", "F NTH C A LON - BEL"]},
         {"A LON": [], "F NTH": ["void"]}),
    Case("the convoy arrives, the army bounces", ARRIVES,
         {"E": ["A LON - BEL", "F NTH C A LON - BEL"], "F": ["A BEL H"]},
         {"A LON": ["bounce"], "F NTH": [], "A BEL": []}),
    Case("two routes, one fleet dislodged, the army arrives", ARRIVES,
         {"E": ["A LON - BEL", "F NTH C A LON - BEL", "F ENG C A LON - BEL"],
          "F": ["F BRE - ENG", "F MAO S F BRE - ENG"]},
         {"A LON": [], "F NTH": [], "F ENG": ["dislodged"], "F BRE": [], "F MAO": []}),
    # DATC 6.F.16: "the support of London is not cut. That means that the fleet in the English
    # Channel is not dislodged and none of the units succeed to move": the convoy holds and the
    # army bounces at London. The reference calls it a disrupted convoy here ('no convoy' on
    # A BRE, 'disrupted' on F ENG), from its own paradox detection.
    Case("DATC 6.F.16 pandin's paradox", ARRIVES,
         {"E": ["F LON S F WAL - ENG", "F WAL - ENG"], "F": ["A BRE - LON", "F ENG C A BRE - LON"],
          "G": ["F NTH S F BEL - ENG", "F BEL - ENG"]},
         {"A BRE": ["bounce"], "F ENG": [], "F WAL": ["bounce"], "F BEL": ["bounce"]}, ref=False),
    # The explicit-adjacent-convoy variant (datc="3.0"; the reference does not have it): an
    # adjacent move without VIA goes by land, so the convoys for it are unused.
    Case("DATC 6.G.5 swapping with intent, explicit adjacent convoying", UNUSED,
         {"I": ["A ROM - APU", "F TYS C A APU - ROM"], "T": ["A APU - ROM", "F ION C A APU - ROM"]},
         {"A ROM": ["bounce"], "A APU": ["bounce"], "F TYS": ["no convoy", "void"], "F ION": ["no convoy", "void"]},
         ref=False, datc="3.0"),
]


def _units(case: Case) -> dict[str, list[str]]:
    return {power: [" ".join(o.split()[:2]) for o in orders] for power, orders in case.orders.items()}


def ours(case: Case) -> dict[str, list[str]]:
    s = Script("S1901M", case.datc)
    for power, units in _units(case).items():
        s.units(power, *units)
    for power, orders in case.orders.items():
        s.orders(power, *orders)
    s.process()
    assert not s.rejected, s.rejected
    return {unit: s.results(unit) for unit in case.want}


def reference(case: Case) -> dict[str, list[str]]:
    import diplomacy  # test-only reference engine

    game = diplomacy.Game()
    for power in game.powers:
        game.set_units(power, [], reset=True)
    for power, units in _units(case).items():
        game.set_units(_power(power), units, reset=True)
    for power, orders in case.orders.items():
        game.set_orders(_power(power), orders)
    game.process()
    got = game.result_history.last_value()
    return {unit: [str(r) for r in got.get(unit, [])] for unit in case.want}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_convoy_words(case):
    assert ours(case) == case.want, case.rule


@pytest.mark.parametrize("case", [c for c in CASES if c.ref], ids=[c.name for c in CASES if c.ref])
def test_the_reference_engine_gives_the_same_words(case):
    pytest.importorskip("diplomacy", reason="the reference engine is a test-only dependency")
    assert reference(case) == case.want, case.rule
