"""Tournament specs: a TOML file validated by pydantic, with one-line errors naming the field.

    game = "mygame"              # a registered game (`detente games` lists them)
    games = 200                  # how many games in all
    seed = 1                     # base seed: game i's seed is derived from (seed, i)
    seating = "rotate"           # rotate | fixed | permute_deal
    placement = "inline"         # where each game's actors run inside a runner
    [options]                    # the game's options
    [[lineup]]                   # one entry per agent kind; `count` seats each
    agent = "random"
    options = {}
    count = 10
    label = "random"             # name in reports (default: the agent name)
    # storage knobs (may change when a run is resumed): batch = 50 games per runner call,
    # segment_mib = 64, fsync = false, compress = true (each game one packed frame, "zstd";
    # "zlib": the packing before zstd, 1.15-1.8x its bytes at 1.8-3x its CPU; "columns": packed
    # by field, 2-3.6x smaller than zstd at 75-100x its CPU; false: plain frames)
    max_game_seconds = 60        # wall-clock budget of one game (default: none); a game over it is
                                 # recorded as aborted, against the seat whose actors took the most time
    concurrent_games = 8         # games a runner plays at once (default 1), for agents that wait
                                 # (a model server, an external program); each game's log is its own
    token_cap = 2_000_000        # stop handing out games once the recorded games' model calls used
    cost_cap = 5.0               # this many tokens (in + out), or cost this much (by `prices`)
    [prices.MODEL]               # price of a model per 1M tokens: input = 0.15, output = 0.60
    [endpoints."URL"]            # limits shared by every runner: max_in_flight, rpm, tpm
    answers_from = "old-out"     # an earlier run of this spec: each game takes its recorded model
                                 # answers (by game id, calling actor and call index) instead of calling

Seating: `rotate` rotates the seats each game, so every entry plays every seat equally often over
each block of `players` games; `permute_deal` does the same but keeps the game seed (so the deal,
the dice, the roles) fixed within each block: the same deal replayed with seats permuted; `fixed`
keeps the lineup's order. The lineup fills the seats in seat order. Where the game has teams
(`Game.teams`: e.g. partners (0, 2) and (1, 3)) rotation moves whole teams: game i shifts
the teams by i and, every `teams` games, the seats within each team, so partners stay partners
(a lineup `a, b, a, b` keeps both a's together) and every entry holds every team and seat equally
often over a block. Entries may repeat a label when they are the same agent with the same options.

Bounds (the CLI checks the same ones; a spec outside them is refused before anything is written):
seeds 0 .. 2**63-1, games 1 .. 10**9, at most 64 seats, batch 1 .. 10,000, segment_mib
1 .. 4,096, a spec file of at most 1 MiB of UTF-8 TOML; numbers are numbers (`games = "200"` is
refused), and each game's options are checked by its options model (`detente games NAME`).
An agent that needs a game option (`AgentDef.requires`) is refused where the options differ.
"""

from __future__ import annotations

import functools
import hashlib
import json
import tomllib
import typing
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from actors.match import OptionsError
from actors.placement import RUNTIMES
from actors.registry import AgentSpec, AgentSpecError, build_player, get_agent
from bus.log import ZSTD
from games.api import Game, Options
from games.registry import get_game

MAX_SEED = 2**63 - 1  # seeds are stored as signed 64-bit integers
MAX_GAMES = 10**9  # games in one tournament
MAX_SEATS = 64  # seats in one game, whatever its options allow (ours: a 64-player village plays in ~2 s)
MAX_BATCH = 10_000
MAX_SEGMENT_MIB = 4096
MAX_SPEC_BYTES = 1 << 20
DEFAULT_PACKING = ZSTD  # what compress = true packs with (one of bus.log.METHODS)
MAX_GAME_SECONDS = 7 * 24 * 3600.0  # a week: a budget, not a way to write a number too big for a timer
_INT64 = (-(2**63), 2**63 - 1)  # any integer in a header must fit (msgpack, DuckDB)


