"""A scripted OpenAI-compatible Chat Completions server on loopback, for the language-model tests.

A real HTTP server (the standard library's ThreadingHTTPServer) on 127.0.0.1, port 0, answering
POST /v1/chat/completions, plain and `stream: true` (server-sent events). By default it answers, after
`delay` seconds, the least JSON instance of the request's schema: the first value of every enum (so the
first legal action), no optional field, empty lists. The schema is read from `response_format` in both
styles servers take (`{"type": "json_schema", "json_schema": {"schema": ...}}` as OpenAI and vLLM,
`{"type": "json_object", "schema": ...}` as llama-cpp-python's server) and, where the request carries
none, from the last JSON object in the last message that has a `"properties"` key (the default
templates print the schema there).

Faults, by call number (0 for the first request this server receives, in arrival order) or always:

    "429" / "429:S"   status 429 with Retry-After: S (default 1)      "500"   status 500
    "hang" / "hang:S" no answer for S seconds (default 30)            "cut"   the body cut mid-answer
    "invalid_json"    an answer that is not JSON                      "illegal" an action outside the enum
    "big"             a 1 MB answer                                    "markup" markup and control characters
    "drop"            the answer, then the kept-alive connection closed without a word

`say="..."`: a talk answer says this text (the least instance of a talk schema says nothing).

    with ScriptedServer(delay=0.2, faults={0: "429:1", 3: "500"}) as server:
        server.url      # "http://127.0.0.1:PORT/v1"
        server.calls    # requests received so far

Importable with the main dependencies alone (the standard library only).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

MARKUP = '<script>alert("x")</script><b onmouseover=alert(1)>&amp;</b>\x00\x07\x1b[31m\u202e\ufffd'
"""What the "markup" fault writes into an answer: tags, an entity, NUL, BEL, an ANSI escape, a bidi override."""

BIG_CHARS = 1_000_000


def least_instance(schema: Any, defs: dict | None = None) -> Any:
    """The least JSON value of a schema: first enum value, const, required fields only, empty lists."""
    if not isinstance(schema, dict):
        return None
    defs = defs if defs is not None else schema.get("$defs", schema.get("definitions", {}))
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return least_instance(defs.get(name, {}), defs)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return least_instance(schema[key][0], defs)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {name: least_instance(props.get(name, {}), defs) for name in schema.get("required", [])}
    if kind == "array":
        return [least_instance(schema.get("items", {}), defs) for _ in range(int(schema.get("minItems", 0)))]
    if kind == "string":
        return "x" * int(schema.get("minLength", 0))
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    return None


def request_schema(body: dict) -> dict | None:
    """The JSON schema a chat request asks its answer to follow, wherever the request carries it."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema")
    if fmt.get("type") == "json_object" and isinstance(fmt.get("schema"), dict):
        return fmt["schema"]
    messages = body.get("messages") or []
    text = str(messages[-1].get("content", "")) if messages else ""
    decoder = json.JSONDecoder()
    found = None
    for start in range(len(text)):
        if text[start] != "{":
            continue
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(value, dict) and "properties" in value:
            found = value
    return found


