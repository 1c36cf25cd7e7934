"""Board, orders, order parsing (with reasons) and legal orders for standard Diplomacy.

A `Board` is a phase name plus plain dicts: units by province, centre owners, and the dislodged
units with their retreat options. Orders are `Order` tuples; their text is the notation of the
`diplomacy` package (`A PAR - BUR`, `F NTH C A YOR - NWY`, `A BUR S A PAR - MAR`, `A BUR S F BRE`,
`A PAR R BUR`, `F STP/NC B`, `A PAR D`, `WAIVE`, `A LON - NWY VIA`). Parsing never guesses: an
order the rules cannot give is rejected with a reason (`OrderError`), and the unit holds.
"""

from __future__ import annotations

from typing import NamedTuple

from games.diplomacy import mapdata as M

POWERS: tuple[str, ...] = M.POWERS
POWER_INDEX = {p: i for i, p in enumerate(POWERS)}
KIND = M.KINDS
PROVINCES = tuple(sorted(KIND))
WATER = frozenset(p for p, k in KIND.items() if k == "WATER")
COASTAL = frozenset(p for p, k in KIND.items() if k == "COAST")
CENTRES = frozenset(M.SUPPLY_CENTRES)
HOMES = {p: frozenset(h) for p, h in M.HOMES.items()}
HOME_OF = {c: p for p, hs in M.HOMES.items() for c in hs}
COASTS = {p: tuple(f"{p}/{c}" for c in cs) for p, cs in M.COASTS.items()}
ARMY_ADJ = {p: frozenset(a) for p, a in M.ARMY_ADJ.items()}
FLEET_ADJ = {loc: frozenset(a) for loc, a in M.FLEET_ADJ.items()}
# Provinces a fleet at a location can reach (support is given to a province, not a coast).
FLEET_REACH = {loc: frozenset(x[:3] for x in a) for loc, a in FLEET_ADJ.items()}
# Water provinces next to each province (where a convoy chain starts or ends).
SEA_NEXT = {p: frozenset(x[:3] for loc in (COASTS.get(p) or (p,)) for x in FLEET_ADJ.get(loc, ())
                         if x[:3] in WATER) for p in PROVINCES}
LOCATIONS = frozenset(PROVINCES) | frozenset(c for cs in COASTS.values() for c in cs)
MAX_CONVOY = 13  # fleets in one convoy chain (far more than the board ever needs)

SEASONS = {"S": "SPRING", "F": "FALL", "W": "WINTER"}
KINDS_OF_PHASE = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}


class OrderError(ValueError):
    """An order the rules do not allow; the message is the reason."""


class Order(NamedTuple):
    """One order. `loc` is the ordered unit's location (with coast); `kind` is one of
    H - S C (movement), R D (retreat; D also removes in adjustments), B W (adjustments)."""

    kind: str
    utype: str = ""  # "A" or "F" ("" for WAIVE)
    loc: str = ""
    target: str = ""  # supported / convoyed unit's location ("S", "C")
    ttype: str = ""  # supported / convoyed unit's type
    dest: str = ""  # move, retreat, supported move or convoy destination ("" = support hold)
    via: bool = False

    def text(self) -> str:
        k = self.kind
        if k == "W":
            return "WAIVE"
        unit = f"{self.utype} {self.loc}"
        if k == "H":
            return unit + " H"
        if k == "-":
            return f"{unit} - {self.dest}" + (" VIA" if self.via else "")
        if k == "S":
            other = f"{self.ttype} {self.target}"
            return f"{unit} S {other}" + (f" - {self.dest}" if self.dest else "")
        if k == "C":
            return f"{unit} C {self.ttype} {self.target} - {self.dest}"
        if k == "R":
            return f"{unit} R {self.dest}"
        return f"{unit} {k}"  # D, B