class SpecError(ValueError):
    """A tournament spec that cannot be run; the message names the field."""


class LineupEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    agent: str = Field(max_length=100)
    options: dict[str, Any] = Field(default_factory=dict)
    count: int = Field(1, ge=1, le=MAX_SEATS, strict=True)
    label: str | None = Field(None, min_length=1, max_length=100)

    @property
    def name(self) -> str:
        if self.label:
            return self.label
        if self.agent in ("exec", "ws"):  # an external agent is named by its program or host, not its transport
            from actors.external.lineup import default_label

            return default_label(self.agent, self.options)
        return self.agent


class Price(BaseModel):
    """A model's price per million tokens, in whatever currency the caps are written in."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    input: float = Field(0.0, ge=0, le=1e6)
    output: float = Field(0.0, ge=0, le=1e6)


class EndpointLimits(BaseModel):
    """Limits of one model endpoint, shared by every runner of the tournament (None: no limit)."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    max_in_flight: int | None = Field(None, ge=1, le=1_000_000, strict=True)
    rpm: int | None = Field(None, ge=1, le=10**9, strict=True, description="requests per minute")
    tpm: int | None = Field(None, ge=1, le=10**12, strict=True, description="tokens per minute")


MAX_CONCURRENT_GAMES = 1024


class TournamentSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    game: str = Field(max_length=100)
    games: int = Field(ge=1, le=MAX_GAMES, strict=True)
    seed: int = Field(0, ge=0, le=MAX_SEED, strict=True)
    seating: Literal["rotate", "fixed", "permute_deal"] = "rotate"
    placement: Literal[RUNTIMES] = "inline"  # type: ignore[valid-type]
    options: dict[str, Any] = Field(default_factory=dict)
    lineup: list[LineupEntry] = Field(min_length=1, max_length=MAX_SEATS)
    batch: int = Field(50, ge=1, le=MAX_BATCH, strict=True, description="games per runner call")
    segment_mib: int = Field(64, ge=1, le=MAX_SEGMENT_MIB, strict=True, description="log segment size before rolling")
    fsync: bool = Field(False, strict=True)
    compress: typing.Annotated[bool, Field(strict=True)] | Literal["zstd", "zlib", "columns"] = Field(
        True, description="store each game's log as one packed frame: true or \"zstd\", \"zlib\", \"columns\" (smaller, slower), false: plain")
    # not part of the identity: a folder made before it existed resumes (its games had no budget)
    max_game_seconds: float | None = Field(None, gt=0, le=MAX_GAME_SECONDS, strict=True,
                                           description="wall-clock budget of one game; over it, the game is aborted")
    # throughput and spending knobs: not part of the identity (a run may resume with others)
    concurrent_games: int = Field(1, ge=1, le=MAX_CONCURRENT_GAMES, strict=True,
                                  description="games a runner plays at once (threads), for agents that wait")
    endpoints: dict[str, EndpointLimits] = Field(default_factory=dict,
                                                 description="per model endpoint: max_in_flight, rpm, tpm")
    prices: dict[str, Price] = Field(default_factory=dict, description="per model: input/output per 1M tokens")
    token_cap: int | None = Field(None, ge=1, le=10**15, strict=True,
                                  description="stop handing out games once recorded model calls used this many tokens")
    cost_cap: float | None = Field(None, gt=0, le=1e12, description="stop handing out games once they cost this much")
    answers_from: str | None = Field(None, max_length=4096,
                                     description="an earlier run's folder of this spec: its games' recorded model answers are taken, not asked again")

    def cost(self, model: str, tokens_in: int, tokens_out: int) -> float:
        """What `tokens_in`/`tokens_out` of `model` cost by `prices` (0 for a model without a price)."""
        price = self.prices.get(model)
        if price is None:
            return 0.0
        return (tokens_in * price.input + tokens_out * price.output) / 1e6

    @model_validator(mode="after")
    def _labels_unique(self) -> "TournamentSpec":
        by_name: dict[str, LineupEntry] = {}
        for e in self.lineup:
            first = by_name.setdefault(e.name, e)
            if (first.agent, first.options) != (e.agent, e.options):
                raise ValueError(f"lineup label {e.name!r} names two different agents (set `label`)")
        return self

    # -- derived ----------------------------------------------------------------------------

    def identity(self) -> dict[str, Any]:
        """What makes two specs the same tournament: everything that can change a game's log.
        The game count may grow and the storage knobs (batch, segments, fsync, packing) may
        change between two runs into one folder."""
        return self.model_dump(mode="json", include=IDENTITY)

    def packing(self) -> str | None:
        """The packing method of the games' logs (bus.log.METHODS), None for plain frames."""
        if self.compress is False:
            return None
        return DEFAULT_PACKING if self.compress is True else self.compress

    def seat_entries(self) -> list[LineupEntry]:
        """The lineup expanded to one entry per seat, in lineup order."""
        return [entry for entry in self.lineup for _ in range(entry.count)]

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The game's teams with the spec's options (every seat its own team unless the game says).
        Asked once a game (`game_plan`): remembered per game and options, as checking the options
        costs ~6x the lookup."""
        try:
            key = json.dumps(self.options, sort_keys=True)
        except (TypeError, ValueError):  # not JSON (a TOML date, say): checked, and refused, as it is
            return get_game(self.game).teams(check_options(self.game, self.options))
        return _teams(get_game(self.game), key)

    def game_plan(self, index: int) -> tuple[int, list[LineupEntry]]:
        """Seed and seating of game `index`."""
        seats = self.seat_entries()
        n = len(seats)
        seated = seats if self.seating == "fixed" else rotate_teams(seats, self.teams(), index)
        key = index // n if self.seating == "permute_deal" else index
        return derive_seed(self.seed, key), seated


@functools.lru_cache(maxsize=64)
def _teams(game: Game, options: str) -> tuple[tuple[int, ...], ...]:
    """Keyed by the game object, not its name: a plugin registered again under a name is asked anew."""
    return game.teams(check_options(game.name, json.loads(options)))


def rotate_teams(seats: list[Any], teams: tuple[tuple[int, ...], ...], index: int) -> list[Any]:
    """The seating of game `index`: teams shifted by `index`, seats within each team by
    `index // len(teams)`. Every seat its own team: the plain rotation by `index`."""
    size = len(teams[0])
    team_shift, seat_shift = index % len(teams), (index // len(teams)) % size
    seated = list(seats)
    for t, team in enumerate(teams):
        source = teams[(t + team_shift) % len(teams)]
        for k, seat in enumerate(team):
            seated[seat] = seats[source[(k + seat_shift) % size]]
    return seated


IDENTITY = frozenset({"game", "seed", "seating", "placement", "options", "lineup"})


def derive_seed(base: int, index: int) -> int:
    """Game seeds: a hash of (base seed, index), stable across processes and machines."""
    digest = hashlib.blake2b(f"detente/{base}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def game_id(index: int) -> str:
    return f"g{index:08d}"


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "spec"
    got = err.get("input")
    shown = f" (got {_short(got)})" if isinstance(got, (str, int, float, bool)) else ""
    return f"{where}: {err['msg']}{shown}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- checks shared with the command line ---------------------------------------------------------


def _kind(value: Any) -> str:
    """A value's JSON kind: what a spec or --option writes for it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, (list, tuple)) else "a table"


