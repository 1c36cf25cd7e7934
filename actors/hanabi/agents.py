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

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from actors.actor import Actor
from actors.alpha.offices import office_set
from actors.alpha.president import President
from actors.alpha.traits import Traits
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


class _Offices(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    offices: tuple[str, ...] = ("so",)
    traits: Traits = Traits(risk=0.0)  # risk 0: the President takes the best suggestion

    @field_validator("offices", mode="before")
    @classmethod
    def _offices(cls, value: Any) -> tuple[str, ...]:
        return office_set(value, ("io", "so"))


class PlainOptions(_Offices):
    """osawa-random and full-information: no options beyond offices and traits."""


class RationalOptions(_Offices):
    counting: bool = True  # count visible cards (discards, fireworks, partners' hands)


class SelfEstimationOptions(RationalOptions):
    offices: tuple[str, ...] = ("io", "so")
    a: float = Field(2.5, gt=0.0)  # Osawa: believe when top > a * second; 2.5 was his best
    copies: bool = False  # weigh hands by physical copies (True) or distinct identities (False)
    believe_discard: bool = True  # a card believed useless is discarded (rational step 2)


class AlphaOptions(_Offices):
    offices: tuple[str, ...] = ("io", "so")
    width: int = Field(3, ge=1)  # suggestions the SO hands the President


def _president(seat: int, seed: int, opts: _Offices) -> tuple[str, dict[str, str], President]:
    pr = f"p{seat}"
    offices = {role: f"{pr}/{role}" for role in opts.offices}
    president = President(pr, seed, seat, offices, opts.traits, views={"so": SO_VIEW, "io": IO_VIEW})
    return pr, offices, president


def _osawa(strategy: str, model: type[_Offices]):
    def build(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list[Actor]:
        opts = model.model_validate(raw)
        _, offices, president = _president(seat, seed, opts)
        actors: list[Actor] = [president]
        if "io" in offices:
            if not isinstance(opts, SelfEstimationOptions):
                raise ValueError(f"{strategy} has no intelligence office")
            actors.append(EstimationIntelligenceOffice(offices["io"], seed, opts.a, opts.copies))
        if "so" in offices:
            actors.append(OsawaStrategyOffice(offices["so"], seed, strategy, opts.model_dump(mode="json")))
        return actors

    return build


def _build_alpha(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list[Actor]:
    opts = AlphaOptions.model_validate(raw)
    _, offices, president = _president(seat, seed, opts)
    actors: list[Actor] = [president]
    if "io" in offices:
        actors.append(AlphaIntelligenceOffice(offices["io"], seed))
    if "so" in offices:
        actors.append(AlphaStrategyOffice(offices["so"], seed, opts.width))
    return actors


AGENTS: list[AgentDef] = [
    AgentDef("osawa-random", GAMES, _osawa("osawa-random", PlainOptions),
             "Osawa 2015 random strategy: 30% hint, 40% discard, 30% play",
             budget={"hanabi": {"players": 3}}),
    AgentDef("full-information", GAMES, _osawa("full-information", PlainOptions),
             "Osawa 2015 full-information strategy (needs option reveal_own_cards=true)",
             budget={"hanabi": {"players": 2, "reveal_own_cards": True}}),
    AgentDef("rational", GAMES, _osawa("rational", RationalOptions),
             "Osawa 2015 rational strategy: acts on certain knowledge only",
             budget={"hanabi": {"players": 2}}),
    AgentDef("self-estimation", GAMES, _osawa("self-estimation", SelfEstimationOptions),
             "Osawa 2015 self-estimation: rational + IO simulating the partner's last hint",
             budget={"hanabi": {"players": 4}}),
    AgentDef("alpha", GAMES, _build_alpha,
             "Alpha Hanabi agent: utility-ranking SO, belief IO, chop/focus hint protocol",
             budget={"hanabi": {"players": 3}}),
]
