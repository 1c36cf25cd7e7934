"""The Diplomacy negotiation language (thesis section 5.1; DipGame's L1 and BANDANA's deals).

A deal is a set of commitments proposed by one power to the others it names: order commitments
(a power gives a given order in a given phase), demilitarised zones (the named powers move no
unit into the provinces in a phase), peace (no attacks among the powers until a year) and
alliances (allies do not attack one another and may be asked to attack the enemies, until a
year). Its parties are the proposer and every power a commitment binds. The referee confirms a
deal when every party has accepted it; deals are not binding unless the game's option says so:
at adjudication the rules compare the orders with the confirmed commitments and record each
broken deal, visible to its parties.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from games.api import TalkItem


class _Commitment(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OrderCommitment(_Commitment):
    """`power` gives `order` (package notation, e.g. "A PAR - BUR") in `phase` (e.g. "S1901M")."""

    type: Literal["order"] = "order"
    power: str
    phase: str
    order: str


class Dmz(_Commitment):
    """None of `powers` moves a unit into any of `provinces` in `phase`."""

    type: Literal["dmz"] = "dmz"
    phase: str
    powers: tuple[str, ...]
    provinces: tuple[str, ...]


class Peace(_Commitment):
    """No power of `powers` moves into, or supports a move into, another's unit or centre, until
    the end of year `until`."""

    type: Literal["peace"] = "peace"
    powers: tuple[str, ...]
    until: int


class Alliance(_Commitment):
    """`allies` keep peace among themselves and stand against `enemies` until the end of `until`."""

    type: Literal["alliance"] = "alliance"
    allies: tuple[str, ...]
    enemies: tuple[str, ...]
    until: int


Commitment = Annotated[Union[OrderCommitment, Dmz, Peace, Alliance], Field(discriminator="type")]


class DipPropose(TalkItem):
    """Propose deal number `deal_id` (unique per proposer) made of `commitments`."""

    kind: Literal["dip_propose"] = "dip_propose"
    deal_id: int = Field(ge=0)
    commitments: tuple[Commitment, ...] = Field(min_length=1)


class DipAccept(TalkItem):
    """Accept `proposer`'s deal `deal_id`."""

    kind: Literal["dip_accept"] = "dip_accept"
    proposer: str
    deal_id: int = Field(ge=0)


class DipReject(TalkItem):
    """Reject `proposer`'s deal `deal_id` (the deal is dead)."""

    kind: Literal["dip_reject"] = "dip_reject"
    proposer: str
    deal_id: int = Field(ge=0)


class DipRetract(TalkItem):
    """Withdraw one's own deal `deal_id` before it is confirmed."""

    kind: Literal["dip_retract"] = "dip_retract"
    deal_id: int = Field(ge=0)


TALK_MODELS = (DipPropose, DipAccept, DipReject, DipRetract)


def parties(proposer: str, commitments: tuple) -> tuple[str, ...]:
    """The powers a deal binds: its proposer and every power a commitment names as bound."""
    bound = {proposer}
    for c in commitments:
        if isinstance(c, OrderCommitment):
            bound.add(c.power)
        elif isinstance(c, (Dmz, Peace)):
            bound.update(c.powers)
        elif isinstance(c, Alliance):
            bound.update(c.allies)
    return tuple(sorted(bound))


def deal_key(proposer: str, deal_id: int) -> str:
    return f"{proposer}#{deal_id}"
