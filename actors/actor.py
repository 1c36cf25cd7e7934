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
    """Base class: subclasses implement `handle`."""

    def __init__(self, address: str, seed: int):
        self.address = address
        self.seed = seed
        self.rng = actor_rng(seed, address)

    def handle(self, message: Message) -> list[Message]:
        raise NotImplementedError
