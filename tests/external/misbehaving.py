"""An external agent that misbehaves on purpose (the agent protocol's fault tests): standard library
only. `python misbehaving.py MODE [TURN]` plays random legal moves, then at decision TURN (default
2) of each game does what MODE says:

  good        never misbehaves (its hello's version is its process id: tests tell processes apart)
  cpus        never misbehaves (its hello's version is the CPUs it may run on, as "0,1")
  no-hello    answers hello with something else       silent     never writes its hello
  die         exits                                    hang       sleeps for an hour
  wrong-turn  acts for another turn                    bad-json   writes a line that is not JSON
  long-line   writes one line of 2 MiB                 flood      writes 1,000 lines unasked
  illegal     plays an action that is not legal        many       answers 100 messages at once
  slow        thinks 0.1 s over every decision from TURN on (a chess clock runs out)
"""

import json
import os
import random
import sys
import time

MODE = sys.argv[1]
AT = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["kind"]
        if kind == "hello":
            if MODE == "silent":
                time.sleep(3600)
            if MODE == "no-hello":
                say({"kind": "act", "turn": 0, "action": "x"})
                continue
            version = ",".join(map(str, sorted(os.sched_getaffinity(0)))) if MODE == "cpus" else str(os.getpid())
            say({"kind": "hello", "protocol": 1, "name": f"misbehaving-{MODE}", "version": version})
        elif kind == "game_start":
            rng = random.Random(msg["seed"] * 64 + msg["seat"])
        elif kind in ("game_end", "bye"):
            if kind == "bye":
                return
        elif kind == "act_request":
            turn = msg["turn"]
            action = rng.choice(msg["legal"])
            if turn >= AT and MODE not in ("good", "cpus"):
                if MODE == "slow":
                    time.sleep(0.1)
                    say([{"kind": "act", "turn": turn, "action": action}])
                    continue
                if MODE == "die":
                    sys.exit(3)
                if MODE == "hang":
                    time.sleep(3600)
                if MODE == "wrong-turn":
                    say([{"kind": "act", "turn": turn + 7, "action": action}])
                    continue
                if MODE == "bad-json":
                    sys.stdout.write("{this is not json\n")
                    sys.stdout.flush()
                    continue
                if MODE == "long-line":
                    sys.stdout.write("[" + " " * (2 << 20) + "]\n")
                    sys.stdout.flush()
                    continue
                if MODE == "illegal":
                    say([{"kind": "act", "turn": turn, "action": "no-such-move"}])
                    continue
                if MODE == "many":
                    say([{"kind": "act", "turn": turn, "action": action}] * 100)
                    continue
                if MODE == "flood":
                    # the answer and 1,000 lines unasked, in one write (under 4 KiB, so the pipe
                    # holds all of it at once): whenever detente next looks, the flood is there
                    sys.stdout.write(json.dumps([{"kind": "act", "turn": turn, "action": action}]) + "\n" + "[]\n" * 1000)
                    sys.stdout.flush()
                    continue
            say([{"kind": "act", "turn": turn, "action": action}])
        else:
            say([])


if __name__ == "__main__":
    main()