class Board:
    """A position: phase, units, centre owners, dislodged units and their retreat options.

    units: province -> (power, type, location); centres: centre -> owner (absent: neutral);
    dislodged: province -> (power, type, location, retreat options) during a retreat phase.
    Values are tuples, so a copy of the dicts is an independent board.
    """

    __slots__ = ("_cache", "centres", "dislodged", "phase_kind", "season", "units", "year")

    def __init__(self, year: int = M.START_YEAR, season: str = "S", phase_kind: str = "M"):
        self.year, self.season, self.phase_kind = year, season, phase_kind
        self.units: dict[str, tuple[str, str, str]] = {}
        self.centres: dict[str, str] = {}
        self.dislodged: dict[str, tuple[str, str, str, tuple[str, ...]]] = {}
        self._cache: dict = {}

    @classmethod
    def initial(cls) -> Board:
        """The 1901 start: 22 units, home centres owned."""
        b = cls()
        for power, units in M.START_UNITS.items():
            for u in units:
                utype, loc = u.split()
                b.units[loc[:3]] = (power, utype, loc)
        b.centres = {c: p for p, hs in M.HOMES.items() for c in hs}
        return b

    @property
    def phase(self) -> str:
        return f"{self.season}{self.year}{self.phase_kind}"

    def long_phase(self) -> str:
        return f"{SEASONS[self.season]} {self.year} {KINDS_OF_PHASE[self.phase_kind]}"

    def clone(self) -> Board:
        b = Board.__new__(Board)
        b.year, b.season, b.phase_kind = self.year, self.season, self.phase_kind
        b.units, b.centres, b.dislodged = dict(self.units), dict(self.centres), dict(self.dislodged)
        b._cache = self._cache  # derived data depends only on the fields above; replaced on change
        return b

    def changed(self) -> None:
        """Call after mutating the fields: drops derived data (convoy routes, legal orders)."""
        self._cache = {}

    # -- reading -------------------------------------------------------------------------
    def units_of(self, power: str) -> list[str]:
        """`A PAR`-style unit names of a power, sorted by location."""
        return [f"{t} {loc}" for _, (p, t, loc) in sorted(self.units.items()) if p == power]

    def centres_of(self, power: str) -> list[str]:
        return sorted(c for c, p in self.centres.items() if p == power)

    def unit_owner(self, unit: str) -> str | None:
        """Owner of a unit named `A PAR` / `F STP/SC` (coast optional), or None."""
        utype, loc = unit.split()
        u = self.units.get(loc[:3])
        if u is None or u[1] != utype or ("/" in loc and u[2] != loc):
            return None
        return u[0]

    def build_sites(self, power: str) -> list[str]:
        """Owned, unoccupied home centres of `power`, sorted."""
        return sorted(c for c in HOMES[power] if self.centres.get(c) == power and c not in self.units)

    def adjustment(self, power: str) -> int:
        """Builds allowed (> 0, capped by free home centres) or removals owed (< 0)."""
        diff = sum(1 for p in self.centres.values() if p == power) - sum(
            1 for u in self.units.values() if u[0] == power)
        if diff > 0:
            return min(diff, len(self.build_sites(power)))
        return diff

    def to_json(self) -> dict:
        return {
            "phase": self.phase,
            "units": {p: list(u) for p, u in sorted(self.units.items())},
            "centres": dict(sorted(self.centres.items())),
            "dislodged": {p: [d[0], d[1], d[2], list(d[3])] for p, d in sorted(self.dislodged.items())},
        }

    @classmethod
    def from_json(cls, data: dict) -> Board:
        ph = data["phase"]
        b = cls(int(ph[1:5]), ph[0], ph[5])
        b.units = {p: (u[0], u[1], u[2]) for p, u in data["units"].items()}
        b.centres = dict(data["centres"])
        b.dislodged = {p: (d[0], d[1], d[2], tuple(d[3])) for p, d in data["dislodged"].items()}
        return b

    # -- convoys -------------------------------------------------------------------------
    def convoy_routes(self) -> dict[str, dict[str, list[frozenset[str]]]]:
        """Army province -> destination -> the minimal chains of fleets at sea that can carry it.

        A chain is a set of occupied water provinces forming a path from a sea next to the
        start to a sea next to the destination, no smaller set doing the same (a fleet that only
        lengthens a route is not part of any chain, as in the reference engine's route table).
        """
        routes = self._cache.get("routes")
        if routes is None:
            fleets = frozenset(p for p, u in self.units.items() if u[1] == "F" and p in WATER)
            routes = self._cache["routes"] = _all_routes(
                fleets, [p for p, u in self.units.items() if u[1] == "A" and p in COASTAL])
        return routes


def _all_routes(fleets: frozenset[str], starts: list[str]) -> dict[str, dict[str, list[frozenset[str]]]]:
    out: dict[str, dict[str, list[frozenset[str]]]] = {}
    if not fleets:
        return out
    for start in starts:
        firsts = SEA_NEXT[start] & fleets
        if not firsts:
            continue
        found: dict[str, list[frozenset[str]]] = {}
        _walk(start, fleets, firsts, found)
        if found:
            out[start] = found
    return out


