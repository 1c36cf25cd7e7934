"""Hanabi agents: Osawa's four strategies and the Alpha agent, each a President with offices.

| name | offices | what |
| --- | --- | --- |
| osawa-random | so | Osawa 4.2: 30 % hint, 40 % discard, 30 % play, at random |
| full-information | so | Osawa 4.1: sees its own cards; needs the game option reveal_own_cards=true |
| rational | so | Osawa 4.3: acts on what hints and card counting make certain |
| self-estimation | so+io | Osawa 4.4: rational, plus the IO's reading of the partner's last hint |
| alpha | so+io | SO ranks moves by utility; IO keeps beliefs; the hint protocol (FO) gives hints meaning |

(The generic `random` agent, uniform over legal moves, plays Hanabi too.)
"""

from __future__ import annotations

from pydantic import Field

from actors.actor import Actor
from actors.alpha.builder import AlphaAgent, office_from, president_from
from actors.alpha.options import AgentOptions
from actors.alpha.traits import Traits
from actors.hanabi.alpha import AlphaParams
from actors.hanabi.offices import (
    AlphaIntelligenceOffice,
    AlphaStrategyOffice,
    EstimationIntelligenceOffice,
    OsawaStrategyOffice,
)
from actors.registry import AgentDef

GAMES = frozenset({"hanabi"})
SO_VIEW = ("beliefs", "legal", "observation", "seat")
IO_VIEW = ("observation", "seat")
PRESIDENT = president_from(views={"so": SO_VIEW, "io": IO_VIEW})


class _Options(AgentOptions):
    roles = ("so",)
    traits: Traits = Traits(risk=0.0)  # risk 0: the President takes the best suggestion


class PlainOptions(_Options):
    """osawa-random and full-information: no options beyond offices and traits."""


class RationalOptions(_Options):
    counting: bool = True  # count visible cards (discards, fireworks, partners' hands)


class SelfEstimationOptions(RationalOptions):
    roles = ("io", "so")
    offices: tuple[str, ...] = ("io", "so")
    a: float = Field(2.5, gt=0.0)  # Osawa: believe when top > a * second; 2.5 was his best
    copies: bool = False  # weigh hands by physical copies (True) or distinct identities (False)
    believe_discard: bool = True  # a card believed useless is discarded (rational step 2)


class AlphaOptions(_Options):
    roles = ("io", "so")
    offices: tuple[str, ...] = ("io", "so")
    width: int = Field(3, ge=1)  # suggestions the SO hands the President
    params: AlphaParams = Field(default_factory=AlphaParams)  # the SO's utilities (actors/hanabi/alpha.py)


def _osawa(strategy: str, model: type[_Options]) -> AlphaAgent:
    """One of Osawa's strategies as a Strategy Office (self-estimation: with its IO)."""

    def so(address: str, seed: int, opts: _Options) -> Actor:
        return OsawaStrategyOffice(address, seed, strategy, opts.model_dump(mode="json"))

    offices = {"io": office_from(EstimationIntelligenceOffice, "a", "copies"), "so": so}
    return AlphaAgent(options=model, president=PRESIDENT, offices=offices)


ALPHA = AlphaAgent(
    options=AlphaOptions,
    president=PRESIDENT,
    offices={"io": office_from(AlphaIntelligenceOffice), "so": office_from(AlphaStrategyOffice, "width", "params")},
)


AGENTS: list[AgentDef] = [
    AgentDef("osawa-random", GAMES, _osawa("osawa-random", PlainOptions).build,
             "Osawa 2015 random strategy: 30% hint, 40% discard, 30% play",
             budget={"hanabi": {"players": 3}}),
    AgentDef("full-information", GAMES, _osawa("full-information", PlainOptions).build,
             "Osawa 2015 full-information strategy (needs option reveal_own_cards=true)",
             budget={"hanabi": {"players": 2, "reveal_own_cards": True}},
             requires={"hanabi": {"reveal_own_cards": True}}),
    AgentDef("rational", GAMES, _osawa("rational", RationalOptions).build,
             "Osawa 2015 rational strategy: acts on certain knowledge only",
             budget={"hanabi": {"players": 2}}),
    AgentDef("self-estimation", GAMES, _osawa("self-estimation", SelfEstimationOptions).build,
             "Osawa 2015 self-estimation: rational + IO simulating the partner's last hint",
             budget={"hanabi": {"players": 4}}),
    AgentDef("alpha", GAMES, ALPHA.build,
             "Alpha Hanabi agent: utility-ranking SO, belief IO, chop/focus hint protocol",
             budget={"hanabi": {"players": 3}}),
]
