"""Tuning specs: a TOML file validated like a tournament spec, one-line errors naming the field.

    game = "battleline"          # a registered game
    games = 200                  # games per trial (each trial is one tournament of this many)
    seed = 1                     # the tuning seed: the search's tournaments, the check's and the sampler's
    trials = 16                  # configurations tried
    concurrency = 2              # trials at once
    runners = 1                  # runners a trial plays with (default: CPUs // concurrency); a trial
                                 # of one runner plays its games in its own process, nothing to start
    algorithm = "cmaes"          # cmaes (default: Optuna's CMA-ES) | random (Optuna's random sampler)
    objective = "win_rate"       # mean_score | win_rate | team_win_rate | hanabi_score
    roles = []                   # count only tuned seats dealt these roles (e.g. the village's)
    check_games = 400            # the final check: best and defaults, this many fresh games each (0: none)
    seating = "rotate"           # as in tournament specs
    [options]                    # the game's options
    [agent]                      # the agent tuned
    name = "deep-barca"
    options = {}                 # its fixed options (the hand-set configuration is these)
    count = 1                    # seats it holds
    [search]                     # dotted option paths of its options model -> range
    "params.mfa_weight" = [0.0, 1.0]          # a number range (integers for an integer option)
    "traits.risk" = { low = 0.0, high = 1.0 }
    "params.bluffs" = { choices = [true, false] }
    [[field]]                    # the agents it plays against, as tournament lineup entries
    agent = "naive"              # (an entry labelled "tuned" places the tuned agent's seats there:
                                 # e.g. partners at seats 0 and 2; then the field is the whole lineup)

Each range is typed by the agent's options model: an integer option gets integer bounds, a range
reaching past the model's bounds (`ge`, `le`, `gt`, `lt`) is refused, and an option the model
does not have is refused, both in one line.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from actors.registry import AgentSpecError, get_agent
from ops.tournament.spec import (
    MAX_SEED,
    LineupEntry,
    SpecError,
    TournamentSpec,
    _first_error,
    _read_toml,
    derive_seed,
    parse_spec,
)

OBJECTIVES = ("mean_score", "win_rate", "team_win_rate", "hanabi_score")
ALGORITHMS = ("cmaes", "random")
TUNED = "tuned"  # the label of the tuned agent in every trial's lineup
DEFAULTS = "defaults"  # its label in the final check's tournament of the hand-set configuration


class Range(BaseModel):
    """One searched option: a number range or a list of choices."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    low: float | None = None
    high: float | None = None
    log: bool = Field(False, strict=True)
    choices: list[Any] | None = Field(None, min_length=1, max_length=64)

    @model_validator(mode="after")
    def _one_kind(self) -> "Range":
        if self.choices is None and (self.low is None or self.high is None):
            raise ValueError("give low and high, or choices")
        if self.choices is not None and (self.low is not None or self.high is not None):
            raise ValueError("give low and high, or choices, not both")
        if self.choices is None and not self.low < self.high:
            raise ValueError(f"low must be below high (got {self.low} .. {self.high})")
        if self.log and self.choices is None and self.low <= 0:
            raise ValueError("a log range needs low > 0")
        return self


