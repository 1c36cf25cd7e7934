"""Every message kind: frozen pydantic models in one discriminated union, one TypeAdapter.

Addresses are strings: "referee", a player "p3", its offices "p3/so", "p3/fo", "p3/io".
Messages addressed to "log" are records only: the bus stamps and logs them but delivers nothing.
Messages must be treated as immutable by receivers (inline placement shares the objects).

Validation happens at the boundaries (a log read, a spec, a Ray hand-over, an agent's own
constructor call); on the hot path our own code builds messages with `built`, which skips it.
"""

from __future__ import annotations

import os
from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, SerializeAsAny, TypeAdapter

from games.api import TalkItem
from games.registry import talk_model

M = TypeVar("M", bound=BaseModel)

LOG = "log"  # record-only address
REFEREE = "referee"
BUS = "bus"
RUNNER = "runner"



def _talk_item(value: Any) -> TalkItem:
    """A talk item of any installed game, chosen by its `kind` (the game's plugin loaded on demand)."""
    if isinstance(value, TalkItem):
        return value
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        raise ValueError("a talk item is a mapping with a string 'kind'")
    model = talk_model(value["kind"])
    if model is None:
        raise ValueError(f"unknown talk kind {value['kind']!r}")
    return model.model_validate(value)


# Every game's talk vocabulary in one field type: validated by kind, serialised as its own model.
TalkContent = Annotated[SerializeAsAny[TalkItem], PlainValidator(_talk_item)]


class Message(BaseModel):
    """Base: who sends it, to whom. Subclasses add `kind` and their payload."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    sender: str
    to: str


# --- limits -----------------------------------------------------------------------------------

MIB = 1 << 20
# Bounds of the limits themselves (ours): below what readers accept (bus.log: MAX_FRAME 16 MiB a
# frame, MAX_GAME_BYTES 64 MiB of frames a game; tests/hostile/test_limits_bus.py checks the relation).
MAX_MESSAGE_BYTES = 8 * MIB
MAX_GAME_BYTES = 56 * MIB


class Limits(BaseModel):
    """What one game's agents may do. A header records them with every default filled
    (actors.match.make_header) and the bus enforces them on every seat's actors, the same way when a
    game is played and when it is replayed; a header without limits (logs written before them)
    means none. The real games we know stay far below each default (largest seen: a 9.6 KB record,
    a seat logging 0.35 MB and 606 messages in a game, 7 talk items a round, 2 messages an answer).

    Per answer (what an actor returns for one message it handles), broken: the answer is refused
    from the message that breaks it on, the referee logs an error naming the actor and the limit and
    applies the rules' default where that seat owed a move. Per game and seat, run out: the seat is
    retired (its default from then on)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    message_bytes: int = Field(MIB, ge=256, le=MAX_MESSAGE_BYTES)  # one record of a seat's actor, as logged
    answer_messages: int = Field(64, ge=1, le=4096)  # messages in one answer
    talk_items: int = Field(64, ge=1, le=4096)  # items one speaker says on one channel in one round
    kb_bytes: int = Field(4 * MIB, ge=0, le=MAX_GAME_BYTES)  # KB updates (kb_change records) a seat logs in a game
    seat_bytes: int = Field(8 * MIB, ge=0, le=MAX_GAME_BYTES)  # everything a seat's actors log in a game
    seat_messages: int = Field(100_000, ge=1, le=10_000_000)  # decisions per game: messages a seat's actors send
    game_bytes: int = Field(48 * MIB, ge=0, le=MAX_GAME_BYTES)  # all records of the game, past which seats are retired


# --- runner, bus and referee ------------------------------------------------------------------


class Start(Message):
    """Sent by the runner to the referee: begin the game."""

    kind: Literal["start"] = "start"


class Quiet(Message):
    """Sent by the bus to the referee when nothing is left to deliver (logical-time timeout)."""

    kind: Literal["quiet"] = "quiet"


class Fault(Message):
    """Sent by the bus to the sender of a message whose handling raised or misbehaved."""

    kind: Literal["fault"] = "fault"
    actor: str
    error: str
    cause: int


class Breach(Message):
    """Sent by the bus to the referee: `actor`'s answer broke a limit of the game (`limit`: a field of
    `Limits`) or sent to an address the wiring does not allow (`limit` "address"); that answer, from
    the message that broke it on, was neither logged nor delivered."""

    kind: Literal["breach"] = "breach"
    actor: str
    limit: str
    reason: str
    category: Literal["limit", "forbidden_address"]


