"""Play one game: build the header, the actors and the placement, run the bus, write the log.

The header names everything needed to rebuild every actor (game, options, seed, agent specs,
game id, code version) and nothing that depends on time, host, process or placement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from actors.address import seat_of
from actors.lineup import build_actors
from actors.placement import RUNTIMES, InlinePlacement
from actors.registry import AgentSpec
from bus.bus import Bus, Sink
from bus.messages import REFEREE, RUNNER, GameEnd, Start
from games.registry import get_game

CODE_VERSION = "0.1.0"


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
) -> dict[str, Any]:
    """A validated header: options filled with defaults, one agent spec per seat."""
    game = get_game(game_name)
    opts = game_options(game_name, options)
    players = game.num_players(opts)
    if len(agents) != players:
        raise ValueError(f"{game_name} with these options seats {players} players, got {len(agents)} agents")
    return {
        "game": game_name,
        "game_id": game_id or f"{game_name}-{seed}",
        "seed": seed,
        "options": opts.model_dump(mode="json"),
        "agents": [a.model_dump(mode="json") for a in agents],
        "code_version": CODE_VERSION,
    }


@dataclass
class MatchResult:
    header: dict[str, Any]
    end: GameEnd
    records: int
    errors: int = 0


def play(header: dict[str, Any], sink: Sink, runtime: str = "inline", placement: Any = None) -> MatchResult:
    """Run the game of `header`, sending every stamped record to `sink` (header not included)."""
    if runtime not in RUNTIMES:
        raise ValueError(f"unknown runtime {runtime!r} (known: {', '.join(RUNTIMES)})")
    owned = placement is None
    if "fork" in header:
        if runtime != "inline":
            raise ValueError("a forked game runs inline")
        placement = _fork_placement(header)
    elif placement is None:
        if runtime == "inline":
            placement = InlinePlacement(build_actors(header))
        else:
            from actors.ray_placement import RayPlacement

            placement = RayPlacement(runtime)
    if hasattr(placement, "reset"):
        placement.reset(header)
    try:
        bus = Bus(header["game_id"], placement, sink)
        end = bus.run(Start(sender=RUNNER, to=REFEREE))
    finally:
        if owned:
            placement.close()
    return MatchResult(header=header, end=end, records=bus.seq + 1, errors=bus.errors)


def record(header: dict[str, Any], runtime: str = "inline", placement: Any = None) -> bytes:
    """A whole one-game log (magic, header, records) played in memory, as bytes."""
    import io

    from bus.log import LogWriter

    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    play(header, writer, runtime=runtime, placement=placement)
    writer.end_game()
    return buf.getvalue()


def _fork_placement(header: dict[str, Any]):
    """The original lineup until the fork point, the new one for the seats that changed after."""
    from actors.placement import ForkPlacement

    fork = header["fork"]
    before = build_actors({**header, "agents": fork["before"]})
    changed = [s for s, (a, b) in enumerate(zip(fork["before"], header["agents"])) if a != b]
    after_all = build_actors(header)
    after = {a: x for a, x in after_all.items() if seat_of(a) in changed}
    return ForkPlacement(before, after, fork["at"], after_all[REFEREE].talkers)
