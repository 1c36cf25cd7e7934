"""The President of AlphaDip and DipBlue: the Alpha President with Diplomacy's per-unit decisions.

The rules ask for ONE order per unit per ActRequest while every power acts in parallel, so the
President plans the whole phase once and answers unit by unit from that plan:

- A phase's first request (a talk turn's round 0 before a movement phase, else the first
  ActRequest) has the Intelligence Office update trust and predicted goals from what happened
  since (once per phase).
- Talk turn (thesis 5.1.1.1): round 0 asks the Strategy Office for its fallback move and its
  suggestions; any round with proposals not yet valued asks the SO for their utility; then the
  Foreign Office negotiates (for the best suggestion's supports, and coalitions).
- First ActRequest of a phase: the SO suggests again, now knowing the confirmed deals; the
  President keeps the best suggestion that can succeed (every support it needs was promised),
  breaking its own commitments only when a suggestion that breaks them pays more and a draw
  falls above `honesty` (the probability of keeping a deal when breaking pays); the Order
  Finder (`orderfinder.py`) gives orders to the units the move left out. The plan is kept in the
  KB (`plan`) and every later request of the phase is answered from it.
- Heard talk goes to the inbox, and its speakers to `negotiators` (powers known to negotiate).
- `keep_word` (param, off by default so the published tables stand): unless it chose to break
  its word, the President tests its finished orders against every confirmed deal with the
  ledger's own test (`games.diplomacy.deals.plan_breaches`) and plays the committed order, or a
  hold, instead of an order that would break one; the FO refuses an offer that commits a unit
  differently from a deal with a smaller key (two sides offering crossed supports in one round).
  Without it an honest AlphaDip still breaks deals it did not mean to (moves the Order Finder or
  the hill-climb sends into a peace partner's province, crossed offers both confirmed), and a
  partner's IO takes that for betrayal.
"""

from __future__ import annotations

import json
from typing import Any

from actors.alpha.president import President, Step
from actors.alpha.traits import Traits
from actors.diplomacy.alphadip.orderfinder import adjustments, fill_orders
from actors.diplomacy.view import board_from_observation
from games.diplomacy.deals import plan_breaches
from bus.messages import (
    LOG,
    REFEREE,
    Act,
    ActRequest,
    Heard,
    KBChange,
    KBUpdate,
    Message,
    Suggestion,
    TalkTurn,
)
from games.diplomacy.board import POWERS, Board, Order, parse_order

VIEWS: dict[str, tuple[str, ...]] = {
    "io": ("goals", "io", "observation", "seat", "traits", "trust"),
    "so": ("deal_values", "goals", "negotiators", "observation", "seat", "traits", "trust", "war"),
    "fo": ("deal_values", "fo", "goals", "negotiators", "observation", "seat", "suggestions", "talk",
           "traits", "trust", "war"),
}


