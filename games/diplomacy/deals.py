"""The deal ledger of a Diplomacy game: proposals, acceptances, confirmed deals, broken deals.

Pure data kept in the state (`DiplomacyState._deals`) and serialised with it. The referee folds
each round's talk in with `apply`; `check` runs at adjudication and records every confirmed
commitment the submitted orders break (and, with binding deals, rewrites the breaking orders).
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from games.diplomacy.board import POWERS, PROVINCES, Board, Order, OrderError, parse_order
from games.diplomacy.talk import (
    Alliance,
    Commitment,
    DipAccept,
    DipPropose,
    DipReject,
    DipRetract,
    Dmz,
    OrderCommitment,
    Peace,
    deal_key,
    parties,
)

_COMMITMENT = TypeAdapter(Commitment)


def phase_key(phase: str) -> tuple[int, int, int]:
    """Chronological sort key of a phase name such as "F1901M"."""
    return int(phase[1:5]), "SFW".index(phase[0]), "MRA".index(phase[5])


def _valid_phase(phase: str) -> bool:
    return len(phase) == 6 and phase[0] in "SFW" and phase[1:5].isdigit() and phase[5] in "MRA"


class Ledger:
    """Open proposals (key -> deal), confirmed deals, and the deal events each party sees."""

    def __init__(self) -> None:
        self.open: dict[str, dict[str, Any]] = {}
        self.confirmed: dict[str, dict[str, Any]] = {}
        self.used: set[str] = set()  # every key ever proposed (ids are never reused)
        self.events: list[dict[str, Any]] = []

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "open": {k: dict(v) for k, v in sorted(self.open.items())},
            "confirmed": {k: dict(v) for k, v in sorted(self.confirmed.items())},
            "used": sorted(self.used),
            "events": list(self.events),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Ledger":
        ledger = cls()
        ledger.open = {k: dict(v) for k, v in data["open"].items()}
        ledger.confirmed = {k: dict(v) for k, v in data["confirmed"].items()}
        ledger.used = set(data["used"])
        ledger.events = list(data["events"])
        return ledger

    def clone(self) -> "Ledger":
        new = Ledger()
        new.open = {k: {**v, "accepted": list(v["accepted"])} for k, v in self.open.items()}
        new.confirmed = dict(self.confirmed)
        new.used = set(self.used)
        new.events = list(self.events)  # events are never mutated once recorded
        return new

    # -- talk ------------------------------------------------------------------------------
    def audience(self, speaker: str, item: Any) -> tuple[str, ...]:
        """The powers that hear a talk item: the deal's parties."""
        if isinstance(item, DipPropose):
            return parties(speaker, item.commitments)
        key = deal_key(item.proposer if isinstance(item, (DipAccept, DipReject)) else speaker, item.deal_id)
        deal = self.open.get(key) or self.confirmed.get(key)
        return tuple(deal["parties"]) if deal else (speaker,)

    def validate(self, board: Board, speaker: str, item: Any, alive: set[str]) -> str | None:
        """Why a talk item cannot be taken, or None."""
        if isinstance(item, DipPropose):
            key = deal_key(speaker, item.deal_id)
            if key in self.used:
                return f"deal id {item.deal_id} already used by {speaker}"
            for c in item.commitments:
                reason = _check_commitment(board, c, alive)
                if reason:
                    return reason
            if len(parties(speaker, item.commitments)) < 2:
                return "a deal needs another party"
            return None
        if isinstance(item, (DipAccept, DipReject)):
            if item.proposer not in POWERS:
                return f"{item.proposer!r} is not a power in the game"
            deal = self.open.get(deal_key(item.proposer, item.deal_id))
            if deal is None:
                return f"no open deal {deal_key(item.proposer, item.deal_id)}"
            if speaker not in deal["parties"] or speaker == item.proposer:
                return f"{speaker} is not a party asked to accept {deal_key(item.proposer, item.deal_id)}"
            if speaker in deal["accepted"] and isinstance(item, DipAccept):
                return f"{speaker} already accepted {deal_key(item.proposer, item.deal_id)}"
            return None
        if isinstance(item, DipRetract):
            if deal_key(speaker, item.deal_id) not in self.open:
                return f"no open deal {deal_key(speaker, item.deal_id)} of {speaker} to retract"
            return None
        return f"{type(item).__name__} is not Diplomacy talk"

    def apply(self, phase: str, speaker: str, item: Any) -> None:
        """Take a talk item in (the referee applies a round's items in speaker order).

        Items were valid when they were said, but an earlier item of the same round may have
        closed their deal (a rejection before an acceptance, a retraction, a proposal id used
        twice): such an item is dropped, with a `dropped` event its speaker sees."""
        if isinstance(item, DipPropose):
            key = deal_key(speaker, item.deal_id)
            if key in self.used:
                self._event(phase, "dropped", key, [speaker], by=speaker, detail=f"deal id {item.deal_id} already used")
                return
            self.used.add(key)
            self.open[key] = {
                "key": key,
                "proposer": speaker,
                "parties": list(parties(speaker, item.commitments)),
                "commitments": [c.model_dump(mode="json") for c in item.commitments],
                "accepted": [speaker],
                "proposed": phase,
            }
            self._event(phase, "proposed", key, self.open[key]["parties"], by=speaker)
            return
        key = deal_key(speaker if isinstance(item, DipRetract) else item.proposer, item.deal_id)
        deal = self.open.get(key)
        if deal is None:
            self._event(phase, "dropped", key, [speaker], by=speaker, detail="the deal closed earlier in this round")
            return
        if isinstance(item, DipRetract):
            del self.open[key]
            self._event(phase, "retracted", key, deal["parties"], by=speaker)
            return
        if isinstance(item, DipReject):
            del self.open[key]
            self._event(phase, "rejected", key, deal["parties"], by=speaker)
            return
        deal["accepted"] = sorted(set(deal["accepted"]) | {speaker})
        self._event(phase, "accepted", key, deal["parties"], by=speaker)
        if set(deal["accepted"]) == set(deal["parties"]):
            del self.open[key]
            done = {k: v for k, v in deal.items() if k != "accepted"}
            done["confirmed"] = phase
            self.confirmed[key] = done
            self._event(phase, "confirmed", key, deal["parties"])

    def _event(self, phase: str, kind: str, key: str, to: list[str], **extra: Any) -> None:
        self.events.append({"phase": phase, "type": kind, "deal": key, "to": sorted(to), **extra})

    def visible_to(self, power: str) -> dict[str, Any]:
        """The deal part of `power`'s observation."""
        return {
            "open": [d for _, d in sorted(self.open.items()) if power in d["parties"]],
            "confirmed": [d for _, d in sorted(self.confirmed.items()) if power in d["parties"]],
            "events": [e for e in self.events if power in e["to"]],
        }

    # -- adjudication ----------------------------------------------------------------------
    def check(self, board: Board, orders: dict[str, list[Order]], binding: bool) -> dict[str, list[Order]]:
        """Record every confirmed commitment broken by `orders` in this phase; with `binding`,
        replace breaking orders (by the committed order, or by a hold) and return the orders."""
        phase = board.phase
        year = board.year
        for key, deal in sorted(self.confirmed.items()):
            for raw in deal["commitments"]:
                c = _COMMITMENT.validate_python(raw)
                for power, index, why in _breaches(board, orders, c, phase, year):
                    fixed = _repair(board, orders[power][index], c) if binding else None
                    if fixed is not None:
                        orders[power][index] = fixed
                    self._event(phase, "broken", key, deal["parties"], by=power, detail=why,
                                enforced=fixed is not None)
        # deals whose every commitment lies in the past are done; open proposals lapse each phase
        for key in [k for k, d in self.confirmed.items() if _expired(d, phase)]:
            del self.confirmed[key]
        for key, deal in sorted(self.open.items()):
            self._event(phase, "lapsed", key, deal["parties"])
        self.open = {}
        return orders


