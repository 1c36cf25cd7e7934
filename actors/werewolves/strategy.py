"""AlphaWolf's Strategy Office (thesis 5.2.2): threat values, move suggestions, deal utility."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from actors.alpha.offices import Answer, StrategyOffice
from actors.werewolves.bluff import claim_plan
from actors.werewolves.deals import deal_key
from actors.werewolves.knowledge import (
    POSITIVE_DEALS,
    current_beliefs,
    deal_utility,
    known_roles,
    target_of,
    threats,
    trust_of,
)
from actors.werewolves.params import WolfParams
from bus.messages import KBUpdate, OfficeRequest, Suggestion
from games.werewolves.talk import WwPropose

_PROPOSAL = TypeAdapter(WwPropose)
_HARMFUL = ("attack", "inspect", "vote")  # utility T(target); "protect" helps: utility 1/T(target)


class WolfStrategyOffice(StrategyOffice):
    """Suggests the top moves by threat value; scores received proposals with algorithm 4;
    values a false claim for a bluffing wolf (bluff.py)."""


    def __init__(self, address: str, seed: int, params: WolfParams | None = None, variant: str = "thesis"):
        super().__init__(address, seed)
        self.params = params or WolfParams()
        self.variant = variant

    def suggest(self, request: OfficeRequest) -> Answer:
        view = request.view
        legal = list(request.legal or view.get("legal") or ())
        scored = self.move_utilities(view, legal)
        self.rng.shuffle(scored)  # equal utilities: no seat is favoured by its number
        scored.sort(key=lambda au: -au[1])
        top = scored[: self.params.suggestions]
        updates = self.claim_value(request) if view.get("claim") else []
        return Answer(suggestions=[Suggestion(action=a, utility=round(u, 6)) for a, u in top], updates=updates)

    def move_utilities(self, view: dict[str, Any], legal: list[str]) -> list[tuple[str, float]]:
        """(action, utility) for every legal action but abstain (thesis 5.2.2)."""
        obs = view["observation"]
        t = threats(current_beliefs(view, self.params), obs["role"], self.params)
        known = known_roles(obs)
        out: list[tuple[str, float]] = []
        for action in legal:
            verb, seat = action.partition(":")[0], target_of(action)
            if seat is None:
                continue
            if verb == "inspect" and seat in known:
                continue  # a known role teaches nothing (our choice: the thesis is silent)
            out.append((action, 1.0 / t[seat] if verb in ("protect", "guard") else t[seat]))
        if not out and any(a.startswith("inspect:") for a in legal):
            out = [(a, t[target_of(a)]) for a in legal if target_of(a) is not None]
        return out

    def claim_value(self, request: OfficeRequest) -> list[KBUpdate]:
        """The best false claim today and its value against being caught (bluff.py), into claims/plan;
        asked with the first suggestions of a bluffer's day."""
        plan = claim_plan(request.view, self.params, request.turn)
        return [] if plan is None else [KBUpdate(path=("claims", "plan"), value=plan)]

    def deal_utility(self, request: OfficeRequest) -> Answer:
        """Score every proposal heard this turn and not yet scored, into deals/current/received."""
        view = request.view
        obs, me = view["observation"], view["seat"]
        received = (view.get("deals") or {}).get("current", {}).get("received", {})
        t = threats(current_beliefs(view, self.params), obs["role"], self.params)
        updates: list[KBUpdate] = []
        for line in view.get("inbox", ()):
            if line.get("turn") != request.turn or line.get("speaker") == me:
                continue
            for raw in line.get("says", ()):
                if raw.get("kind") != "ww_propose":
                    continue
                entry = self.score(raw, line, obs, me, t, view)
                if entry["key"] not in received:
                    updates.append(KBUpdate(path=("deals", "current", "received", entry["key"]), value=entry))
                    received = {**received, entry["key"]: entry}
        return Answer(updates=updates)

    def score(self, raw: dict[str, Any], line: dict[str, Any], obs: dict[str, Any], me: int,
              t: dict[int, float], view: dict[str, Any]) -> dict[str, Any]:
        """The received-deal entry: proposal fields and utility, or the reason it is ignored."""
        proposer, rnd = line["speaker"], line["round"]
        try:
            item = _PROPOSAL.validate_python(raw)
        except ValidationError as exc:
            key = deal_key(proposer, raw.get("proposal_id", -1)) if isinstance(raw.get("proposal_id"), int) else f"{proposer}:?"
            return {"key": key, "proposer": proposer, "round": rnd, "ignored": f"malformed proposal: {exc.errors()[0]['msg']}"}
        entry: dict[str, Any] = {"key": deal_key(proposer, item.proposal_id), "proposer": proposer, "id": item.proposal_id,
                                 "deal": item.deal, "target": item.target, "round": rnd, "channel": line.get("channel")}
        why = None
        if line.get("channel") != "public":
            why = "proposals belong on the public channel (wolves bid at night)"
        elif item.target not in t or item.target not in obs["alive"]:
            why = f"target {item.target} is not a living player"
        elif item.deal == "joint_vote" and item.target == me:
            why = "a joint vote against me"
        if why:
            entry["ignored"] = why
            return entry
        trust = trust_of(view, proposer)
        entry["utility"] = round(deal_utility(t[proposer], t[item.target], item.deal in POSITIVE_DEALS, trust), 6)
        return entry
