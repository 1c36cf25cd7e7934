"""The standard map's own invariants and published facts (games/diplomacy/mapdata.py), checked
without the reference engine; where it is installed, the adjacencies are compared with its map too.

Published facts (Avalon Hill 2000 rulebook, "The Map"): 75 provinces besides impassable
Switzerland, 19 of them bodies of water, 14 inland and 42 coastal; 34 supply centres, 22 of them
home centres (three for each Great Power, four for Russia) and 12 neutral; each power starts with
one unit on each of its home centres; three coastal provinces have two coasts, Bulgaria (east,
south), Spain and St Petersburg (north, south). Adjacency is mutual: if a unit can move from A
to B, the same kind of unit can move from B to A.
"""

from __future__ import annotations

from collections import deque

import pytest

from games.diplomacy import mapdata as M
from games.diplomacy.board import can_move

PROVINCES = set(M.KINDS)
WATER = {p for p, k in M.KINDS.items() if k == "WATER"}
COAST = {p for p, k in M.KINDS.items() if k == "COAST"}
LAND = {p for p, k in M.KINDS.items() if k == "LAND"}
LOCATIONS = PROVINCES | {f"{p}/{c}" for p, cs in M.COASTS.items() for c in cs}
# ours, counted once and equal to the reference engine's map (test below): undirected borders
ARMY_BORDERS, FLEET_BORDERS = 111, 141


def test_province_counts():
    assert len(PROVINCES) == 75 and "SWI" not in PROVINCES
    assert (len(WATER), len(LAND), len(COAST)) == (19, 14, 42)
    assert all(len(p) == 3 and p.isupper() for p in PROVINCES)


def test_supply_and_home_centres():
    centres = set(M.SUPPLY_CENTRES)
    assert len(M.SUPPLY_CENTRES) == len(centres) == 34 and centres <= PROVINCES
    assert not centres & WATER
    assert M.POWERS == ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    assert {p: len(h) for p, h in M.HOMES.items()} == {p: 4 if p == "RUSSIA" else 3 for p in M.POWERS}
    homes = [c for h in M.HOMES.values() for c in h]
    assert len(homes) == len(set(homes)) == 22 and set(homes) <= centres
    assert len(centres - set(homes)) == 12


def test_start_units_stand_on_their_home_centres():
    assert sum(len(u) for u in M.START_UNITS.values()) == 22
    for power, units in M.START_UNITS.items():
        places = [u.split()[1] for u in units]
        assert sorted(p[:3] for p in places) == sorted(M.HOMES[power]), power
        for unit in units:
            kind, loc = unit.split()
            assert loc in LOCATIONS
            assert (kind == "F" and loc in M.FLEET_ADJ) or (kind == "A" and loc in M.ARMY_ADJ), unit
    assert "F STP/SC" in M.START_UNITS["RUSSIA"]


def test_coasts():
    assert M.COASTS == {"BUL": ["EC", "SC"], "SPA": ["NC", "SC"], "STP": ["NC", "SC"]}
    for province in M.COASTS:
        assert M.KINDS[province] == "COAST"
        assert province not in M.FLEET_ADJ  # a fleet there stands on one of its coasts


def test_who_can_stand_where():
    assert set(M.ARMY_ADJ) == LAND | COAST  # armies: everywhere but the sea
    split = {f"{p}/{c}" for p, cs in M.COASTS.items() for c in cs}
    assert set(M.FLEET_ADJ) == WATER | (COAST - set(M.COASTS)) | split  # fleets: sea and coasts


def _borders(adj: dict) -> set[frozenset[str]]:
    return {frozenset((a, b)) for a, bs in adj.items() for b in bs}


@pytest.mark.parametrize("kind", ["A", "F"])
def test_adjacencies_are_mutual_known_and_not_loops(kind):
    adj = M.ARMY_ADJ if kind == "A" else M.FLEET_ADJ
    for a, bs in adj.items():
        assert len(bs) == len(set(bs)) and list(bs) == sorted(bs), f"{a}: neighbours sorted, each once"
        for b in bs:
            assert b != a and b[:3] != a[:3], f"{kind} {a} borders itself"
            assert b in adj, f"{kind} {a} - {b}: {b} is not a place for this kind of unit"
            assert a in adj[b], f"{kind} {a} - {b} but not {b} - {a}"
    assert len(_borders(adj)) == (ARMY_BORDERS if kind == "A" else FLEET_BORDERS)


def test_armies_never_touch_water_and_fleets_never_go_inland():
    assert not any(set(bs) & WATER for bs in M.ARMY_ADJ.values())
    assert not any(b[:3] in LAND for bs in M.FLEET_ADJ.values() for b in bs)


