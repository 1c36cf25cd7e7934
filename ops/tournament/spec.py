"""Tournament specs: a TOML file validated by pydantic, with one-line errors naming the field.

    game = "werewolves"          # a registered game
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
    # segment_mib = 64, fsync = false, compress = true (each game one zlib-packed frame)

Seating: `rotate` rotates the seat list by one each game, so every entry plays every seat equally
often over each block of `players` games; `permute_deal` does the same but keeps the game seed (so
the deal, the dice, the roles) fixed within each block: the same deal replayed with seats permuted;
`fixed` keeps the lineup's order.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from actors.match import game_options
from actors.placement import RUNTIMES
from actors.registry import AGENTS, AgentSpec, build_player
from games.registry import get_game


class SpecError(ValueError):
    """A tournament spec that cannot be run; the message names the field."""


class LineupEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    agent: str
    options: dict[str, Any] = Field(default_factory=dict)
    count: int = Field(1, ge=1)
    label: str | None = None

    @property
    def name(self) -> str:
        return self.label or self.agent


class TournamentSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    game: str
    games: int = Field(ge=1)
    seed: int = 0
    seating: Literal["rotate", "fixed", "permute_deal"] = "rotate"
    placement: Literal[RUNTIMES] = "inline"  # type: ignore[valid-type]
    options: dict[str, Any] = Field(default_factory=dict)
    lineup: list[LineupEntry] = Field(min_length=1)
    batch: int = Field(50, ge=1, description="games per runner call")
    segment_mib: int = Field(64, ge=1, description="log segment size before rolling")
    fsync: bool = False
    compress: bool = Field(True, description="store each game's log as one zlib-packed frame")

    @model_validator(mode="after")
    def _labels_unique(self) -> "TournamentSpec":
        names = [e.name for e in self.lineup]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"lineup labels must be unique; repeated: {', '.join(dupes)} (set `label`)")
        return self

    # -- derived ----------------------------------------------------------------------------

    def identity(self) -> dict[str, Any]:
        """What makes two specs the same tournament: everything that can change a game's log.
        The game count may grow and the storage knobs (batch, segments, fsync, packing) may
        change between two runs into one folder."""
        return self.model_dump(mode="json", include=IDENTITY)

    def seat_entries(self) -> list[LineupEntry]:
        """The lineup expanded to one entry per seat, in lineup order."""
        return [entry for entry in self.lineup for _ in range(entry.count)]

    def game_plan(self, index: int) -> tuple[int, list[LineupEntry]]:
        """Seed and seating of game `index`."""
        seats = self.seat_entries()
        n = len(seats)
        shift = 0 if self.seating == "fixed" else index % n
        seated = seats[shift:] + seats[:shift]
        key = index // n if self.seating == "permute_deal" else index
        return derive_seed(self.seed, key), seated


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
    return f"{where}: {err['msg']}"


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
        opts = game_options(spec.game, spec.options)
    except ValueError as exc:
        raise SpecError(f"{source}: options: {exc}") from None
    players = game.num_players(opts)
    seats = len(spec.seat_entries())
    if seats != players:
        raise SpecError(f"{source}: lineup: counts add up to {seats} seats, {spec.game} with these options has {players}")
    for i, entry in enumerate(spec.lineup):
        if entry.agent not in AGENTS:
            raise SpecError(f"{source}: lineup.{i}.agent: unknown agent {entry.agent!r} (known: {', '.join(sorted(AGENTS))})")
        try:
            build_player(AgentSpec(name=entry.agent, options=entry.options), spec.game, 0, 0)
        except ValueError as exc:
            raise SpecError(f"{source}: lineup.{i}: {exc}") from None
    return spec


def load_spec(path: str | Path, games: int | None = None) -> TournamentSpec:
    """Read and validate a TOML spec; `games` overrides the spec's count."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise SpecError(f"no such spec file: {path}") from None
    except IsADirectoryError:
        raise SpecError(f"{path} is a directory, not a spec file") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML: {exc}") from None
    if games is not None:
        data["games"] = games
    return parse_spec(data, source=str(path))
