"""Agents by name: how to build a player's actors (President and offices) from a spec.

An agent spec is `name` or `name:key=value;key=value`; a lineup is one spec for every seat or
one spec per seat, separated by commas. Values are read as JSON where they parse (numbers,
true/false, lists), else as strings; `offices=so+io` lists the offices that are switched on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from actors.actor import Actor
from actors.alpha.baseline import RandomStrategyOffice
from actors.alpha.builder import AlphaAgent, office_from, president_from
from actors.alpha.options import AgentOptions

OFFICE_ROLES = ("fo", "io", "so")
EXTERNAL = ("exec", "ws")  # the agents outside detente (actors/external)


class AgentSpecError(ValueError):
    """A lineup or agent spec that cannot be used."""


class AgentSpec(BaseModel):
    """One seat's agent: a registered name and its options (as written in the log header)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    options: dict[str, Any] = Field(default_factory=dict)


class RandomOptions(AgentOptions):
    """Options of the `random` agent (`offices=` leaves the President alone: it draws itself)."""

    roles = ("so",)
    agent = "the random agent"
    width: int = Field(3, ge=1)


_build_random = AlphaAgent(
    options=RandomOptions,
    # the random Strategy Office needs no KB view: the legal actions travel with the request
    president=president_from(views={"so": ()}),
    offices={"so": office_from(RandomStrategyOffice, "width")},
).build


@dataclass(frozen=True)
class AgentDef:
    """A registered agent: its name, the games it plays, how to build a seat's actors, one line of doc.

    `budget` maps a game name to the game options that keep that game short enough for the agent
    conformance suite (e.g. a board game to its second year); `games_in_budget` is how many seeds it plays there.
    `requires` maps a game name to the game options (as JSON values) the agent cannot play without;
    a lineup with the agent in a game whose options differ is refused before the game starts.
    `conformance`: the spec the agent conformance suite plays it as, where its name alone is not a
    playable spec (an external agent needs a program); "" where another suite covers it."""

    name: str
    games: frozenset[str] | None  # None: plays any game
    build: Callable[[str, int, int, dict[str, Any]], list[Actor]]
    doc: str
    budget: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    games_in_budget: int = 2
    requires: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    conformance: str | None = None


def _build_external(kind: str) -> Callable[[str, int, int, dict[str, Any]], list[Actor]]:
    def build(game: str, seat: int, seed: int, options: dict[str, Any]) -> list[Actor]:
        from actors.external.lineup import build_seat

        return build_seat(kind, seat, seed, options)

    return build


def _build_policy(game: str, seat: int, seed: int, options: dict[str, Any]) -> list[Actor]:
    from actors.policy import build  # imported on first use: it needs numpy

    return build(game, seat, seed, options)


def _build_llm(game: str, seat: int, seed: int, options: dict[str, Any], part: str = "all") -> list[Actor]:
    from actors.llm.agent import build  # imported on first use

    return build(game, seat, seed, options, part)


def _build_generic(game: str, seat: int, seed: int, options: dict[str, Any]) -> list[Actor]:
    from actors.alpha.generic.agent import build  # imported on first use: its offices search

    return build(game, seat, seed, options)


def _generic_options() -> type:
    from actors.alpha.generic.agent import GenericOptions

    return GenericOptions


_build_generic.options_model = _generic_options  # type: ignore[attr-defined]  # what `detente tune` types ranges by


AGENTS: dict[str, AgentDef] = {
    "random": AgentDef("random", None, _build_random, "President + Strategy Office suggesting random legal actions"),
    "generic": AgentDef("generic", None, _build_generic, "one Alpha agent for every game: ISMCTS SO, trust IO, pact FO",
                        games_in_budget=1),
    "policy": AgentDef("policy", None, _build_policy, "a PettingZoo-style policy (observation, action mask) -> action "
                       "number: policy:fn=module:function", games_in_budget=1,
                       conformance="policy:fn=actors.policy:lowest"),
    "exec": AgentDef("exec", None, _build_external("exec"),
                     "an external agent, a child process over stdin/stdout: exec:cmd=[\"prog\",\"arg\"] (JSON lines)",
                     conformance='exec:cmd=["python3","ops/examples/agents/python/random_agent.py"];stderr="discard"'),
    "llm": AgentDef("llm", None, _build_llm, "a language model behind an OpenAI-compatible endpoint: "
                    "llm:endpoint=http://127.0.0.1:8080/v1;model=NAME (the llm extra)", conformance=""),
    # ws: its records are exec's (tests/external/test_replay.py plays one policy over both); a served
    # agent's URL names a port that changes from run to run, so two runs never write the same header
    "ws": AgentDef("ws", None, _build_external("ws"),
                   "an external agent served on a WebSocket: ws:url=ws://host:port;token_env=VARIABLE", conformance=""),
}

_LOADED: set[str] = set()  # games whose plugin agents are in AGENTS


