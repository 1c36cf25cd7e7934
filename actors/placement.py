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


class ForkPlacement(InlinePlacement):
    """Inline placement that hands some players over to other agents from seq `at` on.

    Messages stamped before `at` go to the original actors, the rest to the replacements where
    the seat was re-assigned (`replay fork`). `at` is the first request of a decision or talk
    round, so no replaced player has work in flight when the switch happens."""

    def __init__(self, before: dict, after: dict, at: int, talkers: frozenset[int]):
        super().__init__(before)
        self.after = after
        self.at = at
        self.talkers = talkers
        self.addresses = frozenset(before) | frozenset(after)
        self.switched = False

    def deliver_wave(self, wave: list[tuple[int, Message]]) -> list[list[Message]]:
        out = []
        for seq, m in wave:
            if seq >= self.at and not self.switched:
                self.switched = True
                self.actors["referee"].talkers = self.talkers  # who speaks is the new lineup's
            actor = self.after.get(m.to) if seq >= self.at else None
            out.append(deliver_one(actor or self.actors[m.to], m, seq))
        return out
