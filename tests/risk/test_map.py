"""The classic map as data (notes part 2.1: 42 territories, 6 continents, exactly 83 borders)."""

from __future__ import annotations

from collections import Counter

from games.risk.mapdata import (
    BORDERS,
    CARD_CODES,
    CARD_SYMBOLS,
    CODES,
    CONTINENT_BONUS,
    CONTINENT_MEMBERS,
    CONTINENT_NAMES,
    CONTINENT_OF,
    INDEX,
    NAMES,
    NEIGHBOURS,
    NUM_TERRITORIES,
    WILD,
)

# Notes 2.1: "North America (bonus 5, 9 territories) ... Australia (bonus 2, 4 territories)".
CONTINENTS = [
    ("North America", 5, 9),
    ("South America", 2, 4),
    ("Europe", 5, 7),
    ("Africa", 3, 6),
    ("Asia", 7, 12),
    ("Australia", 2, 4),
]

# Notes 2.1: "All 14 inter-continental links are included."
INTERCONTINENTAL = {
    ("Alaska", "Kamchatka"), ("Greenland", "Iceland"), ("Central America", "Venezuela"),
    ("Brazil", "North Africa"), ("Western Europe", "North Africa"), ("Southern Europe", "North Africa"),
    ("Southern Europe", "Egypt"), ("Southern Europe", "Middle East"), ("Ukraine", "Middle East"),
    ("Ukraine", "Afghanistan"), ("Ukraine", "Ural"), ("Egypt", "Middle East"),
    ("East Africa", "Middle East"), ("Siam", "Indonesia"),
}


def _edge(a: str, b: str) -> tuple[int, int]:
    i, j = NAMES.index(a), NAMES.index(b)
    return min(i, j), max(i, j)


def test_42_territories_and_6_continents_with_their_bonuses():
    """42 territories; bonuses 5/2/5/3/7/2 for continents of 9/4/7/6/12/4 territories."""
    assert NUM_TERRITORIES == len(CODES) == len(set(CODES)) == len(set(NAMES)) == 42
    assert [(n, b, len(m)) for n, b, m in zip(CONTINENT_NAMES, CONTINENT_BONUS, CONTINENT_MEMBERS)] == CONTINENTS
    assert sorted(t for m in CONTINENT_MEMBERS for t in m) == list(range(42))
    assert all(CONTINENT_OF[t] == k for k, m in enumerate(CONTINENT_MEMBERS) for t in m)
    assert all(len(c) == 3 and c.isupper() and INDEX[c] == i for i, c in enumerate(CODES))


def test_exactly_83_symmetric_borders():
    """83 undirected borders (PyPI `risk` has 82); adjacency is symmetric, no self-loops."""
    assert len(BORDERS) == 83
    for i in range(42):
        assert i not in NEIGHBOURS[i]
        assert len(set(NEIGHBOURS[i])) == len(NEIGHBOURS[i])
        for j in NEIGHBOURS[i]:
            assert i in NEIGHBOURS[j], f"{NAMES[i]} -> {NAMES[j]} has no way back"
    assert sum(len(n) for n in NEIGHBOURS) == 2 * 83


def test_new_guinea_western_australia_and_the_intercontinental_links():
    """The border PyPI `risk` misses is there; exactly the 14 links between continents."""
    assert _edge("New Guinea", "Western Australia") in BORDERS
    links = {(i, j) for i, j in BORDERS if CONTINENT_OF[i] != CONTINENT_OF[j]}
    assert links == {_edge(a, b) for a, b in INTERCONTINENTAL}


def test_connected():
    seen, stack = {0}, [0]
    while stack:
        for v in NEIGHBOURS[stack.pop()]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    assert len(seen) == 42


def test_degrees_as_in_the_notes():
    """"Degrees range from 2 to 6. The territories of degree 6 are Ontario, North Africa, East
    Africa, Ukraine, Southern Europe, Middle East and China.\""""
    degrees = {NAMES[i]: len(NEIGHBOURS[i]) for i in range(42)}
    assert min(degrees.values()) == 2 and max(degrees.values()) == 6
    assert {n for n, d in degrees.items() if d == 6} == {
        "Ontario", "North Africa", "East Africa", "Ukraine", "Southern Europe", "Middle East", "China"}


def test_deck_14_of_each_symbol_and_2_wilds():
    """"42 territory cards (14 each of infantry, cavalry and artillery) plus 2 wilds"."""
    assert len(CARD_CODES) == len(set(CARD_CODES)) == 44
    assert Counter(CARD_SYMBOLS) == {"I": 14, "C": 14, "A": 14, WILD: 2}
    assert CARD_CODES[:42] == CODES
