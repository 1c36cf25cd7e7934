"""Runs the DATC tables (`datc_cases.py`) through the scripting API.

A case is a block of lines:
    == <id> <title>            starts a case (the id is the DATC number, e.g. 6.A.1)
    phase W1901A               optional: the phase (default S1901M)
    units E: F LON, A YOR      units placed without orders (powers by initial letter)
    centres R: MOS SEV STP     centre owners
    E: F NTH - PIC; A YOR H    orders of a power; in the first movement phase their units are placed
    => items; items            process the phase, then check each item:
         F NTH void            the unit (as it stood) has this result (ok: no failure at all)
         F NTH @E / F NTH @-   after the phase a unit stands there owned by E / none stands there
         retreat F KIE: BER    BER is among the retreat options of the dislodged F KIE
         noretreat F KIE: BER  BER is not among them
         retreats F POR: -     F POR has no retreat to make (not dislodged, or destroyed)
         count R 3             R has 3 units
Orders after a `=>` belong to the next phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.diplomacy.script import Script, _power

FAILURES = {"bounce", "cut", "dislodged", "void", "no convoy", "disrupted", "disband"}


@dataclass
class Case:
    id: str
    title: str
    lines: list[str] = field(default_factory=list)


def parse_cases(text: str) -> list[Case]:
    cases: list[Case] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("=="):
            ident, _, title = line[2:].strip().partition(" ")
            cases.append(Case(ident, title))
        else:
            cases[-1].lines.append(line)
    return cases


def run_case(case: Case, datc: str = "2.4") -> None:
    """Play the case; raises AssertionError naming the case and the failed check."""
    phase = next((ln.split()[1] for ln in case.lines if ln.startswith("phase ")), "S1901M")
    s = Script(phase, datc)
    first = True
    pending: list[tuple[str, list[str]]] = []
    for line in case.lines:
        if line.startswith(("phase ", "datc ")):
            continue
        if line.startswith("units "):
            who, _, units = line[6:].partition(":")
            s.units(who.strip(), *[u.strip() for u in units.split(",") if u.strip()])
        elif line.startswith("centres "):
            who, _, cs = line[8:].partition(":")
            s.centres(who.strip(), *cs.split())
        elif line.startswith("=>"):
            if first and s.board.phase_kind == "M":
                for who, orders in pending:  # place the ordered units first, then read orders
                    for o in orders:
                        w = o.split()
                        if w[0] in ("A", "F") and w[1][:3] not in s.board.units:
                            s.units(who, f"{w[0]} {w[1]}")
            for who, orders in pending:
                s.orders(who, *orders)
            pending, first = [], False
            s.process()
            for item in (x.strip() for x in line[2:].split(";")):
                if item:
                    _check(case, s, item)
        else:
            who, _, orders = line.partition(":")
            pending.append((who.strip(), [o.strip() for o in orders.split(";") if o.strip()]))


def _check(case: Case, s: Script, item: str) -> None:
    where = f"DATC {case.id} ({case.title}): {item!r}"
    w = item.split()
    if w[0] in ("retreat", "noretreat", "retreats"):
        unit, _, rest = " ".join(w[1:]).partition(":")
        options = s.dislodged().get(unit.strip())
        rest = rest.strip()
        if w[0] == "retreats":
            assert rest == "-" and options is None, f"{where}: retreat options {options}"
        elif w[0] == "retreat":
            assert options is not None and rest in options, f"{where}: options {options}"
        else:
            assert options is None or rest not in options, f"{where}: options {options}"
        return
    if w[0] == "count":
        power = _power(w[1])
        n = sum(1 for u in s.board.units.values() if u[0] == power)
        assert n == int(w[2]), f"{where}: {power} has {n} units"
        return
    unit, what = " ".join(w[:2]), " ".join(w[2:])
    if what.startswith("@"):
        want = None if what == "@-" else _power(what[1:])
        assert s.owner(unit) == want, f"{where}: owner is {s.owner(unit)} (rejected: {s.rejected})"
        return
    got = s.results(unit)
    if what == "ok":
        assert not FAILURES & set(got), f"{where}: results {got}"
    else:
        assert what in got, f"{where}: results {got} (rejected: {s.rejected})"
