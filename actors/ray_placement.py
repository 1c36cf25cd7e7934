"""Ray placements: players or modules as Ray actors; the referee stays beside the bus.

Logic lives in the plain `Host` (a set of actors built from the log header); the Ray class only
translates. Messages cross as msgpack bytes of their JSON-mode dicts, never pickled objects.
A wave is split by host, every host handles its share in order (so one actor sees its messages
in log order), hosts run in parallel, and the outputs are put back in the wave's order.
Hosts are reset, not re-created, from game to game.

With deadlines (`set_deadlines`, a placement.Clock): a host that has not answered its share of a
wave within `decision_seconds` retires the seats it serves (`timeouts`, which the bus logs) and is
killed (a fresh one serves the next game); the game's budget running out raises bus.bus.Overtime.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

import ray

from actors.address import seat_of
from actors.lineup import build_actors
from actors.placement import Clock, InlinePlacement, group_key
from bus.bus import deliver_one
from bus.codec import dump, load, pack, unpack
from bus.messages import REFEREE, Message, Retire


class Host:
    """Some of a game's actors, rebuilt from the header on `reset`."""

    def __init__(self) -> None:
        self.actors: dict[str, Any] = {}

    def reset(self, header_bytes: bytes, addresses: list[str]) -> None:
        header = unpack(header_bytes)
        seats = sorted({int(a.split("/", 1)[0][1:]) for a in addresses})
        built = build_actors(header, seats=seats, referee=False)
        missing = sorted(set(addresses) - set(built))
        if missing:
            raise ValueError(f"header builds no actor at {missing}")
        self.actors = {a: built[a] for a in addresses}

    def handle_batch(self, batch_bytes: bytes) -> bytes:
        out = []
        for seq, data in unpack(batch_bytes):
            message = load(data)
            out.append([dump(m) for m in deliver_one(self.actors[message.to], message, seq)])
        return pack(out)


@ray.remote(num_cpus=0)
class _RayHost:
    def __init__(self) -> None:
        self.host = Host()

    def reset(self, header_bytes: bytes, addresses: list[str]) -> None:
        self.host.reset(header_bytes, addresses)

    def handle_batch(self, batch_bytes: bytes) -> bytes:
        return self.host.handle_batch(batch_bytes)


class RayUnreachable(ConnectionError):
    """No Ray cluster answers at the address given."""


def check_reachable(address: str, timeout: float = 3.0) -> None:
    """Fail fast (instead of Ray's minutes of retries) when nothing listens at host:port."""
    if address == "auto":
        return
    hostport = address.split("://", 1)[-1]
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise RayUnreachable(f"--address {address!r}: expected HOST:PORT, ray://HOST:PORT or auto")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise RayUnreachable(f"no Ray cluster answers at {address} ({exc.strerror or exc})") from None


def ensure_ray(address: str | None = None, num_cpus: int | None = None) -> None:
    """Start a local Ray (or join `address`) unless one is already connected."""
    if ray.is_initialized():
        return
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
    if address:
        check_reachable(address)
        ray.init(address=address, **kwargs)
    else:
        # a Ray started for one command serves this machine only: bound to loopback
        ray.init(num_cpus=num_cpus or os.cpu_count() or 2, _node_ip_address="127.0.0.1", **kwargs)