def _with_markup(value: Any) -> Any:
    """The value with MARKUP put into every free string (a `say` text, a reason)."""
    if isinstance(value, dict):
        return {k: (v + MARKUP if isinstance(v, str) and k in ("text", "reason", "note") else _with_markup(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_with_markup(v) for v in value]
    return value


class ScriptedServer:
    """An OpenAI-compatible server whose answers follow a script (see the module's docstring)."""

    def __init__(self, delay: float = 0.0, faults: dict[int, str] | None = None, always: str | None = None,
                 answer: Callable[[dict, int], str | None] | None = None, model: str = "scripted",
                 say: str | None = None):
        self.delay = delay
        self.say = say  # where the schema asks for talk: one `say` item with this text (else the least: nothing)
        self.faults = dict(faults or {})
        self.always = always
        self.answer = answer
        self.model = model
        self.calls = 0
        self.requests: list[dict] = []
        self.authorizations: list[str | None] = []  # each request's Authorization header
        self.paths: list[str] = []  # each POST's request target, as sent
        self.in_flight = 0  # requests being answered now
        self.peak = 0  # the most requests answered at once (reset it to measure a stretch)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        assert self._httpd is not None, "the server is not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> "ScriptedServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body leave at once: no delayed-ACK stall per call
            wbufsize = 1 << 16

            def log_message(self, *args):  # quiet: the tests read the calls, not a log
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": server.model, "object": "model"}]})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with server._lock:
                    server.paths.append(self.path)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._json(404, {"error": {"message": "not found"}})
                    return
                try:
                    body = json.loads(raw)
                except ValueError:
                    self._json(400, {"error": {"message": "request is not JSON"}})
                    return
                with server._lock:
                    number = server.calls
                    server.calls += 1
                    server.requests.append(body)
                    server.authorizations.append(self.headers.get("Authorization"))
                    server.in_flight += 1
                    server.peak = max(server.peak, server.in_flight)
                try:
                    server._serve(self, body, number)
                finally:
                    with server._lock:
                        server.in_flight -= 1

            def _json(self, status: int, payload: dict, headers: dict | None = None):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="scripted-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> "ScriptedServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def fault_for(self, number: int) -> str | None:
        """The fault scripted for call `number` (its own, else `always`)."""
        return self.faults.get(number, self.always)

    def content_for(self, body: dict, number: int, fault: str | None) -> str:
        """The answer text for one request under its fault (the content faults only)."""
        if self.answer is not None:
            text = self.answer(body, number)
            if text is not None:
                return text
        schema = request_schema(body)
        value = least_instance(schema) if schema else {}
        if self.say is not None and isinstance(value, dict) and "talk" in value:
            value["talk"] = [{"kind": "say", "text": self.say}]
        if fault == "illegal":
            if isinstance(value, dict) and "action" in value:
                value["action"] = "no such action"
            else:
                value = {"kind": "no such kind", "action": "no such action"}
        if fault == "markup":
            value = _with_markup(value)
            return MARKUP + json.dumps(value, ensure_ascii=False) + MARKUP
        if fault == "invalid_json":
            return "{'answer': " + repr(value).replace("{", "(").replace("}", ")") + ", not JSON"
        if fault == "big":
            return json.dumps(value) + " " * (BIG_CHARS - len(json.dumps(value)))
        return json.dumps(value)

    def _serve(self, handler: BaseHTTPRequestHandler, body: dict, number: int) -> None:
        fault = self.fault_for(number)
        name, _, arg = (fault or "").partition(":")
        if self.delay and self._stop.wait(self.delay):
            return
        if name == "429":
            handler._json(429, {"error": {"message": "rate limited", "type": "rate_limit"}},
                          {"Retry-After": arg or "1"})
            return
        if name == "500":
            handler._json(500, {"error": {"message": "internal error"}})
            return
        if name == "hang":
            self._stop.wait(float(arg or 30))
            handler.close_connection = True
            return
        content = self.content_for(body, number, name or None)
        prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages") or [])
        usage = {"prompt_tokens": max(1, prompt_chars // 4), "completion_tokens": max(1, len(content) // 4)}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        ident = f"chatcmpl-{number}"
        created = int(time.time())
        if body.get("stream"):
            self._stream(handler, ident, created, content, usage, cut=name == "cut")
            return
        payload = {"id": ident, "object": "chat.completion", "created": created, "model": self.model,
                   "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                "finish_reason": "stop"}], "usage": usage}
        data = json.dumps(payload).encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        if name == "cut":  # the promised length, half the bytes, then the connection closed
            handler.wfile.write(data[: len(data) // 2])
            handler.wfile.flush()
            handler.close_connection = True
            return
        handler.wfile.write(data)
        if name == "drop":  # as a server whose keep-alive timer ran out: the client learns it on its next request
            handler.wfile.flush()
            handler.close_connection = True

    def _stream(self, handler, ident, created, content, usage, cut: bool) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True

        def event(delta: dict, finish: str | None, extra: dict | None = None) -> None:
            chunk = {"id": ident, "object": "chat.completion.chunk", "created": created, "model": self.model,
                     "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            chunk.update(extra or {})
            handler.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
            handler.wfile.flush()

        event({"role": "assistant", "content": ""}, None)
        pieces = [content[i:i + 64] for i in range(0, len(content), 64)] or [""]
        if cut:
            pieces = pieces[: max(1, len(pieces) // 2)]
        for piece in pieces:
            event({"content": piece}, None)
        if cut:
            return
        event({}, "stop", {"usage": usage})
        handler.wfile.write(b"data: [DONE]\n\n")
        handler.wfile.flush()
