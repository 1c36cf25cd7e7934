"""The agent protocol (version 1): what an actor outside detente reads and writes, as JSON objects.

An external actor serves one address: a whole seat ("p0", its player) or one office of a built-in
Alpha agent ("p0/fo"). It receives exactly what an in-process actor's `handle()` receives, the bus
message as `model_dump(mode="json")` writes it, and answers each with one JSON array of messages of
the bus's own kinds (bus.messages: act, talk, office_reply). Around the game's messages there are
four session kinds only: `hello` (both ways, once per process or connection), `game_start` and the
game's own `game_end` record (notices, not answered), and `bye`. docs/protocol.md has a worked
exchange of each; `schema()` is the JSON Schema shipped as actors/external/schema.json.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import orjson
import pydantic_core
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from games.api import Say
from bus.messages import (
    MESSAGE,
    Act,
    ActRequest,
    GameEnd,
    Heard,
    Message,
    OfficeReply,
    OfficeRequest,
    Talk,
    TalkTurn,
    built,
)

PROTOCOL = 1
MAX_NAME = 64  # an agent's self-declared name or version, as the header keeps it
MAX_LIST = 64  # games or roles an agent declares
ROLES = ("player", "so", "fo", "io")  # what one external actor can serve
BUILT_IN = "ops.plugins."  # where the plugins of the games detente ships live
ANSWERS = frozenset({"act", "talk", "office_reply"})  # the kinds an external actor may send

_Name = Field(min_length=1, max_length=MAX_NAME)


class Hello(BaseModel):
    """detente -> agent, first: the protocol, and the address and role this process serves."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["hello"] = "hello"
    protocol: int = PROTOCOL
    detente: str
    address: str
    role: Literal["player", "so", "fo", "io"]


class Plays(BaseModel):
    """What an agent says it plays: game names ("*": any) and roles."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    games: list[str] = Field(default_factory=lambda: ["*"], max_length=MAX_LIST)
    roles: list[Literal["player", "so", "fo", "io"]] = Field(default_factory=lambda: ["player"], max_length=MAX_LIST)


class AgentHello(BaseModel):
    """agent -> detente, the answer to `hello`. Unknown fields are ignored (a newer agent may say more)."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    kind: Literal["hello"]
    protocol: int
    name: str = _Name
    version: str = Field("", max_length=MAX_NAME)
    plays: Plays = Plays()
    talks: bool = False  # as a player: asked to talk where the game opens talk


class GameStart(BaseModel):
    """detente -> agent, not answered: a game begins for the address this process serves."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["game_start"] = "game_start"
    game: str
    game_id: str
    seed: int
    seat: int
    address: str
    role: Literal["player", "so", "fo", "io"]
    players: int
    options: dict[str, Any]


class Bye(BaseModel):
    """detente -> agent, not answered: no more games; the agent exits."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["bye"] = "bye"


class ProtocolError(ValueError):
    """An agent's line that is not a valid answer (said in one line, never a traceback)."""


def encode(obj: dict[str, Any]) -> bytes:
    """One line of the protocol: compact JSON, UTF-8, newline-terminated."""
    return _line(obj)