def _walk(start: str, fleets: frozenset[str], firsts: frozenset[str],
          found: dict[str, list[frozenset[str]]]) -> None:
    """Breadth-first over induced paths of fleets from `start`, recording per destination the
    chains that contain no recorded chain (so: the inclusion-minimal ones).

    A path that gains a chord, or comes back next to `start`, contains a shorter path with the
    same reach, so it is never minimal and is not extended.
    """
    level = [(frozenset([f]), f) for f in sorted(firsts)]
    while level:
        nxt = []
        for chain, last in level:
            for q in sorted(FLEET_REACH[last]):
                if q in COASTAL:
                    if q != start:
                        have = found.setdefault(q, [])
                        if not any(c <= chain for c in have):
                            have.append(chain)
                elif (q in fleets and q not in chain and len(chain) < MAX_CONVOY
                      and q not in SEA_NEXT[start]
                      and not any(x in chain and x != last for x in SEA_NEXT[q])):
                    nxt.append((chain | {q}, q))
        level = nxt


# -- parsing ---------------------------------------------------------------------------

def parse_order(board: Board, power: str, text: str) -> Order:
    """The typed order `power` gives with `text` in this phase; raises OrderError(reason)."""
    words = text.upper().replace("/", " /").split()
    words = _join_coasts(words)
    if not words:
        raise OrderError("empty order")
    kind = board.phase_kind
    if words == ["WAIVE"]:
        if kind != "A":
            raise OrderError("WAIVE is only an adjustment order")
        if board.adjustment(power) <= 0:
            raise OrderError(f"{power} has no build to waive")
        return Order("W")
    if len(words) < 3:
        raise OrderError(f"cannot read {text!r}: expected a unit, then an order")
    utype, loc, verb, rest = words[0], words[1], words[2], words[3:]
    if utype not in ("A", "F"):
        raise OrderError(f"unit type {words[0]!r} is not A or F")
    _check_location(loc)
    if kind == "A" and verb == "B":
        return _parse_build(board, power, utype, loc, rest)
    unit = _ordered_unit(board, power, utype, loc)
    loc = unit[2]  # a wrong coast on the ordered unit is ignored (DATC 6.B.10, 6.B.11)
    if kind == "M":
        return _parse_movement(board, utype, loc, verb, rest)
    if kind == "R":
        return _parse_retreat(unit, utype, loc, verb, rest, text)
    return _parse_removal(board, power, utype, loc, verb, rest, text)


def _ordered_unit(board: Board, power: str, utype: str, loc: str) -> tuple:
    """The unit `power` orders in `loc`'s province (the dislodged one in a retreat phase)."""
    if board.phase_kind == "R":
        unit = board.dislodged.get(loc[:3])
        if unit is None:
            raise OrderError(f"no dislodged unit in {loc[:3]}")
    else:
        unit = board.units.get(loc[:3])
        if unit is None:
            raise OrderError(f"no unit in {loc[:3]}")
    owner, real_type, real_loc = unit[0], unit[1], unit[2]
    if real_type != utype:
        raise OrderError(f"the unit in {loc[:3]} is {'an army' if real_type == 'A' else 'a fleet'}")
    if owner != power:
        raise OrderError(f"{utype} {real_loc} belongs to {owner}, not {power}")
    return unit


def _parse_retreat(unit: tuple, utype: str, loc: str, verb: str, rest: list[str], text: str) -> Order:
    """A retreat phase's order for the dislodged `unit`: R <province> (one of its options) or D."""
    if verb == "D" and not rest:
        return Order("D", utype, loc)
    if verb in ("R", "-") and len(rest) == 1:
        dest = rest[0]
        _check_location(dest)
        options = unit[3]
        dest = _default_coast(utype, loc, dest) if utype == "F" else dest
        if dest not in options:
            why = f"{dest} is not a retreat option of {utype} {loc}"
            raise OrderError(why + (f" (options: {', '.join(options)})" if options else " (none: disband)"))
        return Order("R", utype, loc, dest=dest)
    raise OrderError(f"{text!r} is not a retreat order (R <province> or D)")