def _outside_int64(value: Any, where: str = "") -> tuple[str, int] | None:
    """(path, value) of the first integer in `value` that does not fit in 64 bits, if any."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return (where, value) if not _INT64[0] <= value <= _INT64[1] else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
    for key, item in items:
        bad = _outside_int64(item, f"{where}.{key}" if where else str(key))
        if bad is not None:
            return bad
    return None


def _not_utf8(value: Any, where: str = "") -> str | None:
    """The path of the first text in `value` that cannot be written as UTF-8 (raw bytes from
    the command line arrive as lone surrogates), if any."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where or "value"
        return None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
    for key, item in items:
        here = f"{where}.{key}" if where else str(key)
        bad = here if isinstance(key, str) and _not_utf8(key) is not None else _not_utf8(item, here)
        if bad is not None:
            return bad
    return None


def check_options(game_name: str, raw: Any) -> Options:
    """The game's options validated by its model, with messages that name the option plainly;
    raises OptionsError. Also refused: a value of another kind than the option's (the string
    "8" for a number), integers beyond 64 bits, more than MAX_SEATS seats."""
    game = get_game(game_name)
    raw = {} if raw is None else raw
    if not isinstance(raw, dict):
        raise OptionsError(f"{game_name} options must be key = value pairs, not {_kind(raw)}")
    fields = game.options_model.model_fields
    odd = _not_utf8(raw)
    if odd is not None:
        raise OptionsError(f"{game_name} option {odd}: not UTF-8 text")
    for key in raw:
        if key not in fields:
            raise OptionsError(f"{game_name} has no option {key!r} (its options: {', '.join(fields) or 'none'})")
    try:
        options = game.options(raw)
    except ValidationError as exc:
        raise OptionsError(_plain_option_error(game_name, exc)) from None
    except (ValueError, TypeError, ArithmeticError) as exc:
        raise OptionsError(f"{game_name} options: {exc}") from None
    values = options.model_dump(mode="json")
    for key, value in raw.items():
        if key in values and _kind(value) != _kind(values[key]) and values[key] is not None:
            raise OptionsError(f"{game_name} option {key} takes {_kind(values[key])}, not {_kind(value)} ({_short(value)})")
    huge = _outside_int64(values)
    if huge is not None:
        raise OptionsError(f"{game_name} option {huge[0]}={_short(huge[1])}: does not fit in 64 bits")
    players = game.num_players(options)
    if not 1 <= players <= MAX_SEATS:
        raise OptionsError(f"{game_name} with these options seats {_short(players)} players; detente plays at most {MAX_SEATS}")
    return options