class RayPlacement:
    """Delivers to Ray-hosted actors, grouped per player or per module."""

    def __init__(self, runtime: str):
        if runtime not in ("ray-players", "ray-modules"):
            raise ValueError(f"not a Ray runtime: {runtime!r}")
        self.runtime = runtime
        self.hosts: dict[str, Any] = {}  # group key -> Ray actor handle, kept across games
        self.where: dict[str, str] = {}
        self.local: InlinePlacement | None = None
        self.addresses: frozenset[str] = frozenset()
        self.clock: Clock | None = None
        self.timeouts: dict[int, Retire] = {}  # seats whose host overran in the last wave

    def set_deadlines(self, clock: Clock | None) -> None:
        """Budgets for the games to come (None: none)."""
        self.clock = clock

    def start(self) -> None:
        """The game begins: its clock starts."""
        if self.clock is not None:
            self.clock.start()

    def reset(self, header: dict[str, Any]) -> None:
        """Prepare for the game of `header`, reusing hosts of earlier games."""
        ensure_ray()
        everyone = build_actors(header)  # cheap local build: the address list and the referee
        self.local = InlinePlacement({REFEREE: everyone[REFEREE]})
        groups: dict[str, list[str]] = {}
        for address in everyone:
            if address != REFEREE:
                groups.setdefault(group_key(address, self.runtime), []).append(address)
        header_bytes = pack(header)
        waits = []
        for key, addresses in sorted(groups.items()):
            if key not in self.hosts:
                self.hosts[key] = _RayHost.remote()
            waits.append(self.hosts[key].reset.remote(header_bytes, addresses))
        ray.get(waits)
        self.where = {a: key for key, addresses in groups.items() for a in addresses}
        self.addresses = frozenset(everyone)

    def deliver_wave(self, wave: list[tuple[int, Message]]) -> list[list[Message]]:
        results: list[list[Message] | None] = [None] * len(wave)
        batches: dict[str, list[int]] = {}
        for i, (_, message) in enumerate(wave):
            if message.to == REFEREE:
                continue
            batches.setdefault(self.where[message.to], []).append(i)
        self.timeouts = {}
        if batches and self.clock is not None:
            self.clock.budget(wave[min(min(idx) for idx in batches.values())][0])  # Overtime if none is left
        t0 = time.monotonic()
        futures = {
            key: self.hosts[key].handle_batch.remote(pack([[wave[i][0], dump(wave[i][1])] for i in idx]))
            for key, idx in sorted(batches.items())
        }
        for i, (seq, message) in enumerate(wave):  # the referee runs here meanwhile
            if message.to == REFEREE:
                results[i] = self.local.deliver_wave([(seq, message)])[0]
        answers = dict(zip(futures, ray.get(list(futures.values())))) if self.clock is None else self._within(futures, batches, wave, t0)
        for key, payload in answers.items():
            for i, outs in zip(batches[key], unpack(payload)):
                results[i] = [load(d) for d in outs]
        for i, outs in enumerate(results):
            if outs is None:  # a host that overran: the bus puts its seat's Retire in place
                results[i] = []
        return results  # type: ignore[return-value]

    def _within(self, futures: dict[str, Any], batches: dict[str, list[int]], wave: list[tuple[int, Message]],
                t0: float) -> dict[str, bytes]:
        """The hosts' answers that came within the budgets; the others' seats time out (or the game does)."""
        clock = self.clock
        pending = {ref: key for key, ref in futures.items()}
        answers: dict[str, bytes] = {}
        while pending:
            now = time.monotonic()
            waits = [t0 + clock.decision_seconds - now] if clock.decision_seconds is not None else []
            waits += [clock.deadline - now] if clock.deadline is not None else []
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=max(0.0, min(waits)) if waits else None)
            if not ready:
                break
            for ref in ready:
                key = pending.pop(ref)
                answers[key] = ray.get(ref)
                self._charge(key, time.monotonic() - t0)
        if not pending:
            return answers
        late = sorted(pending.values())
        for key in late:
            self._charge(key, time.monotonic() - t0)
            ray.kill(self.hosts.pop(key))  # it may never answer: a fresh host serves the next game
        if clock.game_over() or clock.decision_seconds is None:
            clock.overtime(min(wave[i][0] for key in late for i in batches[key]))
        for key in late:
            seat = seat_of(key)
            self.timeouts.setdefault(seat, clock.timeout(seat))
        return answers

    def _charge(self, key: str, seconds: float) -> None:
        seat = seat_of(key)
        if seat is not None:
            self.clock.charge(seat, seconds)

    def close(self) -> None:
        for handle in self.hosts.values():
            ray.kill(handle)
        self.hosts = {}


