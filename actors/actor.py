"""The actor protocol: an address, its own seeded generator, and `handle(message) -> messages`.

Actors never call each other, never share memory, never read the clock or the global random
generator. Each gets `random.Random` seeded from (game seed, address); seeding with a string is
stable across processes and hash seeds (CPython hashes it with SHA-512).
"""

from __future__ import annotations

import random

from bus.messages import Message


def actor_rng(seed: int, address: str) -> random.Random:
    """The generator of the actor at `address` in the game with `seed`."""
    return random.Random(f"detente/{seed}/{address}")


class Actor:
    """Base class: subclasses implement `handle`. `rng` is made on first use (seeding costs more
    than a short game's decisions, and many actors never draw); assigning one replaces it."""

    def __init__(self, address: str, seed: int):
        self.address = address
        self.seed = seed
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        rng = self._rng
        if rng is None:
            rng = self._rng = actor_rng(self.seed, self.address)
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    def handle(self, message: Message) -> list[Message]:
        raise NotImplementedError
