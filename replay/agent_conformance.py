"""Agent-level conformance checks any registered agent can run (game-level ones: games.conformance
and replay.conformance; see DESIGN.md sections 4 and 5).

For an agent and a game it plays, with the game options of the agent's `budget` and seeds
`0 .. games_in_budget - 1`, with the agent in every seat:
- its logs are byte-identical when played by two processes under different `PYTHONHASHSEED`s;
- every log verifies (`replay.verify`), and holds no error event (record kind `error`, or `fault`:
  an actor that raised, an office above all, whose failure the referee never sees);
- a fork at a mid-game seq, where the agent takes over one seat and hands another over to a
  stand-in, keeps the original prefix, replays to the recorded end and verifies.

Each check raises AssertionError naming the agent, game, seed and the likely cause.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterable, Sequence

from actors.match import game_options, make_header, record
from actors.registry import AGENTS, AgentDef, AgentSpec, agent_names, parse_spec
from bus.log import GameLog, parse_log
from games.registry import game_names, get_game, get_plugin
from replay.fold import DigestMismatch, fold
from replay.fork import ForkError, fork_header
from replay.verify import verify_game

HASH_SEEDS = ("1", "4242")
STAND_IN = "random"  # who plays the seats the agent takes over and hands over in a fork
_STAND_IN_FOR_ITSELF = "random:offices="  # for the stand-in itself: a President alone
_PROBLEMS = ("error", "fault")  # referee error events; bus faults (an office raised)

# -c program for subprocesses that need a setup call first (a test-only agent registering itself)
_BOOT = ("import importlib, sys; m, _, f = sys.argv[1].partition(':'); "
         "getattr(importlib.import_module(m), f)(); from ops.cli import main; sys.exit(main(sys.argv[2:]))")


def agent_game_pairs() -> list[tuple[str, str]]:
    """Every (agent, game) pair of the registries: each agent with each registered game it plays."""
    names = game_names()
    return [(agent, game) for agent in agent_names() for game in names
            if (_definition(agent).games is None or game in _definition(agent).games) and _definition(agent).conformance != ""]


def covered_elsewhere() -> set[str]:
    """Agents whose definition says another suite covers them (`AgentDef.conformance` "")."""
    return {agent for agent in agent_names() if _definition(agent).conformance == ""}


def spec_text(agent: str) -> str:
    """The spec the suite plays `agent` as: its name, or the spec its definition gives."""
    return _definition(agent).conformance or agent


def budget(agent: str, game: str) -> tuple[dict[str, Any], list[int]]:
    """The game options and seeds the agent's conformance budget gives for `game` (no entry for
    the game: the short options the game's plugin declares, else its defaults)."""
    definition = _definition(agent)
    options = definition.budget.get(game, get_plugin(game).short_options)
    return dict(options), list(range(definition.games_in_budget))


def play_in_process(agent: str, game: str, seeds: Iterable[int],
                    options: dict[str, Any] | None = None) -> list[GameLog]:
    """Seeded games with `agent` in every seat, played in this process."""
    return [_play(game, seed, [parse_spec(spec_text(agent))] * _seats(game, options), options) for seed in seeds]


def play_in_subprocess(agent: str, game: str, seeds: Sequence[int], options: dict[str, Any] | None,
                       hash_seed: str, setup: str | None = None) -> bytes:
    """The log bytes of `detente play` of consecutive `seeds` (one process) under PYTHONHASHSEED
    `hash_seed`. `setup` ("module:function") is called in that process first, e.g. to register a
    test-only agent."""
    seeds = list(seeds)
    assert seeds == list(range(seeds[0], seeds[0] + len(seeds))), f"seeds {seeds} are not consecutive"
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    program = [sys.executable, "-m", "ops.cli"]
    if setup is not None:
        program = [sys.executable, "-c", _BOOT, setup]
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_root_of(setup), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory(prefix="detente-agent-conformance-") as tmp:
        path = Path(tmp) / "games.log"
        args = ["play", game, "--seed", str(seeds[0]), "--games", str(len(seeds)),
                "--agents", spec_text(agent), "--log", str(path)]
        for key, value in sorted((options or {}).items()):
            args += ["--option", f"{key}={json.dumps(value)}"]
        done = subprocess.run([*program, *args], env=env, capture_output=True, text=True)
        assert done.returncode == 0, (
            f"agent {agent!r} in {game}: `detente {' '.join(args)}` failed (exit {done.returncode}) "
            f"under PYTHONHASHSEED={hash_seed}: {' | '.join(done.stderr.strip().splitlines()[-2:])}")
        return path.read_bytes()


