"""A scripting API for rule tests: place units and centre owners by hand, submit orders per power
as strings, process one phase, read results per unit, dislodged units and owners back.

    s = Script("S1901M").units("ENGLAND", "F NTH", "A YOR").units("GERMANY", "F LON")
    s.orders("ENGLAND", "F NTH C A YOR - NWY", "A YOR - NWY")
    s.process()
    s.results("A YOR"), s.owner("A NWY"), s.dislodged()

An order the rules reject is recorded with its reason in `rejected`, and reported as `void` in the
unit's results; the unit holds (or disbands, in a retreat phase). Nothing here is random.
"""

from __future__ import annotations

from games.diplomacy.adjudicator import VOID, Resolution, resolve
from games.diplomacy.board import COASTS, POWERS, Board, Order, OrderError, parse_order


class Script:
    """A hand-set board and the orders for its current phase."""

    def __init__(self, phase: str = "S1901M", datc: str = "2.4"):
        self.board = Board(int(phase[1:5]), phase[0], phase[5])
        self.datc = datc
        self._orders: dict[str, list[Order]] = {}
        self._void: list[str] = []
        self.rejected: list[tuple[str, str, str]] = []  # (power, order, reason)
        self.last: Resolution | None = None

    # -- set up ----------------------------------------------------------------------------
    def units(self, power: str, *units: str) -> Script:
        """Place units (`A PAR`, `F STP/NC`) of `power`."""
        power = _power(power)
        for u in units:
            utype, loc = u.split()
            self.board.units[loc[:3]] = (power, utype, loc)
        self.board.changed()
        return self

    def dislodged_unit(self, power: str, unit: str, retreats: list[str]) -> Script:
        """Place a dislodged unit with its retreat options (a retreat phase set by hand)."""
        utype, loc = unit.split()
        self.board.dislodged[loc[:3]] = (_power(power), utype, loc, tuple(retreats))
        self.board.changed()
        return self

    def centres(self, power: str, *centres: str) -> Script:
        self.board.centres = dict(self.board.centres)  # boards may share it
        for c in centres:
            self.board.centres[c] = _power(power)
        self.board.changed()
        return self

    def clear_centres(self) -> Script:
        self.board.centres = {}
        self.board.changed()
        return self

    # -- orders and processing -------------------------------------------------------------
    def orders(self, power: str, *orders: str) -> Script:
        """Submit orders (strings); a rejected one is recorded and its unit holds."""
        power = _power(power)
        for text in orders:
            try:
                self._orders.setdefault(power, []).append(parse_order(self.board, power, text))
            except OrderError as exc:
                self.rejected.append((power, text, str(exc)))
                words = text.split()
                if len(words) >= 2 and words[0] in ("A", "F"):
                    self._void.append(f"{words[0]} {words[1]}")
        return self

    def process(self) -> Resolution:
        """Adjudicate the phase; the board moves on to the next phase that needs orders."""
        res = resolve(self.board, self._orders, self.datc)
        for unit in self._void:
            real = self._unit_name(unit)
            res.results.setdefault(real, [])
            if VOID not in res.results[real]:
                res.results[real].insert(0, VOID)
        self.last, self.board = res, res.after
        self._orders, self._void = {}, []
        return res

    def _unit_name(self, unit: str) -> str:
        utype, loc = unit.split()
        for _, t, l in self.last_units().values():
            if t == utype and l[:3] == loc[:3]:
                return f"{t} {l}"
        return unit

    def last_units(self) -> dict[str, tuple[str, str, str]]:
        return dict(self.board.units) if self.last is None else {
            p: (pw, t, l) for p, (pw, t, l) in _units_of_phase(self.last).items()}

    # -- reading back ----------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.board.phase

    def results(self, unit: str) -> list[str]:
        """Results of the last processed phase for the unit named as it stood then."""
        assert self.last is not None, "process() first"
        if unit in self.last.results:
            return self.last.results[unit]
        utype, loc = unit.split()
        for name, res in self.last.results.items():
            t, l = name.split()
            if t == utype and l[:3] == loc[:3]:
                return res
        return []

    def owner(self, unit: str) -> str | None:
        """Owner of the unit named `A PAR` / `F STP/NC` (coast optional) now on the board."""
        utype, loc = unit.split()
        u = self.board.units.get(loc[:3])
        if u is None or u[1] != utype or ("/" in loc and u[2] != loc):
            return None
        return u[0]

    def dislodged(self) -> dict[str, list[str]]:
        """Dislodged units waiting to retreat -> their retreat options."""
        return {f"{d[1]} {d[2]}": list(d[3]) for d in self.board.dislodged.values()}

    def centre_owner(self, centre: str) -> str | None:
        return self.board.centres.get(centre)


def _units_of_phase(res: Resolution) -> dict[str, tuple[str, str, str]]:
    out = {}
    for power, orders in res.orders.items():
        for o in orders:
            if o.loc:
                out[o.loc[:3]] = (power, o.utype, o.loc)
    return out


_ABBREV = {p[0]: p for p in POWERS}


def _power(name: str) -> str:
    """A power by name or initial letter (A, E, F, G, I, R, T), any case."""
    up = name.upper()
    if up in POWERS:
        return up
    if up in _ABBREV:
        return _ABBREV[up]
    raise ValueError(f"unknown power {name!r}")


__all__ = ["COASTS", "Script"]
