"""The President (thesis chapter 4): holds the knowledge base, asks the offices for work, acts.

A decision runs as a pipeline of office requests: Intelligence Office `update` (trust and
opponent models), Strategy Office `suggest`; then the President picks the action: a confirmed
deal's action (kept with probability `honesty`), else a suggestion drawn with probability growing
with utility (flattened by `risk`), else a uniformly random legal action. A talk turn goes to the
Foreign Office (`negotiate`), whose talk the President sends. Absent offices are skipped. Every
KB change an office proposes is applied here and logged as a `kb_change` event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from actors.actor import Actor
from actors.alpha.kb import KnowledgeBase
from actors.alpha.traits import Traits
from bus.codec import dump
from bus.messages import (
    LOG,
    REFEREE,
    Act,
    ActRequest,
    Fault,
    Heard,
    KBChange,
    Message,
    OfficeReply,
    OfficeRequest,
    Suggestion,
    Talk,
    TalkTurn,
)

# The KB sections each office is shown with a request (the "view" of thesis section 4.1).
DEFAULT_VIEWS: dict[str, tuple[str, ...]] = {
    "io": ("beliefs", "deals", "inbox", "observation", "seat", "trust"),
    "so": ("beliefs", "deals", "legal", "observation", "seat", "traits", "trust"),
    "fo": ("beliefs", "deals", "inbox", "observation", "seat", "suggestions", "talk", "traits", "trust"),
}


@dataclass
class _Job:
    """One decision or talk turn in progress."""

    kind: str  # "act" or "talk"
    request: ActRequest | TalkTurn
    steps: list[tuple[str, str]]  # (office role, task) still to ask
    suggestions: list[Suggestion] = field(default_factory=list)
    says: tuple = ()
    asked: tuple[str, str] | None = None


class President(Actor):
    """The player's face to the referee; the only holder of the knowledge base."""

    def __init__(
        self,
        address: str,
        seed: int,
        seat: int,
        offices: dict[str, str],
        traits: Traits,
        views: dict[str, tuple[str, ...]] | None = None,
    ):
        super().__init__(address, seed)
        self.views = {**DEFAULT_VIEWS, **(views or {})}
        self.offices = dict(sorted(offices.items()))  # role -> address
        self.traits = traits
        self.kb = KnowledgeBase({"seat": seat, "traits": traits.model_dump(), "inbox": []})
        self.job: _Job | None = None

    def handle(self, message: Message) -> list[Message]:
        if isinstance(message, ActRequest):
            self.kb.set(("observation",), message.observation)
            self.kb.set(("legal",), list(message.legal))
            steps = [(role, task) for role, task in (("io", "update"), ("so", "suggest")) if role in self.offices]
            self.job = _Job("act", message, steps)
            return self._next()
        if isinstance(message, TalkTurn):
            self.kb.set(("observation",), message.observation)
            self.kb.set(("talk",), {"channel": message.channel, "round": message.round, "max_rounds": message.max_rounds})
            steps = [("fo", "negotiate")] if "fo" in self.offices else []
            self.job = _Job("talk", message, steps)
            return self._next()
        if isinstance(message, Heard):
            heard = [
                {"turn": message.turn, "channel": message.channel, "round": message.round, **line.model_dump(mode="json")}
                for line in message.lines
            ]
            self.kb.set(("inbox",), self.kb.get("inbox", default=[]) + heard)
            return []
        if isinstance(message, OfficeReply):
            return self._on_reply(message)
        if isinstance(message, Fault):
            return self._on_fault(message)
        return []

    # -- pipeline ---------------------------------------------------------------------------

    def _next(self) -> list[Message]:
        job = self.job
        if job.steps:
            role, task = job.steps.pop(0)
            job.asked = (role, task)
            legal = job.request.legal if job.kind == "act" else ()
            view = self.kb.view(self.views[role])
            return [OfficeRequest(sender=self.address, to=self.offices[role], task=task, turn=job.request.turn, view=view, legal=legal)]
        self.job = None
        request = job.request
        if job.kind == "talk":
            return [Talk(sender=self.address, to=REFEREE, turn=request.turn, channel=request.channel, round=request.round, says=job.says)]
        return [Act(sender=self.address, to=REFEREE, turn=request.turn, action=self._choose(request, job.suggestions))]

    def _on_reply(self, reply: OfficeReply) -> list[Message]:
        job = self.job
        role = next((r for r, addr in self.offices.items() if addr == reply.sender), None)
        if job is None or job.asked != (role, reply.task) or reply.turn != job.request.turn:
            return []  # stale answer: the referee moved on
        out: list[Message] = []
        if reply.updates:
            self.kb.apply(reply.updates)
            out.append(KBChange(sender=self.address, to=LOG, turn=reply.turn, source=reply.sender, updates=reply.updates))
        if reply.suggestions:
            job.suggestions = list(reply.suggestions)
            self.kb.set(("suggestions",), [dump(s) for s in reply.suggestions])
        if reply.says:
            job.says = reply.says
        return out + self._next()

    def _on_fault(self, fault: Fault) -> list[Message]:
        job = self.job
        if job is None or job.asked is None or self.offices.get(job.asked[0]) != fault.actor:
            return []
        return self._next()  # the office failed: go on without its advice

    # -- choosing ---------------------------------------------------------------------------

    def _choose(self, request: ActRequest, suggestions: list[Suggestion]) -> str:
        legal = request.legal
        committed = self.kb.get("commitments", str(request.turn))
        if committed in legal and self.rng.random() < self.traits.honesty:
            return committed
        usable = [s for s in suggestions if s.action in legal]
        if usable:
            return _weighted_pick(self.rng, usable, self.traits.risk)
        return legal[self.rng.randrange(len(legal))] if legal else "abstain"


def _weighted_pick(rng: Any, suggestions: list[Suggestion], risk: float) -> str:
    """Probability grows with utility; risk 0 -> best only, risk 1 -> proportional weights."""
    top = max(s.utility for s in suggestions)
    floor = min(s.utility for s in suggestions)
    if top == floor:  # all equal: uniform
        return suggestions[rng.randrange(len(suggestions))].action
    if risk <= 0.0:
        best = [s for s in suggestions if s.utility == top]
        return best[rng.randrange(len(best))].action
    weights = [(s.utility - floor) + risk * (top - floor + 1.0) for s in suggestions]
    return rng.choices([s.action for s in suggestions], weights=weights)[0]