class Retire(Message):
    """Sent by the bus to the referee: `seat` is retired for the rest of the game (the rules' default
    from then on; none of its actors is called again). Category "timeout": the wall clock decided it
    (a replay takes the decision from the log); "limit": a per-game budget of `Limits` ran out (a
    replay reaches the same decision by itself)."""

    kind: Literal["retire"] = "retire"
    seat: int
    reason: str
    category: Literal["timeout", "limit"]


class ChanceEvent(Message):
    """Record: the referee drew a chance outcome and applied it."""

    kind: Literal["chance"] = "chance"
    step: int
    outcome: Any
    digest: str


class ActRequest(Message):
    """Referee asks a player to act at decision `turn`, choosing among `legal` (always sent).
    `observation`: the rules' observation of the player's seat, or None for a seat whose agent
    reads none (a built-in agent whose President and offices never look at it). A log of format 4
    or later stores neither field (both follow from the state at the request), hence their defaults
    for reading it; the walk (replay.walk) puts both back."""

    kind: Literal["act_request"] = "act_request"
    turn: int
    player: int
    legal: tuple[str, ...] = ()
    observation: dict[str, Any] | None = None


class Act(Message):
    """A player's action for decision `turn`."""

    kind: Literal["act"] = "act"
    turn: int
    action: str


class StepEvent(Message):
    """Record: the referee applied one joint action (player index as string -> action)."""

    kind: Literal["step"] = "step"
    step: int
    turn: int
    actions: dict[str, str]
    digest: str


# What went wrong, for readers that must not parse `reason`: an action the rules refuse, talk the
# rules drop, an actor that raised, one that never answered, a message nobody awaited, an answer over
# one of the game's limits, a message to an address the wiring does not allow, a seat that overran
# its time; "unknown" only in logs written before categories existed.
ErrorCategory = Literal["illegal_action", "invalid_talk", "raised", "silent", "unexpected", "limit",
                        "forbidden_address", "timeout", "unknown"]


class ErrorEvent(Message):
    """Record: an actor failed (raised, illegal action, no reply); the rules' default applied."""

    kind: Literal["error"] = "error"
    actor: str
    turn: int
    reason: str
    applied: str
    category: ErrorCategory = "unknown"


class TalkTurn(Message):
    """Referee opens talk round `round` of channel `channel` before decision `turn`."""

    kind: Literal["talk_turn"] = "talk_turn"
    turn: int
    channel: str
    round: int
    max_rounds: int
    members: tuple[int, ...]
    observation: dict[str, Any] | None = None  # as in ActRequest


class Talk(Message):
    """A player's contribution to a talk round (possibly nothing)."""

    kind: Literal["talk"] = "talk"
    turn: int
    channel: str
    round: int
    says: tuple[TalkContent, ...] = ()  # type: ignore[valid-type]


class Line(BaseModel):
    """One speaker's contribution within a round."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    speaker: int
    says: tuple[TalkContent, ...]  # type: ignore[valid-type]


class Heard(Message):
    """Referee tells a channel member what was said in a closed round."""

    kind: Literal["heard"] = "heard"
    turn: int
    channel: str
    round: int
    lines: tuple[Line, ...]


class TalkEvent(Message):
    """Record: the kept talk of a closed round, as applied to the state (games with TALK_STATE)."""

    kind: Literal["talk_round"] = "talk_round"
    step: int
    turn: int
    channel: str
    round: int
    lines: tuple[Line, ...]
    digest: str


class GameEnd(Message):
    """Record: the last of a game. Returns per player, winners, final digest."""

    kind: Literal["game_end"] = "game_end"
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    summary: str
    steps: int
    digest: str
    extra: dict[str, Any] = {}  # other game-specific facts for reports
    ranks: tuple[float, ...] | None = None  # 1 = best, ties share the mean; None: ranked by returns
    roles: tuple[str, ...] | None = None  # one per seat, where the game deals or assigns roles
    teams: tuple[tuple[int, ...], ...] | None = None  # the sides (seats); None in logs older than teams


class SampleRequest(Message):
    """An agent's actor asks the referee for a determinisation of its seat's information set."""

    kind: Literal["sample_request"] = "sample_request"
    turn: int


class Sample(Message):
    """The referee's answer to a sample request: `state` (`State.to_json`) is
    `resample_hidden(seat, rng)` of the true state, the generator seeded from the game's seed and
    the count of samples served; None where there is no state to draw from (the game is over)."""

    kind: Literal["sample"] = "sample"
    turn: int
    state: dict[str, Any] | None = None


# --- inside an Alpha agent --------------------------------------------------------------------


class Suggestion(BaseModel):
    """An action the Strategy Office suggests, with its utility (higher is better)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    action: str
    utility: float