class DiplomacyPresident(President):
    """See the module docstring."""

    def __init__(self, address: str, seed: int, seat: int, offices: dict[str, str], traits: Traits,
                 views: dict[str, tuple[str, ...]] | None = None, keep_word: bool = False):
        super().__init__(address, seed, seat, offices, traits, {**VIEWS, **(views or {})})
        self.io_phase: str | None = None
        self.keep_word = keep_word

    # -- hooks ------------------------------------------------------------------------------
    def plan_talk(self, turn: TalkTurn) -> list[Step]:
        """Once a phase the IO; round 0 the SO's suggestions; unvalued proposals; then the FO."""
        steps = self._io_steps(turn.observation)
        if turn.round == 0:
            steps.append(Step("so", "suggest"))
        if self._unvalued(turn.observation):
            steps.append(Step("so", "deal_utility"))
        return steps + [Step("fo", "negotiate")]

    def plan_act(self, request: ActRequest) -> list[Step]:
        """The phase's first request: (once a phase) the IO, then the SO; later ones: no steps."""
        if self._plan_of(request) is not None:
            return []  # answered from the phase's plan
        return self._io_steps(request.observation) + [Step("so", "suggest")]

    def view(self, step: Step, request: ActRequest | TalkTurn) -> dict[str, Any]:
        """The generic view, but the SO reasons about this phase only (no deal events)."""
        view = super().view(step, request)
        if step.role == "so" and "observation" in view:
            view["observation"] = _without_events(view["observation"])
        return view

    def decide(self, request: ActRequest, suggestions: list[Suggestion]) -> list[Message]:
        """The phase's first request plans every unit's order (logged); each request is answered from it."""
        plan = self._plan_of(request)
        if plan is not None:
            return [self._act(request, plan)]
        plan = self._plan(request, suggestions)
        self.kb.set(("plan",), plan)
        change = KBChange(sender=self.address, to=LOG, turn=request.turn, source=self.address,
                          updates=(KBUpdate(path=("plan",), value=plan),))
        return [change, self._act(request, plan)]

    def on_heard(self, message: Heard) -> None:
        """Heard talk goes to the inbox, its speakers to `negotiators`."""
        speakers = {POWERS[line.speaker] for line in message.lines}
        known = set(self.kb.get("negotiators", default=[]) or [])
        if not speakers <= known:
            self.kb.set(("negotiators",), sorted(known | speakers))
        super().on_heard(message)

    def _plan_of(self, request: ActRequest) -> dict[str, Any] | None:
        """The plan made for the request's phase, if one was made."""
        plan = self.kb.get("plan")
        return plan if plan is not None and plan.get("phase") == request.observation["phase"] else None

    def _io_steps(self, obs: dict[str, Any]) -> list[Step]:
        if "io" not in self.offices or self.io_phase == obs["phase"]:
            return []
        self.io_phase = obs["phase"]
        return [Step("io", "update")]

    def _unvalued(self, obs: dict[str, Any]) -> bool:
        """Open deals proposed to us that the SO has not valued yet."""
        me = obs["power"]
        values = self.kb.get("deal_values", default={}) or {}
        return any(d["proposer"] != me and me not in d["accepted"] and d["key"] not in values
                   for d in obs["deals"]["open"])

    # -- choosing ---------------------------------------------------------------------------
    def _plan(self, request: ActRequest, suggestions: list[Suggestion]) -> dict[str, Any]:
        """Every unit's order for the phase: the chosen move, completed by the Order Finder."""
        obs = request.observation
        board = board_from_observation(obs)
        me = obs["power"]
        chosen, why = self._pick(obs, [json.loads(s.action) | {"utility": s.utility} for s in suggestions])
        avoid = frozenset(chosen.get("avoid", ())) if not chosen.get("breaks") else frozenset()
        plan: dict[str, Any] = {"phase": obs["phase"], "utility": chosen["utility"], "why": why}
        if board.phase_kind == "A":
            plan["orders"], plan["adjustments"] = {}, adjustments(board, me, self.rng)
        else:
            plan["orders"] = fill_orders(board, me, dict(chosen.get("orders", {})), self.rng, avoid)
            if self.keep_word and why != "broke":
                plan["orders"], plan["kept"] = kept_orders(board, me, plan["orders"], obs["deals"]["confirmed"])
        return plan

    def _pick(self, obs: dict[str, Any], moves: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        """The best move that can succeed, or (honesty permitting) a better one breaking a deal; and why."""
        confirmed = {(c["power"], c["order"]) for d in obs["deals"]["confirmed"] for c in d["commitments"]
                     if c["type"] == "order" and c["phase"] == obs["phase"]}
        feasible = [m for m in moves if all((p, o) in confirmed for p, _, o in m.get("needs", []))]
        honest = [m for m in feasible if not m.get("breaks")]
        breaking = [m for m in feasible if m.get("breaks")]
        chosen = max(honest, key=lambda m: m["utility"], default=None)
        why = "best"
        if breaking:
            tempt = max(breaking, key=lambda m: m["utility"])
            if chosen is None or tempt["utility"] > chosen["utility"]:
                if self.rng.random() >= self.traits.honesty:
                    chosen, why = tempt, "broke"
                else:
                    why = "kept"
        if chosen is None:
            return {"orders": {}, "needs": [], "utility": 0.0}, "none"
        return chosen, why

    def _act(self, request: ActRequest, plan: dict[str, Any]) -> Act:
        obs = request.observation
        legal = request.legal
        nxt = obs.get("next")
        action = None
        if nxt in ("build", "remove"):
            given = list(obs.get("my_orders", ()))
            for o in plan.get("adjustments", []):
                if o in given:
                    given.remove(o)
                elif o in legal:
                    action = o
                    break
            if action is None:
                action = "WAIVE" if "WAIVE" in legal else None
        elif nxt is not None:
            prov = nxt.split()[1][:3]
            action = plan["orders"].get(prov)
        if action not in legal:
            hold = f"{nxt} H" if nxt else None
            action = hold if hold in legal else (legal[0] if legal else "abstain")
        return Act(sender=self.address, to=REFEREE, turn=request.turn, action=action)


def kept_orders(board: Board, me: str, orders: dict[str, str], deals: list[dict[str, Any]]) -> tuple[dict[str, str], list[str]]:
    """`orders` (province -> order) with every order that would break a confirmed deal replaced
    (by the committed order where a deal commits the unit, else a hold), and the replacements'
    reasons. Deals are kept in key order: a change that would break an earlier deal is not made,
    so when two confirmed deals commit the same units differently, both parties keep the same
    one (the deal with the smaller key)."""
    provinces = sorted(orders)
    parsed = [parse_order(board, me, orders[p]) for p in provinces]
    ordered = sorted(deals, key=lambda d: d["key"])
    why: list[str] = []
    for k, deal in enumerate(ordered):
        for i, fix, reason in plan_breaches(board, me, parsed, [deal]):
            trial = parsed[:i] + [fix] + parsed[i + 1:]
            if plan_breaches(board, me, trial, ordered[:k]):
                continue  # keeping this deal would break an earlier one: that one stands
            parsed = trial
            why.append(reason)
    return {p: o.text() for p, o in zip(provinces, parsed)}, why


def _without_events(obs: dict[str, Any]) -> dict[str, Any]:
    deals = obs.get("deals")
    if not deals or not deals.get("events"):
        return obs
    return {**obs, "deals": {k: v for k, v in deals.items() if k != "events"}}