def load_agents(game: str) -> None:
    """Add the agents the plugin of `game` declares to AGENTS (once). Raises UnknownGame."""
    if game in _LOADED:
        return
    from games.plugin import resolve
    from games.registry import get_plugin

    plugin = get_plugin(game)
    for reference in plugin.agents:
        found = resolve(reference)
        for agent in getattr(found, "AGENTS", found):
            if not isinstance(agent, AgentDef):
                raise ValueError(f"{reference}: {agent!r} is not an AgentDef")
            if AGENTS.get(agent.name, agent) is not agent:
                raise ValueError(f"two agents named {agent.name!r} ({reference})")
            AGENTS[agent.name] = agent
    _LOADED.add(game)


BROKEN: dict[str, str] = {}  # game -> why its plugin's agents could not be loaded


def load_all_agents() -> dict[str, AgentDef]:
    """Every agent of every installed game (imports every game's agents: for listings). A game
    whose plugin cannot be loaded is left out and named in BROKEN, so one broken third-party
    plugin does not take every other game's agents down with it."""
    from games.plugin import PluginError
    from games.registry import game_names

    for game in game_names():
        try:
            load_agents(game)
        except PluginError as exc:
            BROKEN[game] = str(exc)
    return AGENTS


def agent_names() -> list[str]:
    """Every agent of every installed game, sorted."""
    return sorted(load_all_agents())


def get_agent(name: str, game: str | None = None) -> AgentDef:
    """The agent `name`, looked up among `game`'s agents first. Raises AgentSpecError."""
    if game is not None:
        load_agents(game)
    if name not in AGENTS:
        load_all_agents()
    agent = AGENTS.get(name)
    if agent is None:
        raise AgentSpecError(f"unknown agent {name!r} (known: {', '.join(agent_names())})")
    return agent


def build_player(spec: AgentSpec, game: str, seat: int, seed: int, part: str = "all") -> list[Actor]:
    """The actors of the player in `seat`, President first. Raises AgentSpecError. `part`: which
    lineup of a fork they are for ("before", "after"; external agents answer from the log before),
    or "check" (a lineup checked before a run: external agents' options checked, nothing started)."""
    agent = get_agent(spec.name, game)
    if agent.games is not None and game not in agent.games:
        raise AgentSpecError(f"agent {spec.name!r} does not play {game} (it plays: {', '.join(sorted(agent.games))})")
    try:
        if spec.name in EXTERNAL:
            from actors.external.lineup import build_seat

            return build_seat(spec.name, seat, seed, spec.options, part)
        if spec.name == "llm":
            return _build_llm(game, seat, seed, spec.options, part)
        if spec.options and any(isinstance(spec.options.get(role), dict) for role in OFFICE_ROLES):
            from actors.external.lineup import office_specs, replace_offices

            offices = office_specs(spec.options)
            models = {r: v for r in OFFICE_ROLES if isinstance(v := spec.options.get(r), dict) and v.get("name") == "llm"}
            if offices or models:
                rest = {k: v for k, v in spec.options.items() if k not in offices and k not in models}
                actors = agent.build(game, seat, seed, rest)
                if models:  # offices played by a language model (actors/llm/office.py)
                    from actors.llm.office import replace_offices as replace_model_offices

                    actors = replace_model_offices(actors, game, seat, seed, models, spec.name, part)
                return replace_offices(actors, seat, seed, offices, spec.name, part) if offices else actors
        return agent.build(game, seat, seed, spec.options)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "options"
        raise AgentSpecError(f"agent {spec.name!r}: {where}: {first['msg']}") from None


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def split_outside(text: str, sep: str) -> list[str]:
    """`text` split at `sep` where it stands outside brackets and JSON strings (so a value such as
    cmd=["node","agent.js"] keeps its commas and semicolons)."""
    parts, depth, start, quoted, escaped = [], 0, 0, False, False
    for i, ch in enumerate(text):
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def parse_spec(text: str) -> AgentSpec:
    name, _, rest = text.strip().partition(":")
    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise AgentSpecError(f"malformed agent spec {text!r}: expected NAME or NAME:key=value;...")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in split_outside(rest, ";"))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentSpecError(f"malformed option {part!r} in agent spec {text!r}: expected key=value")
        path = key.strip().split(".")
        if len(path) > 1 and path[0] in OFFICE_ROLES and isinstance(options.get(path[0]), dict) \
                and "name" in options[path[0]] and path[1] != "options":
            path = [path[0], "options", *path[1:]]  # fo=llm:endpoint=...;fo.model=m: an option of the office's agent
        node = options
        for name_part in path[:-1]:
            node = node.setdefault(name_part, {})
        node[path[-1]] = _value(value.strip())
        if path == [path[-1]] and path[-1] in OFFICE_ROLES and isinstance(node[path[-1]], str) and ":" in node[path[-1]]:
            node[path[-1]] = parse_spec(node[path[-1]]).model_dump(mode="json")  # an office played elsewhere
    return AgentSpec(name=name, options=options)


def parse_lineup(text: str, players: int) -> list[AgentSpec]:
    """One spec for every seat, or exactly one per seat. Raises AgentSpecError."""
    parts = split_outside(text or "", ",")
    if not text or any(not p.strip() for p in parts):
        raise AgentSpecError(f"malformed --agents {text!r}: expected a comma-separated list of agent specs")
    specs = [parse_spec(p) for p in parts]
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise AgentSpecError(f"--agents names {len(specs)} agents for {players} seats (give 1 or {players})")
    return specs

