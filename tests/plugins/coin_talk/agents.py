"""The `caller` agent: an Alpha President with a Strategy Office (a side at random), a Foreign
Office (says the side the SO suggests) and an Intelligence Office (trust in the other player: the
share of rounds in which it called what it said), built by the declarative builder."""

from __future__ import annotations

from typing import Any

from actors.alpha.builder import AlphaAgent, office_from
from actors.alpha.offices import Answer, ForeignOffice, IntelligenceOffice, StrategyOffice
from actors.alpha.options import AgentOptions
from actors.registry import AgentDef
from bus.messages import KBUpdate, OfficeRequest, Suggestion
from coin_talk.rules import SIDES, CoinClaim


class CallerOptions(AgentOptions):
    agent = "caller"
    offices: tuple[str, ...] = ("fo", "io", "so")


class CallerSO(StrategyOffice):
    def suggest(self, request: OfficeRequest) -> Answer:
        return Answer(suggestions=[Suggestion(action=self.rng.choice(sorted(request.legal)), utility=1.0)])


class CallerFO(ForeignOffice):
    def negotiate(self, request: OfficeRequest) -> Answer:
        return Answer(says=[CoinClaim(call=self.rng.choice(SIDES))])


class CallerIO(IntelligenceOffice):
    def update(self, request: OfficeRequest) -> Answer:
        view = request.view
        me, other = view["seat"], 1 - view["seat"]
        claims = [line for line in view.get("inbox", ()) if line.get("speaker") == other]
        history = view["observation"]["history"]
        kept = sum(1 for h, c in zip(history, claims) if c["says"] and h["calls"][other] == c["says"][0]["call"])
        trust = (kept + 1) / (min(len(history), len(claims)) + 2)  # Laplace: 0.5 before any round
        return Answer(updates=[KBUpdate(path=("trust",), value={f"p{other}": round(trust, 6)})])


CALLER = AlphaAgent(options=CallerOptions, offices={"so": office_from(CallerSO), "fo": office_from(CallerFO),
                                                     "io": office_from(CallerIO)})

AGENTS = [AgentDef("caller", frozenset({"coin_talk"}), CALLER.build,
                   "says a side, calls a side, trusts by kept words (test plugin)",
                   budget={"coin_talk": {"rounds": 3}})]
