"""Diplomacy views: each order in words, a power's observation as text and as a float32 tensor.

Pure functions of (options, seat, observation). The position is public; what an observation adds
per power is its own orders of the phase so far, the unit it orders next, and the deals it is a
party to, and the views show exactly that.

Tensor layout (TENSOR_FIELDS, one fixed size for every option): per area (the 75 provinces in
code order, then the 6 coasts of the bicoastal provinces, `AREAS`), the unit standing there (type,
owner one-hot), the dislodged unit (type, owner), where a retreat may go, this power's orders and
the last phase's orders and results; per supply centre its owner (one-hot over the seven powers
and "unowned"); then the phase (season, kind, year), the observing power, adjustments, centre
counts, deals and the outcome. Blocks of several columns per area are row-major: entry a * k + j
is area a's j-th column. A fleet on a coast is marked on its province and on the coast's area.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy

from games.api import IllegalAction, field_table
from games.diplomacy.adjudicator import BOUNCE, CUT, DISBAND, DISLODGED, DISRUPTED, NO_CONVOY, OK, VOID
from games.diplomacy.board import CENTRES, LOCATIONS, POWERS, PROVINCES

if TYPE_CHECKING:
    from games.diplomacy.rules import DiplomacyOptions

# Province names of the standard board (Avalon Hill's 2000 rulebook map); seas carry their article.
NAMES = {
    "ADR": "the Adriatic Sea", "AEG": "the Aegean Sea", "ALB": "Albania", "ANK": "Ankara", "APU": "Apulia",
    "ARM": "Armenia", "BAL": "the Baltic Sea", "BAR": "the Barents Sea", "BEL": "Belgium", "BER": "Berlin",
    "BLA": "the Black Sea", "BOH": "Bohemia", "BOT": "the Gulf of Bothnia", "BRE": "Brest", "BUD": "Budapest",
    "BUL": "Bulgaria", "BUR": "Burgundy", "CLY": "Clyde", "CON": "Constantinople", "DEN": "Denmark",
    "EAS": "the Eastern Mediterranean", "EDI": "Edinburgh", "ENG": "the English Channel", "FIN": "Finland",
    "GAL": "Galicia", "GAS": "Gascony", "GRE": "Greece", "HEL": "the Heligoland Bight", "HOL": "Holland",
    "ION": "the Ionian Sea", "IRI": "the Irish Sea", "KIE": "Kiel", "LON": "London", "LVN": "Livonia",
    "LVP": "Liverpool", "LYO": "the Gulf of Lyon", "MAO": "the Mid-Atlantic Ocean", "MAR": "Marseilles",
    "MOS": "Moscow", "MUN": "Munich", "NAF": "North Africa", "NAO": "the North Atlantic Ocean", "NAP": "Naples",
    "NTH": "the North Sea", "NWG": "the Norwegian Sea", "NWY": "Norway", "PAR": "Paris", "PIC": "Picardy",
    "PIE": "Piedmont", "POR": "Portugal", "PRU": "Prussia", "ROM": "Rome", "RUH": "Ruhr", "RUM": "Rumania",
    "SER": "Serbia", "SEV": "Sevastopol", "SIL": "Silesia", "SKA": "the Skagerrak", "SMY": "Smyrna",
    "SPA": "Spain", "STP": "St Petersburg", "SWE": "Sweden", "SYR": "Syria", "TRI": "Trieste", "TUN": "Tunis",
    "TUS": "Tuscany", "TYR": "Tyrolia", "TYS": "the Tyrrhenian Sea", "UKR": "Ukraine", "VEN": "Venice",
    "VIE": "Vienna", "WAL": "Wales", "WAR": "Warsaw", "WES": "the Western Mediterranean", "YOR": "Yorkshire",
}
assert sorted(NAMES) == list(PROVINCES)
_COAST_WORDS = {"NC": "north coast", "SC": "south coast", "EC": "east coast"}
_UNIT_WORDS = {"A": "army", "F": "fleet"}

AREAS: tuple[str, ...] = PROVINCES + tuple(sorted(loc for loc in LOCATIONS if "/" in loc))
CENTRE_LIST: tuple[str, ...] = tuple(sorted(CENTRES))
ORDER_KINDS = ("H", "-", "S", "C", "R", "D", "B")  # hold, move, support, convoy, retreat, disband/remove, build
RESULTS = (OK, BOUNCE, CUT, DISLODGED, VOID, NO_CONVOY, DISRUPTED, DISBAND)
SEASONS = ("S", "F", "W")
PHASE_KINDS = ("M", "R", "A")
_POWER = {p: i for i, p in enumerate(POWERS)}
_KIND = {k: i for i, k in enumerate(ORDER_KINDS)}
_RESULT = {r: i for i, r in enumerate(RESULTS)}
_CENTRE = {c: i for i, c in enumerate(CENTRE_LIST)}
_AREA = {a: i for i, a in enumerate(AREAS)}
# A location's areas: its province, and for a coast also the coast's own area.
_AREAS_OF = {loc: (_AREA[loc[:3]], _AREA[loc]) if "/" in loc else (_AREA[loc],) for loc in LOCATIONS}
_A, _P = len(AREAS), len(POWERS)


def _layout() -> list[tuple[str, int, int, str]]:
    spec = [
        ("unit_army", _A, "1 where an army stands (per area, AREAS order)"),
        ("unit_fleet", _A, "1 where a fleet stands (its province and, on a coast, the coast's area)"),
        ("unit_owner", _A * _P, f"the standing unit's power one-hot at area*{_P}.. (powers in seat order)"),
        ("dislodged_army", _A, "1 where a dislodged army waits to retreat"),
        ("dislodged_fleet", _A, "1 where a dislodged fleet waits to retreat"),
        ("dislodged_owner", _A * _P, "the dislodged unit's power one-hot per area"),
        ("retreat_to", _A, "1 where some dislodged unit may retreat"),
        ("my_order_kind", _A * len(ORDER_KINDS), f"this phase's orders of the observing power so far: the kind "
                                                 f"one-hot ({' '.join(ORDER_KINDS)}) at the ordered unit's area"),
        ("my_order_target", _A, "1 where one of those orders moves, retreats, supports or convoys to"),
        ("next_unit", _A, "1 at the unit the observing power orders next"),
        ("next_adjustment", 2, "1 when the next order is a build (column 0) or a removal (column 1)"),
        ("last_order_kind", _A * len(ORDER_KINDS), "the last phase's orders of every power, as my_order_kind"),
        ("last_order_target", _A, "the last phase's order targets, as my_order_target"),
        ("last_result", _A * len(RESULTS), f"the last phase's results one-hot ({', '.join(RESULTS)}) at the "
                                           f"ordered unit's area"),
        ("centre_owner", len(CENTRE_LIST) * (_P + 1), f"per supply centre (code order), its owner one-hot: "
                                                      f"the seven powers, then unowned (column {_P})"),
        ("season", len(SEASONS), "one-hot: spring, fall, winter"),
        ("phase_kind", len(PHASE_KINDS), "one-hot: movement, retreats, adjustments"),
        ("year", 1, "(year - 1901) / (max_year - 1900)"),
        ("me", _P, "one-hot: the observing power"),
        ("adjustments", _P, "per power, builds (+) or removals (-) owed this winter / 10"),
        ("centre_count", _P, "per power, supply centres / victory_centres"),
        ("deals_open", _P, "per power, open proposals the observing power shares with it / 5"),
        ("deals_confirmed", _P, "per power, confirmed deals the observing power shares with it / 5"),
        ("deals_broken", _P, "per power, broken-deal events seen with it as the breaker / 5"),
        ("over", 1, "1 when the game is over"),
        ("winner", _P, "one-hot: the solo winner (all 0 otherwise)"),
    ]
    return field_table(spec)


TENSOR_FIELDS = _layout()
_AT = {name: start for name, start, _, _ in TENSOR_FIELDS}
SIZE = TENSOR_FIELDS[-1][2]


def tensor_fields(options: DiplomacyOptions | None = None) -> list[tuple[str, int, int, str]]:
    """The tensor layout (the same for every option)."""
    return list(TENSOR_FIELDS)


# -- orders -------------------------------------------------------------------------------------

@lru_cache(maxsize=16384)
def parse(order: str) -> tuple[str, str, str, str, str, str, bool]:
    """(kind, unit type, location, other unit's type, other unit's location, destination, via) of an
    order in the package notation; raises IllegalAction for a string that is not one."""
    w = order.split()
    bad = IllegalAction(f"{order!r} is not a Diplomacy order")
    if w == ["WAIVE"]:
        return "W", "", "", "", "", "", False
    if len(w) < 3 or w[0] not in _UNIT_WORDS or w[1] not in LOCATIONS:
        raise bad
    utype, loc, verb, rest = w[0], w[1], w[2], w[3:]
    if verb in ("H", "D", "B") and not rest:
        return verb, utype, loc, "", "", "", False
    if verb in ("-", "R") and rest and rest[0] in LOCATIONS and (rest[1:] in ([], ["VIA"]) if verb == "-" else len(rest) == 1):
        return verb, utype, loc, "", "", rest[0], len(rest) == 2
    if verb in ("S", "C") and len(rest) >= 2 and rest[0] in _UNIT_WORDS and rest[1] in LOCATIONS:
        if len(rest) == 2 and verb == "S":
            return "S", utype, loc, rest[0], rest[1], "", False
        if len(rest) == 4 and rest[2] == "-" and rest[3] in LOCATIONS:
            return verb, utype, loc, rest[0], rest[1], rest[3], False
    raise bad


def place_name(loc: str) -> str:
    """`Paris`, `St Petersburg (north coast)`."""
    name = NAMES[loc[:3]]
    return f"{name} ({_COAST_WORDS[loc[4:]]})" if "/" in loc else name


def _unit(utype: str, loc: str) -> str:
    return f"{_UNIT_WORDS[utype]} in {place_name(loc)}"


def _sentence(order: str) -> str:
    kind, utype, loc, ttype, tloc, dest, via = parse(order)
    if kind == "W":
        return "waive a build (build nothing with it)"
    if kind == "B":
        return f"build {'an army' if utype == 'A' else 'a fleet'} in {place_name(loc)}"
    me = _unit(utype, loc)
    if kind == "H":
        return f"{me} holds"
    if kind == "-":
        return f"{me} moves to {place_name(dest)}" + (" by convoy" if via else "")
    if kind == "R":
        return f"{me} retreats to {place_name(dest)}"
    if kind == "D":
        return f"{me} disbands (is removed from the board)"
    other = "the " + _unit(ttype, tloc)
    if kind == "S":
        return f"{me} supports {other} " + (f"moving to {place_name(dest)}" if dest else "to hold")
    return f"{me} convoys {other} to {place_name(dest)}"


def _short(order: str) -> str:
    kind, utype, loc, ttype, tloc, dest, via = parse(order)
    if kind == "W":
        return "WAIVE (no build)"
    if kind == "B":
        return f"{order} (build in {place_name(loc)})"
    here = place_name(loc)
    if kind == "H":
        return f"{order} ({here} holds)"
    if kind in ("-", "R"):
        return f"{order} ({here} to {place_name(dest)}{' by convoy' if via else ''})"
    if kind == "D":
        return f"{order} ({here} disbands)"
    target = place_name(tloc) + (f" to {place_name(dest)}" if dest else "")
    return f"{order} ({here} {'supports' if kind == 'S' else 'convoys'} {target})"


def describe_action(options: DiplomacyOptions, action: str) -> str:
    """`A PAR - BUR: army in Paris moves to Burgundy`; a whole order set (orders joined by `;`)
    on one line, each order with a short gloss."""
    if ";" in action:
        orders = [o.strip() for o in action.split(";") if o.strip()]
        return f"{len(orders)} orders: " + "; ".join(_short(o) for o in orders)
    return f"{action}: {_sentence(action)}"


# -- text ---------------------------------------------------------------------------------------

def _commitment(c: dict[str, Any]) -> str:
    t = c.get("type")
    if t == "order":
        return f"{c['power']} orders {c['order']} in {c['phase']}"
    if t == "dmz":
        return f"{', '.join(c['powers'])} keep out of {', '.join(c['provinces'])} in {c['phase']}"
    if t == "peace":
        return f"peace among {', '.join(c['powers'])} until the end of {c['until']}"
    if t == "alliance":
        return f"alliance of {', '.join(c['allies'])} against {', '.join(c['enemies'])} until the end of {c['until']}"
    return ", ".join(f"{k}={c[k]}" for k in sorted(c))


def _deal(d: dict[str, Any]) -> str:
    head = f"{d['key']} by {d['proposer']}, parties {', '.join(d['parties'])}"
    if "accepted" in d:
        head += f", accepted by {', '.join(d['accepted'])}"
    return head + ": " + "; ".join(_commitment(c) for c in d["commitments"])


def _deal_event(e: dict[str, Any]) -> str:
    out = f"{e['phase']} {e['deal']} {e['type']}"
    if "by" in e:
        out += f" by {e['by']}"
    if e.get("detail"):
        out += f" ({e['detail']})"
    if e.get("enforced"):
        out += " [order replaced: deals are binding]"
    return out


_SEASON_WORDS = {"S": "spring", "F": "fall", "W": "winter"}
_KIND_WORDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def observation_text(options: DiplomacyOptions, seat: int, obs: dict[str, Any]) -> str:
    phase, power = obs["phase"], obs["power"]
    powers = obs["powers"]
    lines = [f"You are {power} (seat {obs['me']}); the powers by seat: {', '.join(powers)}.",
             f"Phase {phase}: {_SEASON_WORDS.get(phase[0], phase[0])} {obs['year']}, "
             f"{_KIND_WORDS.get(phase[5:], phase[5:])}."]
    if obs["over"]:
        lines.append(f"The game is over: {obs['winner'] + ' wins' if obs['winner'] else 'a draw'}.")
    units = obs["units"]
    lines.append(f"Units ({sum(len(u) for u in units.values())}):")
    lines.extend(f"  {p}: {', '.join(units[p]) or 'none'}" for p in powers if p in units)
    centres = obs["centres"]
    lines.append(f"Supply centres ({sum(len(c) for c in centres.values())} of {len(CENTRE_LIST)} owned):")
    lines.extend(f"  {p} {len(centres[p])}: {', '.join(centres[p]) or '-'}" for p in powers if p in centres)
    dislodged = [(p, u, opts) for p in powers for u, opts in sorted(obs["dislodged"].get(p, {}).items())]
    if dislodged:
        lines.append("Dislodged, to retreat or disband: " + "; ".join(
            f"{p} {u} (may retreat to {', '.join(opts) if opts else 'nowhere'})" for p, u, opts in dislodged))
    adjust = obs["adjustments"]
    if adjust:
        lines.append("Adjustments this winter: " + ", ".join(
            f"{p} {'builds ' + str(n) if n > 0 else 'removes ' + str(-n) if n < 0 else '0'}"
            for p, n in sorted(adjust.items(), key=lambda kv: _POWER.get(kv[0], 99))))
    mine = obs["my_orders"]
    lines.append(f"Your orders this phase: {'; '.join(mine) if mine else 'none yet'}.")
    nxt = obs["next"]
    if nxt is None:
        lines.append("You order next: nothing (all your orders are in, or nothing to order).")
    elif nxt in ("build", "remove"):
        lines.append(f"You order next: a {'build (or WAIVE)' if nxt == 'build' else 'removal'}.")
    else:
        utype, loc = nxt.split()
        lines.append(f"You order next: {nxt} ({_unit(utype, loc)}).")
    last = obs["last"]
    if last:
        lines.append(f"Last phase {last['phase']}, orders [results]:")
        results = last["results"]
        for p in powers:
            orders = last["orders"].get(p)
            if orders:
                lines.append(f"  {p}: " + "; ".join(_with_result(o, results) for o in orders))
    deals = obs["deals"]
    if deals["open"] or deals["confirmed"] or deals["events"]:
        for d in deals["open"]:
            lines.append("Open deal " + _deal(d))
        for d in deals["confirmed"]:
            lines.append("Confirmed deal " + _deal(d))
        if deals["events"]:
            lines.append("Deal events: " + "; ".join(_deal_event(e) for e in deals["events"]))
    else:
        lines.append("Deals: none.")
    return "\n".join(lines)


def _with_result(order: str, results: dict[str, list[str]]) -> str:
    w = order.split()
    got = results.get(" ".join(w[:2])) if len(w) > 1 else None
    return f"{order} [{', '.join(got)}]" if got else order


# -- tensor -------------------------------------------------------------------------------------

def observation_shape(options: DiplomacyOptions) -> tuple[int, ...]:
    return (SIZE,)


@lru_cache(maxsize=65536)
def _order_bits(order: str, kind_at: int, target_at: int) -> tuple[int, ...]:
    """The indices an order sets: its kind at the unit's area, and its target's area."""
    kind, _, loc, _, tloc, dest, _ = parse(order)
    if kind == "W":
        return ()
    bits = (kind_at + _AREAS_OF[loc][0] * len(ORDER_KINDS) + _KIND[kind],)
    target = dest or (tloc if kind == "S" else "")
    return bits + (target_at + _AREAS_OF[target][0],) if target else bits


@lru_cache(maxsize=4096)
def _unit_bits(block: str, power: str, unit: str, retreats: tuple[str, ...] = ()) -> tuple[int, ...]:
    """The indices a unit (block "unit" or "dislodged") of `power` sets, with its retreat options."""
    at, p = _AT, _POWER[power]
    utype, loc = unit.split()
    base, owner = at[block + ("_army" if utype == "A" else "_fleet")], at[block + "_owner"]
    bits = [i for a in _AREAS_OF[loc] for i in (base + a, owner + a * _P + p)]
    bits += [at["retreat_to"] + _AREAS_OF[dest][0] for dest in retreats]
    return tuple(bits)


def _orders_into(ones: list[int], orders: list[str], kind_at: int, target_at: int) -> None:
    for order in orders:
        ones.extend(_order_bits(order, kind_at, target_at))


def observation_tensor(options: DiplomacyOptions, seat: int, obs: dict[str, Any]) -> numpy.ndarray:
    x = numpy.zeros(SIZE, dtype=numpy.float32)
    at = _AT
    ones: list[int] = []  # the indices set to 1, set at once at the end
    add = ones.append
    extend = ones.extend
    for power, units in obs["units"].items():
        for unit in units:
            extend(_unit_bits("unit", power, unit))
    for power, dislodged in obs["dislodged"].items():
        for unit, retreats in dislodged.items():
            extend(_unit_bits("dislodged", power, unit, tuple(retreats)))
    _orders_into(ones, obs["my_orders"], at["my_order_kind"], at["my_order_target"])
    nxt = obs["next"]
    if nxt == "build":
        add(at["next_adjustment"])
    elif nxt == "remove":
        add(at["next_adjustment"] + 1)
    elif nxt is not None:
        add(at["next_unit"] + _AREAS_OF[nxt.split()[1]][0])
    last = obs["last"]
    if last:
        for orders in last["orders"].values():
            _orders_into(ones, orders, at["last_order_kind"], at["last_order_target"])
        base, k = at["last_result"], len(RESULTS)
        for unit, results in last["results"].items():
            if results:
                a = _AREAS_OF[unit.split()[1]][0]
                for r in results:
                    add(base + a * k + _RESULT[r])
    base, k = at["centre_owner"], _P + 1
    owned = [_P] * len(CENTRE_LIST)
    counts = at["centre_count"]
    for power, cs in obs["centres"].items():
        p = _POWER[power]
        x[counts + p] = len(cs) / options.victory_centres
        for c in cs:
            owned[_CENTRE[c]] = p
    ones.extend(base + i * k + p for i, p in enumerate(owned))
    phase = obs["phase"]
    add(at["season"] + SEASONS.index(phase[0]))
    add(at["phase_kind"] + PHASE_KINDS.index(phase[5]))
    add(at["me"] + obs["me"])
    if obs["over"]:
        add(at["over"])
    if obs["winner"] is not None:
        add(at["winner"] + _POWER[obs["winner"]])
    x[ones] = 1.0
    x[at["year"]] = (obs["year"] - 1901) / (options.max_year - 1900)
    base = at["adjustments"]
    for power, n in obs["adjustments"].items():
        x[base + _POWER[power]] = n / 10
    me = obs["power"]
    deals = obs["deals"]
    for name, group in (("deals_open", deals["open"]), ("deals_confirmed", deals["confirmed"])):
        base = at[name]
        for d in group:
            for party in d["parties"]:
                if party != me:
                    x[base + _POWER[party]] += 0.2
    base = at["deals_broken"]
    for e in deals["events"]:
        if e["type"] == "broken" and e.get("by") in _POWER:
            x[base + _POWER[e["by"]]] += 0.2
    return x
