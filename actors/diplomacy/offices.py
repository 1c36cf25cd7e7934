"""DumbBot as a Strategy Office: the whole order set of the phase is planned at the phase's first
request (from the board in the observation), kept for the phase, and each per-unit request is
answered with that unit's order on top of a utility-ranked list."""

from __future__ import annotations

from typing import Any

from actors.alpha.offices import Answer, StrategyOffice
from actors.diplomacy.dumbbot import DEFAULT_PARAMS, DumbBotParams, Plan, plan
from actors.diplomacy.view import board_from_observation
from bus.messages import OfficeRequest, Suggestion


class DumbBotStrategyOffice(StrategyOffice):
    """Suggests DumbBot's order for the unit (or build / removal slot) asked about."""

    def __init__(self, address: str, seed: int, params: DumbBotParams = DEFAULT_PARAMS, width: int = 3):
        super().__init__(address, seed)
        self.params = params
        self.width = width
        self.plan: Plan | None = None

    def plan_for(self, obs: dict[str, Any]) -> Plan:
        """The plan of the observation's phase (made once per phase with this office's rng)."""
        if self.plan is None or self.plan.phase != obs["phase"]:
            self.plan = plan(board_from_observation(obs), obs["power"], self.rng, self.params)
        return self.plan

    def suggest(self, request: OfficeRequest) -> Answer:
        obs = request.view["observation"]
        legal = set(request.legal)
        if obs.get("over") or obs.get("next") is None or not legal:
            return Answer()
        plan_ = self.plan_for(obs)
        nxt = obs["next"]
        if nxt in ("build", "remove"):
            rest = [o for o, _ in plan_.adjustments]
            for given in obs.get("my_orders", ()):
                if given in rest:
                    rest.remove(given)
            # the plan's order is the ranking (the walk may have put a lower value first)
            ranked = [(o, float(len(rest) - i)) for i, o in enumerate(rest)]
        else:
            ranked = plan_.ranked.get(nxt, [])
        usable = [Suggestion(action=o, utility=u) for o, u in ranked if o in legal][: self.width]
        return Answer(suggestions=usable)
