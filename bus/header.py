"""The typed schema of a log's maps: its header, checked before anything is built from it, and its records.

A header is the first map of a game: {"format", "game", "game_id", "seed", "options", "agents",
"code_version", "limits", "env"} and, for a fork, "fork" (actors/match.py `make_header`, replay/fork.py), and
for a game whose dice were named before it was logged, "chance_seed" (the referee's chance generator;
Risk's training games, actors/risk/train.py);
a header written before limits existed has none (no limits applied), one written before `env`
(bus.environment: the interpreter and library versions, information only) has none. Every
field has its type (strict: no coercion, so "7" is not a seed and 1.0 is not a count), every
string and list its bound, and the options are then validated by the game itself, whose options
model declares its own bounds (players, lengths): a header cannot make a reader build a game of a
million seats. The agent specs are checked here for shape only; the agent registry (above the
bus) checks names and agent options when verify builds the actors.

A record is {"game", "seq", "cause", "msg"} in that order (bus.codec.pack_record): the header's
game id, a seq above the one before, the seq it answers (-1 for the runner's start) before it,
and a message that validates as its kind and is exactly what its model writes (no value coerced).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from bus.codec import _check_packer, dump, load
from bus.environment import MAX_ENTRIES, MAX_TEXT
from bus.errors import BadHeader, BadRecord, OutOfOrder, WrongGame
from bus.messages import Limits
from games.registry import UnknownGame, get_game

MAX_SEATS = 64  # seats of any game, whatever its options say (as ops.tournament.spec.MAX_SEATS)
MAX_OPTIONS = 64  # keys in a game's or an agent's options (the largest game has 10)
MAX_NAME = 64  # a game name, agent name or code version
MAX_GAME_ID = 256  # tournament ids are ~10 characters, a fork appends "-fork<seq>"
MAX_CHANCE_SEED = 256  # a chance seed names a game's dice stream (Risk training: "risk-train/<seed>/<game>")
SEED_RANGE = (-(2**63), 2**64 - 1)  # what msgpack can hold (the store keeps seeds as ubigint)

_STRICT = ConfigDict(frozen=True, extra="forbid", strict=True)
_Text = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT)]


class AgentEntry(BaseModel):
    """One seat's agent spec as the header holds it (actors.registry.AgentSpec, dumped)."""

    model_config = _STRICT
    name: str = Field(min_length=1, max_length=MAX_NAME)
    options: dict[str, Any] = Field(max_length=MAX_OPTIONS)


class ForkPoint(BaseModel):
    """Where a forked game leaves the original: its id, the switch seq, the original lineup."""

    model_config = _STRICT
    from_: str = Field(alias="from", min_length=1, max_length=MAX_GAME_ID)
    at: int = Field(ge=0)
    before: list[AgentEntry] = Field(min_length=1, max_length=MAX_SEATS)


class ExternalEntry(BaseModel):
    """An external agent's handshake as the header keeps it (actors.external): what it said of itself,
    or why it never started. Never a token, never a path outside the project."""

    model_config = _STRICT
    transport: Literal["exec", "ws"]
    name: str | None = Field(None, min_length=1, max_length=MAX_NAME)
    version: str | None = Field(None, max_length=MAX_NAME)
    protocol: int | None = None
    talks: bool = False
    error: str | None = Field(None, max_length=200)  # actors.external.connection.MAX_ERROR


_Address = Annotated[str, StringConstraints(pattern=r"^p[0-9]{1,2}(/[a-z]{1,8})?$")]


class Header(BaseModel):
    """A game's header: everything needed to rebuild every actor, and nothing else."""

    model_config = _STRICT
    format: int
    game: str = Field(min_length=1, max_length=MAX_NAME)
    game_id: str = Field(min_length=1, max_length=MAX_GAME_ID)
    seed: int = Field(ge=SEED_RANGE[0], le=SEED_RANGE[1])
    options: dict[str, Any] = Field(max_length=MAX_OPTIONS)
    agents: list[AgentEntry] = Field(min_length=1, max_length=MAX_SEATS)
    code_version: str = Field(max_length=MAX_NAME)
    fork: ForkPoint | None = None
    limits: Limits | None = None  # the bus's limits on the agents (bus.messages); absent in older logs
    env: dict[_Text, _Text] | None = Field(None, max_length=MAX_ENTRIES)  # where it was made (bus.environment); absent in older logs
    # the referee draws chance from random.Random(chance_seed) instead of its (seed, address) generator
    chance_seed: str | None = Field(None, min_length=1, max_length=MAX_CHANCE_SEED)
    # the external agents of the lineup by address (actors.external); absent when it has none
    external: dict[_Address, ExternalEntry] | None = Field(None, max_length=4 * MAX_SEATS)