def _plain_option_error(game_name: str, exc: ValidationError) -> str:
    err = exc.errors()[0]
    msg = err["msg"].removeprefix("Value error, ")
    if not err["loc"]:
        return f"{game_name} options: {msg}"
    key = ".".join(str(p) for p in err["loc"])
    return f"{game_name} option {key}={_short(err.get('input'))}: {msg}"


def check_agents(game_name: str, options: Options, agents: list[AgentSpec]) -> None:
    """Every agent of a lineup known, playing this game, with valid options, and given the game
    options it needs (`AgentDef.requires`); raises AgentSpecError before anything is played."""
    values = options.model_dump(mode="json")
    for spec in {json.dumps(a.model_dump(mode="json"), sort_keys=True): a for a in agents}.values():
        agent = get_agent(spec.name, game_name)
        odd = _not_utf8(spec.options)
        if odd is not None:
            raise AgentSpecError(f"agent {spec.name!r}: option {odd} is not UTF-8 text")
        try:
            build_player(spec, game_name, 0, 0, part="check")  # "check": an external agent is not started
        except AgentSpecError:
            raise
        except (ValueError, TypeError, ArithmeticError) as exc:
            raise AgentSpecError(f"agent {spec.name!r}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        for key, needed in sorted(getattr(agent, "requires", {}).get(game_name, {}).items()):
            if values.get(key) != needed:
                raise AgentSpecError(
                    f"agent {spec.name!r} needs the {game_name} option {key}={json.dumps(needed)} "
                    f"(these options have {key}={json.dumps(values.get(key))})")
        huge = _outside_int64(spec.options)
        if huge is not None:
            raise AgentSpecError(f"agent {spec.name!r}: option {huge[0]}={_short(huge[1])} does not fit in 64 bits")


def option_lines(game_name: str) -> list[str]:
    """One line per option of a game: name, default, kind and bounds (from its options model)."""
    lines = []
    for name, info in get_game(game_name).options_model.model_fields.items():
        default = info.get_default(call_default_factory=True)
        lo = next((getattr(m, "ge", None) for m in info.metadata if getattr(m, "ge", None) is not None), None)
        hi = next((getattr(m, "le", None) for m in info.metadata if getattr(m, "le", None) is not None), None)
        span = f" {'' if lo is None else lo}..{'' if hi is None else hi}" if lo is not None or hi is not None else ""
        shown = "unset" if default is None else default if isinstance(default, str) else json.dumps(default)
        lines.append(f"{name}={shown}  ({_type_text(info.annotation)}{span})")
    return lines


def _type_text(annotation: Any) -> str:
    if typing.get_origin(annotation) is Literal:
        return "|".join(str(a) for a in typing.get_args(annotation))
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if args and len(args) < len(typing.get_args(annotation)):
        return _type_text(args[0]) + " or unset"
    names = {bool: "true|false", int: "integer", float: "number", str: "text"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def parse_spec(data: dict[str, Any], source: str = "spec") -> TournamentSpec:
    """Validate spec data fully (game, agents, options, seats) or raise SpecError."""
    try:
        spec = TournamentSpec.model_validate(data)
    except ValidationError as exc:
        raise SpecError(f"{source}: {_first_error(exc)}") from None
    try:
        game = get_game(spec.game)
    except KeyError as exc:
        raise SpecError(f"{source}: game: {exc}") from None
    try:
        opts = check_options(spec.game, spec.options)
    except OptionsError as exc:
        raise SpecError(f"{source}: options: {exc}") from None
    players = game.num_players(opts)
    seats = len(spec.seat_entries())
    if seats != players:
        raise SpecError(f"{source}: lineup: counts add up to {seats} seats, {spec.game} with these options has {players}")
    teams = game.teams(opts)
    if spec.seating != "fixed" and len({len(t) for t in teams}) > 1:
        raise SpecError(f"{source}: seating: {spec.seating} needs teams of one size; {spec.game} has {teams} (use fixed)")
    for i, entry in enumerate(spec.lineup):
        try:
            get_agent(entry.agent, spec.game)
        except AgentSpecError as exc:
            raise SpecError(f"{source}: lineup.{i}.agent: {exc}") from None
        try:
            check_agents(spec.game, opts, [AgentSpec(name=entry.agent, options=entry.options)])
        except ValueError as exc:
            raise SpecError(f"{source}: lineup.{i}: {exc}") from None
    return spec


def load_spec(path: str | Path, games: int | None = None) -> TournamentSpec:
    """Read and validate a TOML spec (at most 1 MiB of UTF-8); `games` overrides the spec's count."""
    path = Path(path)
    data = _read_toml(path)
    if games is not None:
        data["games"] = games
    return parse_spec(data, source=str(path))


def _read_toml(path: Path) -> dict[str, Any]:
    if path.exists() and not path.is_file() and not path.is_dir():
        raise SpecError(f"{path} is not a regular file")  # a FIFO or a device would block or never end
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SPEC_BYTES + 1)
    except FileNotFoundError:
        raise SpecError(f"no such spec file: {path}") from None
    except IsADirectoryError:
        raise SpecError(f"{path} is a directory, not a spec file") from None
    except OSError as exc:
        raise SpecError(f"cannot read spec {path}: {exc.strerror}") from None
    if len(raw) > MAX_SPEC_BYTES:
        raise SpecError(f"{path}: a spec is at most {MAX_SPEC_BYTES // 1024} KiB; this one is larger")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(f"{path}: not UTF-8 text (byte {exc.start} is {raw[exc.start]:#04x})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML: {str(exc).splitlines()[0]}") from None
    except RecursionError:
        raise SpecError(f"{path}: not valid TOML: nested too deeply") from None
