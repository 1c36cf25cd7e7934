"""Placements: where a game's actors run. Same actor code, same messages, same log bytes.

- `inline`: every actor in this process; a wave is delivered message by message.
- `ray-players`: one Ray actor per player (President and offices together).
- `ray-modules`: one Ray actor per module.
The referee always runs beside the bus. Ray is imported only when a Ray placement is chosen.
"""

from __future__ import annotations

from bus.bus import deliver_one
from bus.messages import Message

RUNTIMES = ("inline", "ray-players", "ray-modules")


class InlinePlacement:
    """All actors in one process, single-threaded."""

    def __init__(self, actors: dict):
        self.actors = actors
        self.addresses = frozenset(actors)

    def deliver_wave(self, wave: list[tuple[int, Message]]) -> list[list[Message]]:
        actors = self.actors
        return [deliver_one(actors[m.to], m, seq) for seq, m in wave]

    def close(self) -> None:
        pass


def group_key(address: str, runtime: str) -> str:
    """Which host runs `address`: the whole player for ray-players, itself for ray-modules."""
    return address.split("/", 1)[0] if runtime == "ray-players" else address