def _parse_removal(board: Board, power: str, utype: str, loc: str, verb: str, rest: list[str],
                   text: str) -> Order:
    """An adjustment phase's order other than a build or a waive: D, for a power with too many units."""
    if verb == "D" and not rest:
        if board.adjustment(power) >= 0:
            raise OrderError(f"{power} has no unit to remove")
        return Order("D", utype, loc)
    raise OrderError(f"{text!r} is not an adjustment order (B, D or WAIVE)")


def _join_coasts(words: list[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        if w.startswith("/") and out:
            out[-1] += w
        else:
            out.append(w)
    return out


def _check_location(loc: str) -> None:
    if loc not in LOCATIONS:
        if loc[:3] in KIND and "/" in loc:
            raise OrderError(f"{loc[:3]} has no coast {loc[4:]!r}")
        raise OrderError(f"unknown province {loc!r}")


def _default_coast(utype: str, loc: str, dest: str) -> str:
    """A fleet's destination with its coast: the one reachable coast if only one is."""
    if utype != "F" or dest not in COASTS:
        return dest
    reach = [c for c in COASTS[dest] if c in FLEET_ADJ.get(loc, ())]
    if len(reach) == 1:
        return reach[0]
    if not reach:
        raise OrderError(f"F {loc} cannot reach {dest}")
    raise OrderError(f"F {loc} - {dest}: say which coast ({' or '.join(reach)})")


def can_move(utype: str, loc: str, dest: str) -> bool:
    """A unit of type `utype` at `loc` can move to `dest` (with coast for fleets) without convoy."""
    if utype == "A":
        return dest in ARMY_ADJ.get(loc, ())
    return dest in FLEET_ADJ.get(loc, ())


def can_reach(utype: str, loc: str, prov: str) -> bool:
    """A unit could move into province `prov` (any coast): what a support needs."""
    if utype == "A":
        return prov in ARMY_ADJ.get(loc, ())
    return prov in FLEET_REACH.get(loc, ())


def _parse_movement(board: Board, utype: str, loc: str, verb: str, rest: list[str]) -> Order:
    """A movement phase's order for the unit `utype` at `loc`: H, - (move), S or C."""
    unit = f"{utype} {loc}"
    if verb == "H" and not rest:
        return Order("H", utype, loc)
    if verb == "-":
        return _parse_move(board, utype, loc, rest)
    if verb in ("S", "C"):
        if len(rest) not in (2, 3, 4) or rest[0] not in ("A", "F"):
            raise OrderError(f"{unit}: expected {verb} <A|F> <province> [- <province>]")
        ttype, tloc = rest[0], rest[1]
        _check_location(tloc)
        other = board.units.get(tloc[:3])
        if other is None:
            raise OrderError(f"{unit} {verb}: no unit in {tloc[:3]}")
        if other[1] != ttype:
            raise OrderError(f"{unit} {verb}: the unit in {tloc[:3]} is not {'an army' if ttype == 'A' else 'a fleet'}")
        tloc = other[2]
        if tloc[:3] == loc[:3]:
            raise OrderError(f"{unit} cannot support or convoy itself")
        tail = rest[2:]
        if tail == ["H"]:
            tail = []
        if tail and (len(tail) != 2 or tail[0] != "-"):
            raise OrderError(f"{unit} {verb}: expected '- <province>' after the unit")
        dest = ""
        if tail:
            dest = tail[1]
            _check_location(dest)
            if verb == "C" or ttype == "A" or dest[:3] not in COASTS:
                dest = dest[:3]
            # a coast named in a support must then match the move (DATC 6.B.9); none is needed
        if verb == "C":
            return _parse_convoy(board, utype, loc, ttype, tloc, dest)
        return _parse_support(board, utype, loc, ttype, tloc, dest)
    raise OrderError(f"{unit}: unknown order {verb!r} (H, -, S, C)")


def _parse_move(board: Board, utype: str, loc: str, rest: list[str]) -> Order:
    """`utype loc - <dest> [VIA]`: a fleet's move along its coasts, an army's by land or convoy."""
    unit = f"{utype} {loc}"
    via = bool(rest) and rest[-1] == "VIA"
    if via:
        rest = rest[:-1]
    if len(rest) != 1:
        raise OrderError(f"{unit}: a move names one destination")
    dest = rest[0]
    _check_location(dest)
    if dest[:3] == loc[:3]:
        raise OrderError(f"{unit} cannot move to its own province")
    if utype == "F":
        if via:
            raise OrderError(f"{unit}: only armies move by convoy")
        dest = _default_coast(utype, loc, dest)
        if not can_move("F", loc, dest):
            raise OrderError(f"{unit} cannot reach {dest}")
        return Order("-", "F", loc, dest=dest)
    dest = dest[:3]  # an army ignores a coast in its destination (DATC 6.B.12)
    if not via and can_move("A", loc, dest):
        return Order("-", "A", loc, dest=dest)
    if KIND[dest] != "COAST" or loc not in COASTAL:
        raise OrderError(f"{unit} cannot reach {dest}" + (" by convoy" if via else ""))
    if dest not in board.convoy_routes().get(loc, {}):
        raise OrderError(f"{unit} - {dest}: no chain of fleets could convoy it")
    return Order("-", "A", loc, dest=dest, via=True)


def _parse_support(board: Board, utype: str, loc: str, ttype: str, tloc: str, dest: str) -> Order:
    """`utype loc S ttype tloc [- dest]`: the supporter must reach the province it supports into."""
    unit = f"{utype} {loc}"
    if not dest:
        if not can_reach(utype, loc, tloc[:3]):
            raise OrderError(f"{unit} cannot reach {tloc[:3]}, so cannot support it")
        return Order("S", utype, loc, target=tloc, ttype=ttype)
    prov = dest[:3]
    if prov == tloc[:3]:
        raise OrderError(f"{unit}: a supported move must change province")
    if not can_reach(utype, loc, prov):
        raise OrderError(f"{unit} cannot reach {prov}, so cannot support a move there")
    if "/" in dest and not can_move(ttype, tloc, dest):
        raise OrderError(f"{ttype} {tloc} cannot reach {dest}")
    if not can_reach(ttype, tloc, prov):
        chains = board.convoy_routes().get(tloc, {}).get(prov, ())
        if ttype == "F" or not any(loc[:3] not in c for c in chains):
            raise OrderError(f"{ttype} {tloc} cannot reach {prov}"
                             + (" (the only convoy would be the supporter itself)" if chains else ""))
    return Order("S", utype, loc, target=tloc, ttype=ttype, dest=dest)


def _parse_convoy(board: Board, utype: str, loc: str, ttype: str, tloc: str, dest: str) -> Order:
    unit = f"{utype} {loc}"
    if utype != "F" or loc not in WATER:
        raise OrderError(f"{unit} cannot convoy: only fleets at sea convoy")
    if ttype != "A":
        raise OrderError(f"{unit}: only armies are convoyed")
    if not dest:
        raise OrderError(f"{unit}: a convoy names the army's destination")
    if dest == tloc[:3]:
        raise OrderError(f"{unit}: A {tloc} cannot be convoyed to its own province")
    if KIND[dest] != "COAST" or tloc not in COASTAL:
        raise OrderError(f"{unit}: A {tloc} cannot be convoyed to {dest}")
    if not any(loc in chain for chain in board.convoy_routes().get(tloc, {}).get(dest, ())):
        raise OrderError(f"{unit} is on no chain of fleets from {tloc} to {dest}")
    return Order("C", utype, loc, target=tloc, ttype="A", dest=dest)


def _parse_build(board: Board, power: str, utype: str, loc: str, rest: list[str]) -> Order:
    unit = f"{utype} {loc}"
    if rest:
        raise OrderError(f"{unit} B: nothing may follow B")
    prov = loc[:3]
    if HOME_OF.get(prov) != power:
        raise OrderError(f"{unit} B: {prov} is not a home centre of {power}")
    if board.centres.get(prov) != power:
        raise OrderError(f"{unit} B: {power} does not own {prov}")
    if prov in board.units:
        raise OrderError(f"{unit} B: {prov} is occupied")
    if board.adjustment(power) <= 0:
        raise OrderError(f"{unit} B: {power} has no build")
    if utype == "A" and (KIND[prov] == "WATER" or "/" in loc):
        raise OrderError(f"{unit} B: an army is built on a province, not a coast")
    if utype == "F":
        if KIND[prov] == "LAND":
            raise OrderError(f"{unit} B: {prov} is inland")
        if prov in COASTS and "/" not in loc:
            raise OrderError(f"{unit} B: say which coast ({' or '.join(COASTS[prov])})")
    return Order("B", utype, loc)


# -- legal orders ----------------------------------------------------------------------

def movement_orders(board: Board, prov: str) -> list[str]:
    """Every order the unit in `prov` may give in a movement phase, sorted.

    Hold; moves to neighbours; moves by convoy (written VIA) to coasts a chain of fleets at
    sea could reach; support to hold for neighbouring units; support to move for a unit that
    could get (by land or by a chain without the supporter) to a province the supporter could
    enter; convoys along a minimal chain through the fleet. The same set the reference engine
    lists, except that a supported fleet move names the province only (never the coast).
    """
    cache = board._cache.setdefault("legal", {})
    got = cache.get(prov)
    if got is not None:
        return got
    _, utype, loc = board.units[prov]
    unit = f"{utype} {loc}"
    units = board.units
    routes = board.convoy_routes()
    out = [unit + " H"]
    adj = ARMY_ADJ.get(loc, frozenset()) if utype == "A" else FLEET_ADJ.get(loc, frozenset())
    reach = adj if utype == "A" else FLEET_REACH[loc]
    for d in adj:
        out.append(f"{unit} - {d}")
    if utype == "A":
        for d in routes.get(loc, ()):
            out.append(f"{unit} - {d} VIA")
    for q in reach:
        other = units.get(q)
        if other is not None:
            out.append(f"{unit} S {other[1]} {other[2]}")
    # support to move: a unit that can reach a province we reach (not our own)
    sprov = loc[:3]
    for q in reach:
        land = _movers_into(board, q)
        for src in land:
            if src != sprov:
                o = units[src]
                out.append(f"{unit} S {o[1]} {o[2]} - {q}")
        if q in COASTAL and routes:
            for start, chains in _sea_into(board).get(q, ()):
                if start != sprov and start not in land and any(sprov not in c for c in chains):
                    o = units[start]
                    out.append(f"{unit} S {o[1]} {o[2]} - {q}")
    if utype == "F" and loc in WATER:
        for start, dests in routes.items():
            for dest, chains in dests.items():
                if any(loc in c for c in chains):
                    out.append(f"{unit} C A {start} - {dest}")
    got = cache[prov] = sorted(set(out))
    return got


def _movers_into(board: Board, q: str) -> list[str]:
    """Provinces of units that could move into province `q` without a convoy (cached)."""
    land = board._cache.setdefault("into", {})
    srcs = land.get(q)
    if srcs is None:
        units = board.units
        srcs = land[q] = []
        for p, utype, loc in REACH_INTO[q]:
            o = units.get(p)
            if o is not None and o[1] == utype and o[2] == loc:
                srcs.append(p)
    return srcs


def _sea_into(board: Board) -> dict[str, list[tuple[str, list[frozenset[str]]]]]:
    """Destination -> (army province, chains) of every convoy route on the board (cached)."""
    sea = board._cache.get("sea_into")
    if sea is None:
        sea = board._cache["sea_into"] = {}
        for start, dests in board.convoy_routes().items():
            for dest, chains in dests.items():
                sea.setdefault(dest, []).append((start, chains))
    return sea


# province -> (source province, unit type, source location) of every unit that could move there
REACH_INTO: dict[str, list[tuple[str, str, str]]] = {p: [] for p in PROVINCES}
for _src, _dests in ARMY_ADJ.items():
    for _d in _dests:
        REACH_INTO[_d].append((_src, "A", _src))
for _loc, _dests in FLEET_REACH.items():
    for _d in _dests:
        REACH_INTO[_d].append((_loc[:3], "F", _loc))


def retreat_orders(board: Board, prov: str) -> list[str]:
    """Retreats to each option, and disband; sorted."""
    _, utype, loc, options = board.dislodged[prov]
    unit = f"{utype} {loc}"
    return sorted([unit + " D"] + [f"{unit} R {d}" for d in options])


def build_orders(board: Board, power: str, taken: frozenset[str] = frozenset()) -> list[str]:
    """Builds on free home centres not in `taken` (armies, fleets per coast), and WAIVE; sorted."""
    out = ["WAIVE"]
    for c in board.build_sites(power):
        if c in taken:
            continue
        if KIND[c] != "WATER":
            out.append(f"A {c} B")
        if KIND[c] == "COAST":
            if c in COASTS:
                out += [f"F {x} B" for x in COASTS[c]]
            else:
                out.append(f"F {c} B")
    return sorted(out)


def disband_orders(board: Board, power: str, taken: frozenset[str] = frozenset()) -> list[str]:
    """Removals of the power's units not in `taken` (provinces); sorted."""
    return sorted(f"{t} {loc} D" for p, (pw, t, loc) in board.units.items() if pw == power and p not in taken)
