"""Play one game: build the header, the actors and the placement, run the bus, write the log.

The header names everything needed to rebuild every actor (game, options, seed, agent specs,
game id, code version) and the limits the bus holds the agents to (bus.messages.Limits, every
default filled), and nothing that depends on time, host, process or placement. Its `env` says,
as information, which interpreter and library versions made it (bus.environment): nothing is
rebuilt from it, and the same seed gives the same records under every supported interpreter.

Wall-clock budgets (`decision_seconds` per delivery to a seat's actor, `game_seconds` per game) are
arguments of `play`, not of the header: they decide only that a seat is retired or that the game is
aborted, and the log records each such decision. Replaying a log (`play` given its records, as
replay.verify's sink offers them) posts those records where they were made, with no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from actors.address import seat_of
from actors.lineup import build_actors
from actors.placement import RUNTIMES, Clock, DeadlinePlacement, InlinePlacement, seat_addresses
from actors.registry import EXTERNAL, AgentSpec
from bus.bus import Bus, Sink
from bus.codec import FORMAT_VERSION, load
from bus.environment import environment
from bus.messages import BUS, LOG, REFEREE, RUNNER, GameEnd, Limits, Message, Start, built
from games.registry import get_game, get_plugin

CODE_VERSION = "0.1.0"
_LIMITS = Limits()  # the defaults, and their header entry (built once: every game's header has it)
_LIMITS_ENTRY = _LIMITS.model_dump(mode="json")


class OptionsError(ValueError):
    """Game options that do not validate."""


def game_options(game_name: str, raw: dict[str, Any] | None):
    game = get_game(game_name)
    try:
        return game.options(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "options"
        raise OptionsError(f"{game_name} option {where}: {first['msg']}") from None


def make_header(
    game_name: str,
    seed: int,
    agents: list[AgentSpec],
    options: dict[str, Any] | None = None,
    game_id: str | None = None,
    limits: Limits | None = None,
) -> dict[str, Any]:
    """A validated header: options and limits filled with defaults, one agent spec per seat."""
    game = get_game(game_name)
    opts = game_options(game_name, options)
    players = game.num_players(opts)
    if len(agents) != players:
        raise ValueError(f"{game_name} with these options seats {players} players, got {len(agents)} agents")
    header = {
        "game": game_name,
        "game_id": game_id or f"{game_name}-{seed}",
        "seed": seed,
        "options": opts.model_dump(mode="json"),
        "agents": [a.model_dump(mode="json") for a in agents],
        "code_version": CODE_VERSION,
    }
    header["limits"] = dict(_LIMITS_ENTRY) if limits is None else limits.model_dump(mode="json")
    header["env"] = environment_of(game_name)
    return with_external(header)


def with_external(header: dict[str, Any]) -> dict[str, Any]:
    """`header` with its external agents started and recorded (actors.external.lineup), if it has any."""
    if not any(a["name"] in EXTERNAL or any(isinstance(v, dict) for v in a["options"].values()) for a in header["agents"]):
        return header
    from actors.external.lineup import header_lineup, is_external

    if not any(is_external(a) for a in header["agents"]):
        return header
    agents, external = header_lineup(header["agents"])
    return {**header, "agents": agents, "external": external}


def environment_of(game_name: str) -> dict[str, str]:
    """The header's `env` for a game made here: the interpreter, the core libraries and those its
    plugin names as able to change its results."""
    return dict(environment(tuple(get_plugin(game_name).libraries)))


@dataclass
class MatchResult:
    header: dict[str, Any]
    end: GameEnd
    records: int
    errors: int = 0
    seat_errors: dict[int, int] | None = None  # error events naming each seat's actors
    retired: dict[int, str] | None = None  # seat -> why it was retired
    aborted: str | None = None  # why the game was aborted (over its wall-clock budget), if it was
    blame: int | None = None  # the seat an abort counts against
    seat_faults: dict[int, dict[str, Any]] | None = None  # seat -> its errors by category and the first (bus.SeatFaults)


def play(header: dict[str, Any], sink: Sink, runtime: str = "inline", placement: Any = None,
         decision_seconds: float | None = None, game_seconds: float | None = None,
         decided: list[dict[str, Any]] | None = None) -> MatchResult:
    """Run the game of `header`, sending every stamped record to `sink` (header not included).

    `decision_seconds`, `game_seconds`: wall-clock budgets (see the module's docstring). `decided`:
    the records of a log being replayed, whose wall-clock decisions are posted where they were made
    (default: the sink's `records`, if it has them, as a replaying sink does)."""
    if runtime not in RUNTIMES:
        raise ValueError(f"unknown runtime {runtime!r} (known: {', '.join(RUNTIMES)})")
    if _uses_llm(header):  # language-model agents: a replay's answers come from its log (actors/llm/record.py)
        from actors.llm.record import replaying

        scope = "before" if decided is not None else "all" if getattr(sink, "records", None) is not None else None
        with replaying(header, decided if decided is not None else getattr(sink, "records", None), scope):
            return _play(header, sink, runtime, placement, decision_seconds, game_seconds, decided)
    return _play(header, sink, runtime, placement, decision_seconds, game_seconds, decided)


def _uses_llm(header: dict[str, Any]) -> bool:
    for spec in [*header["agents"], *((header.get("fork") or {}).get("before") or ())]:
        if spec.get("name") == "llm" or any(isinstance(v, dict) and v.get("name") == "llm"
                                            for v in (spec.get("options") or {}).values()):
            return True
    return False


def _play(header: dict[str, Any], sink: Sink, runtime: str, placement: Any, decision_seconds: float | None,
          game_seconds: float | None, decided: list[dict[str, Any]] | None) -> MatchResult:
    if decided is None:
        decided = getattr(sink, "records", None)
    replayed = wall_clock_decisions(decided or ())
    clock = None if replayed or (decision_seconds is None and game_seconds is None) else Clock(decision_seconds, game_seconds)
    owned = placement is None
    if "fork" in header:
        if runtime != "inline":
            raise ValueError("a forked game runs inline")
        placement = _fork_placement(header)
    elif placement is None:
        if runtime == "inline":
            actors = build_actors(header)
            placement = DeadlinePlacement(actors, clock) if clock else InlinePlacement(actors)
        else:
            from actors.ray_placement import RayPlacement

            placement = RayPlacement(runtime)
    if hasattr(placement, "reset"):
        placement.reset(header)
    if hasattr(placement, "set_deadlines"):
        placement.set_deadlines(clock)
    raw = header.get("limits")
    limits = None if raw is None else _LIMITS if raw == _LIMITS_ENTRY else Limits.model_validate(raw)
    try:
        bus = Bus(header["game_id"], placement, sink, limits=limits, seats=seat_addresses(placement.addresses),
                  decided=replayed, abort_end=lambda seat, reason: _aborted_end(header, placement, seat, reason),
                  log_format=header.get("format", FORMAT_VERSION))
        if hasattr(placement, "start"):
            placement.start()
        end = bus.run(built(Start, {"sender": RUNNER, "to": REFEREE, "kind": "start"}))  # unvalidated: our own values
        if "external" in header:
            _tell_end(placement, end)
    finally:
        if owned:
            placement.close()
        elif hasattr(placement, "set_deadlines"):
            placement.set_deadlines(None)
    aborted = end.extra.get("aborted") if end.sender == BUS else None
    return MatchResult(header=header, end=end, records=bus.seq + 1, errors=bus.errors, seat_errors=dict(bus.seat_errors),
                       retired={s: r.reason for s, r in sorted(bus.retired.items())}, aborted=aborted,
                       blame=end.extra.get("blame") if aborted else None,
                       seat_faults={seat: f.to_json() for seat, f in sorted(bus.seat_faults.items())})


def _tell_end(placement: Any, end: GameEnd) -> None:
    """Tell the external agents of an inline game that it ended (their game_end notice)."""
    for group in (getattr(placement, "actors", {}), getattr(placement, "after", {})):
        for _, actor in sorted(group.items()):
            notice = getattr(actor, "end_game", None)
            if notice is not None:
                notice(end)


def wall_clock_decisions(records: Any) -> dict[int, Message]:
    """The records of a log that the wall clock decided (a seat retired for overrunning its time,
    an aborted end), by the seq they answer: what a replay posts instead of calling the actors."""
    out: dict[int, Message] = {}
    for record in records:
        msg = record["msg"]
        if msg.get("sender") == BUS and (msg["kind"] == "game_end" or (msg["kind"] == "retire" and msg.get("category") == "timeout")):
            out[record["cause"]] = load(msg)
    return out


def _aborted_end(header: dict[str, Any], placement: Any, seat: int | None, reason: str) -> GameEnd:
    """The end of a game aborted over its budget: no result; the seat to blame ranked last (the
    others tied above it), the abort and the blame in `extra`."""
    game = get_game(header["game"])
    options = game.options(header["options"])
    n = len(header["agents"])
    referee = getattr(placement, "actors", getattr(getattr(placement, "local", None), "actors", {})).get(REFEREE)
    state = getattr(referee, "state", None)
    ranks = tuple(float(n) if s == seat else (n / 2 if seat is not None else (n + 1) / 2) for s in range(n))
    return GameEnd(sender=BUS, to=LOG, returns=(0.0,) * n, winners=(), summary=f"aborted: {reason}",
                   steps=getattr(referee, "step", 0), digest=state.digest() if state is not None else "",
                   extra={"aborted": reason, "blame": seat}, ranks=ranks, teams=game.teams(options))


def record(header: dict[str, Any], runtime: str = "inline", placement: Any = None) -> bytes:
    """A whole one-game log (magic, header, records) played in memory, as bytes (framed once the
    game is over: bus.log.MemoryLog)."""
    from bus.log import MemoryLog

    log = MemoryLog()
    log.header(header)
    play(header, log, runtime=runtime, placement=placement)
    return log.log()


def _fork_placement(header: dict[str, Any]):
    """The original lineup until the fork point, the new one for the seats that changed after."""
    from actors.external.lineup import is_external
    from actors.placement import ForkPlacement

    fork = header["fork"]
    before = build_actors({**header, "agents": fork["before"]}, part="before")
    # a seat played by an external agent changes hands at the switch even when its spec does not:
    # before it the log answers for the agent, after it the agent plays live
    changed = [s for s, (a, b) in enumerate(zip(fork["before"], header["agents"])) if a != b or is_external(b)]
    after_all = build_actors(header, part="after")
    after = {a: x for a, x in after_all.items() if seat_of(a) in changed}
    # the requests at the switch are made before it, by the original lineup's referee: a seat that
    # reads observations in either lineup is sent them from the start (a format-4 log holds none,
    # so the prefix is the original's either way)
    seen, now = before[REFEREE].observers, after_all[REFEREE].observers
    observers = None if seen is None or now is None else seen | now
    before[REFEREE].observers = observers
    return ForkPlacement(before, after, fork["at"], after_all[REFEREE].talkers, observers)
