"""An external agent that talks (standard library only): plays random legal moves, and on every
talk turn says one line of free text (the core's `say` item), naming the round. Given a path, it
also writes every line it is sent to that file."""

import json
import random
import sys


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


rng = random.Random(0)
heard = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None
for line in sys.stdin:
    if heard is not None:
        heard.write(line)
        heard.flush()
    msg = json.loads(line)
    kind = msg["kind"]
    if kind == "hello":
        say({"kind": "hello", "protocol": 1, "name": "talker", "version": "1", "talks": True})
    elif kind == "game_start":
        rng = random.Random(msg["seed"] * 64 + msg["seat"])
    elif kind == "bye":
        break
    elif kind == "game_end":
        pass
    elif kind == "act_request":
        say([{"kind": "act", "turn": msg["turn"], "action": rng.choice(msg["legal"])}])
    elif kind == "talk_turn":
        text = f"round {msg['round']} on {msg['channel']}: trust me \u2014 s\u00fbrement"
        say([{"kind": "talk", "turn": msg["turn"], "channel": msg["channel"], "round": msg["round"],
              "says": [{"kind": "say", "text": text}]}])
    else:
        say([])
