"""The CPU a model call costs the calling process: detente's Chat Completions client (the standard
library's HTTP/1.1 client, `actors/llm/client.py`) against `httpx` and the `openai` package doing the
same request, where they are installed, side by side in one run.

The scripted server (tests/llm/scripted_server.py) answers at once from a process of its own, so
only the client's work is counted: this process's CPU time over N calls of a Kuhn-poker-sized
prompt (a page of rules, a short observation, a schema of two moves), each answer parsed to its
text. Printed: wall and CPU milliseconds a call, and each client's CPU as a multiple of detente's.

    python -m ops.bench.llm_client [--calls 300]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Callable

from ops.bench.llm import Server

SCHEMA = {"type": "object", "properties": {"action": {"type": "string", "enum": ["bet", "pass"]}},
          "required": ["action"], "additionalProperties": False}
MESSAGES = [{"role": "system", "content": "rules " * 300}, {"role": "user", "content": "observation " * 100}]
FORMAT = {"type": "json_schema", "json_schema": {"name": "answer", "strict": True, "schema": SCHEMA}}


def clients(url: str) -> list[tuple[str, Callable[[], str]]]:
    """(name, one call returning the answer's text) for each client that can be imported here."""
    from actors.llm.client import Client

    ours = Client(url, "scripted", None, 30.0)
    body = {"temperature": 0.0, "max_tokens": 200, "response_format": FORMAT}
    out = [("detente (http.client)", lambda: ours._once(ours._payload(MESSAGES, body))[0])]
    try:
        import httpx
    except ImportError:
        httpx = None
    if httpx is not None:
        hc = httpx.Client(timeout=30, headers={"Authorization": "Bearer none", "Content-Type": "application/json"})

        def with_httpx() -> str:
            payload = json.dumps({"model": "scripted", "messages": MESSAGES, **body}).encode()
            data = json.loads(hc.post(url + "/chat/completions", content=payload).content)
            return data["choices"][0]["message"]["content"]

        out.append(("httpx", with_httpx))
    try:
        import openai
    except ImportError:
        openai = None
    if openai is not None:
        oc = openai.OpenAI(base_url=url, api_key="none", max_retries=0, timeout=30)

        def with_openai() -> str:
            raw = oc.chat.completions.with_raw_response.create(model="scripted", messages=MESSAGES, temperature=0.0,
                                                               max_tokens=200, extra_body={"response_format": FORMAT})
            return raw.parse().choices[0].message.content

        out.append(("openai", with_openai))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args(argv)
    server = Server(0.0)
    try:
        found = clients(server.url)
        results: dict[str, list[float]] = {}
        for _ in range(2):  # two rounds, interleaved: each client's better round is printed
            for name, call in found:
                assert json.loads(call())["action"] == "bet"
                wall, cpu = time.perf_counter(), time.process_time()
                for _ in range(args.calls):
                    call()
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                best = results.get(name)
                if best is None or cpu < best[1]:
                    results[name] = [wall * 1000 / args.calls, cpu * 1000 / args.calls]
    finally:
        server.stop()
    ours = results[found[0][0]][1]
    print(f"one Chat Completions call against a local server answering at once ({args.calls} calls, the better of two rounds):")
    for name, (wall, cpu) in results.items():
        print(f"  {name:24} wall {wall:6.2f} ms  CPU {cpu:6.3f} ms a call = {cpu / ours:5.2f}x detente's")
    missing = [n for n in ("httpx", "openai") if n not in results]
    if missing:
        print(f"  (not installed here: {', '.join(missing)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
