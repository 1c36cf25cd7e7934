"""Battle Line offices and President: Deep Barca's Strategy Office (strategy.py, model.py), its
Intelligence Office (ours, intelligence.py) and the naive baseline's Strategy Office.

The KB sections: `analysis` (the SO's numbers for the decision: the rule that decided and, for a
play, every flag's chance with its MFA / BSFA and top formations after the chosen move) and
`beliefs` (the IO's reading of the opponent's hand). Both reach the log with the office's reply.
"""

from __future__ import annotations

from actors.alpha.offices import Answer, IntelligenceOffice, StrategyOffice
from actors.alpha.president import President, Step
from actors.battleline.intelligence import infer
from actors.battleline.naive import naive_suggest
from actors.battleline.params import DeepBarcaParams
from actors.battleline.strategy import suggest
from bus.messages import ActRequest, KBUpdate, OfficeRequest, Suggestion
from games.battleline.cards import CARD_OF


class DeepBarcaStrategyOffice(StrategyOffice):
    """Deep Barca (seed section 3): suggestions by the chance of winning the game after each move."""

    def __init__(self, address: str, seed: int, params: DeepBarcaParams):
        super().__init__(address, seed)
        self.params = params

    def suggest(self, request: OfficeRequest) -> Answer:
        view = request.view
        beliefs = view.get("beliefs") or {}
        hand = {CARD_OF[c]: h for c, h in beliefs["hand"].items()} if "hand" in beliefs else None
        ranked, analysis = suggest(view["observation"], list(request.legal), self.params, hand)
        return Answer(suggestions=[Suggestion(action=a, utility=u) for a, u in ranked],
                      updates=[KBUpdate(path=("analysis",), value=analysis)])


class DeepBarcaIntelligenceOffice(IntelligenceOffice):
    """Ours: the chance that each unseen troop is in the opponent's hand (replaces 3.4's even split)."""

    def __init__(self, address: str, seed: int, params: DeepBarcaParams):
        super().__init__(address, seed)
        self.params = params

    def update(self, request: OfficeRequest) -> Answer:
        view = request.view
        beliefs = infer(view["observation"], view.get("beliefs"), self.params)
        return Answer(updates=[KBUpdate(path=("beliefs",), value=beliefs)])


class NaiveStrategyOffice(StrategyOffice):
    """The naive baseline (naive.py)."""

    def __init__(self, address: str, seed: int, width: int = 3):
        super().__init__(address, seed)
        self.width = width

    def suggest(self, request: OfficeRequest) -> Answer:
        ranked = naive_suggest(request.view["observation"], list(request.legal), self.width)
        return Answer(suggestions=[Suggestion(action=a, utility=u) for a, u in ranked])


class BattleLinePresident(President):
    """The generic President; a forced move asks no office, and the Intelligence Office is asked
    only before a play (the only decision its beliefs change)."""

    def plan_act(self, request: ActRequest) -> list[Step]:
        if len(request.legal) <= 1:
            return []
        steps = [Step("so", "suggest")]
        claims = any(a.startswith("claim:") for a in request.legal)
        if request.observation.get("phase") == "play" and not claims:
            steps.insert(0, Step("io", "update"))
        return steps
