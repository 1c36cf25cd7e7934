"""The public record of one talk phase: which deals were proposed, accepted, retracted, bound.

Shared by the Foreign Office (what am I bound to?), the Intelligence Office (who broke a deal?)
and the transcript (what happened?), so all three read the same talk the same way.

Rules of the record (our reading of thesis algorithm 5, which runs in rounds):
- a proposal is `(proposer, proposal_id)`; a repeated id from the same proposer is ignored;
- an acceptance counts only for a proposal made in an earlier round, by someone else;
- an acceptance counts unless the proposal was retracted in an earlier round: one sent in the
  same round as the retraction met an open proposal (talk within a round is simultaneous);
- a joint vote binds its proposer once it has a counted acceptance, and binds each acceptor;
- a player bound by several joint votes (it accepted one while its own was being accepted)
  keeps the one with the largest coalition; ties: the earlier round, then its own acceptance,
  then the lower proposer seat. Every player computes the same from the same public talk.
Heal and investigation requests are accepted silently (thesis: confirming them would reveal the
role), so they never appear here as bound.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

Line = dict[str, Any]  # {"round", "speaker", "says": [talk item dicts]} (+ turn, channel, day, ...)


@dataclass
class Deal:
    proposer: int
    proposal_id: int
    deal: str
    target: int
    round: int
    retracted: int | None = None
    accepts: list[tuple[int, int]] = field(default_factory=list)  # (acceptor, round), counted
    void: list[tuple[int, int, str]] = field(default_factory=list)  # (acceptor, round, why not)

    @property
    def key(self) -> str:
        return deal_key(self.proposer, self.proposal_id)

    def binds(self) -> list[int]:
        """Players bound to vote against the target (proposer first, acceptors by round)."""
        if self.deal != "joint_vote" or not self.accepts:
            return []
        return [self.proposer] + [a for a, _ in self.accepts]


def deal_key(proposer: int, proposal_id: int) -> str:
    return f"{proposer}:{proposal_id}"


def lines_of(inbox: Iterable[Line], turn: int, channel: str) -> list[Line]:
    """The lines heard on `channel` before decision `turn`, in round and speaker order."""
    lines = [x for x in inbox if x.get("turn") == turn and x.get("channel") == channel]
    return sorted(lines, key=lambda x: (x["round"], x["speaker"]))


def items(lines: Iterable[Line], kind: str) -> list[tuple[int, int, dict[str, Any]]]:
    """(round, speaker, item) for every item of `kind`, in order."""
    return [(x["round"], x["speaker"], s) for x in lines for s in x["says"] if s.get("kind") == kind]


def read_deals(lines: list[Line]) -> dict[str, Deal]:
    """Every joint-vote / heal / investigate proposal of a phase with its fate, by key."""
    deals: dict[str, Deal] = {}
    for rnd, speaker, s in items(lines, "ww_propose"):
        key = deal_key(speaker, s["proposal_id"])
        if key not in deals:
            deals[key] = Deal(speaker, s["proposal_id"], s["deal"], s["target"], rnd)
    for rnd, speaker, s in items(lines, "ww_retract"):
        deal = deals.get(deal_key(speaker, s["proposal_id"]))
        if deal is not None and deal.retracted is None and rnd >= deal.round:
            deal.retracted = rnd
    for rnd, speaker, s in items(lines, "ww_accept"):
        deal = deals.get(deal_key(s["proposer"], s["proposal_id"]))
        if deal is None:
            continue
        why = None
        if rnd <= deal.round:
            why = "accepted before it was heard"
        elif deal.retracted is not None and deal.retracted < rnd:
            why = f"retracted in round {deal.retracted}"
        elif any(a == speaker for a, _ in deal.accepts):
            why = "accepted twice"
        if why:
            deal.void.append((speaker, rnd, why))
        else:
            deal.accepts.append((speaker, rnd))
    return deals


def binding(deals: dict[str, Deal], player: int) -> Deal | None:
    """The joint vote `player` is bound to keep (see the module rules), or None."""
    best: tuple | None = None
    chosen = None
    for deal in deals.values():
        members = deal.binds()
        if player not in members:
            continue
        joined = deal.round if player == deal.proposer else dict(deal.accepts)[player]
        rank = (-len(members), joined, player == deal.proposer, deal.proposer, deal.proposal_id)
        if best is None or rank < best:
            best, chosen = rank, deal
    return chosen


def bound_target(deals: dict[str, Deal], player: int) -> int | None:
    """The target `player` is bound to vote against, or None when it is bound to nothing."""
    deal = binding(deals, player)
    return None if deal is None else deal.target


def bid_totals(lines: list[Line]) -> dict[int, float]:
    """Sealed bids of a night: target -> total preference (each wolf's last bid per target)."""
    last: dict[tuple[int, int], float] = {}
    for _, speaker, s in items(lines, "ww_bid"):
        last[(speaker, s["target"])] = float(s["preference"])
    totals: dict[int, float] = {}
    for (_, target), pref in sorted(last.items()):
        totals[target] = totals.get(target, 0.0) + pref
    return totals


def bid_winner(lines: list[Line]) -> int | None:
    """Thesis 5.2.3: the target with the highest total preference; ties go to the lower seat."""
    totals = bid_totals(lines)
    if not totals:
        return None
    return min(totals, key=lambda t: (-totals[t], t))
