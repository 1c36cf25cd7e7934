"""Dominoes offices and President: thin actors over the pure functions of seed.py and search.py.

KB sections (all JSON): `beliefs` (the Intelligence Office's: `lacks` {"p1": [4]}, and for the
glutton-blocker `roles` and the partner's `signal`, for the Alpha pair the `convention` reading and
`tiles` {"p1": {"3-5": 0.4}}), `plan` (the Strategy Office's rule or utility behind its suggestion).
An office without its Intelligence Office works from the observation alone, with no memory of
passes: that is what switching the IO off means here.
"""

from __future__ import annotations

from typing import Any

from actors.alpha.offices import Answer, ForeignOffice, IntelligenceOffice, StrategyOffice
from actors.alpha.president import President, Step
from actors.dominoes import search, seed
from actors.dominoes.table import Table
from bus.messages import ActRequest, KBUpdate, OfficeRequest, Suggestion
from games.dominoes.rules import DominoesSignal
from games.dominoes.tiles import SEATS

SIGNAL = "dom_signal"


class DominoesPresident(President):
    """The template President, which asks no office when the rules leave one move (a pass, 6-6)."""

    def plan_act(self, request: ActRequest) -> list[Step]:
        if len(request.legal) == 1:
            return []
        return super().plan_act(request)


def lacks_of(beliefs: dict[str, Any] | None) -> tuple[int, ...] | None:
    """The `lacks` belief as number bitmasks per seat (None: no belief)."""
    if not isinstance(beliefs, dict) or "lacks" not in beliefs:
        return None
    found = beliefs["lacks"]
    return tuple(sum(1 << int(n) for n in found.get(f"p{s}", ())) for s in range(SEATS))


def partner_signal(table: Table, inbox: list[dict[str, Any]]) -> tuple[int, int] | None:
    """The hand key the partner signalled for this hand, if it did."""
    for line in reversed(inbox or ()):
        if line.get("speaker") != table.partner:
            continue
        for item in line.get("says", ()):
            if item.get("kind") == SIGNAL and item.get("hand") == table.hand_no:
                return seed.read_signal(int(item["code"]))
    return None


def _changed(request: OfficeRequest, value: dict[str, Any]) -> list[KBUpdate]:
    """An update of `beliefs` only when it differs from the KB's (fewer, more telling log events)."""
    return [] if request.view.get("beliefs") == value else [KBUpdate(path=("beliefs",), value=value)]


# -- the seed's agents ----------------------------------------------------------------------

class PairIntelligenceOffice(IntelligenceOffice):
    """The glutton-blocker's memory: what each seat lacks (passes), the partner's signal, the roles."""

    def update(self, request: OfficeRequest) -> Answer:
        table = Table.of(request.view["observation"])
        key = partner_signal(table, request.view.get("inbox", []))
        r = seed.roles(table, key)
        value: dict[str, Any] = {
            "lacks": seed.lacks_text(table.lacks, table.me),
            "roles": {"glutton": r.glutton, "blocker": r.blocker, "swapped": r.swapped, "why": r.why},
        }
        if key is not None:
            value["signal"] = {f"p{table.partner}": list(key)}
        return Answer(updates=_changed(request, value))


class SignalForeignOffice(ForeignOffice):
    """Sends the partner signal: the dealt hand's (doubles, top frequency) as the pair's code."""

    def negotiate(self, request: OfficeRequest) -> Answer:
        table = Table.of(request.view["observation"])
        return Answer(says=[DominoesSignal(hand=table.hand_no, code=seed.signal_code(table.dealt()))])


class SeedStrategyOffice(StrategyOffice):
    """The seed's tile choice (3.3): `individualist` or `glutton-blocker` (its role from the KB)."""

    def __init__(self, address: str, seed_: int, strategy: str):
        super().__init__(address, seed_)
        self.strategy = strategy

    def suggest(self, request: OfficeRequest) -> Answer:
        table = Table.of(request.view["observation"])
        legal = list(request.legal)
        if self.strategy == "individualist":
            choice = seed.individualist(table, legal)
            plan: dict[str, Any] = {"rule": choice.rule}
        else:
            beliefs = request.view.get("beliefs")
            key = None
            if isinstance(beliefs, dict) and beliefs.get("signal"):
                key = tuple(beliefs["signal"][f"p{table.partner}"])
            lacks = lacks_of(beliefs) or (0,) * SEATS  # no IO: no memory of passes
            choice, r = seed.glutton_blocker(table, legal, key, lacks)
            plan = {"rule": choice.rule, "role": r.role_of(table.me)}
        return Answer(suggestions=[Suggestion(action=choice.action, utility=1.0)],
                      updates=[KBUpdate(path=("plan",), value=plan)])


# -- the Alpha pair -------------------------------------------------------------------------

class AlphaIntelligenceOffice(IntelligenceOffice):
    """Numbers each other seat cannot hold, the partner's opening read by the convention, and the
    chance each seat holds each unseen tile (sampled deals, counting)."""

    def __init__(self, address: str, seed_: int, belief_samples: int = search.BELIEF_SAMPLES,
                 convention_miss: float = search.CONVENTION_MISS):
        super().__init__(address, seed_)
        self.belief_samples = belief_samples
        self.miss = convention_miss

    def update(self, request: OfficeRequest) -> Answer:
        table = Table.of(request.view["observation"])
        reading = search.convention_reading(table)
        value: dict[str, Any] = {"lacks": seed.lacks_text(table.lacks, table.me), "convention": reading}
        if self.belief_samples and table.ends is not None:
            value["tiles"] = search.tile_beliefs(table, self.rng, table.lacks, reading, self.belief_samples,
                                                self.miss)
        return Answer(updates=_changed(request, value))


class AlphaStrategyOffice(StrategyOffice):
    """Scores every legal tile by the pair's chance to win the hand over sampled deals (search.py);
    suggests the `width` best. Reads the IO's lacks and convention reading; without them, samples
    the hidden hands knowing only their sizes."""

    def __init__(self, address: str, seed_: int, samples: int = search.SAMPLES, width: int = 3,
                 margin_weight: float = search.MARGIN_WEIGHT, convention_miss: float = search.CONVENTION_MISS):
        super().__init__(address, seed_)
        self.samples = samples
        self.width = width
        self.margin, self.miss = margin_weight, convention_miss

    def suggest(self, request: OfficeRequest) -> Answer:
        table = Table.of(request.view["observation"])
        beliefs = request.view.get("beliefs")
        lacks = lacks_of(beliefs)
        reading = beliefs.get("convention", {}) if isinstance(beliefs, dict) else {}
        ranked = search.alpha_move(table, list(request.legal), self.rng, lacks, reading, self.samples,
                                   self.margin, self.miss)
        best = ranked[:self.width]
        return Answer(suggestions=[Suggestion(action=a, utility=u) for u, a in best],
                      updates=[KBUpdate(path=("plan",), value={"scores": [[a, u] for u, a in best]})])
