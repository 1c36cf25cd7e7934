"""Connections to external agents: started once per process (a runner), kept from game to game.

A connection serves one address with one transport. `prepare` (called when a game's header is made)
starts what is not running, restarting a process that died or hung in an earlier game, and gives
the header its handshake entry. During a game every failure of the agent (it never started, it
died, it hung past its time, it flooded, it wrote a line past the size limit) becomes an
`ExternalError` for the request under way and for every later one of that game, answered at once:
the referee applies the rules' default and logs an error naming the seat and the cause, and the
game completes. The next game gets a fresh process.

What the wall clock decides here (a timeout, a spent budget) is recorded as the error it caused,
so a replay takes it from the log and never waits.
"""

from __future__ import annotations

import atexit
import copy
import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from actors.external.protocol import (
    AgentHello,
    Bye,
    GameStart,
    Hello,
    ProtocolError,
    encode,
    encode_message,
    parse_answer,
    parse_hello,
)
from actors.external import cpu
from actors.external.transport import ExecTransport, TransportError, WsTransport
from bus.messages import Limits, Message

MAX_LINE = Limits().message_bytes  # the longest line an agent may write: one record's limit (1 MiB)
DETENTE = "0.1.0"
MAX_ERROR = 200  # characters of a start failure the header keeps


class ExternalError(Exception):
    """An external agent failed on a request: the cause, in one line, as the error event says it.

    `quiet`: the agent had already been stopped earlier in the game and this request was failed at
    once, without sending it; the error event still names it, the operational warning is not repeated."""

    def __init__(self, reason: str, quiet: bool = False) -> None:
        super().__init__(reason)
        self.quiet = quiet