def check_header(raw: Any) -> Header:
    """The header, typed; its options valid for its game, one agent per seat. Raises BadHeader
    (without an offset: readers add theirs)."""
    if not isinstance(raw, dict):
        raise BadHeader(None, "header is not a map")
    try:
        header = Header.model_validate(raw)
    except ValidationError as exc:
        raise BadHeader(None, f"header {_first_error(exc)}") from None
    try:
        game = get_game(header.game)
    except UnknownGame as exc:
        raise BadHeader(None, f"header names {exc}") from None
    try:
        options = game.options(header.options)
    except ValidationError as exc:
        raise BadHeader(None, f"header's {header.game} options: {_first_error(exc)}") from None
    _same_as_validated(header.game, raw["options"], options.model_dump(mode="json"))
    seats = game.num_players(options)
    if not 1 <= seats <= MAX_SEATS:
        raise BadHeader(None, f"header's {header.game} options seat {_short(seats)} players; detente plays at most {MAX_SEATS}")
    if len(header.agents) != seats:
        raise BadHeader(None, f"header seats {len(header.agents)} agents; {header.game} with these options has {seats} seats")
    if header.fork is not None and len(header.fork.before) != seats:
        raise BadHeader(None, f"header's fork had {len(header.fork.before)} agents before; the game has {seats} seats")
    return header


def _same_as_validated(game: str, given: dict[str, Any], validated: dict[str, Any]) -> None:
    """Each option as written is exactly what the game's model makes of it (no coerced values:
    the header must be what the writer wrote, `make_header` writing the validated options)."""
    for key, value in given.items():
        if key in validated and not _identical(value, validated[key]):
            raise BadHeader(None, f"header's {game} options: {key}: {_short(value)} is not in its canonical form {_short(validated[key])}")


def _identical(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (1 and 1.0 and True differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_identical(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b))
    return a == b


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "value"
    return f"{where}: {first['msg']} (got {_short(first.get('input'))})"


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value) if not isinstance(value, (dict, list)) else f"a {type(value).__name__} of {len(value)}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


RECORD_KEYS = ["game", "seq", "cause", "msg"]


def check_record(record: Any, offset: int | None, last: int, game_id: str) -> int:
    """A record's frame around its message: its keys, its game, its place in seq order (after
    `last`). Returns its seq; raises BadRecord, OutOfOrder or WrongGame."""
    if not isinstance(record, dict) or list(record) != RECORD_KEYS:
        keys = ", ".join(map(str, list(record)[:6])) if isinstance(record, dict) else type(record).__name__
        raise BadRecord(offset, f"a record is a map of {', '.join(RECORD_KEYS)}; this one has {_short(keys)}")
    seq, cause = record["seq"], record["cause"]
    if type(seq) is not int or type(cause) is not int:
        raise BadRecord(offset, f"record's seq and cause are not integers (seq {_short(seq)}, cause {_short(cause)})")
    if seq <= last:
        raise OutOfOrder(offset, f"seq {seq} comes after seq {last}: seqs must increase", seq)
    if not -1 <= cause < seq:
        raise OutOfOrder(offset, f"cause {cause} is not before its effect", seq)
    if record["game"] != game_id:
        raise WrongGame(offset, f"a record of game {_short(record['game'])} inside game {game_id!r}", seq)
    return seq


def check_message(msg: Any, offset: int | None, seq: int | None) -> None:
    """A record's (decoded) message: a valid message of its kind, exactly as its model writes it."""
    if not isinstance(msg, dict) or type(msg.get("kind")) is not str:
        raise BadRecord(offset, "record without a message kind", seq)
    try:
        model = load(msg)
    except ValidationError as exc:
        raise BadRecord(offset, f"{_short(msg['kind'])} message: {_first_error(exc)}", seq) from None
    # fields a newer writer adds (with defaults) may be missing from an older log: compare the rest
    written = {k: v for k, v in dump(model).items() if k in msg}
    try:
        same = _check_packer.pack(written) == _check_packer.pack(msg)
    except (ValueError, TypeError, OverflowError):
        same = False
    if not same:
        raise BadRecord(offset, f"{msg['kind']} message is not in its canonical form (a value of another type?)", seq)
