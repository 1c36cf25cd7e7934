"""One model call over OpenAI-compatible Chat Completions: tries, backoff, the gate, causes.

The `openai` package speaks the wire (plain and streamed); its own retries are off (`max_retries=0`)
so that every try passes the endpoint's gate (actors/llm/gate.py) and is recorded with its cause.
A 429 or 5xx, a timeout, a cut stream or a refused connection is tried again after a backoff
(Retry-After where the server sends one, else 0.5 s doubling, at most 30 s); other statuses fail
the call at once. The key is read from the environment variable the spec names and is never put in
a cause, a record or an error line (`scrub`).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from actors.llm.gate import gate

MAX_ANSWER_CHARS = 32_768  # an answer is cut here before it is parsed or logged (ours: 8k tokens)
MAX_CAUSE = 200  # characters of one try's cause
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 30.0  # seconds (ours)


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
        import openai  # the llm extra

        self.endpoint = endpoint
        self.safe = safe_endpoint(endpoint)
        self.model = model
        self.timeout = timeout
        self.stream = stream
        self._key = os.environ.get(key_env, "") if key_env else ""
        self._openai = openai
        # a local server takes any key; the client refuses an empty one
        self._client = openai.OpenAI(base_url=endpoint, api_key=self._key or "none", max_retries=0, timeout=timeout)

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
        delay = backoff
        for n in range(tries):
            g = gate(self.safe)
            g.enter(estimate)
            used = 0
            t0 = time.monotonic()
            try:
                answer, finish, tin, tout = self._once(messages, body)
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

    def _once(self, messages: list[dict[str, str]], body: dict[str, Any]) -> tuple[str, str | None, int, int]:
        oa = self._openai
        extra = {k: v for k, v in body.items() if k in ("response_format",)}
        params = {k: v for k, v in body.items() if k in ("temperature", "top_p", "max_tokens", "seed") and v is not None}
        try:
            if self.stream:
                return self._streamed(messages, params, extra)
            raw = self._client.chat.completions.with_raw_response.create(
                model=self.model, messages=messages, extra_body=extra or None, **params)
            completion = raw.parse()
        except oa.APIStatusError as exc:
            raise self._status(exc) from None
        except oa.APITimeoutError:
            raise _Failed(f"no answer within {self.timeout:g} s (timeout)") from None
        except oa.APIConnectionError as exc:
            raise _Failed(f"connection failed: {_why(exc)}") from None
        except (ValueError, TypeError) as exc:  # a body that is not a completion
            raise _Failed(f"unreadable response: {type(exc).__name__}") from None
        choices = getattr(completion, "choices", None) or []
        if not choices:
            raise _Failed("the response holds no choice")
        content = choices[0].message.content or ""
        usage = getattr(completion, "usage", None)
        tin = int(getattr(usage, "prompt_tokens", 0) or 0)
        tout = int(getattr(usage, "completion_tokens", 0) or 0)
        return content, choices[0].finish_reason, tin, tout

    def _streamed(self, messages, params, extra) -> tuple[str, str | None, int, int]:
        oa = self._openai
        parts: list[str] = []
        finish = None
        tin = tout = 0
        size = 0
        try:
            stream = self._client.chat.completions.create(model=self.model, messages=messages, stream=True,
                                                          extra_body=extra or None, **params)
            for chunk in stream:
                usage = getattr(chunk, "usage", None)
                if usage is not None:
                    tin, tout = int(usage.prompt_tokens or 0), int(usage.completion_tokens or 0)
                for choice in chunk.choices or ():
                    piece = choice.delta.content if choice.delta is not None else None
                    if piece and size < MAX_ANSWER_CHARS:
                        parts.append(piece)
                        size += len(piece)
                    if choice.finish_reason:
                        finish = choice.finish_reason
        except oa.APIStatusError as exc:
            raise self._status(exc) from None
        except oa.APITimeoutError:
            raise _Failed(f"no answer within {self.timeout:g} s (timeout)") from None
        except (oa.APIConnectionError, oa.APIError) as exc:
            raise _Failed(f"stream cut after {size} characters: {_why(exc)}") from None
        except Exception as exc:  # noqa: BLE001 (the transport's own error when a stream is cut)
            raise _Failed(f"stream cut after {size} characters: {type(exc).__name__}") from None
        if finish is None:
            raise _Failed(f"stream cut after {size} characters (no finish reason)")
        text = "".join(parts)
        return text, finish, tin, tout or max(1, len(text) // 4)

    def _status(self, exc) -> _Failed:
        status = int(exc.status_code)
        retry_after = None
        header = exc.response.headers.get("retry-after") if exc.response is not None else None
        if header is not None:
            try:
                retry_after = max(0.0, float(header))
            except ValueError:
                retry_after = None
        again = status == 429 or status >= 500
        return _Failed(f"HTTP {status}" + (f" (Retry-After {header})" if header else ""), status, retry_after, again)


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