def plan_breaches(board: Board, power: str, orders: list[Order], deals: list[dict[str, Any]]) -> list[tuple[int, Order, str]]:
    """The orders of `power`'s plan that would break one of `deals` (confirmed deals as the ledger
    keeps them), by the ledger's own test, judged from this power's orders alone (every other
    unit is taken to stay): (index, the order to play instead: the committed order for an order
    commitment, else a hold, why). For a player that means to keep its word before it orders."""
    out = []
    mine = {power: list(orders)}
    for deal in deals:
        for raw in deal["commitments"]:
            c = _COMMITMENT.validate_python(raw)
            for who, i, why in _breaches(board, mine, c, board.phase, board.year):
                if who == power:
                    order = orders[i]
                    out.append((i, _repair(board, order, c) or Order("H", order.utype, order.loc), why))
    return out


def _check_commitment(board: Board, c: Any, alive: set[str]) -> str | None:
    named = []
    if isinstance(c, OrderCommitment):
        named = [c.power]
    elif isinstance(c, (Dmz, Peace)):
        named = list(c.powers)
    elif isinstance(c, Alliance):
        named = list(c.allies) + list(c.enemies)
    for power in named:
        if power not in POWERS:
            return f"{power!r} is not a power in the game"
        if power not in alive:
            return f"{power} is out of the game"
    if isinstance(c, (OrderCommitment, Dmz)):
        if not _valid_phase(c.phase):
            return f"{c.phase!r} is not a phase"
        if phase_key(c.phase) < phase_key(board.phase):
            return f"a commitment for past phase {c.phase} (now {board.phase})"
    if isinstance(c, OrderCommitment):
        if c.phase == board.phase:
            try:
                parse_order(board, c.power, c.order)
            except OrderError as exc:
                return f"order commitment {c.order!r}: {exc}"
    if isinstance(c, Dmz):
        bad = [p for p in c.provinces if p not in PROVINCES]
        if bad:
            return f"unknown province {bad[0]!r}"
    if isinstance(c, (Peace, Alliance)) and c.until < board.year:
        return f"a commitment ending in past year {c.until}"
    return None


