"""The WebSocket example's policy (ops/examples/agents/python/ws_random_agent.py) over stdin/stdout:
the same answers through the other transport (test_replay compares the records)."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "ops" / "examples" / "agents" / "python"))
from ws_random_agent import answer  # noqa: E402

state: dict = {}
for line in sys.stdin:
    msg = json.loads(line)
    if msg["kind"] == "bye":
        break
    out = answer(msg, state)
    if out is not None:
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
