"""The model client on the wire: a kept-alive connection the server closed is opened again without
a failed try, a refused connection is a try with its cause, the environment's proxy is used (and
NO_PROXY respected), and the key goes in the Authorization header only."""

from __future__ import annotations

import socket

from actors.llm.client import Client, _proxy_for
from tests.llm.scripted_server import ScriptedServer

BODY = {"max_tokens": 16, "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": {
    "type": "object", "properties": {"action": {"enum": ["go", "stay"]}}, "required": ["action"]}}}}
MESSAGES = [{"role": "user", "content": "move"}]


def test_a_connection_the_server_closed_is_opened_again_without_a_failed_try():
    with ScriptedServer(faults={0: "drop", 2: "drop"}) as server:
        client = Client(server.url, "scripted", None, 5.0)
        replies = [client.complete(MESSAGES, BODY, tries=1) for _ in range(4)]
        assert server.calls == 4  # each question asked once: the stale connection failed before any answer
    assert [r.answer for r in replies] == ['{"action": "go"}'] * 4
    assert all(r.tries == [] for r in replies)


def test_a_refused_connection_is_a_try_with_its_cause():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    client = Client(f"http://127.0.0.1:{port}/v1", "m", None, 2.0)
    reply = client.complete(MESSAGES, BODY, tries=2, backoff=0.0)
    assert reply.answer is None and [t.cause for t in reply.tries] == ["connection failed: ConnectionRefusedError"] * 2


def test_the_environment_names_the_proxy(monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY", "all_proxy",
                 "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    assert _proxy_for("https", "api.example.org") is None
    monkeypatch.setenv("https_proxy", "http://proxy.internal:3128")
    assert _proxy_for("https", "api.example.org") == ("proxy.internal", 3128)
    assert _proxy_for("http", "api.example.org") is None  # only the scheme's own proxy
    monkeypatch.setenv("no_proxy", "example.org")
    assert _proxy_for("https", "api.example.org") is None


def test_plain_http_through_a_proxy_asks_for_the_absolute_url(monkeypatch):
    """A plain-HTTP proxy is sent the whole URL; the scripted server stands in for the proxy here."""
    with ScriptedServer() as proxy:
        port = int(proxy.url.split(":")[2].split("/")[0])
        for name in ("no_proxy", "NO_PROXY"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{port}")
        client = Client("http://model.invalid:8080/v1", "m", None, 5.0)
        reply = client.complete(MESSAGES, BODY, tries=1)
        assert reply.answer == '{"action": "go"}' and proxy.paths == ["http://model.invalid:8080/v1/chat/completions"]
