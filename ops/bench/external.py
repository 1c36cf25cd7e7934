"""External agents' cost, side by side in one run: games/s of random 2-player Hanabi with the
built-in `random` agent, the standalone Python client over stdin/stdout (`exec`, with the agent on
a CPU of the OS's choosing and with `pin=true`: on the runner's CPU), and the same policy served on
a WebSocket on loopback (`ws`); the round trip of one decision through an `exec` connection
(median, p99) beside the physical floor measured in the same run: a trivial child process echoing
one JSON line through the same pipe, read the same way, in the same placement. The decision is
answered by a client that reads nothing of the request (detente's own share), by the standalone
Python client, and by the JavaScript one where node is on the PATH.

Every kind is measured in turns (rounds of each, one after the other), so a burst of load on a
shared machine falls on all of them alike; each agent is started before its games are timed (a
runner starts its agents once for all its games), and the first game's time, with the start, is
printed apart.

Goals: a decision's round trip at most 1.5x the floor, read like with like: detente's round trip
with a trivial agent (the client answering unread) against the pipe's with a trivial echo; the
clients that parse the request are printed beside it with their own work included. A game at most
3x the in-process game.

    python -m ops.bench.external [--games 200] [--decisions 3000] [--rounds 10] [--think 0,10,40,80]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

from actors.external import cpu
from actors.external.connection import Connection, ExecOptions, close_all
from actors.external.protocol import encode
from actors.external.transport import ExecTransport
from actors.match import make_header, record
from actors.registry import parse_lineup
from bus.messages import REFEREE, ActRequest
from games.registry import get_game

CLIENT = Path("ops/examples/agents/python/random_agent.py")
JS_CLIENT = Path("ops/examples/agents/js/random.js")
WS_AGENT = Path("ops/examples/agents/python")
ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
# answers every request with the same act, reading nothing of it: what detente's side of a decision
# costs (encoding the request, the pipe both ways, reading and checking the answer) without a client's own JSON work
FIXED = ("import sys\nfor line in sys.stdin:\n"
         "    if line.startswith('{\"kind\":\"hello\"'):\n"
         "        sys.stdout.write('{\"kind\":\"hello\",\"protocol\":1,\"name\":\"fixed\"}\\n'); sys.stdout.flush()\n"
         "    elif not line.startswith('{\"kind\":\"game_start\"'):\n"
         "        sys.stdout.write('[{\"kind\":\"act\",\"turn\":0,\"action\":\"play:1\"}]\\n'); sys.stdout.flush()\n")
# the same, thinking (busy) for argv[1] microseconds before it answers: how the hand-overs' cost
# grows with the agent's time (an idle CPU falls asleep, and waking it costs)
THINKING = FIXED.replace("        sys.stdout.write('[", "        import time; t = time.perf_counter() + float(sys.argv[1]) / 1e6\n"
                         "        while time.perf_counter() < t: pass\n        sys.stdout.write('[")


class Placement:
    """Where the bench's thread runs, and so where the agents it starts run (a child keeps the mask
    it was started with): "any" CPU; "pinned", the bench and its agents on one CPU (`pin=true`);
    "apart", the bench on its CPU and its agents on another, so every hand-over crosses CPUs."""

    def __init__(self) -> None:
        self.everywhere = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
        self.cpu = cpu.share()  # claimed once for the whole run
        others = sorted((self.everywhere or set()) - {self.cpu})
        self.other = others[0] if others else None
        self.set("any")

    def where(self) -> tuple[str, ...]:
        if self.everywhere is None or self.cpu is None:
            return ("any",)
        return ("any", "pinned", "apart") if self.other is not None else ("any", "pinned")

    def set(self, where: str, starting: bool = False) -> None:
        """Place the bench's thread for `where`; `starting`: for starting that placement's agents."""
        if self.everywhere is None or self.cpu is None:
            return
        if where == "pinned" or (where == "apart" and not starting):
            os.sched_setaffinity(0, {self.cpu})
        elif where == "apart":
            os.sched_setaffinity(0, {self.other})
        else:
            os.sched_setaffinity(0, self.everywhere)


def a_request() -> ActRequest:
    """A real act request: the first decision of a seeded Hanabi game, as the referee sends it."""
    import random

    game = get_game("hanabi")
    state = game.new_initial_state(game.options({}))
    state.apply_chance(state.sample_chance(random.Random(1)))
    return ActRequest(sender=REFEREE, to="p0", turn=0, player=0, legal=tuple(state.legal_actions(0)),
                      observation=state.observation(0))


def percentiles(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


class Echo:
    """The floor: a child echoing each line, through the same transport."""

    def __init__(self, request: ActRequest):
        self.transport = ExecTransport([sys.executable, "-c", ECHO], ".", {}, "inherit", 1 << 20, "echo")
        self.transport.open(time.monotonic() + 10)
        self.line = encode(request.model_dump(mode="json"))

    def __call__(self) -> None:
        self.transport.send(self.line, time.monotonic() + 10)
        self.transport.recv(time.monotonic() + 10)

    def close(self) -> None:
        self.transport.close()


class Asking:
    """One decision through an exec connection to the client `cmd`."""

    def __init__(self, request: ActRequest, cmd: list[str]):
        self.request = request
        self.conn = Connection("exec", ExecOptions(cmd=cmd, stderr="discard"), "p0", "player")
        self.conn.ensure()
        self.conn.begin_game({"game": "hanabi", "game_id": "bench", "seed": 1, "agents": [{}, {}], "options": {}}, 0)

    def __call__(self) -> None:
        self.conn.request(self.request)

    def close(self) -> None:
        self.conn.close()


class Games:
    """Games of random 2-player Hanabi with one lineup, seeds counted on from round to round."""

    def __init__(self, agents: str):
        self.lineup = parse_lineup(agents, 2)
        t0 = time.perf_counter()
        record(make_header("hanabi", 0, self.lineup))  # starts the lineup's agents
        self.first = time.perf_counter() - t0
        self.seed, self.seconds = 1, 0.0

    def play(self, n: int) -> None:
        t0 = time.perf_counter()
        for seed in range(self.seed, self.seed + n):
            record(make_header("hanabi", seed, self.lineup))
        self.seconds += time.perf_counter() - t0
        self.seed += n

    def per_second(self) -> float:
        return (self.seed - 1) / self.seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="external agents against the built-in random agent")
    parser.add_argument("--games", type=int, default=200, help="games of each kind (default 200)")
    parser.add_argument("--decisions", type=int, default=3000, help="decisions of each kind (default 3000)")
    parser.add_argument("--rounds", type=int, default=10, help="turns the kinds take (default 10)")
    parser.add_argument("--think", default="", help="also clients answering unread after thinking so many "
                        "microseconds, comma-separated (e.g. 0,10,40,80)")
    parser.add_argument("--client", default=str(CLIENT), help="the client program (default: the standalone Python one)")
    args = parser.parse_args(argv)
    # what answers a decision: (how it is printed, its command, how long it thinks (None: as long as it takes))
    clients: dict[str, tuple[str, list[str], float | None]] = {
        "fixed": ("a client answering unread:", [sys.executable, "-c", FIXED], None),
        "client": ("the standalone Python client:", [sys.executable, str(Path(args.client))], None)}
    node = shutil.which("node")
    if node:  # JSON.parse is native code: the same protocol with the agent's own work nearer the floor's
        clients["js"] = ("the JavaScript client (node):", [node, str(JS_CLIENT)], None)
    for us in [int(t) for t in args.think.split(",") if t.strip()]:
        clients[f"think{us}"] = (f"answering unread after {us} us:", [sys.executable, "-c", THINKING, str(us)], us / 1e6)
    sys.path.insert(0, str(WS_AGENT.resolve()))
    import ws_random_agent

    place = Placement()
    request = a_request()
    kinds: dict[str, tuple[str, Echo | Asking]] = {}
    for where in place.where():
        place.set(where, starting=True)
        kinds[f"floor/{where}"] = (where, Echo(request))
        for kind, (_, cmd, _) in clients.items():
            kinds[f"{kind}/{where}"] = (where, Asking(request, cmd))
    samples: dict[str, list[float]] = {name: [] for name in kinds}
    each = max(1, args.decisions // args.rounds)
    for _ in range(args.rounds):
        for name, (where, call) in kinds.items():
            place.set(where)
            out = samples[name]
            for _ in range(each):
                t0 = time.perf_counter()
                call()
                out.append(time.perf_counter() - t0)
    place.set("any")
    for _, call in kinds.values():
        call.close()

    print(f"one decision (a {len(encode(request.model_dump(mode='json')))}-byte act request), {each * args.rounds} of each kind:")
    titles = {"any": "the agent on a CPU of the OS's choosing", "pinned": "the agent on the bench's CPU (pin=true)",
              "apart": "the agent on another CPU than the bench's (every hand-over crosses CPUs)"}
    for where in place.where():
        title = titles[where]
        floor_med, floor_p99 = percentiles(samples[f"floor/{where}"])
        print(f"  {title}:")
        print(f"    floor, a child echoing the line:      median {floor_med * 1e6:.0f} us, p99 {floor_p99 * 1e6:.0f} us")
        for kind, (what, _, think) in clients.items():
            med, p99 = percentiles(samples[f"{kind}/{where}"])
            if think is not None:  # the thinking taken off: what the hand-overs cost around it
                rest = med - think
                print(f"    {what:<37} median {med * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us; less the thinking "
                      f"{rest * 1e6:.0f} us -> {rest / floor_med:.2f}x the floor")
                continue
            # the goal compares like with like: detente with a trivial agent against the pipe with a
            # trivial echo; a client that parses the request adds its own work, printed beside it
            print(f"    {what:<37} median {med * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us -> {med / floor_med:.2f}x the floor"
                  + (f" (goal <= 1.5x); {(med - floor_med) * 1e6:.0f} us over it" if kind == "fixed"
                     else " (its own JSON work included)"))

    exec_spec = f'exec:cmd=["{sys.executable}","{Path(args.client)}"];stderr="discard"'
    server, url = ws_random_agent.start()
    try:
        lineups = {"built-in random": (False, "random"), "exec": (False, exec_spec),
                   "exec, pin=true": (True, exec_spec + ";pin=true"), "ws (loopback)": (False, f"ws:url={url}")}
        games: dict[str, Games] = {}
        for name, (pinned, agents) in lineups.items():
            place.set("pinned" if pinned else "any")
            games[name] = Games(agents)
        per_round = max(1, args.games // args.rounds)
        for _ in range(args.rounds):
            for name, (pinned, _) in lineups.items():
                place.set("pinned" if pinned else "any")
                games[name].play(per_round)
        place.set("any")
    finally:
        close_all()
        server.shutdown()
    inline = games["built-in random"].per_second()
    print(f"random 2-player Hanabi, {per_round * args.rounds} games of each kind (the agents started before):")
    for name, g in games.items():
        ratio = "" if name == "built-in random" else f" -> a game takes {inline / g.per_second():.2f}x" + (
            " (goal <= 3x)" if name.startswith("exec") else "")
        print(f"  {name + ':':<17} {g.per_second():6.1f} games/s{ratio}   (first game, with the start: {g.first * 1e3:.0f} ms)")


if __name__ == "__main__":
    main()