def _attack(board: Board, orders: dict[str, list[Order]], power: str, order: Order) -> tuple[str, str] | None:
    """(province, victim) when `order` moves into, or supports a move into, another power's unit
    or centre; None otherwise. Moving into a unit's province is no attack when that unit is
    ordered away, and supporting a power's move into its own unit's province attacks nobody."""
    if order.kind not in ("-", "S") or not order.dest:
        return None
    where = order.dest[:3]
    attacker = power
    if order.kind == "S":
        supported = board.units.get(order.target[:3])
        attacker = supported[0] if supported else power
    unit = board.units.get(where)
    if unit is not None:
        leaving = any(o.kind == "-" and o.loc[:3] == where for o in orders.get(unit[0], []))
        victim = None if leaving else unit[0]
        if victim is None and board.centres.get(where) not in (None, attacker):
            victim = board.centres[where]
    else:
        victim = board.centres.get(where)
    if victim is None or victim == attacker:
        return None
    return where, victim


def _breaches(board: Board, orders: dict[str, list[Order]], c: Any, phase: str, year: int):
    if isinstance(c, OrderCommitment):
        if c.phase != phase:
            return
        try:
            want = parse_order(board, c.power, c.order)
        except OrderError:
            return  # a unit lost since the deal: nothing left to keep
        for i, o in enumerate(orders.get(c.power, [])):
            if o.loc[:3] == want.loc[:3] and o.text() != want.text():
                yield c.power, i, f"ordered {o.text()} instead of {want.text()}"
        return
    if isinstance(c, Dmz):
        if c.phase != phase:
            return
        zone = set(c.provinces)
        for power in c.powers:
            for i, o in enumerate(orders.get(power, [])):
                if o.kind == "-" and o.dest[:3] in zone:
                    yield power, i, f"{o.text()} enters the demilitarised {o.dest[:3]}"
        return
    friends = c.powers if isinstance(c, Peace) else c.allies
    if year > c.until or not phase.endswith("M"):
        return
    for power in friends:
        for i, o in enumerate(orders.get(power, [])):
            hit = _attack(board, orders, power, o)
            if hit is not None and hit[1] in friends and hit[1] != power:
                yield power, i, f"{o.text()} attacks {hit[1]} in {hit[0]}, a party to the {c.type}"


def _repair(board: Board, order: Order, c: Any) -> Order | None:
    if isinstance(c, OrderCommitment):
        try:
            return parse_order(board, c.power, c.order)
        except OrderError:
            return None
    if isinstance(c, Dmz):
        return Order("H", order.utype, order.loc)
    return None  # peace and alliances are never enforced, only recorded


def _expired(deal: dict[str, Any], phase: str) -> bool:
    now = phase_key(phase)
    for raw in deal["commitments"]:
        if "phase" in raw and phase_key(raw["phase"]) > now:
            return False
        if "until" in raw and raw["until"] >= now[0] and not (raw["until"] == now[0] and phase[0] == "W"):
            return False
    return True