class ExecOptions(BaseModel):
    """Options of the `exec` agent: a child process over stdin/stdout."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    cmd: list[str] = Field(min_length=1, max_length=64)  # the program and its arguments (no shell)
    cwd: str = "."  # working directory (relative: to where detente runs)
    env: dict[str, str] = Field(default_factory=dict, max_length=64)  # added to PATH, HOME, LANG...
    timeout: float = Field(10.0, gt=0, le=3600)  # seconds per decision
    budget: float | None = Field(None, gt=0)  # seconds per game, all decisions together
    stderr: Literal["inherit", "discard"] = "inherit"
    pin: bool = False  # the agent and the runner share one CPU (actors.external.cpu): for agents that run no threads


class WsOptions(BaseModel):
    """Options of the `ws` agent: a WebSocket the agent serves."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    url: str = Field(pattern=r"^wss?://[^\s]+$", max_length=512)
    token_env: str | None = Field(None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")  # the variable holding the token
    timeout: float = Field(10.0, gt=0, le=3600)
    budget: float | None = Field(None, gt=0)


OPTIONS: dict[str, type[BaseModel]] = {"exec": ExecOptions, "ws": WsOptions}


class Connection:
    """One external agent serving one address (see the module's docstring)."""

    def __init__(self, kind: str, options: BaseModel, address: str, role: str):
        self.kind, self.options, self.address, self.role = kind, options, address, role
        self.label = _label(kind, options)
        self.transport: Any = None
        self.hello: AgentHello | None = None
        self.start_error: str | None = None
        self.failure: str | None = None  # why this game's requests fail at once
        self.used = 0.0  # seconds of this game's budget spent
        self.kept: tuple[str, dict[str, Any], str] | None = None  # (cwd, options as the header keeps them, their key)

    # -- between games ------------------------------------------------------------------------

    def ensure(self) -> None:
        """Running and greeted, or `start_error` says why not (a fresh process after a failure)."""
        if self.transport is not None and self.failure is None:
            return
        self.kill()
        self.start_error = None
        opts = self.options
        deadline = time.monotonic() + opts.timeout
        if self.kind == "exec":
            transport: Any = ExecTransport(list(opts.cmd), opts.cwd, dict(opts.env), opts.stderr, MAX_LINE, self.label,
                                           pin=opts.pin)
        else:
            token = os.environ.get(opts.token_env) if opts.token_env else None
            if opts.token_env and token is None:
                self.start_error = f"the token variable {opts.token_env} is not set"
                return
            transport = WsTransport(opts.url, token, MAX_LINE, self.label)
        try:
            transport.open(deadline)
            self.transport = transport
            transport.send(encode(Hello(detente=DETENTE, address=self.address, role=self.role).model_dump()), deadline)
            line = transport.recv(deadline)
            self.hello = parse_hello(line)
        except TransportError as exc:
            reason = "no hello within the decision timeout" if str(exc) == "timeout" else str(exc)
            self.start_error = f"{self.label} never started: {reason}"[:MAX_ERROR]
        except ProtocolError as exc:
            self.start_error = f"{self.label} never started: {exc}"[:MAX_ERROR]
        if self.start_error is not None:
            self.kill()
        self.failure = self.start_error

    def entry(self) -> dict[str, Any]:
        """What the header records of this agent: its handshake, or why it never started."""
        if self.hello is None or self.start_error is not None:
            return {"transport": self.kind, "error": self.start_error or "never started"}
        return {"transport": self.kind, "name": self.hello.name, "version": self.hello.version,
                "protocol": self.hello.protocol, "talks": self.hello.talks}

    def begin_game(self, header: dict[str, Any], seat: int) -> None:
        """Tell the agent a game begins (not answered); this game's budget starts."""
        self.used = 0.0
        if self.failure is not None:
            return
        notice = GameStart(game=header["game"], game_id=header["game_id"], seed=header["seed"], seat=seat,
                           address=self.address, role=self.role, players=len(header["agents"]),
                           options=header["options"])
        try:
            self.transport.send(encode(notice.model_dump()), time.monotonic() + self.options.timeout)
        except TransportError as exc:
            self._fail(str(exc))

    def end_game(self, end: Message) -> None:
        """Tell the agent the game ended (its game_end record; not answered)."""
        if self.failure is None and self.transport is not None:
            try:
                self.transport.send(encode(end.model_dump(mode="json")), time.monotonic() + self.options.timeout)
            except TransportError as exc:
                self._fail(str(exc))

    # -- in a game ----------------------------------------------------------------------------

    def request(self, message: Message) -> list[Message]:
        """The agent's answer to one delivered message. Raises ExternalError (see the module's docstring)."""
        if self.failure is not None:
            raise ExternalError(self.failure, quiet=True)
        opts = self.options
        transport = self.transport
        unasked = transport.pending()
        if unasked:
            raise ExternalError(self._fail(f"{self.label} wrote {unasked:,} bytes unasked (flooding); stopped"))
        t0 = time.monotonic()
        wait = opts.timeout
        if opts.budget is not None:
            wait = min(wait, opts.budget - self.used)
        done = False
        try:
            transport.send(encode_message(message), t0 + wait)
            line = transport.recv(t0 + wait)
            done = True
        except TransportError as exc:
            done = True
            self.used += time.monotonic() - t0
            if str(exc) != "timeout":
                raise ExternalError(self._fail(str(exc))) from None
            if opts.budget is not None and self.used >= opts.budget:
                raise ExternalError(self._fail(f"{self.label} spent its budget of {opts.budget:g} s a game; stopped")) from None
            raise ExternalError(self._fail(f"{self.label} gave no answer within {opts.timeout:g} s; stopped")) from None
        finally:
            if not done:  # interrupted (a placement's deadline): its answer may still come, out of turn
                self._fail(f"{self.label} was interrupted mid-request; stopped")
        self.used += time.monotonic() - t0
        try:
            return parse_answer(line, self.address, message)
        except ProtocolError as exc:
            raise ExternalError(f"{self.label}: {exc}") from None

    def _fail(self, reason: str) -> str:
        """The agent is of no more use this game: stop it (a fresh one next game)."""
        self.failure = reason
        self.kill()
        return reason

    def kill(self) -> None:
        transport, self.transport = self.transport, None
        if transport is not None:
            transport.close(grace=0.0)

    def close(self) -> None:
        """No more games: say bye, let the agent exit."""
        transport, self.transport = self.transport, None
        if transport is None:
            return
        if self.failure is None:
            try:
                transport.send(encode(Bye().model_dump()), time.monotonic() + 0.5)
            except TransportError:
                pass
        transport.close(grace=1.0)


def _label(kind: str, options: BaseModel) -> str:
    """How errors and the header name the agent: its program's name or its host, never a path
    outside the project, never a token."""
    if kind == "exec":
        names = [Path(options.cmd[0]).name] + [Path(a).name for a in options.cmd[1:2] if not a.startswith("-")]
        return f"exec {' '.join(names)}"[:MAX_ERROR // 2]
    return f"ws {safe_url(options.url)}"[:MAX_ERROR // 2]


def safe_url(url: str) -> str:
    """The URL without credentials or query (where tokens hide)."""
    scheme, _, rest = url.partition("://")
    rest = rest.split("?", 1)[0].split("#", 1)[0]
    host, slash, path = rest.partition("/")
    return f"{scheme}://{host.rsplit('@', 1)[-1]}{slash}{path}"


def for_header(kind: str, options: dict[str, Any]) -> dict[str, Any]:
    """The spec's options as the header keeps them: no token, no path outside the project (each
    such path becomes `<outside>/name`), no environment values (names only)."""
    out = dict(options)
    if kind == "exec":
        out["cmd"] = [_inside(a) for a in options.get("cmd", [])]
        if "cwd" in out:
            out["cwd"] = _inside(out["cwd"])
        if "env" in out:
            out["env"] = {k: "<set>" for k in sorted(out["env"])}
    elif "url" in out:
        out["url"] = safe_url(out["url"])
    return out


def _inside(arg: str) -> str:
    if not os.path.isabs(arg):
        return arg
    here = Path.cwd().resolve()
    path = Path(arg).resolve()
    if path == here or here in path.parents:
        return os.path.relpath(path, here)
    return f"<outside>/{path.name}"


# -- the pool of this process ----------------------------------------------------------------------

_POOL: dict[str, Connection] = {}  # by the spec as given (and the address)
_BY_HEADER: dict[str, Connection] = {}  # by the spec as the header keeps it (and the address)


_LANE = threading.local()  # which of a runner's concurrent games this thread plays (0: the only one)


def set_lane(lane: int) -> None:
    """This thread plays lane `lane` of a runner's concurrent games: its games get connections
    (processes) of their own, kept from game to game of the lane."""
    _LANE.n = lane


def _key(kind: str, options: dict[str, Any], address: str) -> str:
    lane = getattr(_LANE, "n", 0)
    return json.dumps([kind, options, address] + ([lane] if lane else []), sort_keys=True, separators=(",", ":"))


def connect(kind: str, raw: dict[str, Any], address: str, role: str) -> tuple[Connection, dict[str, Any]]:
    """The connection for this spec at `address`, started (or `start_error` set), and the
    options as the header keeps them. Raises pydantic's ValidationError on bad options."""
    key = _key(kind, raw, address)
    conn = _POOL.get(key)
    if conn is None:
        conn = _POOL[key] = Connection(kind, OPTIONS[kind].model_validate(raw), address, role)
    conn.ensure()
    cwd = os.getcwd()
    if conn.kept is None or conn.kept[0] != cwd:  # paths are kept relative to where detente runs
        kept = for_header(kind, raw)
        conn.kept = (cwd, kept, _key(kind, kept, address))
    _, kept, kept_key = conn.kept
    _BY_HEADER[kept_key] = conn
    return conn, copy.deepcopy(kept)  # the caller's own copy


def lookup(kind: str, kept: dict[str, Any], address: str, role: str) -> Connection:
    """The connection a header's spec names (started when the header was made); one made from
    the header's spec when this process made no header for it (a fork played here)."""
    conn = _BY_HEADER.get(_key(kind, kept, address))
    if conn is None:
        conn, _ = connect(kind, kept, address, role)
    return conn


def close_all() -> None:
    """Say bye to every agent of this process (a runner's end, the CLI's exit)."""
    for conn in list(_POOL.values()):
        conn.close()
    _POOL.clear()
    _BY_HEADER.clear()
    cpu.release()


atexit.register(close_all)