def test_a_fleet_along_a_coast_crosses_a_border_an_army_can_cross():
    for a, bs in M.FLEET_ADJ.items():
        for b in bs:
            if a[:3] in COAST and b[:3] in COAST:
                assert b[:3] in M.ARMY_ADJ[a[:3]], f"F {a} - {b} but no army border"


def test_every_coast_has_a_sea_and_every_inland_province_none():
    for loc, bs in M.FLEET_ADJ.items():
        if loc[:3] in COAST:
            assert set(b for b in bs if b in WATER), f"{loc} touches no sea"
    for p in COAST - set(M.COASTS):
        assert p in M.FLEET_ADJ
    for p in LAND:
        assert all(p not in bs for bs in M.FLEET_ADJ.values())


def test_the_map_is_connected():
    graph: dict[str, set[str]] = {p: set() for p in PROVINCES}
    for adj in (M.ARMY_ADJ, M.FLEET_ADJ):
        for a, bs in adj.items():
            graph[a[:3]] |= {b[:3] for b in bs}
    seen, todo = {"PAR"}, deque(["PAR"])
    while todo:
        for q in graph[todo.popleft()] - seen:
            seen.add(q)
            todo.append(q)
    assert seen == PROVINCES


# borders people get wrong, from the rulebook's map: (unit, from, to, can it move there?)
FACTS = [
    ("A", "DEN", "SWE", True), ("F", "DEN", "SWE", True), ("A", "KIE", "DEN", True),
    ("F", "CON", "BUL/EC", True), ("F", "CON", "BUL/SC", True), ("F", "BUL/EC", "AEG", False),
    ("F", "BUL/SC", "BLA", False), ("F", "BLA", "BUL/EC", True), ("F", "AEG", "BUL/SC", True),
    ("F", "GAS", "SPA/NC", True), ("F", "GAS", "SPA/SC", False), ("F", "MAR", "SPA/SC", True),
    ("F", "MAR", "SPA/NC", False), ("F", "POR", "SPA/NC", True), ("F", "POR", "SPA/SC", True),
    ("F", "MAO", "SPA/NC", True), ("F", "MAO", "SPA/SC", True), ("F", "WES", "SPA/SC", True),
    ("F", "NWY", "STP/NC", True), ("F", "BAR", "STP/NC", True), ("F", "FIN", "STP/SC", True),
    ("F", "BOT", "STP/SC", True), ("F", "LVN", "STP/SC", True), ("F", "BOT", "STP/NC", False),
    ("A", "NAF", "TUN", True), ("F", "NAF", "MAO", True), ("A", "NAF", "SPA", False),
    ("F", "ROM", "VEN", False), ("A", "ROM", "VEN", True), ("F", "APU", "ROM", False),
    ("F", "NTH", "PIC", False), ("F", "KIE", "MUN", False), ("A", "LVP", "IRI", False),
    ("F", "SYR", "ARM", False), ("A", "SYR", "ARM", True), ("F", "ANK", "ARM", True),
    ("F", "SEV", "ARM", True), ("F", "ANK", "SMY", False), ("A", "CON", "ANK", True),
    ("F", "SKA", "DEN", True), ("F", "HEL", "BAL", False), ("F", "KIE", "BAL", True),
    ("F", "BER", "BAL", True), ("A", "BOH", "TYR", True), ("A", "MOS", "SEV", True),
    ("F", "LON", "NTH", True), ("F", "WAL", "LVP", True), ("F", "YOR", "LVP", False),
    ("A", "YOR", "LVP", True), ("F", "TUS", "VEN", False), ("F", "PIE", "VEN", False),
    ("A", "PIE", "VEN", True), ("F", "ALB", "TRI", True), ("A", "TRI", "TYR", True),
    ("F", "NAO", "NWG", True), ("F", "IRI", "NAO", True), ("F", "ENG", "IRI", True),
]


@pytest.mark.parametrize("unit,start,dest,can", FACTS, ids=[f"{u} {a}-{b}" for u, a, b, _ in FACTS])
def test_published_borders(unit, start, dest, can):
    assert can_move(unit, start, dest) is can
    assert can_move(unit, dest, start) is can  # and back


def test_same_adjacencies_as_the_reference_engines_map():
    pytest.importorskip("diplomacy", reason="the reference engine is a test-only dependency")
    from diplomacy.engine.map import Map

    ref = Map("standard")
    for kind, adj in (("A", M.ARMY_ADJ), ("F", M.FLEET_ADJ)):
        places = sorted(set(adj) | {b for bs in adj.values() for b in bs})
        for a in places:
            theirs = {b for b in LOCATIONS if b != a and ref.abuts(kind, a, "-", b)}
            if kind == "A":
                theirs = {b for b in theirs if "/" not in b}
            assert theirs == set(adj.get(a, ())), f"{kind} {a}"
