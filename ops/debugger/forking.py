"""What if: fork a game from the debugger, with other agents in some seats, written under the
server's output folder only (`OUT/forks/<fork id>.log`, via a temporary file renamed into place).

The fork is `replay fork`'s: `replay.fork.fork_header` then the game played inline from that
header, so the forked log replays and verifies like any other; one fork runs at a time.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

from actors.registry import AgentSpec, AgentSpecError, parse_spec
from bus.log import GameLog, LogError, LogWriter, read_log
from games.registry import get_game
from ops.debugger.game import DebugError, DebugGame
from ops.files import replacing
from ops.tournament.spec import check_agents
from replay.fork import ForkError, fork_header, play_fork

FORKS = "forks"  # the folder of OUT the forks go to
MAX_SPEC = 200  # characters of one seat's agent spec
_BUSY = threading.Lock()
_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def lineup_for(game: DebugGame, seats: Any) -> list[AgentSpec]:
    """The fork's lineup: the original agents, with `seats` ({seat: spec text}) replaced."""
    if not isinstance(seats, dict) or not seats:
        raise DebugError("name at least one seat and the agent it gets: {\"seats\": {\"3\": \"alphadip\"}}")
    agents = [AgentSpec.model_validate(a) for a in game.header.get("agents") or ()]
    for key, text in seats.items():
        if not str(key).isdigit() or not 0 <= int(key) < len(agents):
            raise DebugError(f"seat {str(key)[:20]!r} is not a seat (players 0..{len(agents) - 1})")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_SPEC or not text.isprintable():
            raise DebugError(f"seat {key}: an agent spec is printable text of at most {MAX_SPEC} characters")
        try:
            agents[int(key)] = parse_spec(text)
        except AgentSpecError as exc:
            raise DebugError(f"seat {key}: {exc}") from None
    return agents


def fork_game(game: DebugGame, at: Any, seats: Any, out: Path) -> dict[str, Any]:
    """Play the fork of `game` after seq `at`; returns its id, path, switch point and summary."""
    if not isinstance(at, int) or isinstance(at, bool):
        raise DebugError("at: the seq to fork after, an integer")
    game.check_seq(at)
    if "fork" in game.header:
        raise DebugError("forking a fork is not supported: fork the original game")
    if not game.log.complete:
        raise DebugError("the game is incomplete (no game_end record): it cannot be forked")
    agents = lineup_for(game, seats)
    name = game.header.get("game")
    try:
        options = get_game(name).options(game.header.get("options") or {})
        check_agents(name, options, agents)
        header = fork_header(game.log, at, agents)
    except (ForkError, AgentSpecError) as exc:
        raise DebugError(str(exc)) from None
    except (ValueError, TypeError) as exc:
        raise DebugError(f"the logged game's options do not validate: {str(exc).splitlines()[0]}") from None
    if not _BUSY.acquire(blocking=False):
        raise DebugError("another fork is running: try again when it is done", 409)
    try:
        path = _write(game.log, header, out)
    finally:
        _BUSY.release()
    fork = _read(path)
    return {"game_id": header["game_id"], "path": str(path), "at": header["fork"]["at"],
            "first_difference": first_difference(game.log, fork),
            "summary": fork.records[-1]["msg"].get("summary") if fork.complete else None}


def _write(original: GameLog, header: dict[str, Any], out: Path) -> Path:
    folder = (out / FORKS).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    stem = _SAFE.sub("_", str(header["game_id"]))[:120] or "fork"
    target = (folder / f"{stem}.log").resolve()
    if target.parent != folder:  # never outside OUT/forks, whatever the game id says
        raise DebugError("the fork's name is not usable", 400)
    with replacing(target) as f:
        writer = LogWriter(f)
        writer.header(header)
        play_fork(original, header, writer)
        writer.end_game()
    return target


def _read(path: Path) -> GameLog:
    try:
        logfile = read_log(path)
    except LogError as exc:
        raise DebugError(f"the fork's log cannot be read back: {exc}", 500) from None
    if not logfile.games:
        raise DebugError("the fork wrote no game", 500)
    return logfile.games[0]


def first_difference(a: GameLog, b: GameLog) -> int | None:
    """The first seq where two logs of one game differ (a record changed, or one ends); None if equal."""
    for ra, rb in zip(a.records, b.records):  # the game ids differ: compare what was said, when
        if (ra["seq"], ra.get("cause"), ra["msg"]) != (rb["seq"], rb.get("cause"), rb["msg"]):
            return ra["seq"]
    if len(a.records) != len(b.records):
        shorter = a if len(a.records) < len(b.records) else b
        return shorter.records[-1]["seq"] + 1 if shorter.records else 0
    return None
