"""One model call over OpenAI-compatible Chat Completions: tries, backoff, the gate, causes.

The standard library's HTTP/1.1 client (`http.client`) speaks the wire, one kept-alive connection
per thread (a runner's concurrent games each hold their own), HTTPS with the system's certificates
and the proxy the environment names: a JSON body posted to `{endpoint}/chat/completions`, answered
by one JSON body or, with `stream`, by server-sent events (`data: {...}` lines, then `data:
[DONE]`). detente reads only what a decision needs (the first choice's text and finish reason, the
usage), so the answer goes from bytes to those few fields without a typed model of the whole API in
between: a call costs a third of the CPU `httpx` takes and an eighth of the `openai` package's
typed client (`python -m ops.bench.llm_client`). A 429 or 5xx, a timeout, a cut stream or a refused
connection is tried again after a backoff (Retry-After where the server sends one, else 0.5 s
doubling, at most 30 s); other statuses fail the call at
once. Every try passes the endpoint's gate (actors/llm/gate.py) and is recorded with its cause. The
key is read from the environment variable the spec names, sent as the Authorization header only,
and never put in a cause, a record or an error line (`scrub`).
"""

from __future__ import annotations

import http.client
import json
import os
import ssl
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from actors.llm.gate import gate

MAX_ANSWER_CHARS = 32_768  # an answer is cut here before it is parsed or logged (ours: 8k tokens)
MAX_BODY_BYTES = 16 * 1024 * 1024  # a response body read past this is refused (ours)
MAX_CAUSE = 200  # characters of one try's cause
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 30.0  # seconds (ours)
MAX_LINE = 1 << 20  # bytes of one server-sent event line (ours)


def safe_endpoint(url: str) -> str:
    """scheme://host:port/path of `url`: no user, password, query or fragment."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


@dataclass
class Try:
    cause: str
    latency_ms: int
    status: int | None

    def to_json(self) -> dict[str, Any]:
        return {"cause": self.cause, "latency_ms": self.latency_ms, "status": self.status}


@dataclass
class Reply:
    """A call's result: the answer (None if every try failed), its cost, the failed tries."""

    answer: str | None
    finish_reason: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    latency_ms: int = 0
    tries: list[Try] = field(default_factory=list)


class _Failed(Exception):
    def __init__(self, cause: str, status: int | None = None, retry_after: float | None = None, again: bool = True):
        super().__init__(cause)
        self.cause, self.status, self.retry_after, self.again = cause, status, retry_after, again


