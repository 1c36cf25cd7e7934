"""The President (thesis chapter 4): holds the knowledge base, asks the offices for work, acts.

A decision runs as a pipeline of office requests: Intelligence Office `update` (trust and
opponent models), Strategy Office `suggest`; then the President picks the action: a confirmed
deal's action (kept with probability `honesty`), else a suggestion drawn with probability growing
with utility (flattened by `risk`), else a uniformly random legal action. A talk turn goes to the
Foreign Office (`negotiate`), whose talk the President sends. Absent offices are skipped. Every
KB change an office proposes is applied here and logged as a `kb_change` event.

That run is a template: a game's President overrides a hook or two (`observe`, `plan_act`,
`plan_talk`, `view`, `decide`, `choose`, `on_heard`) and never the pipeline that calls them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from actors.actor import Actor
from actors.alpha.baseline import randbelow
from actors.alpha.kb import KnowledgeBase
from actors.alpha.offices import Office, plain_answer
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
    built,
)

# The KB sections each office is shown with a request (the "view" of thesis section 4.1).
DEFAULT_VIEWS: dict[str, tuple[str, ...]] = {
    "io": ("beliefs", "deals", "inbox", "observation", "seat", "trust"),
    "so": ("beliefs", "deals", "legal", "observation", "seat", "traits", "trust"),
    "fo": ("beliefs", "deals", "inbox", "observation", "seat", "suggestions", "talk", "traits", "trust"),
}


class Step(NamedTuple):
    """One office request of a turn: ask the office in `role` to do `task` (e.g. "so", "suggest")."""

    role: str
    task: str


_ACT_STEPS = (Step("io", "update"), Step("so", "suggest"))
_TASKS = frozenset(("update", "suggest", "negotiate", "deal_utility"))  # bus.messages.Task
_TALK_STEPS = (Step("fo", "negotiate"),)


@dataclass
class _Job:
    """One decision or talk turn in progress."""

    request: ActRequest | TalkTurn
    steps: list[Step]  # still to ask
    suggestions: list[Suggestion] = field(default_factory=list)
    says: tuple = ()
    asked: Step | None = None


class President(Actor):
    """The player's face to the referee; the only holder of the knowledge base.

    A turn runs as a template: `observe` the request, plan its office steps (`plan_act` or
    `plan_talk`; steps for absent offices are dropped), ask each office in turn with its `view`,
    then `decide` (`choose` an action) or send the Foreign Office's talk. A game's President
    overrides the hooks it needs. `speaks`: whether the referee asks this player to talk, by
    default whether it has a Foreign Office."""

    def __init__(
        self,
        address: str,
        seed: int,
        seat: int,
        offices: dict[str, str],
        traits: Traits,
        views: dict[str, tuple[str, ...]] | None = None,
        speaks: bool | None = None,
    ):
        super().__init__(address, seed)
        self.views = {**DEFAULT_VIEWS, **(views or {})}
        self.offices = dict(sorted(offices.items()))  # role -> address
        self.traits = traits
        self.speaks: bool = "fo" in offices if speaks is None else speaks
        # the traits' dump: their field dict where they are plain Traits (floats only, nothing nested)
        dumped = dict(traits.__dict__) if type(traits) is Traits else traits.model_dump()
        self.kb = KnowledgeBase({"seat": seat, "traits": dumped, "inbox": []})
        self.job: _Job | None = None
        self._roles: tuple[dict[str, str], dict[str, str]] = ({}, {})  # (offices, address -> role) of them
        # offices asked in this process instead of over the bus (`attach_local`), from log format 3 on
        # (actors.lineup tells every actor with a `log_format` its header's; 2 until told: the old way)
        self.log_format = 2
        self._local: dict[str, Actor] = {}
        self._direct: Actor | None = None  # the one local office asked by `suggest_legal` (attach_local)

    def attach_local(self, actors: dict[str, Actor]) -> None:
        """Of the game's actors by address (actors.lineup, once the lineup is built), this player's
        offices whose class itself declares `local` (a pure answer: the request and the office's own
        generator in, suggestions out, nothing to record; a subclass does not inherit the promise):
        from format 3 on the President asks each with a direct call, so neither the request nor the
        reply is a message (the same draws, so the same actions). Every placement builds the seat's
        actors together in the President's process, so each makes the same calls: inline the
        office's actor is the object called and hears nothing over the bus; on Ray its actor
        elsewhere hears nothing."""
        local = {}
        for role, address in sorted(self.offices.items()):
            office = actors.get(address)
            if office is not None and vars(type(office)).get("local", False):
                local[role] = office
        self._local = local
        self._direct = self._direct_office()

    def _direct_office(self) -> Actor | None:
        """The office a decision is asked of by a plain call to its `suggest_legal`, or None.

        Where the template would do nothing but ask one local Strategy Office to suggest (a base
        President, so no hook is overridden; its one office the Strategy Office, so there is no
        other step; that office's class declaring `suggest_legal` itself, the answer its `suggest`
        gives from the legal actions alone, and answering through the base Office), the request,
        the view and the answer are left out: the same draws, the same KB, the same act."""
        if type(self) is not President or self.log_format < 3 or list(self.offices) != ["so"]:
            return None
        office = self._local.get("so")
        if office is None or "suggest_legal" not in vars(type(office)):
            return None
        cls = type(office)
        if cls.handle is not Office.handle or cls.answer is not Office.answer or "suggest" not in cls.tasks:
            return None
        return office

    @property
    def observes(self) -> bool:
        """Whether this player reads the observation its requests carry: always for a game's own
        President (its hooks may), else whether a view shown to one of its offices holds it. The
        referee sends a player that does not none (log format 4 on: actors.lineup.observers)."""
        if type(self) is not President:
            return True
        views = self.views
        return any("observation" in views.get(role, ("observation",)) for role in self.offices)

    def handle(self, message: Message) -> list[Message]:
        direct = self._direct
        if direct is not None and type(message) is ActRequest:
            return self._act_direct(message, direct)
        if isinstance(message, (ActRequest, TalkTurn)):
            self.observe(message)
            steps = self.plan_act(message) if isinstance(message, ActRequest) else self.plan_talk(message)
            offices = self.offices
            self.job = _Job(message, [s for s in steps if s[0] in offices])
            return self._next()
        if isinstance(message, Heard):
            self.on_heard(message)
            return []
        if isinstance(message, OfficeReply):
            return self._on_reply(message)
        if isinstance(message, Fault):
            return self._on_fault(message)
        return []

    # -- hooks ------------------------------------------------------------------------------

    def observe(self, request: ActRequest | TalkTurn) -> None:
        """Record a request in the KB before planning; override to keep more, calling super first."""
        # the KB's `set` three times over, in one copy of its top level (the KB is never mutated in place)
        data = dict(self.kb.data)
        data["observation"] = request.observation  # a dict: never None, so it is set, not deleted
        if request.kind == "act_request":
            data["legal"] = list(request.legal)
            data.pop("talk", None)  # talk is over once a decision is asked for
        else:
            data["talk"] = {"channel": request.channel, "round": request.round, "max_rounds": request.max_rounds}
        self.kb.data = data

    def plan_act(self, request: ActRequest) -> list[Step]:
        """The office steps before a decision; override to ask other offices or tasks."""
        return list(_ACT_STEPS)

    def plan_talk(self, turn: TalkTurn) -> list[Step]:
        """The office steps of a talk turn (the last answer's `says` is sent); override likewise."""
        return list(_TALK_STEPS)

    def view(self, step: Step, request: ActRequest | TalkTurn) -> dict[str, Any]:
        """The KB view sent with `step`; override to trim or widen it per task."""
        return self.kb.view(self.views[step.role])

    def decide(self, request: ActRequest, suggestions: list[Suggestion]) -> list[Message]:
        """The messages ending a decision (its Act); override to log a plan with it."""
        action = self.choose(request, suggestions)
        if type(action) is not str:
            return [Act(sender=self.address, to=REFEREE, turn=request.turn, action=action)]  # validated: raises
        return [built(Act, {"sender": self.address, "to": REFEREE, "kind": "act", "turn": request.turn, "action": action})]

    def choose(self, request: ActRequest, suggestions: list[Suggestion]) -> str:
        """The action to play (a kept deal, a suggestion by utility, a random one); override for another policy."""
        legal = request.legal
        commitments = self.kb.data.get("commitments")
        committed = commitments.get(str(request.turn)) if type(commitments) is dict else None
        if committed is not None and committed in legal and self.rng.random() < self.traits.honesty:
            return committed
        usable = [s for s in suggestions if s.action in legal]
        if usable:
            return _weighted_pick(self.rng, usable, self.traits.risk)
        return legal[self.rng.randrange(len(legal))] if legal else "abstain"

    def on_heard(self, message: Heard) -> None:
        """Record talk heard in the inbox; override to stamp lines or note the speakers."""
        self.kb.set(("inbox",), self.kb.get("inbox", default=[]) + heard_lines(message))

    # -- pipeline ---------------------------------------------------------------------------

    def _next(self) -> list[Message]:
        job = self.job
        request = job.request
        if job.steps:
            step = job.asked = job.steps.pop(0)
            legal = request.legal if request.kind == "act_request" else ()
            view = self.view(step, request)
            fields = {"sender": self.address, "to": self.offices[step.role], "kind": "office_request", "task": step.task,
                      "turn": request.turn, "view": view, "legal": legal}
            if step.task not in _TASKS or type(view) is not dict:
                asking = OfficeRequest(**fields)  # validated: a hook's mistake raises here, as it always did
            else:
                asking = built(OfficeRequest, fields)
            local = self._local.get(step.role) if self._local and self.log_format >= 3 else None
            if local is not None and local.address == asking.to:  # an office's failure is the President's here
                return self._local_answer(local, asking)
            return [asking]
        self.job = None
        if request.kind == "talk_turn":
            return [built(Talk, {"sender": self.address, "to": REFEREE, "kind": "talk", "turn": request.turn,
                                 "channel": request.channel, "round": request.round, "says": job.says})]
        return self.decide(request, job.suggestions)

    def _role_of(self, address: str) -> str | None:
        """The role of the office at `address` (offices may be swapped: a game's President picks its set)."""
        offices, roles = self._roles
        if offices is not self.offices:
            offices = self.offices
            roles = {}
            for role, addr in offices.items():
                roles.setdefault(addr, role)  # the first role in role order, as a scan would find
            self._roles = (offices, roles)
        return roles.get(address)

    def _on_reply(self, reply: OfficeReply) -> list[Message]:
        job = self.job
        role = self._role_of(reply.sender)
        if job is None or job.asked != (role, reply.task) or reply.turn != job.request.turn:
            return []  # stale answer: the referee moved on
        out: list[Message] = []
        if reply.updates:
            self.kb.apply(reply.updates)
            out.append(built(KBChange, {"sender": self.address, "to": LOG, "kind": "kb_change", "turn": reply.turn,
                                        "source": reply.sender, "updates": reply.updates}))
        if reply.suggestions:
            job.suggestions = list(reply.suggestions)
            # dump of a Suggestion is a copy of its field dict (it nests nothing)
            self.kb.set(("suggestions",), [dict(s.__dict__) if type(s) is Suggestion else dump(s) for s in reply.suggestions])
        if reply.says:
            job.says = reply.says
        return out + self._next()

    def _local_answer(self, office: Actor, asking: OfficeRequest) -> list[Message]:
        """A local office's answer taken as its reply would be, without the reply: the same KB
        changes and records (a reply whose items need validating is made and read as one)."""
        answer = getattr(office, "answer", None)
        if answer is None or getattr(type(office), "handle", None) is not Office.handle:
            return self._on_reply(office.handle(asking)[0])  # an office that answers in its own way
        got = answer(asking)
        suggestions, says, updates = tuple(got.suggestions), tuple(got.says), tuple(got.updates)
        if not plain_answer(suggestions, says, updates):
            return self._on_reply(office.reply(asking, got))
        job = self.job
        out: list[Message] = []
        if updates:
            self.kb.apply(updates)
            out.append(built(KBChange, {"sender": self.address, "to": LOG, "kind": "kb_change", "turn": asking.turn,
                                        "source": office.address, "updates": updates}))
        if suggestions:
            job.suggestions = list(suggestions)
            self.kb.set(("suggestions",), [dict(s.__dict__) if type(s) is Suggestion else dump(s) for s in suggestions])
        if says:
            job.says = says
        return out + self._next()

    def _act_direct(self, request: ActRequest, office: Any) -> list[Message]:
        """A decision of the template with its one step (the Strategy Office's `suggest`) taken by a
        direct call (see `_direct_office`): what `handle`, `_next` and `_local_answer` do for it."""
        self.job = None
        legal = request.legal
        kb = self.kb
        try:
            suggestions = office.suggest_legal(legal)
        except BaseException:
            kb.decided(request.observation, legal, None)  # what `observe` wrote before the office failed
            raise
        # `observe` (the base President's: no hook is overridden) and the suggestions (Suggestions
        # nest nothing), written when the KB is next read
        kb.decided(request.observation, legal, suggestions)
        if not suggestions or kb.holds("commitments"):
            return self.decide(request, suggestions)
        # `choose` without a commitment: every suggestion is one of the legal actions
        first = suggestions[0].utility
        uniform = True
        for s in suggestions:
            if s.utility != first:
                uniform = False
                break
        if uniform:  # all equal: uniform (`_weighted_pick`)
            action = suggestions[randbelow(self._rng or self.rng, len(suggestions))].action
        else:
            action = _weighted_pick(self._rng or self.rng, suggestions, self.traits.risk)
        return [built(Act, {"sender": self.address, "to": REFEREE, "kind": "act", "turn": request.turn, "action": action})]

    def _on_fault(self, fault: Fault) -> list[Message]:
        job = self.job
        if job is None or job.asked is None or self.offices.get(job.asked.role) != fault.actor:
            return []
        return self._next()  # the office failed: go on without its advice


def heard_lines(message: Heard, **stamp: Any) -> list[dict[str, Any]]:
    """The inbox entries of heard talk: turn, channel, round, then `stamp`, then the line itself."""
    where = {"turn": message.turn, "channel": message.channel, "round": message.round, **stamp}
    return [{**where, **line.model_dump(mode="json")} for line in message.lines]


def _weighted_pick(rng: Any, suggestions: list[Suggestion], risk: float) -> str:
    """Probability grows with utility; risk 0 -> best only, risk 1 -> proportional weights."""
    utilities = [s.utility for s in suggestions]
    top, floor = max(utilities), min(utilities)
    if top == floor:  # all equal: uniform
        return suggestions[randbelow(rng, len(suggestions))].action
    if risk <= 0.0:
        best = [s for s in suggestions if s.utility == top]
        return best[rng.randrange(len(best))].action
    weights = [(s.utility - floor) + risk * (top - floor + 1.0) for s in suggestions]
    return rng.choices([s.action for s in suggestions], weights=weights)[0]
