"""The Order Finder (thesis 5.1.1.1): orders for the units a chosen move leaves out, that do not
clash with the move's orders; and whole retreats and adjustments, which the SO does not search.

It walks each free unit's DumbBot ranking (`actors.diplomacy.dumbbot.plan`, drawn with the
President's rng) and keeps the first hold or move that enters no province the move already
claims, no province of a unit of ours that stays, and no province in `avoid` (partners' units
and centres we keep peace with). A free unit left holding then supports a move of ours into a
neighbouring province, if one enters a province another power could also enter (DumbBot's
"wasted holds").
"""

from __future__ import annotations

import random
from typing import Any

from actors.diplomacy.alphadip.tactics import attacks, reachers
from actors.diplomacy.dumbbot import Evaluation
from actors.diplomacy.dumbbot import plan as dumbbot_plan
from games.diplomacy.board import Board, movement_orders


def fill_orders(board: Board, power: str, orders: dict[str, str], rng: random.Random,
                avoid: frozenset[str] = frozenset(), ev: Evaluation | None = None) -> dict[str, Any]:
    """Province -> order for every unit of `power` (movement, retreats), given the move's
    `orders` (province -> order); `ev`: DumbBot's evaluation of this board for `power`, if known."""
    if board.phase_kind == "M" and not any(u[0] == power and p not in orders for p, u in board.units.items()):
        return dict(orders)
    dplan = dumbbot_plan(board, power, rng, ev=ev)
    if board.phase_kind == "R":
        return {loc.split()[1][:3]: o for loc, o in sorted(dplan.orders.items())}
    if board.phase_kind == "A":
        return {}
    out = dict(orders)
    mine = {p: u for p, u in sorted(board.units.items()) if u[0] == power}
    moving = {p for p, o in out.items() if " - " in o and " S " not in o and " C " not in o}
    claimed = {attacks(o) or p for p, o in out.items() if " S " not in o} | {p for p in out if p not in moving}
    filled = []
    for prov in sorted(mine):
        if prov in out:
            continue
        _, utype, loc = mine[prov]
        unit = f"{utype} {loc}"
        pick = f"{unit} H"
        for order, _ in dplan.ranked.get(unit, []):
            dest = attacks(order)
            if not dest:
                break  # a hold: DumbBot prefers staying here
            if dest in claimed or dest in avoid or (dest in mine and dest not in moving):
                continue
            pick = order
            break
        out[prov] = pick
        filled.append(prov)
        dest = attacks(pick)
        if dest:
            moving.add(prov)
            claimed.add(dest)
        else:
            claimed.add(prov)
    reach = reachers(board)
    for prov in filled:
        if attacks(out[prov]):
            continue
        legal = set(movement_orders(board, prov))
        for src, o in sorted(out.items()):
            dest = attacks(o)
            if src not in moving or not dest:
                continue
            contested = any(board.units[q][0] != power for q in reach.get(dest, ()))
            _, mt, mloc = mine[src]
            support = f"{mine[prov][1]} {mine[prov][2]} S {mt} {mloc} - {dest}"
            if contested and support in legal:
                out[prov] = support
                break
    return out


def adjustments(board: Board, power: str, rng: random.Random) -> list[str]:
    """DumbBot's builds or removals for `power` (WAIVE fills unused builds)."""
    return [o for o, _ in dumbbot_plan(board, power, rng).adjustments]
