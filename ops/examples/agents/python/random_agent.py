#!/usr/bin/env python3
"""A random agent for detente's agent protocol, version 1: the smallest complete example.

Standard library only; imports nothing of detente, so it can be copied anywhere and changed.
detente starts it as a child process and writes one JSON object a line on its stdin; it answers
every request with exactly one JSON line on its stdout (nothing else ever goes to stdout: debug
output goes to stderr). It plays any seat of any game with a uniformly random legal action, drawn
from a generator seeded by the game's seed and its seat, so the same game gets the same answers.

    detente play hanabi --seed 5 --agents 'exec:cmd=["python3","ops/examples/agents/python/random_agent.py"]'

The protocol (docs/protocol.md), in short:
  hello         detente -> agent first; the agent answers with its own hello (name, version)
  game_start    a game begins (seed, seat, options); not answered
  act_request   answered with [{"kind": "act", "turn": T, "action": one of "legal"}]
  talk_turn     answered with [{"kind": "talk", ..., "says": [...talk items...]}] (only sent to
                agents whose hello said "talks": true)
  heard         talk said in a closed round; answered with []
  office_request  (an agent serving one office of a built-in agent) answered with an office_reply
  game_end      the game's result; not answered
  bye           no more games: exit (so does the end of stdin)
"""

import json
import random
import sys

NAME, VERSION = "random-py", "1.0.0"


# Lines are read and written as bytes: JSON is UTF-8 whatever the locale says, and json.loads
# takes bytes. One encoder for every answer, compact (json.dumps with options makes one a call).
OUT = sys.stdout.buffer
ENCODER = json.JSONEncoder(separators=(",", ":"))


def send(obj):
    """One line of JSON on stdout, flushed at once (detente is waiting for it)."""
    OUT.write(ENCODER.encode(obj).encode() + b"\n")
    OUT.flush()


def answer(msg, rng):
    """The answer to one request: a list of messages (the agent's address and the recipient are
    filled in by detente)."""
    kind = msg["kind"]
    if kind == "act_request":
        legal = msg["legal"]
        return [{"kind": "act", "turn": msg["turn"], "action": rng.choice(legal)}] if legal else []
    if kind == "talk_turn":  # say nothing
        return [{"kind": "talk", "turn": msg["turn"], "channel": msg["channel"], "round": msg["round"], "says": []}]
    if kind == "office_request":  # serving an office: no advice, no talk, no change to the knowledge base
        return [{"kind": "office_reply", "task": msg["task"], "turn": msg["turn"], "says": [], "updates": []}]
    return []  # heard, and any request kind this agent does not know


def main():
    rng = random.Random(0)
    for line in sys.stdin.buffer:
        msg = json.loads(line)
        kind = msg.get("kind")
        if kind == "hello":
            print(f"{NAME}: serving {msg['address']} as {msg['role']}", file=sys.stderr)
            send({"kind": "hello", "protocol": 1, "name": NAME, "version": VERSION,
                  "plays": {"games": ["*"], "roles": ["player", "so", "fo", "io"]}, "talks": False})
        elif kind == "game_start":
            # a string seed: the same generator on every machine and every run
            rng = random.Random(f"{msg['seed']}/{msg['seat']}/{msg['role']}")
        elif kind == "game_end":
            pass
        elif kind == "bye":
            return
        else:
            send(answer(msg, rng))


if __name__ == "__main__":
    main()
