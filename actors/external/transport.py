"""The two transports of the agent protocol: a child process over stdin/stdout, and a WebSocket.

Both move whole protocol lines (JSON objects) and bound everything they wait for: a line is at most
`max_line` bytes, a read or a write at most until a deadline (time.monotonic()), so no agent can
hang or flood the runner that talks to it. Any failure is a `TransportError` in one line; the
caller (actors.external.connection) decides what it means for the game.
"""

from __future__ import annotations

import math
import os
import select
import subprocess
import time
from typing import Any

from actors.external import cpu

# The environment a child process gets unless its spec says more: what an interpreter needs to be
# found and to read text, nothing of detente's own (explicit, as the spec's `env` adds to it).
BASE_ENV = ("HOME", "LANG", "LC_ALL", "PATH", "SYSTEMROOT", "TMPDIR")
CHUNK = 1 << 16


class TransportError(Exception):
    """A transport that cannot go on: the reason in one line."""


class ExecTransport:
    """A child process started from an argument list (never a shell), one JSON line each way."""

    kind = "exec"

    def __init__(self, cmd: list[str], cwd: str, env: dict[str, str], stderr: str, max_line: int, label: str,
                 pin: bool = False):
        self.cmd, self.cwd, self.env, self.stderr, self.max_line, self.pin = cmd, cwd, env, stderr, max_line, pin
        self.label = label  # how errors name the program (never a path outside the project)
        self.proc: subprocess.Popen | None = None
        self.buf = bytearray()

    def open(self, deadline: float) -> None:
        env = {k: os.environ[k] for k in BASE_ENV if k in os.environ}
        env.update(self.env)
        if self.pin:
            cpu.share()  # this thread and the child (which inherits its mask) take turns on one CPU
        try:
            self.proc = subprocess.Popen(
                self.cmd, cwd=self.cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if self.stderr == "discard" else None, bufsize=0, close_fds=True,
            )
        except FileNotFoundError:
            raise TransportError(f"could not start {self.label}: no such program or working directory") from None
        except PermissionError:
            raise TransportError(f"could not start {self.label}: permission denied") from None
        except OSError as exc:
            raise TransportError(f"could not start {self.label}: {exc.strerror or type(exc).__name__}") from None
        os.set_blocking(self.proc.stdin.fileno(), False)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self._readable, self._writable = select.poll(), select.poll()
        self._readable.register(self.proc.stdout.fileno(), select.POLLIN)
        self._writable.register(self.proc.stdin.fileno(), select.POLLOUT)
        self.buf = bytearray()

    def send(self, line: bytes, deadline: float) -> None:
        proc = self._alive()
        fd = proc.stdin.fileno()
        view = memoryview(line)
        while view:
            try:
                n = os.write(fd, view)
            except BlockingIOError:
                n = 0
            except (BrokenPipeError, ConnectionResetError):
                raise TransportError(self._gone()) from None
            view = view[n:]
            if view and not _wait(self._writable, deadline):
                raise TransportError(f"{self.label} does not read its input (timed out writing to it)")

    def recv(self, deadline: float) -> bytes:
        proc = self._alive()
        fd = proc.stdout.fileno()
        buf = self.buf
        start = 0
        while True:
            end = buf.find(b"\n", start)
            if end >= 0:
                line = bytes(buf[:end])
                del buf[: end + 1]
                return line
            if len(buf) > self.max_line:
                raise TransportError(f"{self.label} wrote a line of over {self.max_line:,} bytes")
            start = len(buf)
            if not _wait(self._readable, deadline):
                raise TransportError("timeout")
            try:
                chunk = os.read(fd, CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                raise TransportError(self._gone())
            buf += chunk

    def pending(self) -> int:
        """Bytes the agent wrote without being asked (0 when none): read without waiting."""
        proc = self.proc
        if proc is None:
            return 0
        fd = proc.stdout.fileno()
        while _wait(self._readable, 0.0):
            try:
                chunk = os.read(fd, CHUNK)
            except BlockingIOError:
                break
            if not chunk:
                break
            self.buf += chunk
            if len(self.buf) > self.max_line:
                break
        return len(self.buf)

    def close(self, grace: float = 0.5) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _alive(self) -> subprocess.Popen:
        if self.proc is None:
            raise TransportError(f"{self.label} is not running")
        return self.proc

    def _gone(self) -> str:
        code = self.proc.poll() if self.proc is not None else None
        if code is None:
            try:
                code = self.proc.wait(0.2)
            except subprocess.TimeoutExpired:
                return f"{self.label} closed its output"
        return f"{self.label} exited (code {code})"


class WsTransport:
    """A WebSocket the agent serves (a model on another machine): one JSON object a text message."""

    kind = "ws"

    def __init__(self, url: str, token: str | None, max_line: int, label: str):
        self.url, self.token, self.max_line, self.label = url, token, max_line, label
        self.ws: Any = None

    def open(self, deadline: float) -> None:
        try:
            from websockets.sync.client import connect
        except ImportError:
            raise TransportError("the ws transport needs the websockets package (pip install websockets)") from None
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else None
        try:
            # entered at once: newer websockets want a connection used as a context manager, closed in `close`
            self.ws = connect(self.url, additional_headers=headers, max_size=self.max_line,
                              open_timeout=max(0.01, deadline - time.monotonic()), compression=None).__enter__()
        except Exception as exc:  # refused, a bad handshake, a bad URL: one line, whatever the cause
            raise TransportError(f"could not connect to {self.label}: {type(exc).__name__}: {str(exc)[:100]}") from None

    def send(self, line: bytes, deadline: float) -> None:
        try:
            self._alive().send(line[:-1].decode("utf-8"))
        except TransportError:
            raise
        except Exception as exc:
            raise TransportError(f"{self.label} closed the connection ({type(exc).__name__})") from None

    def recv(self, deadline: float) -> bytes:
        ws = self._alive()
        try:
            data = ws.recv(timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            raise TransportError("timeout") from None
        except Exception as exc:
            text = str(exc)
            if "message too big" in text or "1009" in text:
                raise TransportError(f"{self.label} wrote a message of over {self.max_line:,} bytes") from None
            raise TransportError(f"{self.label} closed the connection ({type(exc).__name__})") from None
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)

    def pending(self) -> int:
        ws = self.ws
        if ws is None:
            return 0
        try:
            data = ws.recv(timeout=0)
        except TimeoutError:
            return 0
        except Exception:
            return 0
        return len(data) or 1

    def close(self, grace: float = 0.5) -> None:
        ws, self.ws = self.ws, None
        if ws is not None:
            try:
                ws.close()
            except Exception:
                pass

    def _alive(self) -> Any:
        if self.ws is None:
            raise TransportError(f"{self.label} is not connected")
        return self.ws


def _wait(poller: Any, deadline: float) -> bool:
    """Whether the one descriptor `poller` watches is ready before `deadline` (0.0: do not wait);
    a hang-up or error counts as ready (the read or write that follows says what it was)."""
    ms = 0 if deadline == 0.0 else max(0, math.ceil((deadline - time.monotonic()) * 1000))
    return bool(poller.poll(ms))
