"""Refining a move against predicted opponent orders (our addition to the thesis' SO).

The guaranteed-centre value of tactics.py is a worst case: against opponents who do not
coordinate every unit on one centre it holds back too much. So each candidate move, once the
Order Finder has completed it, is adjudicated (`games.diplomacy.adjudicator.resolve`, pure)
against the orders predicted for every other power (DumbBot's best plan for it, the walk turned
off: a deterministic opponent model), and improved unit by unit (hill climbing over each unit's
hold, moves and supports of our own units) while the score rises. A node is one adjudication;
the climb stops after `budget` nodes, never after a time.

Score of an outcome: centres we would own if the fall capture happened now (units standing in
centres take them), + 0.5 per unit of ours not dislodged, + a tie-breaking 1e-7 x DumbBot's
destination values of where our units end.
"""

from __future__ import annotations

from collections.abc import Iterable

from actors.diplomacy.alphadip.tactics import attacks
from actors.diplomacy.dumbbot import DumbBotParams, Evaluation, evaluate, plan
from games.diplomacy.adjudicator import resolve
from games.diplomacy.board import CENTRES, POWERS, Board, Order, OrderError, movement_orders, parse_order

MODEL = DumbBotParams(play_alternative=0)  # the opponent model: DumbBot's first choice always


class _Rng:
    """A stand-in rng for the opponent model (the walk is off, so it is never drawn from)."""

    def randrange(self, n: int) -> int:
        return n - 1

    def shuffle(self, xs: list) -> None:
        return None


def predict(board: Board, me: str, evs: dict[str, Evaluation] | None = None) -> dict[str, list[Order]]:
    """Every other power's predicted orders for this movement phase (`evs`: DumbBot evaluations
    by power, when already made)."""
    out = {}
    for power in POWERS:
        if power == me or not any(u[0] == power for u in board.units.values()):
            continue
        orders = plan(board, power, _Rng(), MODEL, ev=(evs or {}).get(power)).orders
        out[power] = [_parse(board, power, o) for _, o in sorted(orders.items())]
    return out


def _parse(board: Board, power: str, text: str) -> Order:
    cache = board._cache.setdefault("alphadip_parsed", {})
    got = cache.get(text)
    if got is None:
        try:
            got = parse_order(board, power, text)
        except OrderError:
            got = parse_order(board, power, " ".join(text.split()[:2]) + " H")
        cache[text] = got
    return got


class Climber:
    """Scores and improves our orders against fixed predicted orders of the others."""

    def __init__(self, board: Board, me: str, others: dict[str, list[Order]], values: dict[str, int] | None = None):
        self.board, self.me, self.others = board, me, others
        self.values = values if values is not None else evaluate(board, me).value
        self.nodes = 0

    def score(self, orders: dict[str, str]) -> float:
        self.nodes += 1
        b, me = self.board, self.me
        typed = dict(self.others)
        typed[me] = [_parse(b, me, o) for _, o in sorted(orders.items())]
        after = resolve(b, typed).after
        owned = 0
        for c in CENTRES:
            u = after.units.get(c)
            owner = u[0] if u is not None else b.centres.get(c)
            owned += owner == me
        alive = [u for u in after.units.values() if u[0] == me]
        pos = sum(self.values.get(f"{u[1]} {u[2]}", 0) for u in alive)
        return owned + 0.5 * len(alive) + 1e-7 * pos

    def candidates(self, prov: str, mine: Iterable[str], avoid: frozenset[str] = frozenset()) -> list[str]:
        """Hold, moves and supports of our own units, entering none of `avoid`."""
        own = {f"{self.board.units[p][1]} {self.board.units[p][2]}" for p in mine}
        out = []
        for o in movement_orders(self.board, prov):
            parts = o.split()
            if attacks(o) in avoid:
                continue
            if parts[2] == "H" or (parts[2] == "-" and "VIA" not in parts) or parts[2] == "S" and f"{parts[3]} {parts[4]}" in own:
                out.append(o)
        return out

    def climb(self, orders: dict[str, str], budget: int, frozen: Iterable[str] = (),
              avoid: frozenset[str] = frozenset()) -> tuple[dict[str, str], float]:
        """Improve `orders` unit by unit (not the `frozen` provinces, never entering `avoid`)
        within `budget` nodes."""
        best = dict(orders)
        top = self.score(best)
        mine = sorted(p for p, u in self.board.units.items() if u[0] == self.me)
        free = [p for p in mine if p not in set(frozen)]
        improved = True
        while improved and self.nodes < budget:
            improved = False
            for prov in free:
                for o in self.candidates(prov, mine, avoid):
                    if o == best.get(prov) or self.nodes >= budget:
                        continue
                    trial = {**best, prov: o}
                    s = self.score(trial)
                    if s > top + 1e-12:
                        best, top, improved = trial, s, True
        return best, top