def check_hash_seeds(agent: str, game: str, seeds: Sequence[int], options: dict[str, Any] | None = None,
                     setup: str | None = None) -> list[GameLog]:
    """Two processes under different PYTHONHASHSEEDs write the same bytes; returns the games."""
    first = play_in_subprocess(agent, game, seeds, options, HASH_SEEDS[0], setup)
    second = play_in_subprocess(agent, game, seeds, options, HASH_SEEDS[1], setup)
    games = _games(first, agent, game)
    held = [g.header["seed"] for g in games]
    assert held == list(seeds), f"agent {agent!r} in {game}: the log holds seeds {held}, not {list(seeds)}"
    if first != second:
        again = play_in_subprocess(agent, game, seeds, options, HASH_SEEDS[0], setup)
        cause = ("it changes with the hash seed alone: a set iterated? (or hash()/id() used to order)"
                 if again == first else
                 "two runs under the same hash seed differ too: the clock read? global random used?")
        where = _first_difference(games, _games(second, agent, game))
        raise AssertionError(f"agent {agent!r} in {game}: logs differ under PYTHONHASHSEED "
                             f"{HASH_SEEDS[0]} and {HASH_SEEDS[1]}, {where}: {cause}")
    return games


def check_verifies(agent: str, game: str, logs: Iterable[GameLog]) -> None:
    """Every log verifies: the rules reproduce every digest, every actor its recorded outputs.

    Logs from another process are reliable here once check_hash_seeds has passed for them."""
    for log in logs:
        where = f"agent {agent!r} in {game} seed {log.header['seed']}"
        assert log.complete, f"{where}: the log has no game_end record"
        verdict = verify_game(log)
        if not verdict.ok:
            culprit = _sender_at(log, verdict.seq)
            raise AssertionError(
                f"{where}: verify fails: {verdict.message}{culprit}: the clock read? global random used? "
                f"state kept between games (a module-level cache)?")


def check_no_errors(agent: str, game: str, logs: Iterable[GameLog]) -> None:
    """No error event and no fault in any log: every actor answered, legally, without raising."""
    for log in logs:
        problem = next((r for r in log.records if r["msg"]["kind"] in _PROBLEMS), None)
        if problem is not None:
            raise AssertionError(f"agent {agent!r} in {game} seed {log.header['seed']}: {_describe(problem)}")