class Client:
    """Chat Completions against one endpoint with one model and one set of sampling parameters."""

    def __init__(self, endpoint: str, model: str, key_env: str | None, timeout: float, stream: bool = False):
        parts = urlsplit(endpoint)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"endpoint {safe_endpoint(endpoint)!r}: an http:// or https:// URL")
        self.endpoint = endpoint
        self.safe = safe_endpoint(endpoint)
        self.model = model
        self.timeout = timeout
        self.stream = stream
        self._key = os.environ.get(key_env, "") if key_env else ""
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port or (443 if self._https else 80)
        self._path = (parts.path.rstrip("/") or "") + "/chat/completions"
        self._proxy = _proxy_for(parts.scheme, self._host)
        # a local server takes any key; some refuse a request without the header
        self._headers = {"Content-Type": "application/json", "Accept": "application/json",
                         "Authorization": f"Bearer {self._key or 'none'}"}
        self._local = threading.local()  # one kept-alive connection per thread (a runner's concurrent games)

    def scrub(self, text: str) -> str:
        """`text` in one bounded line, without the key."""
        text = " ".join(str(text).split())
        if self._key:
            text = text.replace(self._key, "[key]")
        return text[:MAX_CAUSE]

    def complete(self, messages: list[dict[str, str]], body: dict[str, Any], tries: int,
                 backoff: float = BACKOFF_FIRST, sleep=time.sleep) -> Reply:
        """Up to `tries` tries of one request (`body`: sampling and response_format fields); `backoff`:
        the first wait where the server sends no Retry-After (doubling, at most BACKOFF_MAX)."""
        failed: list[Try] = []
        estimate = sum(len(m["content"]) for m in messages) // 4 + int(body.get("max_tokens") or 0)
        payload = self._payload(messages, body)
        delay = backoff
        for n in range(tries):
            g = gate(self.safe)
            g.enter(estimate)
            used = 0
            t0 = time.monotonic()
            try:
                answer, finish, tin, tout = self._once(payload)
                used = tin + tout
                latency = int((time.monotonic() - t0) * 1000)
                return Reply(answer, finish, tin, tout, latency, failed)
            except _Failed as exc:
                failed.append(Try(self.scrub(exc.cause), int((time.monotonic() - t0) * 1000), exc.status))
                if not exc.again or n == tries - 1:
                    break
                wait = exc.retry_after if exc.retry_after is not None else delay
                delay = min(BACKOFF_MAX, delay * 2)
            finally:
                g.leave(used)
            sleep(min(BACKOFF_MAX, max(0.0, wait)))
        return Reply(None, None, 0, 0, sum(t.latency_ms for t in failed), failed)

    def _payload(self, messages: list[dict[str, str]], body: dict[str, Any]) -> bytes:
        request: dict[str, Any] = {"model": self.model, "messages": messages}
        for name in ("temperature", "top_p", "max_tokens", "seed", "response_format"):
            if body.get(name) is not None:
                request[name] = body[name]
        if self.stream:  # usage comes where the server sends it unasked; else tokens out are estimated
            request["stream"] = True
        return json.dumps(request, ensure_ascii=False).encode("utf-8")

    # -- the wire: the standard library's HTTP/1.1 client, one kept-alive connection a thread ----------

    def _connection(self) -> http.client.HTTPConnection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    def _connect(self) -> http.client.HTTPConnection:
        host, port = (self._proxy or (self._host, self._port))
        if self._https:
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(
                host, port, timeout=self.timeout, context=ssl.create_default_context())
        else:
            conn = http.client.HTTPConnection(host, port, timeout=self.timeout)
        if self._proxy is not None and self._https:
            conn.set_tunnel(self._host, self._port)
        return conn

    def _drop(self) -> None:
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            conn.close()

    def _send(self, payload: bytes) -> http.client.HTTPResponse:
        """The response to one POST; a kept-alive connection the server had closed is opened again once
        (nothing was answered on it, so the request is sent once more on a fresh one)."""
        target = self._path if self._proxy is None or self._https else \
            f"http://{self._host}:{self._port}{self._path}"
        for attempt in (0, 1):
            conn = self._connection()
            reused = conn.sock is not None
            try:
                conn.request("POST", target, body=payload, headers=self._headers)
                return conn.getresponse()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self._drop()
                if not reused or attempt:
                    raise
        raise AssertionError("unreachable")

    def _once(self, payload: bytes) -> tuple[str, str | None, int, int]:
        if self.stream:
            return self._streamed(payload)
        try:
            response = self._send(payload)
            if response.status != 200:
                raise self._status(response)
            data = _read_body(response)
            if response.will_close:
                self._drop()
        except _Failed:
            self._drop()
            raise
        except TimeoutError:
            self._drop()
            raise _Failed(f"no answer within {self.timeout:g} s (timeout)") from None
        except (OSError, http.client.HTTPException) as exc:  # refused, reset, or a body cut short of its length
            self._drop()
            raise _Failed(f"connection failed: {_why(exc)}") from None
        try:
            completion = json.loads(data)
        except ValueError as exc:
            raise _Failed(f"unreadable response: {type(exc).__name__}") from None
        return _fields(completion)

    def _streamed(self, payload: bytes) -> tuple[str, str | None, int, int]:
        parts: list[str] = []
        finish = None
        tin = tout = 0
        size = 0
        try:
            response = self._send(payload)
            if response.status != 200:
                raise self._status(response)
            while True:
                line = response.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE:
                    raise _Failed(f"an event line of more than {MAX_LINE:,} bytes")
                if not line.startswith(b"data:"):
                    continue
                data = line[5:].strip()
                if data == b"[DONE]":
                    _read_body(response)  # the body's end, so the connection can be kept
                    break
                try:
                    chunk = json.loads(data)
                except ValueError:
                    raise _Failed(f"unreadable event after {size} characters") from None
                if not isinstance(chunk, dict):
                    continue
                usage = chunk.get("usage")
                if isinstance(usage, dict):
                    tin, tout = _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))
                for choice in chunk.get("choices") or ():
                    if not isinstance(choice, dict):
                        continue
                    delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
                    piece = delta.get("content")
                    if isinstance(piece, str) and piece and size < MAX_ANSWER_CHARS:
                        parts.append(piece)
                        size += len(piece)
                    if choice.get("finish_reason"):
                        finish = str(choice["finish_reason"])
            if response.will_close:
                self._drop()
        except _Failed:
            self._drop()
            raise
        except TimeoutError:
            self._drop()
            raise _Failed(f"no answer within {self.timeout:g} s (timeout)") from None
        except (OSError, http.client.HTTPException) as exc:
            self._drop()
            raise _Failed(f"stream cut after {size} characters: {_why(exc)}") from None
        if finish is None:
            self._drop()
            raise _Failed(f"stream cut after {size} characters (no finish reason)")
        text = "".join(parts)
        return text, finish, tin, tout or max(1, len(text) // 4)

    @staticmethod
    def _status(response: http.client.HTTPResponse) -> _Failed:
        status = int(response.status)
        retry_after = None
        header = response.getheader("retry-after")
        if header is not None:
            try:
                retry_after = max(0.0, float(header))
            except ValueError:
                retry_after = None
        again = status == 429 or status >= 500
        return _Failed(f"HTTP {status}" + (f" (Retry-After {header[:40]})" if header else ""), status, retry_after, again)


def _read_body(response: http.client.HTTPResponse) -> bytes:
    """A response's whole body, at most MAX_BODY_BYTES (a body cut short raises IncompleteRead)."""
    length = response.getheader("content-length")
    if length is not None and length.isdigit() and int(length) <= MAX_BODY_BYTES:
        return response.read()  # exactly the promised bytes, or IncompleteRead
    data = response.read(MAX_BODY_BYTES + 1)
    if len(data) > MAX_BODY_BYTES:
        raise _Failed(f"a response body of more than {MAX_BODY_BYTES:,} bytes")
    return data


def _proxy_for(scheme: str, host: str) -> tuple[str, int] | None:
    """The proxy the environment names for `scheme` (HTTPS_PROXY, HTTP_PROXY; NO_PROXY respected)."""
    proxies = urllib.request.getproxies()
    url = proxies.get(scheme)
    if not url or urllib.request.proxy_bypass(host):
        return None
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if not parts.hostname:
        return None
    return parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)