class Tuned(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(max_length=100)
    options: dict[str, Any] = Field(default_factory=dict)
    count: int = Field(1, ge=1, le=64, strict=True)


class TuneSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    game: str = Field(max_length=100)
    games: int = Field(ge=1, le=10**7, strict=True, description="games per trial")
    seed: int = Field(0, ge=0, le=MAX_SEED, strict=True)
    trials: int = Field(ge=1, le=100_000, strict=True)
    concurrency: int = Field(1, ge=1, le=1024, strict=True)
    runners: int | None = Field(None, ge=1, le=1024, strict=True, description="runners a trial plays with")
    algorithm: Literal[ALGORITHMS] = "cmaes"  # type: ignore[valid-type]
    objective: Literal[OBJECTIVES] = "win_rate"  # type: ignore[valid-type]
    roles: list[str] = Field(default_factory=list, max_length=32)
    check_games: int = Field(0, ge=0, le=10**7, strict=True)
    seating: Literal["rotate", "fixed", "permute_deal"] = "rotate"
    batch: int = Field(25, ge=1, le=10_000, strict=True)
    options: dict[str, Any] = Field(default_factory=dict)
    agent: Tuned
    search: dict[str, Range] = Field(min_length=1, max_length=64)
    field: list[LineupEntry] = Field(default_factory=list, max_length=64)

    @model_validator(mode="before")
    @classmethod
    def _ranges(cls, data: Any) -> Any:
        """`[lo, hi]` is short for { low = lo, high = hi }."""
        if isinstance(data, dict) and isinstance(data.get("search"), dict):
            data = dict(data)
            data["search"] = {k: ({"low": v[0], "high": v[1]} if isinstance(v, list) and len(v) == 2 else v)
                              for k, v in data["search"].items()}
        return data

    # -- derived ----------------------------------------------------------------------------

    def tuned_options(self, values: dict[str, Any]) -> dict[str, Any]:
        """The tuned agent's options: its fixed options with `values` (dotted paths) set."""
        options = copy.deepcopy(self.agent.options)
        for path, value in sorted(values.items()):
            node = options
            *parents, last = path.split(".")
            for part in parents:
                node = node.setdefault(part, {})
            node[last] = value
        return options

    def tournament(self, values: dict[str, Any] | None, seed: int, games: int, label: str = TUNED) -> TournamentSpec:
        """The tournament of one trial (or of the check): the tuned agent with `values` (None:
        its fixed options, the hand-set configuration) against the field."""
        options = self.tuned_options(values or {})
        tuned = LineupEntry(agent=self.agent.name, options=options, count=self.agent.count, label=label)
        if any(e.label == TUNED for e in self.field):  # the field places the tuned seats (partners: seats 0 and 2)
            lineup = [tuned.model_copy(update={"count": e.count}) if e.label == TUNED else e for e in self.field]
        else:
            lineup = [tuned, *self.field]
        return parse_spec({"game": self.game, "games": games, "seed": seed, "seating": self.seating,
                           "options": self.options, "batch": self.batch,
                           "lineup": [e.model_dump(mode="json") for e in lineup]}, source="tournament")

    def search_seed(self) -> int:
        """One seed for every trial's tournament (common random numbers: trials differ by their
        configuration only, not by their deals)."""
        return derive_seed(self.seed, 1)

    def check_seed(self) -> int:
        """The final check's seed: never a trial's."""
        return derive_seed(self.seed, 2)

    def sampler_seed(self) -> int:
        return derive_seed(self.seed, 3) % (2**31)

    def identity(self) -> str:
        """What makes two specs the same search (trials and the check may grow)."""
        data = self.model_dump(mode="json", exclude={"trials", "concurrency", "runners", "check_games", "batch"})
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def trial_key(values: dict[str, Any]) -> str:
    """A configuration's folder name: the same values, the same folder (so a trial restarted
    after a kill resumes its tournament)."""
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:12]


# -- typing the ranges from the agent's options model ---------------------------------------------


def options_model(agent_name: str, game: str) -> type[BaseModel] | None:
    """The options model of a registered agent, where it has one (agents built by AlphaAgent, or a
    build function that names its model through an `options_model()` attribute: the generic agent)."""
    build = get_agent(agent_name, game).build
    model = getattr(getattr(build, "__self__", None), "options", None)
    late = getattr(build, "options_model", None)
    return model if model is not None or late is None else late()


def field_at(model: type[BaseModel], path: str) -> tuple[Any, Any]:
    """(annotation, FieldInfo) of the dotted option `path` in `model`; raises KeyError naming it."""
    parts = path.split(".")
    current: Any = model
    for i, part in enumerate(parts):
        fields = getattr(current, "model_fields", None)
        if fields is None or part not in fields:
            known = ", ".join(sorted(fields)) if fields else "none"
            parent = ".".join(parts[:i])
            raise KeyError(f"{'option ' + parent + ' ' if parent else ''}has no option {part!r} (its options: {known})")
        info = fields[part]
        current = info.annotation
    return current, info


def bounds(info: Any) -> tuple[float, float, bool, bool]:
    """(low, high, low open, high open) of a field from its ge/gt/le/lt metadata."""
    lo, hi, lo_open, hi_open = -math.inf, math.inf, False, False
    for m in info.metadata:
        if getattr(m, "ge", None) is not None:
            lo = m.ge
        if getattr(m, "gt", None) is not None:
            lo, lo_open = m.gt, True
        if getattr(m, "le", None) is not None:
            hi = m.le
        if getattr(m, "lt", None) is not None:
            hi, hi_open = m.lt, True
    return lo, hi, lo_open, hi_open


