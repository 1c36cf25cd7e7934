"""Office base classes (thesis chapter 4): each answers the President's requests.

An office gets an `OfficeRequest` carrying the KB view it needs and answers with an
`OfficeReply`: suggestions (Strategy Office), talk to send (Foreign Office), KB updates it
proposes (any office). Offices hold no authority: the President applies what it accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from actors.actor import Actor
from bus.messages import KBUpdate, Message, OfficeReply, OfficeRequest, Suggestion, built
from games.api import TalkItem


@dataclass
class Answer:
    """What an office method returns; the base class wraps it in an OfficeReply."""

    suggestions: list[Suggestion] = field(default_factory=list)
    says: list[Any] = field(default_factory=list)
    updates: list[KBUpdate] = field(default_factory=list)


OFFICE_ROLES = ("fo", "io", "so")


def office_set(value: Any, allowed: tuple[str, ...] = OFFICE_ROLES, agent: str = "this agent") -> tuple[str, ...]:
    """An agent's office option, `"so+fo+io"` or a list, as sorted unique roles.

    The President is always there, so "pr" is accepted and dropped. Raises ValueError naming
    the offices `agent` does not have (pydantic turns it into a one-line option error)."""
    if isinstance(value, (list, tuple)):
        value = "+".join(str(v) for v in value)
    if not isinstance(value, str):
        raise ValueError(f"offices: a string like 'so+fo+io', got {value!r}")  # noqa: TRY004 (pydantic wants ValueError)
    parts = sorted({p.strip().lower() for p in value.split("+") if p.strip()} - {"pr"})
    bad = [p for p in parts if p not in allowed]
    if bad:
        raise ValueError(f"{agent} has no office {', '.join(bad)} (it has: {', '.join(sorted(allowed))})")
    return tuple(parts)


def _models(items: tuple, cls: type) -> bool:
    """Every item an instance of `cls` (which validation passes through unchanged)."""
    for item in items:
        if not isinstance(item, cls):
            return False
    return True


def plain_answer(suggestions: tuple, says: tuple, updates: tuple) -> bool:
    """Every item already the model its reply field holds (so validation would change nothing)."""
    return ((not suggestions or _models(suggestions, Suggestion)) and (not says or _models(says, TalkItem))
            and (not updates or _models(updates, KBUpdate)))


class Office(Actor):
    """Dispatches a request's task to the method of the same name."""

    role: ClassVar[str]
    tasks: ClassVar[frozenset[str]] = frozenset()

    def handle(self, message: Message) -> list[Message]:
        if not isinstance(message, OfficeRequest):
            return []
        return [self.reply(message, self.answer(message))]

    def answer(self, message: OfficeRequest) -> Answer:
        """The office's work on a request: the method named by its task."""
        if message.task not in self.tasks:
            raise ValueError(f"{type(self).__name__} does not do {message.task!r}")
        return getattr(self, message.task)(message)

    def reply(self, message: OfficeRequest, answer: Answer) -> OfficeReply:
        """The reply carrying `answer` to `message`'s sender."""
        suggestions, says, updates = tuple(answer.suggestions), tuple(answer.says), tuple(answer.updates)
        fields = {"sender": self.address, "to": message.sender, "kind": "office_reply", "task": message.task,
                  "turn": message.turn, "suggestions": suggestions, "says": says, "updates": updates}
        if plain_answer(suggestions, says, updates):
            return built(OfficeReply, fields)  # what validation would make of models: the same models
        return OfficeReply(**fields)  # raw items (dicts, a talk item by its kind): validated, as always


class StrategyOffice(Office):
    """Suggests moves with utilities; computes the utility of a deal on request."""

    role = "so"
    tasks = frozenset({"suggest", "deal_utility"})

    def suggest(self, request: OfficeRequest) -> Answer:
        return Answer()

    def deal_utility(self, request: OfficeRequest) -> Answer:
        return Answer()


class ForeignOffice(Office):
    """Negotiates: proposes, accepts, rejects, retracts deals; records them in the KB."""

    role = "fo"
    tasks = frozenset({"negotiate"})

    def negotiate(self, request: OfficeRequest) -> Answer:
        return Answer()


class IntelligenceOffice(Office):
    """Updates trust and opponent models (predicted goals / roles) after each phase."""

    role = "io"
    tasks = frozenset({"update"})

    def update(self, request: OfficeRequest) -> Answer:
        return Answer()
