"""The classic Risk map as data: 42 territories, 6 continents, 83 borders, the 44-card deck.

Sources (facts, not code):
- Territories, continents, bonuses and borders: /work/shared/references/battleline-risk-dominoes.md
  section 2.1 (verified there from chronitis/pyrisk `world.py` and cross-checked; official names).
  It includes New Guinea-Western Australia, which the PyPI `risk` graph misses.
- Card symbols (14 infantry, 14 cavalry, 14 artillery, plus 2 wilds): eriktaubeneck/hacker_risk
  `cards.json` (the PyPI `risk` package). Whether it matches a printed Hasbro deck is unchecked;
  the rules only need 14 of each symbol.
- The three-letter codes are ours: short, stable names for actions and logs.

Territory index order (used by every per-territory list in states and observations) is the
order below: continents as in CONTINENTS, territories as listed in the notes.
"""

from __future__ import annotations

INFANTRY, CAVALRY, ARTILLERY, WILD = "I", "C", "A", "W"

# (code, official name, card symbol, neighbours by code): neighbours as listed in the notes.
_TERRITORIES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    # North America (bonus 5)
    ("ALA", "Alaska", ARTILLERY, ("ALB", "KAM", "NWT")),
    ("NWT", "Northwest Territory", CAVALRY, ("ALA", "ALB", "GRL", "ONT")),
    ("GRL", "Greenland", CAVALRY, ("ICE", "NWT", "ONT", "QUE")),
    ("ALB", "Alberta", ARTILLERY, ("ALA", "NWT", "ONT", "WUS")),
    ("ONT", "Ontario", ARTILLERY, ("ALB", "EUS", "GRL", "NWT", "QUE", "WUS")),
    ("QUE", "Quebec", ARTILLERY, ("EUS", "GRL", "ONT")),
    ("WUS", "Western United States", ARTILLERY, ("ALB", "CAM", "EUS", "ONT")),
    ("EUS", "Eastern United States", ARTILLERY, ("CAM", "ONT", "QUE", "WUS")),
    ("CAM", "Central America", INFANTRY, ("EUS", "VEN", "WUS")),
    # South America (bonus 2)
    ("VEN", "Venezuela", CAVALRY, ("BRA", "CAM", "PER")),
    ("BRA", "Brazil", INFANTRY, ("ARG", "NAF", "PER", "VEN")),
    ("PER", "Peru", CAVALRY, ("ARG", "BRA", "VEN")),
    ("ARG", "Argentina", INFANTRY, ("BRA", "PER")),
    # Europe (bonus 5)
    ("ICE", "Iceland", CAVALRY, ("GBR", "GRL", "SCA")),
    ("GBR", "Great Britain", INFANTRY, ("ICE", "NEU", "SCA", "WEU")),
    ("SCA", "Scandinavia", INFANTRY, ("GBR", "ICE", "NEU", "UKR")),
    ("UKR", "Ukraine", INFANTRY, ("AFG", "MEA", "NEU", "SCA", "SEU", "URA")),
    ("NEU", "Northern Europe", CAVALRY, ("GBR", "SCA", "SEU", "UKR", "WEU")),
    ("WEU", "Western Europe", INFANTRY, ("GBR", "NAF", "NEU", "SEU")),
    ("SEU", "Southern Europe", INFANTRY, ("EGY", "MEA", "NAF", "NEU", "UKR", "WEU")),
    # Africa (bonus 3)
    ("NAF", "North Africa", INFANTRY, ("BRA", "CON", "EAF", "EGY", "SEU", "WEU")),
    ("EGY", "Egypt", CAVALRY, ("EAF", "MEA", "NAF", "SEU")),
    ("EAF", "East Africa", INFANTRY, ("CON", "EGY", "MAD", "MEA", "NAF", "SAF")),
    ("CON", "Congo", ARTILLERY, ("EAF", "NAF", "SAF")),
    ("SAF", "South Africa", ARTILLERY, ("CON", "EAF", "MAD")),
    ("MAD", "Madagascar", CAVALRY, ("EAF", "SAF")),
    # Asia (bonus 7)
    ("MEA", "Middle East", ARTILLERY, ("AFG", "EAF", "EGY", "IND", "SEU", "UKR")),
    ("AFG", "Afghanistan", INFANTRY, ("CHN", "IND", "MEA", "UKR", "URA")),
    ("IND", "India", CAVALRY, ("AFG", "CHN", "MEA", "SIA")),
    ("SIA", "Siam", CAVALRY, ("CHN", "IND", "IDN")),
    ("CHN", "China", ARTILLERY, ("AFG", "IND", "MON", "SIA", "SIB", "URA")),
    ("MON", "Mongolia", CAVALRY, ("CHN", "IRK", "JPN", "KAM", "SIB")),
    ("JPN", "Japan", CAVALRY, ("KAM", "MON")),
    ("KAM", "Kamchatka", ARTILLERY, ("ALA", "IRK", "JPN", "MON", "YAK")),
    ("IRK", "Irkutsk", ARTILLERY, ("KAM", "MON", "SIB", "YAK")),
    ("YAK", "Yakutsk", ARTILLERY, ("IRK", "KAM", "SIB")),
    ("SIB", "Siberia", INFANTRY, ("CHN", "IRK", "MON", "URA", "YAK")),
    ("URA", "Ural", INFANTRY, ("AFG", "CHN", "SIB", "UKR")),
    # Australia (bonus 2)
    ("IDN", "Indonesia", INFANTRY, ("NGU", "SIA", "WAU")),
    ("NGU", "New Guinea", CAVALRY, ("EAU", "IDN", "WAU")),
    ("EAU", "Eastern Australia", CAVALRY, ("NGU", "WAU")),
    ("WAU", "Western Australia", ARTILLERY, ("EAU", "IDN", "NGU")),
)

