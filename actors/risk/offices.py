"""The Risk agents' offices and President.

- `HeuristicStrategyOffice`, `TDStrategyOffice`: one suggestion per decision, the policy's
  choice (actors.risk.heuristic, actors.risk.td); the td office also reports the network's value
  of its board at the start of each of its turns (KB path `value`), which the transcript plots.
  A learning td office (`learn`, a training game's seat) holds a network.Learner: at the first
  decision of each of its turns it learns from the board (exactly where actors.risk.train's direct
  loop does), then plays with the weights as they now are.
- `RiskIntelligenceOffice` (ours): per opponent, its strength (its share
  of the armies on the board) and aggression (battle rolls it made per turn, an exponentially
  weighted mean over the turns it has been seen to play), from the public turn summaries.
- `RiskPresident`: sends each office only the part of the observation it reads (smaller logs),
  and asks the Intelligence Office only when a turn it has not seen has finished.
Every office but a learning one is a function of its request alone (plus the KB the President
sends), so an agent can take over a seat mid-game; a learner's state is its network, rebuilt by
re-running the game from its start (as replay and fork do).
"""

from __future__ import annotations

from typing import Any

from actors.alpha.offices import Answer, IntelligenceOffice, StrategyOffice
from actors.alpha.president import President, Step
from actors.risk.board import Board
from actors.risk.heuristic import suggest as heuristic_suggest
from actors.risk.network import Learner, Net, get_net
from actors.risk.params import HeuristicParams, TDParams
from actors.risk.td import Seed
from actors.risk.td import suggest as td_suggest
from bus.messages import ActRequest, KBUpdate, OfficeRequest, Suggestion, TalkTurn

# What the Strategy Office reads of an observation (board.Board and the policies).
SO_KEYS = ("alive", "armies", "me", "neutral", "owner", "pending", "phase", "players", "reinforcements",
           "rules", "setup_left", "turn", "turn_player")
IO_KEYS = ("alive", "armies", "me", "owner", "players", "recent", "turn")
AGGRESSION_DECAY = 0.5  # ours: weight of a new turn in the aggression mean


def so_observation(obs: dict[str, Any]) -> dict[str, Any]:
    out = {k: obs[k] for k in SO_KEYS if k in obs}
    log = obs.get("turn_log")
    out["turn_log"] = None if log is None else {"armies": log["armies"]}  # this turn's armies
    return out


class HeuristicStrategyOffice(StrategyOffice):
    def __init__(self, address: str, seed: int, params: HeuristicParams):
        super().__init__(address, seed)
        self.params = params

    def suggest(self, request: OfficeRequest) -> Answer:
        board = Board(request.view["observation"])
        action, utility = heuristic_suggest(board, list(request.legal), self.params)
        return Answer(suggestions=[Suggestion(action=action, utility=utility)])


class TDStrategyOffice(StrategyOffice):
    def __init__(self, address: str, seed: int, net: str, net_seed: int, params: TDParams,
                 weights: Any = None, learn: bool = False, alpha: float = 0.1, lam: float = 0.7,
                 update: str = "td"):
        super().__init__(address, seed)
        base: Net = weights.net() if net == "given" else get_net(net, net_seed)
        self.learner = Learner(base, alpha, lam, misupdate=update == "misupdate") if learn else None
        self.net: Any = base if self.learner is None else self.learner  # a learner's weights, read as they change
        self.params = params
        self.seen_turn = -1  # the last turn whose board the learner saw

    def suggest(self, request: OfficeRequest) -> Answer:
        obs = request.view["observation"]
        if (self.learner is not None and obs["phase"] == "reinforce" and obs["turn_player"] == obs["me"]
                and obs["turn"] != self.seen_turn):  # the first decision of my turn (actors.risk.train)
            self.seen_turn = obs["turn"]
            self.learner.see([o == obs["me"] for o in obs["owner"]])
        board = Board(obs)
        action, utility = td_suggest(board, list(request.legal), self.net, self.params)
        updates = []
        log = obs.get("turn_log")
        if (obs["phase"] == "reinforce" and obs["turn_player"] == obs["me"] and log is not None
                and obs["reinforcements"] == log["armies"]):  # the first decision of my turn
            value = Seed(board, self.net, self.params).now()
            updates.append(KBUpdate(path=("value",), value={"turn": obs["turn"], "value": value}))
        return Answer(suggestions=[Suggestion(action=action, utility=utility)], updates=updates)


class RiskIntelligenceOffice(IntelligenceOffice):
    def update(self, request: OfficeRequest) -> Answer:
        view = request.view
        obs = view["observation"]
        seen = int(view.get("seen") or 0)
        fresh = [log for log in obs["recent"] if log["turn"] > seen]
        if not fresh:
            return Answer()
        me, armies, owner = obs["me"], obs["armies"], obs["owner"]
        total = sum(armies) or 1
        old = view.get("beliefs") or {}
        beliefs: dict[str, dict[str, float]] = {}
        for s in range(obs["players"]):
            if s == me:
                continue
            mean = old.get(str(s), {}).get("aggression")
            for log in fresh:
                if log["player"] == s:
                    rolls = sum(b[0] for b in log["battles"])
                    mean = float(rolls) if mean is None else (1 - AGGRESSION_DECAY) * mean + AGGRESSION_DECAY * rolls
            strength = sum(a for a, o in zip(armies, owner) if o == s) / total
            beliefs[str(s)] = {"aggression": round(mean or 0.0, 6), "strength": round(strength, 6)}
        return Answer(updates=[KBUpdate(path=("beliefs",), value=beliefs),
                               KBUpdate(path=("seen",), value=max(log["turn"] for log in fresh))])


class RiskPresident(President):
    """Trims each office's view of the observation; asks the IO only after unseen turns."""

    def plan_act(self, request: ActRequest) -> list[Step]:
        recent = request.observation.get("recent") or []
        if recent and recent[-1]["turn"] > int(self.kb.get("seen") or 0):
            return [Step("io", "update"), Step("so", "suggest")]
        return [Step("so", "suggest")]

    def view(self, step: Step, request: ActRequest | TalkTurn) -> dict[str, Any]:
        view = dict(super().view(step, request))
        obs = view.get("observation")
        if obs is not None:
            view["observation"] = (so_observation(obs) if step.role == "so"
                                   else {k: obs[k] for k in IO_KEYS if k in obs})
        return view