class KBUpdate(BaseModel):
    """Set the knowledge-base entry at `path` to `value` (None deletes it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    path: tuple[str, ...]
    value: Any = None


Task = Literal["update", "suggest", "negotiate", "deal_utility"]


class OfficeRequest(Message):
    """President asks an office for work, carrying the KB view the office needs."""

    kind: Literal["office_request"] = "office_request"
    task: Task
    turn: int
    view: dict[str, Any]
    legal: tuple[str, ...] = ()


class OfficeReply(Message):
    """An office's answer: suggestions, talk to send, and the KB updates it proposes."""

    kind: Literal["office_reply"] = "office_reply"
    task: Task
    turn: int
    suggestions: tuple[Suggestion, ...] = ()
    says: tuple[TalkContent, ...] = ()  # type: ignore[valid-type]
    updates: tuple[KBUpdate, ...] = ()


class KBChange(Message):
    """Record: the President applied KB updates proposed by `source`."""

    kind: Literal["kb_change"] = "kb_change"
    turn: int
    source: str
    updates: tuple[KBUpdate, ...]


class ModelCall(Message):
    """Record: one call of a language-model agent (actors/llm), sent by the seat's (or office's) actor to
    the log. The prompt exactly as sent, the answer, its cost and every failed try with its cause; a
    replay takes the answer from here instead of calling the model. Never holds an API key."""

    kind: Literal["model_call"] = "model_call"
    seat: int
    call: int  # 0, 1, 2... per seat and game, in call order
    purpose: Literal["act", "talk", "judge"]
    endpoint: str  # scheme://host:port/path, no credentials
    model: str
    params: dict[str, Any]
    messages: tuple[dict[str, str], ...]
    answer: str | None
    finish_reason: str | None
    tokens_in: int
    tokens_out: int
    latency_ms: int
    tries: tuple[dict[str, Any], ...]  # {"cause", "latency_ms", "status"}: each failed try, in order
    outcome: Literal["ok", "repaired", "default"]


AnyMessage = Annotated[
    Union[
        Start,
        Quiet,
        Fault,
        Breach,
        Retire,
        ChanceEvent,
        ActRequest,
        Act,
        StepEvent,
        ErrorEvent,
        TalkTurn,
        Talk,
        Heard,
        TalkEvent,
        GameEnd,
        OfficeRequest,
        OfficeReply,
        KBChange,
        SampleRequest,
        Sample,
        ModelCall,
    ],
    Field(discriminator="kind"),
]

MESSAGE = TypeAdapter(AnyMessage)


# --- built without validation ------------------------------------------------------------------
# Our own hot paths (referee, bus, the President template, the offices' base) build messages whose
# every value they made themselves: validating them again costs more than the rest of their trip.
# `built(cls, fields)` makes the same object `cls(**fields)` would, from a dict that holds every
# field of `cls` in the model's order (`kind` included) with the types validation would give (a
# tuple where the model says tuple). With DETENTE_CHECK_BUILT=1 (or CHECK_BUILT set true, as
# tests/test_bus_built.py does) each one is validated and compared instead: order, types, values.

CHECK_BUILT = os.environ.get("DETENTE_CHECK_BUILT", "") == "1"
_new = object.__new__
_setattr = object.__setattr__
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
# every field counts as set; one set per class, shared: models are frozen, and pydantic copies it
# before changing it (model_copy(update=...)), so it must be a set, not a frozenset
_ALL_FIELDS: dict[type, set[str]] = {}


def built(cls: type[M], fields: dict[str, Any]) -> M:
    """`cls(**fields)` without validation; `fields` (kept, not copied) as the docstring above says."""
    if CHECK_BUILT:
        _check_built(cls, fields)
    m = _new(cls)
    _setattr(m, "__dict__", fields)
    names = _ALL_FIELDS.get(cls)
    if names is None:
        names = _ALL_FIELDS[cls] = set(cls.model_fields)
    _set_fields(m, names)
    _set_extra(m, None)
    _set_private(m, None)
    return m


def _check_built(cls: type[BaseModel], fields: dict[str, Any]) -> None:
    """Raise if validating `fields` would give another object (another order, type or value)."""
    model = cls.model_validate(fields)
    want = model.__dict__
    if list(fields) != list(want):
        raise AssertionError(f"built {cls.__name__}: fields {list(fields)}, the model's order is {list(want)}")
    for name, value in want.items():
        if type(fields[name]) is not type(value) or fields[name] != value:
            raise AssertionError(f"built {cls.__name__}.{name}: {fields[name]!r:.80} is not what validation makes "
                                 f"({value!r:.80}, a {type(value).__name__})")