def _fields(completion: Any) -> tuple[str, str | None, int, int]:
    """The first choice's text and finish reason and the usage of a completion body."""
    if not isinstance(completion, dict):
        raise _Failed("unreadable response: not a completion object")
    choices = completion.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise _Failed("the response holds no choice")
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if content is not None and not isinstance(content, str):
        raise _Failed("unreadable response: the message content is not text")
    finish = choices[0].get("finish_reason")
    usage = completion.get("usage") if isinstance(completion.get("usage"), dict) else {}
    return content or "", (str(finish) if finish is not None else None), _count(usage.get("prompt_tokens")), \
        _count(usage.get("completion_tokens"))


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


_CLIENTS: dict[tuple[Any, ...], Client] = {}


def client_for(endpoint: str, model: str, key_env: str | None, timeout: float, stream: bool = False) -> Client:
    """One client a process per endpoint, model and settings: its connection pool outlives a game."""
    key = (endpoint, model, key_env, timeout, stream)
    found = _CLIENTS.get(key)
    if found is None:
        found = _CLIENTS[key] = Client(endpoint, model, key_env, timeout, stream)
    return found


def _why(exc: BaseException) -> str:
    """The innermost cause of a transport error, by type (messages may echo the request)."""
    inner = exc
    while inner.__cause__ is not None or inner.__context__ is not None:
        inner = inner.__cause__ or inner.__context__
    return type(inner).__name__
