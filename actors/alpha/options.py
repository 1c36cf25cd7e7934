"""The options every Alpha agent has: which offices are switched on, and the President's traits.

An agent's options model subclasses `AgentOptions`, names the offices it has (`roles`), may change
the defaults of `offices` and `traits`, and adds its own fields (params, width...). `offices` is
always a sorted tuple of office names, `traits` always the `Traits` model.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, field_validator

from actors.alpha.offices import OFFICE_ROLES, office_set
from actors.alpha.traits import Traits


class AgentOptions(BaseModel):
    """Offices switched on (written `so+fo+io`; the President is always there) and traits."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    roles: ClassVar[tuple[str, ...]] = OFFICE_ROLES  # the offices this agent has
    agent: ClassVar[str] = "this agent"  # how errors name the agent
    offices: tuple[str, ...] = ("so",)
    traits: Traits = Traits()

    @field_validator("offices", mode="before")
    @classmethod
    def _offices(cls, value: Any) -> tuple[str, ...]:
        return cls.parse_offices(value)

    @classmethod
    def parse_offices(cls, value: Any) -> tuple[str, ...]:
        """An office option as sorted names; override to accept aliases (call super for the rest)."""
        return office_set(value, cls.roles, cls.agent)

    def office_names(self) -> tuple[str, ...]:
        """The offices to build, by name; override when more options than `offices` choose them."""
        return self.offices