# (name, bonus, first index, count): contiguous runs of the territory order above.
_CONTINENTS = (
    ("North America", 5, 0, 9),
    ("South America", 2, 9, 4),
    ("Europe", 5, 13, 7),
    ("Africa", 3, 20, 6),
    ("Asia", 7, 26, 12),
    ("Australia", 2, 38, 4),
)

CODES: tuple[str, ...] = tuple(t[0] for t in _TERRITORIES)
NAMES: tuple[str, ...] = tuple(t[1] for t in _TERRITORIES)
SYMBOLS: tuple[str, ...] = tuple(t[2] for t in _TERRITORIES)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
NUM_TERRITORIES = len(CODES)

# Neighbours of territory i, as sorted indices.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(INDEX[c] for c in t[3])) for t in _TERRITORIES)

CONTINENT_NAMES: tuple[str, ...] = tuple(c[0] for c in _CONTINENTS)
CONTINENT_BONUS: tuple[int, ...] = tuple(c[1] for c in _CONTINENTS)
CONTINENT_MEMBERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(first, first + count)) for _, _, first, count in _CONTINENTS)
CONTINENT_OF: tuple[int, ...] = tuple(
    k for k, members in enumerate(CONTINENT_MEMBERS) for _ in members)

# Undirected borders as sorted index pairs, sorted.
BORDERS: tuple[tuple[int, int], ...] = tuple(sorted(
    {(min(i, j), max(i, j)) for i in range(NUM_TERRITORIES) for j in NEIGHBOURS[i]}))

# The deck: card i < 42 shows territory i and its symbol; cards 42 and 43 are the wilds.
WILD_CODES = ("W1", "W2")
NUM_CARDS = NUM_TERRITORIES + len(WILD_CODES)
CARD_CODES: tuple[str, ...] = CODES + WILD_CODES
CARD_INDEX: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}
CARD_SYMBOLS: tuple[str, ...] = SYMBOLS + (WILD, WILD)
