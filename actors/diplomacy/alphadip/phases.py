"""AlphaDip's deals over several phases and demilitarised zones (the thesis' future work, 7.2:
"movement commitments for several rounds instead of only the current round", "the negotiation of
demilitarized zones"). Each is an option of `AlphaDipParams`, off by default.

- `dmz`: at the first round of a movement phase the FO offers every trusted power with units on
  a common border a DMZ over the empty provinces both can reach and that the SO's best move does
  not enter (so keeping it costs our planned move nothing): neither moves in for this movement
  phase and the next `dmz_phases - 1`.
- `multi_phase`: a support request to a power that has already taken a deal over several phases
  also asks it to keep out of the province our supported move takes in the next movement phase
  ("support me into X this spring, leave X alone in the fall").
- SO: a deal offered to us is valued now for this phase's commitments (a search with them
  imposed, as before) plus, for each later movement phase k = 1, 2, ..., `future_discount ** k`
  times the value now of that phase's DMZs (the board then is unknown; today's is our estimate).
- FO: with either option, a DMZ binding us in a later phase is accepted like one for this phase
  (trusted proposer, value at least -accept_loss); order commitments for later phases are still
  refused.
- IO: with either option, each deal in force with a power in a movement phase counts: kept
  (trust *= trust_kept) or broken (trust += trust_broken), one verdict per deal and phase, kept in
  the KB's `io.ledger` {deal: {phase: "kept" | "broken"}}.
"""

from __future__ import annotations

from typing import Any

from games.diplomacy.board import PROVINCES, can_reach
from games.diplomacy.talk import Dmz


def later_moves(phase: str, count: int) -> list[str]:
    """The next `count` movement phases after `phase` ("S1901M" -> ["F1901M", "S1902M", ...])."""
    season, year = phase[0], int(phase[1:5])
    out = []
    while len(out) < count:
        if season == "S":
            season = "F"
        else:
            season, year = "S", year + 1
        out.append(f"{season}{year}M")
    return out


def movement_phases(phase: str, count: int) -> list[str]:
    """This movement phase and the next `count - 1` ones."""
    return [phase] + later_moves(phase, count - 1)


def _reach(units: list[str]) -> set[str]:
    out: set[str] = set()
    for unit in units:
        utype, loc = unit.split()[0], unit.split()[1]
        out.update(p for p in PROVINCES if can_reach(utype, loc, p))
    return out


def dmz_provinces(obs: dict[str, Any], me: str, other: str, planned: set[str]) -> list[str]:
    """Empty provinces both powers' units can reach, none the SO's best move enters, no supply
    centre of ours or theirs (a DMZ must not freeze a centre one of us may need to take back)."""
    occupied = {u.split()[1][:3] for units in obs["units"].values() for u in units}
    mine, theirs = _reach(obs["units"].get(me, [])), _reach(obs["units"].get(other, []))
    owned = set(obs["centres"].get(me, [])) | set(obs["centres"].get(other, []))
    return sorted(p for p in mine & theirs if p not in occupied and p not in planned and p not in owned)


def dmz_commitments(phase: str, powers: tuple[str, ...], provinces: list[str], phases: int) -> tuple[Dmz, ...]:
    return tuple(Dmz(phase=ph, powers=powers, provinces=tuple(provinces)) for ph in movement_phases(phase, phases))


def planned_entries(view: dict[str, Any]) -> set[str]:
    """Provinces the orders of the SO's suggestions move into."""
    import json

    out: set[str] = set()
    for s in view.get("suggestions") or ():
        move = json.loads(s["action"])
        for order in (move.get("orders") or {}).values():
            if " - " in order:
                out.add(order.split(" - ")[1].split()[0][:3])
    return out


def multi_phase_powers(obs: dict[str, Any]) -> set[str]:
    """Powers that have proposed or accepted a deal with a commitment for a later phase than the
    one it was confirmed in (evidence they negotiate over several phases)."""
    out: set[str] = set()
    for d in obs["deals"]["confirmed"]:
        phases = {c["phase"] for c in d["commitments"] if "phase" in c}
        if len(phases) > 1:
            out.update(d["parties"])
    return out
