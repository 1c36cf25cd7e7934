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
    # segment_mib = 64, fsync = false, compress = true (each game one zlib-packed frame)

Seating: `rotate` rotates the seats each game, so every entry plays every seat equally often over
each block of `players` games; `permute_deal` does the same but keeps the game seed (so the deal,
the dice, the roles) fixed within each block: the same deal replayed with seats permuted; `fixed`
keeps the lineup's order. The lineup fills the seats in seat order. Where the game has teams
(`Game.teams`: e.g. partners (0, 2) and (1, 3)) rotation moves whole teams: game i shifts
the teams by i and, every `teams` games, the seats within each team, so partners stay partners
(a lineup `a, b, a, b` keeps both a's together) and every entry holds every team and seat equally
often over a block. Entries may repeat a label when they are the same agent with the same options.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from actors.match import game_options
from actors.placement import RUNTIMES
from actors.registry import AgentSpec, AgentSpecError, build_player, get_agent
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

    def seat_entries(self) -> list[LineupEntry]:
        """The lineup expanded to one entry per seat, in lineup order."""
        return [entry for entry in self.lineup for _ in range(entry.count)]

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The game's teams with the spec's options (every seat its own team unless the game says)."""
        return get_game(self.game).teams(game_options(self.game, self.options))

    def game_plan(self, index: int) -> tuple[int, list[LineupEntry]]:
        """Seed and seating of game `index`."""
        seats = self.seat_entries()
        n = len(seats)
        seated = seats if self.seating == "fixed" else rotate_teams(seats, self.teams(), index)
        key = index // n if self.seating == "permute_deal" else index
        return derive_seed(self.seed, key), seated


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
    teams = game.teams(opts)
    if spec.seating != "fixed" and len({len(t) for t in teams}) > 1:
        raise SpecError(f"{source}: seating: {spec.seating} needs teams of one size; {spec.game} has {teams} (use fixed)")
    for i, entry in enumerate(spec.lineup):
        try:
            get_agent(entry.agent, spec.game)
        except AgentSpecError as exc:
            raise SpecError(f"{source}: lineup.{i}.agent: {exc}") from None
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
