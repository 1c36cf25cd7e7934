"""Recorded model answers: a replay (verify, a fork's prefix) or a re-run takes them instead of calling.

A `model_call` record is keyed by (actor, call): the address of the actor that called (a seat's
`p0`, an office's `p0/fo` or `p0/io`) and the call's index among that actor's calls in the game,
never the prompt's text. `replaying(header, records, scope)` (entered by actors.match.play
for a log being replayed) makes every `llm` actor built inside it answer from `records`:
scope "all" (`replay verify`): every call must be in the log, a missing one is an error, nothing is
called; scope "before" (a fork's prefix): the original lineup's calls before the switch come from
the log, a call past them goes to the model (a seat the fork leaves as it was plays on live).
`answers(get)` hands a tournament's recorded calls of an unchanged game in the same way.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterator

Get = Callable[[str, int], "dict[str, Any] | None"]


@dataclass(frozen=True)
class Recorded:
    """Recorded calls by (actor address, call); `strict`: a call not found is an error, never made."""

    get: Get
    strict: bool = False


def _table(records: Any, keep: Callable[[dict[str, Any]], bool]) -> Get:
    calls: dict[tuple[str, int], dict[str, Any]] = {}
    for r in records:
        msg = r["msg"]
        if msg.get("kind") == "model_call" and keep(r):
            calls.setdefault((str(msg["sender"]), int(msg["call"])), msg)
    return lambda address, call: calls.get((address, call))


@dataclass(frozen=True)
class Context:
    """What the `llm` actors built now are told: the game's header, and where answers come from."""

    header: dict[str, Any] | None
    records: Any = None
    scope: str | None = None  # "all", "before", None (live)
    given: Recorded | None = None  # answers handed in (a tournament's re-run)

    def source_for(self, part: str, seat: int | None = None) -> Recorded | None:
        """The recorded calls an actor of the lineup `part` ("all", "before", "after") answers from."""
        if self.given is not None:
            return self.given
        if self.records is None or self.scope is None:
            return None
        fork = (self.header or {}).get("fork")
        if self.scope == "before":
            return Recorded(_table(self.records, lambda r: True), strict=False) if part in ("before", "all") else None
        if fork is None or part == "all":
            return Recorded(_table(self.records, lambda r: True), strict=True)
        switch = fork["at"]
        if part == "after":
            return Recorded(_table(self.records, lambda r: r["seq"] >= switch), strict=True)
        changed = {s for s, (a, b) in enumerate(zip(fork["before"], self.header["agents"])) if a != b}
        return Recorded(_table(self.records, lambda r: r["seq"] < switch or int(r["msg"]["seat"]) not in changed),
                        strict=True)


_CONTEXT: ContextVar[Context | None] = ContextVar("detente_llm_context", default=None)


def current() -> Context | None:
    return _CONTEXT.get()


@contextmanager
def replaying(header: dict[str, Any], records: Any, scope: str | None) -> Iterator[Context]:
    """Within: `llm` actors know the header and (scope "all" or "before") answer from `records`."""
    outer = _CONTEXT.get()
    context = Context(header, records, scope, outer.given if outer is not None else None)
    token = _CONTEXT.set(context)
    try:
        yield context
    finally:
        _CONTEXT.reset(token)


@contextmanager
def answers(get: Get, strict: bool = False) -> Iterator[None]:
    """Within: `llm` actors take the calls `get(address, call)` returns (a model_call dict) instead of
    calling; a None from it is called live (or, `strict`, is an error)."""
    token = _CONTEXT.set(Context(None, None, None, Recorded(get, strict)))
    try:
        yield
    finally:
        _CONTEXT.reset(token)


def uses_llm(agents: list[dict[str, Any]]) -> bool:
    """Whether a lineup (as a header holds it) has an `llm` seat or office."""
    for spec in agents:
        if spec.get("name") == "llm":
            return True
        for value in (spec.get("options") or {}).values():
            if isinstance(value, dict) and value.get("name") == "llm":
                return True
    return False
