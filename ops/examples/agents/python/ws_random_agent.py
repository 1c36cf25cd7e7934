"""A random agent served on a WebSocket (the agent protocol's `ws` transport), as a service would be.

Imports nothing of detente; needs the `websockets` package. Each connection detente opens serves
one address (a seat or an office) with the same JSON objects as the stdin/stdout transport, one
per text message.

    python ws_random_agent.py --port 8765 [--token-env TOKEN_VARIABLE]
    detente play hanabi --seed 5 --agents 'ws:url=ws://127.0.0.1:8765'
"""

from __future__ import annotations

import argparse
import json
import os
import random
import threading

from websockets.sync.server import serve


def answer(msg: dict, state: dict) -> list | None:
    """The answer to one message (None: a notice, not answered)."""
    kind = msg["kind"]
    if kind == "hello":
        return {"kind": "hello", "protocol": 1, "name": "ws-random", "version": "1.0.0"}
    if kind == "game_start":
        state["rng"] = random.Random(msg["seed"] * 64 + msg["seat"])
        return None
    if kind in ("game_end", "bye"):
        return None
    if kind == "act_request":
        return [{"kind": "act", "turn": msg["turn"], "action": state["rng"].choice(msg["legal"])}]
    if kind == "talk_turn":
        return [{"kind": "talk", "turn": msg["turn"], "channel": msg["channel"], "round": msg["round"], "says": []}]
    if kind == "office_request":
        return [{"kind": "office_reply", "task": msg["task"], "turn": msg["turn"]}]
    return []


def handler_for(token: str | None):
    def handler(ws) -> None:
        if token is not None and ws.request.headers.get("Authorization") != f"Bearer {token}":
            ws.close(1008, "bad token")
            return
        state = {"rng": random.Random(0)}
        for text in ws:
            out = answer(json.loads(text), state)
            if out is not None:
                ws.send(json.dumps(out, separators=(",", ":")))

    return handler


def start(port: int = 0, token: str | None = None):
    """Serve in a background thread; returns (server, url). `server.shutdown()` stops it."""
    server = serve(handler_for(token), "127.0.0.1", port, compression=None)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"ws://127.0.0.1:{server.socket.getsockname()[1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--token-env", help="the environment variable holding the token clients must send")
    args = parser.parse_args()
    token = os.environ[args.token_env] if args.token_env else None
    with serve(handler_for(token), "127.0.0.1", args.port, compression=None) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
