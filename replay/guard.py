"""The one boundary around plugin code: whatever a game's plugin part raises on a given log comes
out as a typed `PluginFault` (a `LogError`) naming the game, the part, the seq and the cause.

Plugin parts are the readers a game's plugin declares (games/plugin.py): its transcript, its
belief reader, its charts, its board and the board module's debugger hooks, its exporters and its
report sections. They read logs that passed every framing and schema check but may still be wrong
in content (a field a game always writes left out, another game's actions, another seat's
observation), and a plugin should not have to re-validate each record by hand: the callers run
each part under `guard`, so the CLI prints one line and exits 2, the debugger answers one JSON
error and goes on serving, and a report marks the section unavailable.

On logs detente's own writer made a trip is a bug, never swallowed: `check_parts` runs every part
of a game on a log and raises the first fault, and the conformance tests run it on golden and
random logs.

The seq a fault names is, in order: the one the caller passes (a board drawn after seq S), the
record the plugin code was reading when it failed (the innermost frame of the traceback holding a
walk step or a record), or the last record `replay.walk` handed out inside the guard.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

from bus.errors import LogError

CAUSE_LIMIT = 300  # characters of the cause kept in the one line
_WALKED: contextvars.ContextVar[list[int | None] | None] = contextvars.ContextVar("detente_walked", default=None)


class PluginFault(LogError):
    """A game's plugin part failed on a log: the game, the part, the seq (None: not at a record,
    e.g. a report section over the store) and the cause, in one line."""

    def __init__(self, game: Any, part: str, seq: int | None, cause: BaseException | str, where: str | None = None):
        text = cause if isinstance(cause, str) else _cause(cause)
        self.game, self.part, self.cause, self.where = str(game), part, text, where
        at = where if where is not None else f"seq {seq}" if seq is not None else "no seq"
        super().__init__(f"game {self.game}: plugin part {part} failed at {at}: {text}", None, seq)

    def __str__(self) -> str:
        return self.reason

    def __reduce__(self):
        return PluginFault, (self.game, self.part, self.seq, self.cause, self.where)


def _cause(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) if not isinstance(exc, KeyError) else repr(exc.args[0]) if exc.args else ""
    line = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return line if len(line) <= CAUSE_LIMIT else line[: CAUSE_LIMIT - 3] + "..."


def note_walked(seq: int) -> None:
    """Called by replay.walk for every record it hands out: where a guarded part is reading."""
    cell = _WALKED.get()
    if cell is not None:
        cell[0] = seq


class guard:  # noqa: N801 - used as a function: `with guard(game, part, seq):`
    """Run plugin code: any exception but a LogError (already typed: the core's own verdict on the
    log) leaves as a PluginFault. `where`: what the part was reading when not a log's record (a
    report section: the stored game it was at), asked only on failure. (A class, not a generator
    context manager: it runs once per record in the debugger's index, so it is kept cheap.)"""

    __slots__ = ("game", "part", "seq", "where", "cell", "token")

    def __init__(self, game: Any, part: str, seq: int | None = None,
                 where: Callable[[], str | None] | None = None):
        self.game, self.part, self.seq, self.where = game, part, seq, where
        self.cell: list[int | None] | None = None

    def __enter__(self) -> "guard":
        if self.seq is None:  # where the part is reading: told by replay.walk
            self.cell = [None]
            self.token = _WALKED.set(self.cell)
        return self

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> bool:
        if self.cell is not None:
            _WALKED.reset(self.token)
        if exc is None or not isinstance(exc, Exception) or isinstance(exc, LogError):
            return False
        at = self.seq if self.seq is not None else _seq_in(tb)
        if at is None and self.cell is not None:
            at = self.cell[0]
        where = self.where() if self.where is not None and at is None else None
        raise PluginFault(self.game, self.part, at, exc, where) from exc


def guarded(game: Any, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` run under `guard(game, part)` (seq: keyword `_seq`, or found as `guard` finds it)."""

    def call(*args: Any, _seq: int | None = None, **kwargs: Any) -> Any:
        with guard(game, part, _seq):
            return fn(*args, **kwargs)

    return call


def _seq_in(tb: Any) -> int | None:
    """The seq of the innermost frame's walk step or record (the plugin code's own variables)."""
    from replay.walk import Step

    found = None
    while tb is not None:
        for value in tb.tb_frame.f_locals.values():
            if isinstance(value, Step):
                found = value.seq
                break
            if isinstance(value, dict) and type(value.get("seq")) is int and "msg" in value:
                found = value["seq"]
                break
        tb = tb.tb_next
    return found


# -- what each part must give back (checked inside the guard: a wrong shape is the plugin's fault) ----

def numbers(values: Any) -> dict[str, float] | None:
    """A chart reader's answer, checked and returned as it is: None or {label: number}."""
    if values is None:
        return None
    if not isinstance(values, dict):
        raise TypeError(f"a chart reader returns a dict or None, not {type(values).__name__}")
    for key, value in values.items():
        if not isinstance(key, str) or isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"a chart reader returns {{label: number}}, not {{{key!r}: {type(value).__name__}}}")
    return values


def triples(points: Any) -> list[tuple[str, str, float]]:
    """A belief reader's answer: [(subject, quantity, value)]."""
    out = []
    for subject, quantity, value in points:
        if not isinstance(subject, str) or not isinstance(quantity, str) or isinstance(value, bool) \
                or not isinstance(value, (int, float)):
            raise TypeError(f"a belief reader returns (subject, quantity, number), not {(subject, quantity, value)!r:.80}")
        out.append((subject, quantity, value))
    return out


def checked_text(value: Any, what: str) -> str:
    """A part's text answer (a board's SVG, a transcript, an export), checked."""
    if not isinstance(value, str):
        raise TypeError(f"{what} returns text, not {type(value).__name__}")
    return value


# -- every part of a game on one log: the conformance check -------------------------------------------

def check_parts(log: Any, boards: int = 40, seats: tuple[int | None, ...] | None = None) -> dict[str, int]:
    """Run every plugin part of the log's game on `log` (transcripts of the whole game and of each
    seat, beliefs, charts, exporters, the board and its hooks at up to `boards` seqs for the whole
    game and each seat); raise the first PluginFault. Returns how many calls each part made."""
    from actors.address import player_address
    from games.plugin import resolve
    from games.registry import get_plugin
    from replay.series import belief_series, state_series
    from replay.transcript import transcript
    from replay.walk import walk

    game = log.header.get("game")
    plugin = get_plugin(game)
    players = len(log.header.get("agents") or ())
    views = seats if seats is not None else (None, *range(players))
    calls: dict[str, int] = {}

    def count(part: str) -> None:
        calls[part] = calls.get(part, 0) + 1

    for seat in views:
        transcript(log, seat)
        count("transcript")
        belief_series(log, None if seat is None else player_address(seat))
        count("beliefs")
    state_series(log)
    count("charts")
    for fmt, ref in sorted(plugin.exporters.items()):
        export(log, fmt)
        count(f"exporter {fmt}")
    if plugin.board is None:
        return calls
    board = guarded(game, "board", resolve(plugin.board))
    hooks = board_hooks(game, plugin.board)
    memo: dict[str, Any] = {}
    changes = [0]
    for step in walk(log):
        if "deals" in hooks:
            hooks["deals"](step, memo, _seq=step.seq)
            count("deals")
        if step.changed or step.steps == 0:
            changes.append(step.seq)
    every = max(1, len(changes) // boards)
    for i, step in enumerate(walk(log)):
        if i == 0 or (step.changed and step.steps % every == 0) or i == len(log.records) - 1:
            for seat in views:
                checked_text(board(step.state, seat, _seq=step.seq), "a board")
                count("board")
            for name in ("phase", "seat_names", "seat_colours"):
                if name in hooks:
                    hooks[name](step.state, _seq=step.seq)
                    count(name)
    return calls


def board_hooks(game: Any, board_ref: str | None) -> dict[str, Callable[..., Any]]:
    """The debugger hooks a board module defines next to `board` (ops/debugger/game.py `hooks`),
    each guarded under its own part name."""
    from games.plugin import PluginError, resolve

    if not board_ref:
        return {}
    module = board_ref.partition(":")[0]
    found = {}
    for name in ("phase", "deals", "seat_names", "seat_colours"):
        try:
            found[name] = guarded(game, f"board.{name}", resolve(f"{module}:{name}"))
        except PluginError:
            continue
    return found


def export(log: Any, fmt: str) -> str:
    """The game's exporter `fmt` on `log`, guarded (a KeyError if the game has no such exporter)."""
    from games.plugin import resolve
    from games.registry import get_plugin

    game = log.header.get("game")
    ref = get_plugin(game).exporters[fmt]
    with guard(game, f"exporter {fmt}"):
        return checked_text(resolve(ref)(log), "an exporter")
