"""External actors: a seat, or one office of a built-in Alpha agent, played by a program outside.

Live, an `ExternalActor` hands each delivered message to its connection and returns the answer.
In a replay (`replay verify`, the prefix of a fork) a `GivenActor` stands at the same address and
returns what the log recorded in answer to each delivery, so a replay needs neither the program
nor the network, and everything else (rules, referee, every built-in actor, the bus's limits) is
re-run and checked byte for byte. A changed answer in the log is then caught where it matters: the
referee's step (or error) record no longer matches, or the rules refuse it.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

from actors.actor import Actor
from actors.address import office_address, office_of, player_address
from actors.external.connection import OPTIONS, Connection, ExternalError, connect, lookup
from bus.codec import load
from bus.messages import Message

TRANSPORTS = ("exec", "ws")
OFFICES = ("so", "fo", "io")


class ExternalActor(Actor):
    """Live: every message goes to the agent; its answer (or its failure, as a Fault) comes back."""

    def __init__(self, address: str, seed: int, conn: Connection, speaks: bool):
        super().__init__(address, seed)
        self.conn = conn
        self.speaks = speaks

    def handle(self, message: Message) -> list[Message]:
        return self.conn.request(message)

    def begin_game(self, header: dict[str, Any], seat: int) -> None:
        self.conn.begin_game(header, seat)

    def end_game(self, end: Message) -> None:
        self.conn.end_game(end)


class Given:
    """The answers a log recorded from its external actors, by address, in delivery order."""

    def __init__(self, header: dict[str, Any], records: list[dict[str, Any]]):
        self.entries: dict[str, dict[str, Any]] = dict(header.get("external") or {})
        by_cause: dict[int, list[dict[str, Any]]] = {}
        for r in records:
            if r["msg"]["kind"] != "retire":  # a retire is the bus's own decision: it makes it again
                by_cause.setdefault(r["cause"], []).append(r["msg"])
        self.deliveries: dict[str, list[list[dict[str, Any]]]] = {a: [] for a in sorted(self.entries)}
        fork = header.get("fork")
        before = after = frozenset(self.entries)
        switch = -1
        if fork is not None:  # a fork's seats change hands at the switch: each side answers its own deliveries
            before, after, switch = external_addresses(fork["before"]), external_addresses(header["agents"]), fork["at"]
        for r in records:
            to = r["msg"]["to"]
            if to in self.deliveries and to in (after if r["seq"] >= switch else before):
                self.deliveries[to].append(by_cause.get(r["seq"], []))
        self.taken: dict[str, int] = {a: 0 for a in self.deliveries}  # answers handed out, by address

    def next(self, address: str) -> list[Message]:
        n = self.taken[address]
        recorded = self.deliveries[address]
        if n >= len(recorded):
            raise ExternalError(f"the log holds no answer of {address} to its delivery {n + 1}")
        self.taken[address] = n + 1
        return [load(msg) for msg in recorded[n]]

    def summary(self) -> str:
        """How many answers were taken from the log, by address and agent name."""
        parts = []
        for address, n in self.taken.items():
            entry = self.entries[address]
            who = entry.get("name") or f"never started ({entry.get('transport', '?')})"
            parts.append(f"{address} {who!r}: {n}")
        return f"{sum(self.taken.values())} answers of external agents taken from the log ({', '.join(parts)})"


class GivenActor(Actor):
    """Replay: answers each delivery with what the log recorded (the agent's messages, and the
    bus's Fault or Breach where the agent failed or broke a limit)."""

    given = True  # bus.bus.deliver_one: its outputs may be the bus's own records

    def __init__(self, address: str, seed: int, given: Given, speaks: bool):
        super().__init__(address, seed)
        self.source = given
        self.speaks = speaks

    def handle(self, message: Message) -> list[Message]:
        return self.source.next(self.address)


def external_addresses(agents: list[dict[str, Any]]) -> frozenset[str]:
    """The addresses external agents play in a lineup (as a header holds it)."""
    out = set()
    for seat, spec in enumerate(agents):
        if spec["name"] in TRANSPORTS:
            out.add(player_address(seat))
        for role, inner in (spec.get("options") or {}).items():
            if role in OFFICES and isinstance(inner, dict) and inner.get("name") in TRANSPORTS:
                out.add(office_address(seat, role))
    return frozenset(out)


_GIVEN: ContextVar[tuple[Given, str] | None] = ContextVar("detente_given_answers", default=None)


@contextmanager
def given_answers(header: dict[str, Any], records: list[dict[str, Any]], scope: str = "all") -> Iterator[Given]:
    """Within: external actors are built as GivenActors answering from `records`. `scope` "before":
    only the lineup before a fork's switch (the new lineup's external agents play live)."""
    given = Given(header, records)
    token = _GIVEN.set((given, scope))
    try:
        yield given
    finally:
        _GIVEN.reset(token)


def given_scope() -> str | None:
    current = _GIVEN.get()
    return None if current is None else current[1]


def external_actor(kind: str, options: dict[str, Any], address: str, seed: int, *, part: str = "all") -> Actor:
    """The actor at `address` for an external spec (`part`: which lineup of a fork it is for;
    "check": only the options are checked, nothing is started, the actor answers nothing)."""
    if part == "check":
        OPTIONS[kind].model_validate(options)
        return GivenActor(address, seed, Given({}, []), False)
    current = _GIVEN.get()
    if current is not None and (current[1] == "all" or part == "before"):
        given, _ = current
        entry = given.entries.get(address)
        if entry is None:
            raise ExternalError(f"the header records no external agent at {address}")
        return GivenActor(address, seed, given, bool(entry.get("talks")))
    role = office_of(address) or "player"
    conn = lookup(kind, options, address, role)
    return ExternalActor(address, seed, conn, bool(conn.hello and conn.hello.talks and role == "player"))


def prepare(kind: str, options: dict[str, Any], address: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """For a header being made: start (or reuse) the agent; its options as the header keeps them
    and its handshake entry."""
    conn, kept = connect(kind, options, address, office_of(address) or "player")
    return kept, conn.entry()
