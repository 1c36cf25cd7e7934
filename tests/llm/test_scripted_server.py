"""The scripted server itself: each fault as a client on the wire sees it (urllib, no detente code)."""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request

import pytest

from tests.llm.scripted_server import BIG_CHARS, MARKUP, ScriptedServer, least_instance

SCHEMA = {"type": "object", "properties": {"action": {"enum": ["b2", "a1"]}, "why": {"type": "string"}},
          "required": ["action"]}


def post(url: str, body: dict, timeout: float = 5.0):
    req = urllib.request.Request(url + "/chat/completions", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    return urllib.request.urlopen(req, timeout=timeout)


def ask(schema_style: str = "json_schema", **extra) -> dict:
    fmt = ({"type": "json_schema", "json_schema": {"name": "a", "schema": SCHEMA}} if schema_style == "json_schema"
           else {"type": "json_object", "schema": SCHEMA})
    return {"model": "m", "messages": [{"role": "user", "content": "go"}], "response_format": fmt, **extra}


def content(response) -> str:
    return json.loads(response.read())["choices"][0]["message"]["content"]


def test_default_answers_the_first_enum_value_in_both_schema_styles_and_from_the_prompt():
    with ScriptedServer() as server:
        assert json.loads(content(post(server.url, ask("json_schema")))) == {"action": "b2"}
        assert json.loads(content(post(server.url, ask("json_object")))) == {"action": "b2"}
        prompt = {"model": "m", "messages": [{"role": "user", "content": "Answer under " + json.dumps(SCHEMA)}]}
        assert json.loads(content(post(server.url, prompt))) == {"action": "b2"}
        assert server.calls == 3


def test_least_instance_follows_refs_and_unions():
    schema = {"$defs": {"Say": {"type": "object", "properties": {"kind": {"const": "say"}, "text": {"type": "string"}},
                                "required": ["kind", "text"]}},
              "type": "object", "properties": {"talk": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/Say"}]},
                                                        "minItems": 1}}, "required": ["talk"]}
    assert least_instance(schema) == {"talk": [{"kind": "say", "text": ""}]}


def test_delay_and_faults_by_call_number():
    with ScriptedServer(delay=0.2, faults={0: "429:3", 1: "500"}) as server:
        start = time.monotonic()
        with pytest.raises(urllib.error.HTTPError) as caught:
            post(server.url, ask())
        assert caught.value.code == 429 and caught.value.headers["Retry-After"] == "3"
        assert time.monotonic() - start >= 0.2
        with pytest.raises(urllib.error.HTTPError) as caught:
            post(server.url, ask())
        assert caught.value.code == 500
        assert json.loads(content(post(server.url, ask()))) == {"action": "b2"}


def test_hang_is_a_read_timeout():
    with ScriptedServer(always="hang:5") as server:
        start = time.monotonic()
        with pytest.raises(OSError):
            post(server.url, ask(), timeout=0.5)
        assert time.monotonic() - start < 3


def test_cut_plain_and_streamed():
    with ScriptedServer(always="cut") as server:
        with pytest.raises(http.client.IncompleteRead):
            post(server.url, ask()).read()
        events = post(server.url, ask(stream=True)).read().decode()
        assert "data: " in events and "[DONE]" not in events and '"finish_reason": "stop"' not in events


def test_stream_whole():
    with ScriptedServer() as server:
        events = post(server.url, ask(stream=True)).read().decode().split("\n\n")
        chunks = [json.loads(e[6:]) for e in events if e.startswith("data: {")]
        text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks)
        assert json.loads(text) == {"action": "b2"} and events[-2] == "data: [DONE]"


def test_content_faults():
    with ScriptedServer(faults={0: "invalid_json", 1: "illegal", 2: "big", 3: "markup"}) as server:
        with pytest.raises(ValueError):
            json.loads(content(post(server.url, ask())))
        assert json.loads(content(post(server.url, ask())))["action"] not in ("a1", "b2")
        big = content(post(server.url, ask()))
        assert len(big) == BIG_CHARS and json.loads(big) == {"action": "b2"}
        marked = content(post(server.url, ask()))
        assert marked.startswith(MARKUP) and "\x00" in marked and '{"action": "b2"}' in marked
