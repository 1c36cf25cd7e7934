"""Standard Diplomacy (seven powers, 1901 start) as a Game/State pair.

Mapping simultaneous order sets onto the API: every power with something to order is a current
player, and its action is ONE order, for the next unordered unit of that power (units in
province order; in a retreat phase its dislodged units; in winter one slot per build allowed,
or per unit owed). So `legal_actions` is that unit's own legal orders: sorted, unique, short and
cheap, and the generic random agent plays. Powers act in parallel, unit by unit; a power whose
units are all ordered drops out until the phase resolves, which happens when every slot of
every power is filled. Agents that search whole order sets call the pure adjudicator
(`games.diplomacy.adjudicator.resolve`) directly and then hand in their orders one by one.

Information: the position is public; the only hidden thing is the orders other powers have
already given in the current phase (moves are simultaneous). Hence PRIVATE_INFORMATION, with
`resample_hidden` redrawing those pending orders. No chance. Talk: before each movement phase's
orders, `press_rounds` rounds of private press on one "press" channel in the negotiation language
of talk.py; the rules confirm deals and record broken ones (deals.py), so talk changes the state
(TALK_STATE) and replay folds it.

Defaults for a power that does not act (civil disorder): hold; disband a dislodged unit; waive a
build; remove the unit furthest from home. Returns: 1 to a solo winner (victory_centres, default
18, counted after each fall), 0 to the others; at the year limit (the game stops after winter
of max_year, default 1920) a draw, shared by supply-centre share (default) or equally among
the powers still holding a centre (`draw="survivors"`).
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import Field

from games.api import (
    OBSERVATION_STATE,
    PRIVATE_INFORMATION,
    SIMULTANEOUS,
    TALK,
    TALK_STATE,
    VIEWS,
    Game,
    IllegalAction,
    Options,
    Outcome,
    State,
    TalkSpec,
)
from games.diplomacy.adjudicator import civil_disorder_removals, resolve
from games.diplomacy.board import (
    CENTRES,
    POWERS,
    Board,
    OrderError,
    build_orders,
    disband_orders,
    movement_orders,
    parse_order,
    retreat_orders,
)
from games.diplomacy import views
from games.diplomacy.deals import Ledger
from games.diplomacy.talk import TALK_MODELS


class DiplomacyOptions(Options):
    """Variant options."""

    max_year: int = Field(1920, ge=1901, le=9999)  # the game stops after winter of this year (ours: four digits)
    victory_centres: int = Field(18, ge=1, le=len(CENTRES))
    datc: Literal["2.4", "3.0"] = "2.4"  # 3.0: an adjacent move uses a convoy only if ordered VIA
    draw: Literal["centres", "survivors"] = "centres"  # how a draw's returns are shared
    press_rounds: int = Field(3, ge=0, le=50)  # negotiation rounds before each movement phase's orders (ours: <= 50)
    binding_deals: bool = False  # confirmed deals enforced: breaking orders replaced (BANDANA)


class DiplomacyState(State):
    """A position plus the orders given so far in the current phase."""

    def __init__(self, options: DiplomacyOptions, board: Board | None = None):
        self._o = options
        self._odump = options.model_dump(mode="json")
        self._board = board if board is not None else Board.initial()
        self._pending: list[list[str]] = [[] for _ in POWERS]
        self._winner: int | None = None
        self._over = False
        self._last: dict[str, Any] | None = None
        self._slots: list[list[str]] | None = None
        self._legal: dict[int, list[str]] = {}
        self._deals = Ledger()
        self._eliminated: dict[str, str] = {}  # power -> phase that left it no unit and no centre

    # -- slots -----------------------------------------------------------------------------
    def _slots_now(self) -> list[list[str]]:
        """Per seat, what it orders this phase: provinces (M, R) or "B"/"D" (adjustments)."""
        if self._slots is None:
            b = self._board
            slots: list[list[str]] = [[] for _ in POWERS]
            if not self._over:
                if b.phase_kind == "M":
                    for p in sorted(b.units):
                        slots[_SEAT[b.units[p][0]]].append(p)
                elif b.phase_kind == "R":
                    for p in sorted(b.dislodged):
                        slots[_SEAT[b.dislodged[p][0]]].append(p)
                else:
                    for s, power in enumerate(POWERS):
                        n = b.adjustment(power)
                        slots[s] = ["B" if n > 0 else "D"] * abs(n)
            self._slots = slots
        return self._slots

    def _taken(self, seat: int) -> frozenset[str]:
        return frozenset(o.split()[1][:3] for o in self._pending[seat] if o != "WAIVE")

    # -- node kind -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._over

    def is_chance(self) -> bool:
        return False

    def sample_chance(self, rng: random.Random) -> Any:
        raise IllegalAction("Diplomacy has no chance nodes")

    def apply_chance(self, outcome: Any) -> None:
        raise IllegalAction("Diplomacy has no chance nodes")

    def current_players(self) -> list[int]:
        slots = self._slots_now()
        return [s for s in range(len(POWERS)) if len(self._pending[s]) < len(slots[s])]

    # -- decisions -------------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[str]:
        return list(self._legal_for(player))

    def _legal_for(self, seat: int) -> list[str]:
        got = self._legal.get(seat)
        if got is None:
            got = self._legal[seat] = self._compute_legal(seat)
        return got

    def _compute_legal(self, seat: int) -> list[str]:
        if not isinstance(seat, int) or not 0 <= seat < len(POWERS):
            return []
        slots = self._slots_now()[seat]
        k = len(self._pending[seat])
        if k >= len(slots):
            return []
        b, slot = self._board, slots[k]
        if b.phase_kind == "M":
            return movement_orders(b, slot)
        if b.phase_kind == "R":
            return retreat_orders(b, slot)
        if slot == "B":
            return build_orders(b, POWERS[seat], self._taken(seat))
        return disband_orders(b, POWERS[seat], self._taken(seat))

    def default_action(self, player: int) -> str:
        slots = self._slots_now()[player]
        k = len(self._pending[player])
        if k >= len(slots):
            return "WAIVE"
        b, slot = self._board, slots[k]
        if b.phase_kind == "M":
            u = b.units[slot]
            return f"{u[1]} {u[2]} H"
        if b.phase_kind == "R":
            d = b.dislodged[slot]
            return f"{d[1]} {d[2]} D"
        if slot == "B":
            return "WAIVE"
        p = civil_disorder_removals(b, POWERS[player], 1, set(self._taken(player)))[0]
        u = b.units[p]
        return f"{u[1]} {u[2]} D"

    def next_unit(self, player: int) -> str | None:
        """What `player` orders next: a unit (`A PAR`), "build", "remove", or None."""
        slots = self._slots_now()[player]
        k = len(self._pending[player])
        if k >= len(slots):
            return None
        b, slot = self._board, slots[k]
        if b.phase_kind == "M":
            return f"{b.units[slot][1]} {b.units[slot][2]}"
        if b.phase_kind == "R":
            return f"{b.dislodged[slot][1]} {b.dislodged[slot][2]}"
        return "build" if slot == "B" else "remove"

    def why_illegal(self, player: int, action: str) -> str:
        """A reason `action` is not legal for `player` here ("" if it is legal)."""
        if player not in self.current_players():
            return f"player {player} has nothing to order now"
        if action in self._legal_for(player):
            return ""
        power = POWERS[player]
        try:
            order = parse_order(self._board, power, str(action))
        except OrderError as exc:
            return str(exc)
        nxt = self.next_unit(player)
        if nxt not in ("build", "remove") and nxt is not None and order.loc and f"{order.utype} {order.loc}" != nxt:
            return f"orders are given unit by unit: {power} orders {nxt} now"
        if self._board.phase_kind == "A" and order.loc[:3] in self._taken(player):
            return f"{order.loc[:3]} is already ordered this winter"
        return f"{order.text()!r} is not among the legal orders of {nxt}"

    def apply_actions(self, actions: dict[int, str]) -> None:
        if self._over:
            raise IllegalAction("the game is over")
        cur = self.current_players()
        if not isinstance(actions, dict):
            raise IllegalAction(f"actions must be a dict player -> action, got {actions!r}")
        for p in cur:
            if p not in actions:
                raise IllegalAction(f"player {p} did not act (expected one action from each of {cur})")
        if len(actions) != len(cur):
            extra = sorted((p for p in actions if p not in cur), key=repr)
            raise IllegalAction(f"player {extra[0]!r} is not to act (current players {cur})")
        for p in cur:
            if actions[p] not in self._legal_for(p):
                why = self.why_illegal(p, actions[p])
                raise IllegalAction(f"{POWERS[p]}: illegal order {actions[p]!r} in {self._board.phase}: {why}")
        for p in cur:
            self._pending[p].append(actions[p])
        self._legal = {}
        if not self.current_players():
            self._resolve_phase()

    def _resolve_phase(self) -> None:
        b = self._board
        typed = {POWERS[s]: [parse_order(b, POWERS[s], o) for o in os]
                 for s, os in enumerate(self._pending) if os}
        typed = self._deals.check(b, typed, self._o.binding_deals)
        res = resolve(b, typed, self._o.datc)
        self._last = {
            "phase": res.phase,
            "orders": {p: [o.text() for o in os] for p, os in sorted(res.orders.items())},
            "results": {u: list(r) for u, r in sorted(res.results.items())},
        }
        self._board = res.after
        gone = [p for p in POWERS if p not in self._eliminated and not _alive(self._board, p)]
        if gone:  # replaced, never mutated: clones share it
            self._eliminated = {**self._eliminated, **{p: res.phase for p in gone}}
        self._pending = [[] for _ in POWERS]
        self._slots, self._legal = None, {}
        if res.winters:
            counts = [len(self._board.centres_of(p)) for p in POWERS]
            best = max(counts)
            if best >= self._o.victory_centres and counts.count(best) == 1:
                self._winner, self._over = counts.index(best), True
        if self._board.year > self._o.max_year:
            self._over = True
        if not self._over and not any(self._slots_now()):
            self._over = True  # nobody has anything left to order (cannot happen on this map)
        self._slots = None

    # -- negotiation (thesis 5.1; the language is in talk.py, the ledger in deals.py) ---------
    def _alive(self) -> set[str]:
        b = self._board
        return {u[0] for u in b.units.values()} | set(b.centres.values())

    def talk(self) -> TalkSpec | None:
        """One "press" channel of the powers still in the game, before a movement phase's orders."""
        if self._over or self._board.phase_kind != "M" or self._o.press_rounds == 0 or any(self._pending):
            return None
        alive = self._alive()
        members = tuple(s for s, p in enumerate(POWERS) if p in alive)
        return TalkSpec(channels={"press": members}, max_rounds=self._o.press_rounds) if len(members) > 1 else None

    def validate_talk(self, player: int, channel: str, item: Any) -> str | None:
        if channel != "press":
            return f"no channel {channel!r} in Diplomacy"
        return self._deals.validate(self._board, POWERS[player], item, self._alive())

    def talk_audience(self, player: int, channel: str, item: Any) -> tuple[int, ...]:
        return tuple(_SEAT[p] for p in self._deals.audience(POWERS[player], item))

    def apply_talk(self, player: int, channel: str, item: Any) -> None:
        self._deals.apply(self._board.phase, POWERS[player], item)

    # -- information -----------------------------------------------------------------------
    def _public(self) -> dict[str, Any]:
        pub = self.__dict__.get("_pub")
        if pub is None or pub[0] is not self._board:
            b = self._board
            units = {p: b.units_of(p) for p in POWERS}
            centres = {p: b.centres_of(p) for p in POWERS}
            dislodged: dict[str, dict[str, list[str]]] = {p: {} for p in POWERS}
            for _, (pw, t, loc, opts) in sorted(b.dislodged.items()):
                dislodged[pw][f"{t} {loc}"] = list(opts)
            adjust = {p: b.adjustment(p) for p in POWERS} if b.phase_kind == "A" else {}
            data = {"phase": b.phase, "year": b.year, "units": units, "centres": centres,
                    "dislodged": dislodged, "adjustments": adjust}
            pub = self.__dict__["_pub"] = (b, data)
        return pub[1]

    def observation(self, player: int) -> dict[str, Any]:
        obs = dict(self._public())
        obs.update({
            "me": player,
            "power": POWERS[player],
            "powers": list(POWERS),
            "my_orders": list(self._pending[player]),
            "next": None if self._over else self.next_unit(player),
            "last": self._last,
            "over": self._over,
            "winner": None if self._winner is None else POWERS[self._winner],
            "deals": self._deals.visible_to(POWERS[player]),
        })
        return obs

    def resample_hidden(self, player: int, rng: random.Random) -> DiplomacyState:
        """Other powers' orders of this phase, redrawn uniformly, slot by slot."""
        new = self.clone()
        for s in range(len(POWERS)):
            if s == player or not self._pending[s]:
                continue
            n = len(self._pending[s])
            new._pending[s] = []
            for _ in range(n):
                new._legal = {}
                new._pending[s].append(rng.choice(new._legal_for(s)))
        new._legal = {}
        return new

    def cheap_action(self, player: int, rng: random.Random) -> str:
        """The rules' default for the unit (a hold, a disband, a waived build): no order list is made."""
        return self.default_action(player)

    def provisional_returns(self) -> tuple[float, ...]:
        """The returns of a draw declared now (option `draw`: centre shares, or shared by survivors)."""
        counts = [len(self._board.centres_of(p)) for p in POWERS]
        if self._o.draw == "survivors":
            alive = [s for s in range(len(POWERS)) if counts[s] > 0]
            return tuple(1.0 / len(alive) if s in alive else 0.0 for s in range(len(POWERS)))
        total = sum(counts) or 1
        return tuple(c / total for c in counts)

    def outcome(self) -> Outcome:
        """Returns (see the module docstring), `roles` (the power names), `ranks`: 1-7 by centres
        among the powers still alive, below them the eliminated ones by phase of elimination
        (later is better; ties share the mean rank), and in `extra`, per seat (POWERS order):
        `centres`, `eliminated` (the phase that left the power with no unit and no centre, or None)."""
        if not self._over:
            raise ValueError("the game is not over")
        b = self._board
        counts = [len(b.centres_of(p)) for p in POWERS]
        gone = [self._eliminated.get(p) for p in POWERS]
        extra = {"centres": counts, "eliminated": gone, "phase": b.phase}
        typed = {"ranks": tuple(_ranks(counts, gone)), "roles": tuple(POWERS)}
        if self._winner is not None:
            w = self._winner
            return Outcome(returns=tuple(1.0 if s == w else 0.0 for s in range(len(POWERS))),
                           winners=(w,), summary=f"{POWERS[w]} wins with {counts[w]} centres", extra=extra, **typed)
        if self._o.draw == "survivors":
            alive = [s for s in range(len(POWERS)) if counts[s] > 0]
            returns = tuple(1.0 / len(alive) if s in alive else 0.0 for s in range(len(POWERS)))
        else:
            total = sum(counts) or 1
            returns = tuple(c / total for c in counts)
        lead = ", ".join(f"{p[:3]} {c}" for p, c in sorted(zip(POWERS, counts), key=lambda x: -x[1]) if c)
        return Outcome(returns=returns, winners=(), summary=f"draw after {b.year - 1} ({lead})", extra=extra, **typed)

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "options": dict(self._odump),
            "board": self._board.to_json(),
            "pending": [list(os) for os in self._pending],
            "winner": self._winner,
            "over": self._over,
            "last": self._last,
            "eliminated": dict(self._eliminated),
            "deals": self._deals.to_json(),
        }

    def clone(self) -> DiplomacyState:
        new = DiplomacyState.__new__(DiplomacyState)
        new.__dict__.update(self.__dict__)
        new._board = self._board.clone()
        new._pending = [list(os) for os in self._pending]
        new._legal = dict(self._legal)
        new._deals = self._deals.clone()
        return new  # `_last` and `_pub` are replaced, never mutated

    @property
    def board(self) -> Board:
        """The position (read-only by contract; `clone()` first to change it)."""
        return self._board

    def render(self) -> str:
        b = self._board
        head = f"Diplomacy {b.long_phase()}" + (" (over)" if self._over else "")
        lines = [head]
        for s, p in enumerate(POWERS):
            lines.append(f"  {p:<8} {len(b.centres_of(p)):2d} SC  " + ", ".join(b.units_of(p)))
            for _, (pw, t, loc, opts) in sorted(b.dislodged.items()):
                if pw == p:
                    lines.append(f"           dislodged {t} {loc}: retreats {', '.join(opts) or 'none'}")
        return "\n".join(lines)


