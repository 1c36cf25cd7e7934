"""Personality traits of an Alpha President (thesis section 4.1): each in [0, 1], 0.5 neutral."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Traits(BaseModel):
    """How the President weighs its offices' advice and its own deals."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    aggressiveness: float = Field(0.5, ge=0.0, le=1.0)
    trust: float = Field(0.5, ge=0.0, le=1.0)  # prior trust in others
    honesty: float = Field(0.5, ge=0.0, le=1.0)  # probability of keeping a confirmed deal
    risk: float = Field(0.5, ge=0.0, le=1.0)  # 0 always takes the best suggestion, 1 samples widely
