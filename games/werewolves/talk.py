"""Talk vocabulary of Werewolves: claims, accusations and the deals of the thesis (section 5.2).

Each item is a frozen pydantic model with a `kind` discriminator; seats and proposal ids are
strict non-negative ints. Whether an item makes sense at a given node (a real seat, an open
channel) is decided by `WerewolvesState.validate_talk`, not here.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from games.api import TalkItem

Seat = Annotated[int, Field(ge=0, strict=True)]
ProposalId = Annotated[int, Field(ge=0, strict=True)]
Role = Literal["werewolf", "villager", "seer", "doctor", "possessed", "bodyguard", "medium"]


class WwClaim(TalkItem):
    """A public claim to hold a role; the claim may be a lie."""

    kind: Literal["ww_claim"] = "ww_claim"
    role: Role


class WwResult(TalkItem):
    """A reported result, true or not: AIWolf's `DIVINED t s` (a seer's) or `IDENTIFIED t s` (a medium's)."""

    kind: Literal["ww_result"] = "ww_result"
    ability: Literal["divined", "identified"]
    target: Seat
    species: Literal["human", "werewolf"]


class WwAccuse(TalkItem):
    """An accusation that `target` is a werewolf."""

    kind: Literal["ww_accuse"] = "ww_accuse"
    target: Seat


class WwPropose(TalkItem):
    """A proposed deal: vote together against, investigate, or heal `target`."""

    kind: Literal["ww_propose"] = "ww_propose"
    proposal_id: ProposalId
    deal: Literal["joint_vote", "investigate", "heal"]
    target: Seat


class WwAccept(TalkItem):
    """Acceptance of proposal `proposal_id` made by `proposer`."""

    kind: Literal["ww_accept"] = "ww_accept"
    proposal_id: ProposalId
    proposer: Seat


class WwReject(TalkItem):
    """Rejection of proposal `proposal_id` made by `proposer`."""

    kind: Literal["ww_reject"] = "ww_reject"
    proposal_id: ProposalId
    proposer: Seat


class WwRetract(TalkItem):
    """Withdrawal by its proposer of proposal `proposal_id`."""

    kind: Literal["ww_retract"] = "ww_retract"
    proposal_id: ProposalId


class WwBid(TalkItem):
    """A werewolf's sealed night bid: how much it prefers attacking `target` (wolves channel)."""

    kind: Literal["ww_bid"] = "ww_bid"
    target: Seat
    preference: Annotated[float, Field(ge=0.0, allow_inf_nan=False)]


TALK_MODELS: tuple[type[TalkItem], ...] = (
    WwClaim,
    WwAccuse,
    WwPropose,
    WwAccept,
    WwReject,
    WwRetract,
    WwBid,
    WwResult,
)