_SEAT = {p: i for i, p in enumerate(POWERS)}


def _alive(b: Board, power: str) -> bool:
    """A power is in the game while it has a unit (dislodged ones too) or a centre."""
    return (any(u[0] == power for u in b.units.values()) or power in b.centres.values()
            or any(d[0] == power for d in b.dislodged.values()))


def _phase_key(phase: str) -> tuple[int, int, int]:
    """Chronological order of phase names (`F1905R` < `W1905A` < `S1906M`)."""
    return int(phase[1:5]), "SFW".index(phase[0]), "MRA".index(phase[5])


def _ranks(counts: list[int], eliminated: list[str | None]) -> list[float]:
    """Rank 1 is best: alive powers by centres, then the eliminated by phase of elimination
    (later is better); tied powers share the mean of the ranks they span."""
    keys = [(0, 0, _phase_key(e)) if e is not None else (1, c, (0, 0, 0)) for c, e in zip(counts, eliminated)]
    return [sum(1 for t in keys if t > k) + (sum(1 for t in keys if t == k) + 1) / 2 for k in keys]


class Diplomacy(Game):
    """Standard Diplomacy on the 1901 map, DATC-correct adjudication."""

    name = "diplomacy"
    options_model = DiplomacyOptions
    capabilities = frozenset({SIMULTANEOUS, PRIVATE_INFORMATION, TALK, TALK_STATE, OBSERVATION_STATE, VIEWS})
    talk_models = TALK_MODELS
    min_return = 0.0
    max_return = 1.0
    max_steps = 20_000

    def num_players(self, options: DiplomacyOptions) -> int:
        return len(POWERS)

    # Views: games.diplomacy.views (its TENSOR_FIELDS document the tensor).
    def describe_action(self, options: DiplomacyOptions, action: str) -> str:
        return views.describe_action(options, action)

    def observation_text(self, options: DiplomacyOptions, seat: int, observation: dict[str, Any]) -> str:
        return views.observation_text(options, seat, observation)

    def observation_shape(self, options: DiplomacyOptions) -> tuple[int, ...]:
        return views.observation_shape(options)

    def observation_tensor(self, options: DiplomacyOptions, seat: int, observation: dict[str, Any]) -> Any:
        return views.observation_tensor(options, seat, observation)

    def new_initial_state(self, options: DiplomacyOptions | dict | None = None) -> DiplomacyState:
        if not isinstance(options, DiplomacyOptions):
            options = self.options(options)
        return DiplomacyState(options)

    def state_from_observation(self, player: int, observation: dict[str, Any]) -> DiplomacyState:
        """The position `player` sees (the board is public). Options the observation does not show take
        their defaults; the other powers' orders of this phase so far (as many as `player` gave, or all
        their slots) are their first legal orders (`resample_hidden` redraws them); the deal ledger
        holds the deals and deal events `player` sees."""
        obs = observation
        phase = obs["phase"]
        board = Board(int(phase[1:5]), phase[0], phase[5])
        for power, units in sorted(obs["units"].items()):
            for unit in units:
                utype, loc = unit.split()
                board.units[loc[:3]] = (power, utype, loc)
        board.centres = {c: power for power, cs in sorted(obs["centres"].items()) for c in cs}
        for power, dislodged in sorted(obs["dislodged"].items()):
            for unit, options in sorted(dislodged.items()):
                utype, loc = unit.split()
                board.dislodged[loc[:3]] = (power, utype, loc, tuple(options))
        state = DiplomacyState(self.options({}), board)
        state._over, state._last = bool(obs["over"]), obs["last"]
        state._winner = None if obs["winner"] is None else POWERS.index(obs["winner"])
        deals = obs["deals"]
        state._deals = Ledger.from_json({"open": {d["key"]: d for d in deals["open"]},
                                         "confirmed": {d["key"]: d for d in deals["confirmed"]},
                                         "used": sorted({d["key"] for d in deals["open"] + deals["confirmed"]}),
                                         "events": deals["events"]})
        k = len(obs["my_orders"])
        slots = state._slots_now()
        for s in range(len(POWERS)):
            if s == player:
                state._pending[s] = list(obs["my_orders"])
                continue
            for _ in range(min(k, len(slots[s]))):
                state._legal = {}
                state._pending[s].append(state._legal_for(s)[0])
        state._legal = {}
        return state

    def state_from_json(self, data: dict[str, Any]) -> DiplomacyState:
        state = DiplomacyState(self.options(data["options"]), Board.from_json(data["board"]))
        state._pending = [list(os) for os in data["pending"]]
        if len(state._pending) != len(POWERS):
            raise ValueError("pending orders must list the seven powers")
        state._winner = data["winner"]
        state._over = bool(data["over"])
        state._last = data["last"]
        state._eliminated = dict(data.get("eliminated", {}))
        state._deals = Ledger.from_json(data["deals"])
        return state