def _line(value: Any) -> bytes:
    """Compact JSON in UTF-8 and a newline: nested models dump as model_dump(mode="json") does, tuples are
    arrays, and a float that is not a number is null (JSON has no NaN). Written by orjson, a third
    of pydantic's time for an act request (0.8 us against 2.4, the line's newline included: this
    is the per-decision path, ops/bench/external.py); what orjson refuses (an integer past 64 bits,
    a key that is not a string) by pydantic's serializer, which writes the same bytes for the rest."""
    try:
        return orjson.dumps(value, default=_dump_model, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return pydantic_core.to_json(value, by_alias=False, inf_nan_mode="null") + b"\n"


def _dump_model(value: Any) -> Any:
    """A nested model (a talk item, an office's advice) as orjson cannot write it itself."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise TypeError(type(value).__name__)


def encode_message(message: Message) -> bytes:
    """A delivered message as its line: the same JSON as `encode(message.model_dump(mode="json"))`,
    made from its fields directly (tuples are JSON arrays; nested models dump themselves), which
    costs a fraction of a whole model_dump on the per-decision path. tests/external checks both
    agree, byte for byte, on every message delivered in the golden games."""
    return _line(message.__dict__)


def parse_hello(line: bytes) -> AgentHello:
    """The agent's hello from its first line. Raises ProtocolError."""
    obj = _json(line)
    if not isinstance(obj, dict) or obj.get("kind") != "hello":
        raise ProtocolError(f"the first line is not a hello: {_short(obj)}")
    try:
        hello = AgentHello.model_validate(obj)
    except ValidationError as exc:
        raise ProtocolError(f"hello: {_first(exc)}") from None
    if hello.protocol != PROTOCOL:
        raise ProtocolError(f"speaks protocol {hello.protocol}; detente speaks {PROTOCOL}")
    return hello


# The answer to a decision as the reference clients write it (compact JSON, keys in the model's
# order, an action of printable ASCII with nothing escaped): matched as bytes, it skips the JSON
# parser on the per-decision path; anything else (spaces, escapes, other keys) is parsed as JSON.
# The two agree (tests/external/test_protocol.py).
_PLAIN_ACT = re.compile(rb'\[\{"kind":"act","turn":(0|[1-9][0-9]{0,17}),"action":"([ !#-\[\]-~]*)"\}\]')


def parse_answer(line: bytes, address: str, request: Message) -> list[Message]:
    """The messages of one answer line (a JSON array, or one object): `sender` filled with the
    agent's address, `to` with the request's sender where left out. Raises ProtocolError."""
    plain = _PLAIN_ACT.fullmatch(line)
    if plain is not None:
        return [built(Act, {"sender": address, "to": request.sender, "kind": "act", "turn": int(plain[1]),
                            "action": plain[2].decode("ascii")})]
    obj = _json(line)
    items = obj if isinstance(obj, list) else [obj]
    out: list[Message] = []
    for item in items:
        if not isinstance(item, dict):
            raise ProtocolError(f"an answer holds message objects, not {_short(item)}")
        kind = item.get("kind")
        if kind == "act" and len(item) == 3 and type(item.get("turn")) is int and type(item.get("action")) is str:
            # the common answer, exactly typed: the object validation would make, made directly
            out.append(built(Act, {"sender": address, "to": request.sender, "kind": "act", "turn": item["turn"],
                                   "action": item["action"]}))
            continue
        if kind not in ANSWERS:
            raise ProtocolError(f"an agent answers with {', '.join(sorted(ANSWERS))} messages, not {_short(kind)}")
        sender = item.setdefault("sender", address)
        if sender != address:
            raise ProtocolError(f"a message sent as {_short(sender)} by the agent at {address}")
        item.setdefault("to", request.sender)
        try:
            out.append(MESSAGE.validate_python(item))
        except ValidationError as exc:
            raise ProtocolError(f"{kind} message: {_first(exc)}") from None
    return out


def _json(line: bytes) -> Any:
    try:
        return pydantic_core.from_json(line)  # the Rust parser: a few times json.loads' speed
    except ValueError as exc:
        raise ProtocolError(f"invalid JSON ({str(exc)[:80]}): {_short(line[:60])}") from None


def _first(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "value"
    return f"{where}: {first['msg']}"


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _always_sent(definition: dict[str, Any], fields: tuple[str, ...]) -> None:
    """Mark `fields` of a message's schema as always present and never null. The models let them be
    absent because detente leaves them out for its own agents that read no observation (a random
    agent) and the log stores neither (replay recomputes them); an agent of this protocol is always
    sent both."""
    definition["required"] = list(definition.get("required", [])) + [f for f in fields if f not in definition.get("required", [])]
    for field in fields:
        prop = definition["properties"][field]
        prop.pop("default", None)
        kinds = prop.pop("anyOf", None)
        if kinds is not None:
            prop.update(next(kind for kind in kinds if kind.get("type") != "null"))


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema, generated from the models (what actors/external/schema.json holds)."""
    to_agent = TypeAdapter(Hello | GameStart | ActRequest | TalkTurn | Heard | OfficeRequest | GameEnd | Bye)
    answer = TypeAdapter(AgentHello | list[Act | Talk | OfficeReply])
    from games.registry import _entry_points, get_game

    talk_items = {"say": Say.model_json_schema()}
    for name, reference in _entry_points().items():
        if reference.startswith(BUILT_IN):  # the games detente ships (third-party plugins vary per machine)
            for model in get_game(name).talk_models:
                talk_items[model.model_fields["kind"].default] = model.model_json_schema()
    sent = to_agent.json_schema()
    for model, fields in (("ActRequest", ("legal", "observation")), ("TalkTurn", ("observation",))):
        _always_sent(sent["$defs"][model], fields)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"detente agent protocol {PROTOCOL}",
        "protocol": PROTOCOL,
        "to_agent": sent,
        "from_agent": answer.json_schema(),
        "talk_items": dict(sorted(talk_items.items())),
    }
