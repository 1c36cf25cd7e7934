"""Diplomacy agents, registered for specs and tournaments.

    dumbbot                                   President + DumbBot Strategy Office (risk 0)
    dumbbot:params.play_alternative=0         DumbBot that always plays its best candidate
    dumbbot:params.neutral_attack=zero        unowned centres not attractive (the Python port)

(The generic `random` agent, uniform over each unit's legal orders, plays Diplomacy too.)
"""

from __future__ import annotations

from pydantic import Field

from actors.alpha.builder import AlphaAgent, office_from, president_from
from actors.alpha.options import AgentOptions
from actors.alpha.traits import Traits
from actors.diplomacy.dumbbot import DumbBotParams
from actors.diplomacy.offices import DumbBotStrategyOffice
from actors.registry import AgentDef

GAMES = frozenset({"diplomacy"})
SO_VIEW = ("observation",)  # the legal orders travel with the request


class DumbBotOptions(AgentOptions):
    """Options of `dumbbot` (`offices=`: the President alone plays uniformly random legal orders)."""

    roles = ("so",)
    agent = "dumbbot"
    traits: Traits = Traits(risk=0.0)  # risk 0: the President plays the SO's top suggestion
    params: DumbBotParams = Field(default_factory=DumbBotParams)
    width: int = Field(3, ge=1)  # suggestions per request: the chosen order, then alternatives


DUMBBOT = AlphaAgent(
    options=DumbBotOptions,
    president=president_from(views={"so": SO_VIEW}),
    offices={"so": office_from(DumbBotStrategyOffice, "params", "width")},
)


AGENTS: list[AgentDef] = [
    AgentDef("dumbbot", GAMES, DUMBBOT.build,
             "DumbBot (Norman 2002): province values, proximity maps, randomised order choice",
             budget={"diplomacy": {"max_year": 1902}}),
]

# AlphaDip and DipBlue: built in actors/diplomacy/alphadip/agents.py
from actors.diplomacy.alphadip.agents import AGENTS as _ALPHA_AGENTS

AGENTS += _ALPHA_AGENTS
