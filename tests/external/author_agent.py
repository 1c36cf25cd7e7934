"""An external agent whose faults an author should see (standard library only):
`python author_agent.py MODE` with MODE

  office-bad-json  as an office: its hello, then a line that is not JSON for the first request
  talk-invalid     as a seat: random legal moves, and on every talk turn an item no game knows
"""

import json
import random
import sys

MODE = sys.argv[1]


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


rng = random.Random(0)
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["kind"]
    if kind == "hello":
        say({"kind": "hello", "protocol": 1, "name": f"author-{MODE}", "version": "1", "talks": MODE == "talk-invalid"})
    elif kind == "game_start":
        rng = random.Random(msg["seed"] * 64 + msg["seat"])
    elif kind == "bye":
        break
    elif kind == "game_end":
        pass
    elif MODE == "office-bad-json":
        sys.stdout.write("{this is not json\n")
        sys.stdout.flush()
    elif kind == "act_request":
        say([{"kind": "act", "turn": msg["turn"], "action": rng.choice(msg["legal"])}])
    elif kind == "talk_turn":
        say([{"kind": "talk", "turn": msg["turn"], "channel": msg["channel"], "round": msg["round"],
              "says": [{"kind": "ww_accuse", "target": 99}]}])
    else:
        say([])