def kind_of(annotation: Any) -> str:
    """"int", "float" or "choice" (bool, Literal, anything else: choices only)."""
    if annotation is bool:
        return "choice"
    if annotation is int:
        return "int"
    if annotation is float:
        return "float"
    return "choice"


def _span(lo: float, hi: float, lo_open: bool, hi_open: bool) -> str:
    return f"{'(' if lo_open else '['}{lo:g}, {hi:g}{')' if hi_open else ']'}"


def typed_space(spec: TuneSpec) -> dict[str, dict[str, Any]]:
    """Each searched option: {kind, low, high, log} or {kind: choice, choices}; raises SpecError
    for a range the agent's options model refuses."""
    model = options_model(spec.agent.name, spec.game)
    if model is None:
        raise SpecError(f"search: agent {spec.agent.name!r} declares no options model to type the ranges from")
    space = {}
    for path, rng in sorted(spec.search.items()):
        where = f"search.{path}"
        try:
            annotation, info = field_at(model, path)
        except KeyError as exc:
            raise SpecError(f"{where}: {spec.agent.name} {exc.args[0]}") from None
        kind = kind_of(annotation)
        if rng.choices is not None:
            space[path] = {"kind": "choice", "choices": list(rng.choices)}
            continue
        if kind == "choice":
            raise SpecError(f"{where}: {spec.agent.name}'s option is not a number; give choices = [...]")
        lo, hi, lo_open, hi_open = bounds(info)
        low, high = rng.low, rng.high
        if kind == "int" and (not float(low).is_integer() or not float(high).is_integer()):
            raise SpecError(f"{where}: {spec.agent.name}'s option is an integer; the range {low:g} .. {high:g} is not")
        outside = (low < lo or (lo_open and low <= lo) or high > hi or (hi_open and high >= hi))
        if outside:
            raise SpecError(f"{where}: range [{low:g}, {high:g}] goes beyond the option's bounds "
                            f"{_span(lo, hi, lo_open, hi_open)} ({spec.agent.name}'s options model)")
        space[path] = {"kind": kind, "low": int(low) if kind == "int" else low,
                       "high": int(high) if kind == "int" else high, "log": rng.log}
    return space


def corners(space: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Configurations at the ends of every range (and every choice), to check they build."""
    lows = {p: (s["choices"][0] if s["kind"] == "choice" else s["low"]) for p, s in space.items()}
    highs = {p: (s["choices"][-1] if s["kind"] == "choice" else s["high"]) for p, s in space.items()}
    extra = [{**lows, p: c} for p, s in space.items() if s["kind"] == "choice" for c in s["choices"]]
    return [lows, highs, *extra]


def parse_tune_spec(data: dict[str, Any], source: str = "spec") -> TuneSpec:
    """Validate tuning spec data fully (game, agents, ranges) or raise SpecError (one line)."""
    try:
        spec = TuneSpec.model_validate(data)
    except ValidationError as exc:
        raise SpecError(f"{source}: {_first_error(exc)}") from None
    try:
        get_agent(spec.agent.name, spec.game)
    except (AgentSpecError, KeyError) as exc:
        raise SpecError(f"{source}: agent.name: {str(exc).strip(chr(39))}") from None
    if spec.objective == "hanabi_score" and spec.game != "hanabi":
        raise SpecError(f"{source}: objective: hanabi_score is Hanabi's; {spec.game} has mean_score")
    try:
        space = typed_space(spec)
        spec.tournament(None, spec.search_seed(), spec.games)  # the hand-set configuration plays
        for values in corners(space):
            try:
                spec.tournament(values, spec.search_seed(), spec.games)
            except SpecError as exc:
                raise SpecError(f"search: at {json.dumps(values, sort_keys=True)}: {str(exc).split(': ', 1)[-1]}") from None
    except SpecError as exc:
        raise SpecError(f"{source}: {exc}") from None
    return spec


def load_tune_spec(path: str | Path) -> TuneSpec:
    """Read and validate a TOML tuning spec (at most 1 MiB of UTF-8)."""
    return parse_tune_spec(_read_toml(Path(path)), source=str(path))

