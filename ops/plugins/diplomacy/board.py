"""The Diplomacy board for the debugger: a schematic of the standard map (the 75 provinces at
hand-placed approximate positions, ours; their neighbours joined as the rules join them), each
supply centre in its owner's colour, every unit, and the last adjudicated phase's orders as arrows
(moves, supports, convoys) with their results and the units they dislodged; orders submitted in
the current phase are drawn thin (the whole game's view: everyone's; a power's view: its own).

Also the debugger's hooks: `phase(state)` (the phase name, public), `seat_names(state)` (the
powers), `seat_colours(state)` (theirs on this board) and `deals(step, memo)` (the rules' deal
ledger, each event seen by the powers it names).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.api import State
from games.diplomacy.mapdata import ARMY_ADJ, FLEET_ADJ, KINDS, POWERS, SUPPLY_CENTRES
from ops.svg import svg, text

COLOURS = {"AUSTRIA": "#c0392b", "ENGLAND": "#2c3e9e", "FRANCE": "#3498db", "GERMANY": "#555555",
           "ITALY": "#27ae60", "RUSSIA": "#8e44ad", "TURKEY": "#d4ac0d"}
WATER, LAND = "#d6e9f8", "#f3ead7"
WIDTH, HEIGHT = 1000, 790

# Approximate centre of each province on a 1000 x 790 sketch of Europe (ours, by eye).
XY: dict[str, tuple[int, int]] = {
    "NAO": (120, 120), "NWG": (390, 55), "BAR": (660, 28), "NTH": (372, 225), "IRI": (160, 300),
    "ENG": (238, 362), "MAO": (80, 455), "HEL": (432, 282), "SKA": (468, 205), "BAL": (560, 265),
    "BOT": (598, 160), "WES": (270, 640), "LYO": (335, 595), "TYS": (450, 668), "ION": (585, 745),
    "ADR": (538, 588), "AEG": (712, 690), "EAS": (815, 752), "BLA": (830, 535),
    "CLY": (252, 160), "EDI": (298, 180), "LVP": (262, 228), "YOR": (305, 258), "WAL": (242, 300),
    "LON": (305, 315), "NWY": (470, 125), "SWE": (538, 140), "FIN": (630, 100), "STP": (735, 125),
    "DEN": (480, 245), "KIE": (468, 318), "BER": (540, 312), "PRU": (610, 305), "HOL": (410, 330),
    "BEL": (368, 368), "RUH": (432, 380), "MUN": (488, 420), "SIL": (565, 360), "LVN": (668, 250),
    "MOS": (790, 260), "WAR": (648, 355), "UKR": (735, 395), "SEV": (842, 430), "PIC": (312, 398),
    "BRE": (232, 420), "PAR": (300, 452), "BUR": (368, 450), "GAS": (255, 512), "MAR": (345, 530),
    "SPA": (185, 570), "POR": (85, 560), "NAF": (190, 725), "TUN": (375, 740), "PIE": (415, 520),
    "TYR": (505, 462), "BOH": (560, 415), "VIE": (582, 462), "GAL": (662, 438), "BUD": (640, 498),
    "RUM": (735, 505), "VEN": (478, 518), "TUS": (462, 578), "ROM": (505, 625), "APU": (575, 640),
    "NAP": (570, 695), "TRI": (552, 530), "SER": (658, 560), "BUL": (728, 578), "ALB": (615, 612),
    "GRE": (655, 665), "CON": (790, 605), "ANK": (880, 590), "ARM": (960, 590), "SMY": (845, 668),
    "SYR": (950, 700),
}
COAST_XY = {"STP/NC": (748, 78), "STP/SC": (700, 165), "SPA/NC": (175, 528), "SPA/SC": (205, 612),
            "BUL/EC": (765, 565), "BUL/SC": (720, 615)}
FAILED = {"bounce", "cut", "dislodged", "void", "no convoy", "disrupted", "disband"}


def board(state: State, player: int | None = None) -> str:
    """SVG of the map at this state, seen by `player` (None: the whole game)."""
    obs = state.observation(0 if player is None else player)
    pending = _pending(state, player, obs)
    owner = {c: p for p, cs in obs["centres"].items() for c in cs}
    parts = [f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#eef3f7"/>', _edges()]
    parts += [_province(name, owner.get(name)) for name in sorted(XY)]
    last = obs.get("last")
    if last:
        parts += list(_orders(last["orders"], last["results"], thin=False))
    if pending:
        parts += list(_orders(pending, {}, thin=True))
    for power in POWERS:
        for unit in obs["units"].get(power, ()):
            parts.append(_unit(unit, power, dislodged=False))
        for unit in obs["dislodged"].get(power, {}):
            parts.append(_unit(unit, power, dislodged=True))
    parts.append(_legend(obs, player, last, bool(pending)))
    return svg(WIDTH, HEIGHT, parts, f"diplomacy {obs['phase']}")


def _pending(state: State, player: int | None, obs: dict[str, Any]) -> dict[str, list[str]]:
    if player is not None:
        mine = obs.get("my_orders") or []
        return {POWERS[player]: list(mine)} if mine else {}
    data = state.to_json()
    return {POWERS[s]: list(orders) for s, orders in enumerate(data.get("pending") or []) if orders}


def _at(location: str) -> tuple[int, int]:
    return COAST_XY.get(location) or XY[location.split("/")[0]]


def _edges() -> str:
    seen = set()
    lines = []
    for table in (ARMY_ADJ, FLEET_ADJ):
        for a, targets in table.items():
            for b in targets:
                pa, pb = a.split("/")[0], b.split("/")[0]
                key = tuple(sorted((pa, pb)))
                if pa == pb or key in seen or pa not in XY or pb not in XY:
                    continue
                seen.add(key)
                (x1, y1), (x2, y2) = XY[pa], XY[pb]
                lines.append(f"M{x1},{y1}L{x2},{y2}")
    return f'<path d="{"".join(lines)}" stroke="#c9d3dc" stroke-width="1" fill="none"/>'


def _province(name: str, owner: str | None) -> str:
    x, y = XY[name]
    water = KINDS[name] == "WATER"
    fill = WATER if water else LAND
    centre = f" (supply centre, {owner or 'neutral'})" if name in SUPPLY_CENTRES else ""
    out = [(f'<g class="province" data-province="{name}">'
            f'<ellipse cx="{x}" cy="{y}" rx="24" ry="15" fill="{fill}" stroke="#9aa5b1" stroke-width="0.8">'
            f"<title>{name}{centre}</title></ellipse>"),
           text(x, y - 4, name, 9, "middle", "#556")]
    if name in SUPPLY_CENTRES:
        colour = COLOURS.get(owner, "#ffffff") if owner else "#ffffff"
        out.append(f'<circle class="centre" data-centre="{name}" data-owner="{owner or ""}" cx="{x + 17}" cy="{y - 9}" '
                   f'r="5" fill="{colour}" stroke="#333" stroke-width="1"/>')
    out.append("</g>")
    return "".join(out)


def _unit(unit: str, power: str, dislodged: bool) -> str:
    kind, location = unit.split(" ", 1)
    x, y = _at(location)
    if dislodged:
        x, y = x + 14, y + 10
    colour = COLOURS.get(power, "#999")
    ring = ' stroke="#e00" stroke-width="2.5" stroke-dasharray="3 2"' if dislodged else ' stroke="#fff" stroke-width="1.5"'
    shape = (f'<circle cx="{x}" cy="{y + 5}" r="8" fill="{colour}"{ring}/>' if kind == "A" else
             f'<path d="M{x - 9},{y + 10}L{x + 9},{y + 10}L{x},{y - 4}Z" fill="{colour}"{ring}/>')
    label = "dislodged " if dislodged else ""
    return (f'<g class="unit" data-unit="{unit}" data-power="{power}" data-dislodged="{int(dislodged)}">{shape}'
            + text(x, y + 9, kind, 9, "middle", "#fff") + f"<title>{label}{power} {unit}</title></g>")


def _orders(orders: dict[str, list[str]], results: dict[str, list[str]], thin: bool) -> Iterator[str]:
    for power, texts in sorted(orders.items()):
        colour = COLOURS.get(power, "#333")
        for order in texts:
            words = order.split()
            if len(words) < 3 or words[1].split("/")[0] not in XY:
                continue
            unit = f"{words[0]} {words[1]}"
            outcome = results.get(unit, [])
            failed = any(r in FAILED for r in outcome)
            yield _order(order, words, colour, failed, outcome, thin)


def _order(order: str, words: list[str], colour: str, failed: bool, outcome: list[str], thin: bool) -> str:
    x1, y1 = _at(words[1])
    verb = words[2]
    width = 1.4 if thin else 2.4
    dash = ' stroke-dasharray="2 3"' if thin else ""
    tip = f"{order}" + (f" ({', '.join(outcome)})" if outcome else (" (succeeds)" if not thin else " (submitted)"))
    attrs = f'class="order" data-order="{order}" data-failed="{int(failed)}"'
    if verb == "H":
        return (f'<g {attrs}><circle cx="{x1}" cy="{y1 + 5}" r="12" fill="none" stroke="{colour}" stroke-width="{width}"{dash}/>'
                f"<title>{tip}</title></g>")
    if verb in ("-", "R") and len(words) >= 4 and words[3].split("/")[0] in XY:
        return _arrow(attrs, (x1, y1), _at(words[3]), colour, width, dash, failed, tip)
    if verb in ("S", "C") and len(words) >= 5 and words[4].split("/")[0] in XY:
        target = _at(words[4])
        if len(words) >= 7 and words[6].split("/")[0] in XY:  # a supported or convoyed move: aim at its middle
            dest = _at(words[6])
            target = ((target[0] + dest[0]) // 2, (target[1] + dest[1]) // 2)
        style = ' stroke-dasharray="5 3"' if verb == "S" else ' stroke-dasharray="1 3"'
        return _arrow(attrs, (x1, y1), target, colour, width * 0.8, dash or style, failed, tip, head=False)
    if verb in ("B", "D"):
        mark = "+" if verb == "B" else "x"
        return f'<g {attrs}>' + text(x1 - 14, y1 + 14, mark, 14, "middle", colour) + f"<title>{tip}</title></g>"
    return ""


def _arrow(attrs: str, a: tuple[int, int], b: tuple[int, int], colour: str, width: float, dash: str,
           failed: bool, tip: str, head: bool = True) -> str:
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    ex, ey = x2 - ux * 12, y2 - uy * 12  # stop short of the target's unit
    out = [f"<g {attrs}>", (f'<line x1="{x1}" y1="{y1}" x2="{ex:.1f}" y2="{ey:.1f}" stroke="{colour}" '
                            f'stroke-width="{width}"{dash} stroke-opacity="{0.45 if failed else 0.9}"/>')]
    if head:
        px, py = -uy, ux
        out.append(f'<path d="M{ex:.1f},{ey:.1f}L{ex - ux * 9 + px * 5:.1f},{ey - uy * 9 + py * 5:.1f}'
                   f'L{ex - ux * 9 - px * 5:.1f},{ey - uy * 9 - py * 5:.1f}Z" fill="{colour}"/>')
    if failed:
        mx, my = (x1 + ex) / 2, (y1 + ey) / 2
        out.append(f'<path d="M{mx - 5:.1f},{my - 5:.1f}L{mx + 5:.1f},{my + 5:.1f}M{mx + 5:.1f},{my - 5:.1f}'
                   f'L{mx - 5:.1f},{my + 5:.1f}" stroke="#d00" stroke-width="2.2"/>')
    out.append(f"<title>{tip}</title></g>")
    return "".join(out)


def _legend(obs: dict[str, Any], player: int | None, last: dict[str, Any] | None, pending: bool) -> str:
    head = obs["phase"] + (f", seen by {POWERS[player]}" if player is not None else "")
    parts = [f'<rect x="8" y="{HEIGHT - 112}" width="250" height="104" fill="#fff" fill-opacity="0.85" stroke="#bbb"/>',
             text(16, HEIGHT - 94, head, 12)]
    if last:
        parts.append(text(16, HEIGHT - 78, f"arrows: orders of {last['phase']} (x: failed)", 10))
    if pending:
        parts.append(text(16, HEIGHT - 64, "dotted: submitted this phase", 10))
    for i, power in enumerate(POWERS):
        n = len(obs["centres"].get(power, ()))
        x, y = 16 + (i % 2) * 120, HEIGHT - 48 + (i // 2) * 12
        parts.append(f'<circle cx="{x + 4}" cy="{y - 3}" r="4" fill="{COLOURS[power]}"/>'
                     + text(x + 12, y, f"{power.title()} {n}", 10))
    return "".join(parts)


# -- the debugger's hooks ---------------------------------------------------------------------------


def phase(state: State) -> str:
    """The phase's name (public), e.g. S1901M."""
    return state.observation(0)["phase"]


def seat_names(state: State) -> list[str]:
    """The powers, in seat order."""
    return list(POWERS)


def seat_colours(state: State) -> list[str]:
    """The powers' colours on this board, in seat order (the debugger colours each seat so)."""
    return [COLOURS[p] for p in POWERS]


def deals(step: Any, memo: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules' deal ledger (proposed, accepted, rejected, retracted, confirmed, broken, lapsed):
    the events the record of `step` added, each seen by the powers it names (the rules' own rule,
    `DealLedger.visible_to`)."""
    if not step.changed or step.msg["kind"] not in ("talk_round", "step"):
        return []
    events = step.state.to_json()["deals"]["events"]
    seen = memo.get("seen", 0)
    memo["seen"] = len(events)
    return [{"deal": e["deal"], "type": e["type"], "by": e.get("by") or "", "parties": list(e.get("to") or ()),
             "detail": e.get("detail") or ("enforced" if e.get("enforced") else ""),
             "seen_by": [POWERS.index(p) for p in e.get("to") or () if p in POWERS]} for e in events[seen:]]
