"""Game-independent baseline offices."""

from __future__ import annotations

from actors.alpha.offices import Answer, StrategyOffice
from bus.messages import OfficeRequest, Suggestion, built


class RandomStrategyOffice(StrategyOffice):
    """Suggests up to `width` distinct legal actions drawn uniformly, all of equal utility.

    With equal utilities the President's pick among them is uniform, so the agent plays
    uniformly random legal actions while its advice still crosses the bus.
    """

    def __init__(self, address: str, seed: int, width: int = 3):
        super().__init__(address, seed)
        self.width = width

    def suggest(self, request: OfficeRequest) -> Answer:
        legal = request.legal
        picks = self.rng.sample(range(len(legal)), min(self.width, len(legal)))
        return Answer(suggestions=[built(Suggestion, {"action": legal[i], "utility": 1.0}) for i in sorted(picks)])