def check_fork(agent: str, game: str, seed: int, options: dict[str, Any] | None = None) -> None:
    """A fork at mid-game, where the agent takes over seat 0 from a stand-in and hands seat 1
    over to it, keeps the original prefix, replays to its recorded end and verifies, error-free."""
    where = f"agent {agent!r} in {game} seed {seed}"
    mine = parse_spec(spec_text(agent))
    other = parse_spec(_STAND_IN_FOR_ITSELF if agent == STAND_IN else STAND_IN)
    n = _seats(game, options)
    original = _play(game, seed, [other] + [mine] * (n - 1), options)
    check_no_errors(agent, game, [original])
    at = original.records[len(original.records) // 2]["seq"]
    requests = [r["seq"] for r in original.records if r["msg"]["kind"] in ("act_request", "talk_turn")
                and r["msg"]["sender"] == "referee"]
    if requests and at >= requests[-1]:  # a short game (two decisions of a poker hand): before its last decision
        at = requests[-1] - 1
    try:
        header = fork_header(original, at, [mine, other] + [mine] * (n - 2))
    except ForkError as exc:
        raise AssertionError(f"{where}: no fork after seq {at} ({exc})") from None
    switch = header["fork"]["at"]
    forked = _game_of(record(header), where)
    for old, new in zip(original.records[:switch], forked.records[:switch]):
        if {**old, "game": None} != {**new, "game": None}:
            raise AssertionError(f"{where}: the fork's prefix differs from the original at seq {old['seq']}"
                                 f"{_sender_at(original, old['seq'])}: the prefix is not re-played faithfully")
    _check_replays(forked, f"{where}, fork at seq {switch}")
    verdict = verify_game(forked)
    assert verdict.ok, (f"{where}, fork at seq {switch}: verify fails: {verdict.message}"
                        f"{_sender_at(forked, verdict.seq)}: the clock read? global random used?")
    problem = next((r for r in forked.records if r["msg"]["kind"] in _PROBLEMS), None)
    if problem is not None:
        raise AssertionError(f"{where}, fork at seq {switch}: {_describe(problem)}; taking over mid-game: "
                             f"does the agent expect to have seen the game from its start?")


def run_all(agent: str, game: str, setup: str | None = None) -> None:
    """Every agent-level check for `agent` in `game`, within the agent's budget."""
    options, seeds = budget(agent, game)
    logs = check_hash_seeds(agent, game, seeds, options, setup)
    check_no_errors(agent, game, logs)
    check_verifies(agent, game, logs)
    check_fork(agent, game, seeds[0], options)


# -- helpers -------------------------------------------------------------------------------

def _definition(agent: str) -> AgentDef:
    if agent not in AGENTS:
        agent_names()  # registers every installed game's agents
    return AGENTS[agent]


def _seats(game: str, options: dict[str, Any] | None) -> int:
    return get_game(game).num_players(game_options(game, options))


def _play(game: str, seed: int, agents: list[AgentSpec], options: dict[str, Any] | None) -> GameLog:
    return _game_of(record(make_header(game, seed, agents, options)), f"{game} seed {seed}")


def _game_of(data: bytes, where: str) -> GameLog:
    log = parse_log(data)
    assert log.bad is None and len(log.games) == 1, f"{where}: the log does not read back ({log.bad})"
    return log.games[0]


def _games(data: bytes, agent: str, game: str) -> list[GameLog]:
    log = parse_log(data)
    assert log.bad is None, f"agent {agent!r} in {game}: the log does not read back ({log.bad})"
    return log.games


def _check_replays(log: GameLog, where: str) -> None:
    assert log.complete, f"{where}: no game_end record"
    try:
        state = fold(log).state
    except DigestMismatch as exc:
        raise AssertionError(f"{where}: replay differs: {exc}") from None
    end = log.records[-1]["msg"]
    assert state.is_terminal() and state.digest() == end["digest"], f"{where}: replay does not reach the recorded end"


def _first_difference(first: list[GameLog], second: list[GameLog]) -> str:
    for a, b in zip(first, second):
        for seq, (x, y) in enumerate(zip(a.payloads, b.payloads)):
            if x != y:
                return f"first in seed {a.header['seed']} at seq {seq}{_sender_at(a, seq)}"
        if len(a.payloads) != len(b.payloads):
            return f"first in seed {a.header['seed']}: {len(a.payloads)} records against {len(b.payloads)}"
    return f"{len(first)} games against {len(second)}"


def _sender_at(log: GameLog, seq: int | None) -> str:
    if seq is None or not 0 <= seq < len(log.records):
        return ""
    msg = log.records[seq]["msg"]
    return f" ({msg['kind']} from {msg.get('sender')})"


def _describe(rec: dict[str, Any]) -> str:
    msg = rec["msg"]
    details = ", ".join(f"{k}={v!r}" for k, v in sorted(msg.items()) if k not in ("kind", "sender", "to", "actor"))
    what = "fault" if msg["kind"] == "fault" else "error event"
    did = "raised or misbehaved" if msg["kind"] == "fault" else "failed"
    return (f"{what} at seq {rec['seq']}: {msg.get('actor')} {did} ({details}); "
            f"every actor must answer what it is sent, legally, without raising")


def _root_of(setup: str) -> str | None:
    """The folder holding the top package of the setup module, for the subprocess's path."""
    spec = importlib.util.find_spec(setup.partition(":")[0].split(".")[0])
    if spec is None:
        return None
    if spec.submodule_search_locations:  # a package: its folder's parent
        return str(Path(next(iter(spec.submodule_search_locations))).parent)
    return str(Path(spec.origin).parent) if spec.origin else None
