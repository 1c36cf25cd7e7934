"""Hanabi offices: each strategy is a Strategy Office; the self-estimation's partner model and the
Alpha agent's beliefs are Intelligence Offices that write `beliefs` into the President's KB.

The KB's `beliefs` section for Hanabi: own slot (string) -> believed card name (self-estimation)
or -> list of candidate card names (Alpha).
"""

from __future__ import annotations

from typing import Any

from actors.alpha.offices import Answer, IntelligenceOffice, StrategyOffice
from actors.hanabi import osawa
from actors.hanabi.alpha import DEFAULT_PARAMS, AlphaParams, own_beliefs, ranked_moves
from actors.hanabi.estimate import estimate
from actors.hanabi.protocol import fold
from actors.hanabi.view import View
from bus.messages import KBUpdate, OfficeRequest, Suggestion
from games.hanabi.cards import CARD_OF, NAMES


class OsawaStrategyOffice(StrategyOffice):
    """One of Osawa's strategies; self-estimation's beliefs, when the KB has them, are used."""

    def __init__(self, address: str, seed: int, strategy: str, options: dict[str, Any]):
        super().__init__(address, seed)
        self.strategy = strategy
        self.options = options

    def suggest(self, request: OfficeRequest) -> Answer:
        view = View(request.view["observation"])
        legal = list(request.legal)
        if self.strategy == "osawa-random":
            action = osawa.random_strategy(view, legal, self.rng)
        elif self.strategy == "full-information":
            action = osawa.full_information(view, legal, self.rng)
        else:
            raw = request.view.get("beliefs") or {}
            beliefs = {int(slot): CARD_OF[card] for slot, card in raw.items() if isinstance(card, str)}
            action = osawa.rational(view, legal, self.rng, counting=self.options.get("counting", True),
                                    beliefs=beliefs,
                                    believe_discard=self.options.get("believe_discard", True))
        return Answer(suggestions=[Suggestion(action=action, utility=1.0)])


class EstimationIntelligenceOffice(IntelligenceOffice):
    """Osawa's self-estimation: own cards read from the partner's last hint (estimate.py)."""

    def __init__(self, address: str, seed: int, a: float, copies: bool):
        super().__init__(address, seed)
        self.a = a
        self.copies = copies

    def update(self, request: OfficeRequest) -> Answer:
        found = estimate(View(request.view["observation"]), self.a, self.copies)
        beliefs = {str(slot): NAMES[card] for slot, card in sorted(found.items())}
        return Answer(updates=[KBUpdate(path=("beliefs",), value=beliefs)])


class AlphaIntelligenceOffice(IntelligenceOffice):
    """Candidate identities of each own card from hints, counting and the hint protocol."""

    def update(self, request: OfficeRequest) -> Answer:
        obs = request.view["observation"]
        view = View(obs)
        beliefs = own_beliefs(view, fold(obs))
        value = {str(i): [NAMES[c] for c in cands] for i, cands in enumerate(beliefs)}
        return Answer(updates=[KBUpdate(path=("beliefs",), value=value)])


class AlphaStrategyOffice(StrategyOffice):
    """Ranks plays, saves, play hints and discards by utility (alpha.py); `width` best suggested.

    Without an Intelligence Office it reads only the literal hints and card counting (no
    protocol marks on its own cards); with one, the KB's beliefs carry the protocol's reading.
    """

    def __init__(self, address: str, seed: int, width: int = 3, params: AlphaParams = DEFAULT_PARAMS):
        super().__init__(address, seed)
        self.width = width
        self.params = params

    def suggest(self, request: OfficeRequest) -> Answer:
        obs = request.view["observation"]
        view = View(obs)
        cards = fold(obs)
        raw = request.view.get("beliefs")
        if isinstance(raw, dict) and all(isinstance(v, list) for v in raw.values()) and raw:
            beliefs = [[CARD_OF[c] for c in raw[str(i)]] for i in range(len(cards[view.me]))]
        else:
            left = view.unseen()
            beliefs = [[c for c in range(25) if left[c] > 0 and (card.know >> (c // 5) & 1)
                        and (card.know >> (5 + c % 5) & 1)] or [0] for card in cards[view.me]]
        moves = ranked_moves(view, list(request.legal), cards, beliefs, self.rng, self.params)
        # ranked_moves breaks ties by action name; a tiny step keeps that order for the President
        return Answer(suggestions=[Suggestion(action=a, utility=u - 1e-6 * k)
                                   for k, (u, a) in enumerate(moves[:self.width])])
