"""Hand-built observations, talk lines and office requests for the AlphaWolf tests."""

from __future__ import annotations

from typing import Any

from bus.messages import OfficeRequest


def obs(me: int = 0, role: str = "villager", day: int = 1, phase: str = "day", alive=None,
        known: dict[int, str] | None = None, events=(), n: int = 10) -> dict[str, Any]:
    """An observation shaped like WerewolvesState.observation (known roles include one's own)."""
    known = {me: role, **(known or {})}
    return {
        "me": me, "role": role, "phase": phase, "day": day, "num_players": n,
        "alive": list(range(n)) if alive is None else list(alive), "candidates": [],
        "known_roles": {str(q): known[q] for q in sorted(known)}, "events": list(events), "winner": None,
    }


def line(speaker: int, *says: dict[str, Any], turn: int = 3, rnd: int = 0, channel: str = "public",
         day: int = 1, phase: str = "day") -> dict[str, Any]:
    """One heard line as the President stores it in its inbox."""
    return {"turn": turn, "channel": channel, "round": rnd, "day": day, "phase": phase,
            "speaker": speaker, "says": list(says)}


def propose(pid: int, target: int, deal: str = "joint_vote") -> dict[str, Any]:
    return {"kind": "ww_propose", "proposal_id": pid, "deal": deal, "target": target}


def accept(pid: int, proposer: int) -> dict[str, Any]:
    return {"kind": "ww_accept", "proposal_id": pid, "proposer": proposer}


def retract(pid: int) -> dict[str, Any]:
    return {"kind": "ww_retract", "proposal_id": pid}


def bid(target: int, preference: float) -> dict[str, Any]:
    return {"kind": "ww_bid", "target": target, "preference": preference}


def request(task: str, view: dict[str, Any], turn: int = 3, legal=(), to: str = "p0/so") -> OfficeRequest:
    return OfficeRequest(sender="p0", to=to, task=task, turn=turn, view=view, legal=tuple(legal))


def spread(**certainty: float) -> dict[str, float]:
    """A certainty table with the roles not named at 0."""
    return {r: float(certainty.get(r, 0.0)) for r in ("doctor", "seer", "villager", "werewolf")}
