"""Diplomacy agents, registered for specs and tournaments.

    dumbbot                                   President + DumbBot Strategy Office (risk 0)
    dumbbot:params.play_alternative=0         DumbBot that always plays its best candidate
    dumbbot:params.neutral_attack=zero        unowned centres not attractive (the Python port)

(The generic `random` agent, uniform over each unit's legal orders, plays Diplomacy too.)
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from actors.actor import Actor
from actors.alpha.offices import office_set
from actors.alpha.president import President
from actors.alpha.traits import Traits
from actors.diplomacy.dumbbot import DumbBotParams
from actors.diplomacy.offices import DumbBotStrategyOffice
from actors.registry import AgentDef

GAMES = frozenset({"diplomacy"})
SO_VIEW = ("observation",)  # the legal orders travel with the request


class DumbBotOptions(BaseModel):
    """Options of `dumbbot`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    offices: str = "so"  # the President alone ("") plays uniformly random legal orders
    traits: Traits = Traits(risk=0.0)  # risk 0: the President plays the SO's top suggestion
    params: DumbBotParams = Field(default_factory=DumbBotParams)
    width: int = Field(3, ge=1)  # suggestions per request: the chosen order, then alternatives

    @field_validator("offices", mode="before")
    @classmethod
    def _offices(cls, value: Any) -> Any:
        return "+".join(office_set(value, ("so",), "dumbbot"))


def build_dumbbot(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list[Actor]:
    opts = DumbBotOptions.model_validate(raw)
    pr = f"p{seat}"
    offices = {"so": f"{pr}/so"} if opts.offices else {}
    actors: list[Actor] = [President(pr, seed, seat, offices, opts.traits, views={"so": SO_VIEW})]
    if offices:
        actors.append(DumbBotStrategyOffice(offices["so"], seed, opts.params, opts.width))
    return actors


AGENTS: list[AgentDef] = [
    AgentDef("dumbbot", GAMES, build_dumbbot,
             "DumbBot (Norman 2002): province values, proximity maps, randomised order choice",
             budget={"diplomacy": {"max_year": 1902}}),
]

# AlphaDip and DipBlue (issue 7 part B): built in actors/diplomacy/alphadip/agents.py
from actors.diplomacy.alphadip.agents import AGENTS as _ALPHA_AGENTS

AGENTS += _ALPHA_AGENTS
