"""External agents' cost, side by side in one run: games/s of random 2-player Hanabi with the
built-in `random` agent, the standalone Python client over stdin/stdout (`exec`), and the same
policy served on a WebSocket on loopback (`ws`); the round trip of one decision through an `exec`
connection (median, p99) beside the physical floor measured in the same run: a trivial child
process echoing one JSON line through the same pipe, read the same way.

Goals: a decision's round trip at most 1.5x the floor; a game at most 3x the in-process game.

    python -m ops.bench.external [--games 30] [--decisions 3000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from actors.external.connection import Connection, ExecOptions, close_all
from actors.external.protocol import encode
from actors.external.transport import ExecTransport
from actors.match import make_header, record
from actors.registry import parse_lineup
from bus.messages import REFEREE, ActRequest
from games.registry import get_game

CLIENT = Path("ops/examples/agents/python/random_agent.py")
WS_AGENT = Path("ops/examples/agents/python")
ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
# answers every request with the same act, reading nothing of it: what detente's side of a decision
# costs (encoding the request, the pipe both ways, reading and checking the answer) without a client's own JSON work
FIXED = ("import sys\nfor line in sys.stdin:\n"
         "    if line.startswith('{\"kind\":\"hello\"'):\n"
         "        sys.stdout.write('{\"kind\":\"hello\",\"protocol\":1,\"name\":\"fixed\"}\\n'); sys.stdout.flush()\n"
         "    elif not line.startswith('{\"kind\":\"game_start\"'):\n"
         "        sys.stdout.write('[{\"kind\":\"act\",\"turn\":0,\"action\":\"play:1\"}]\\n'); sys.stdout.flush()\n")


def games_per_second(agents: str, games: int) -> float:
    t0 = time.perf_counter()
    for seed in range(games):
        record(make_header("hanabi", seed, parse_lineup(agents, 2)))
    return games / (time.perf_counter() - t0)


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


def floor(request: ActRequest, n: int) -> list[float]:
    """Seconds a line of the request's size takes through a child that echoes it (same transport)."""
    transport = ExecTransport([sys.executable, "-c", ECHO], ".", {}, "inherit", 1 << 20, "echo")
    transport.open(time.monotonic() + 10)
    line = encode(request.model_dump(mode="json"))
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        transport.send(line, time.monotonic() + 10)
        transport.recv(time.monotonic() + 10)
        out.append(time.perf_counter() - t0)
    transport.close()
    return out


def decisions(request: ActRequest, n: int, cmd: list[str]) -> list[float]:
    """Seconds one decision takes through an exec connection to the client `cmd`."""
    conn = Connection("exec", ExecOptions(cmd=cmd, stderr="discard"), "p0", "player")
    conn.ensure()
    conn.begin_game({"game": "hanabi", "game_id": "bench", "seed": 1, "agents": [{}, {}], "options": {}}, 0)
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        conn.request(request)
        out.append(time.perf_counter() - t0)
    conn.close()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="external agents against the built-in random agent")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument("--client", default=str(CLIENT), help="the client program (default: the standalone Python one)")
    args = parser.parse_args(argv)
    client = Path(args.client)
    sys.path.insert(0, str(WS_AGENT.resolve()))
    import ws_random_agent

    request = a_request()
    echo = floor(request, args.decisions)
    fixed = decisions(request, args.decisions, [sys.executable, "-c", FIXED])
    asked = decisions(request, args.decisions, [sys.executable, str(client)])
    echo_med, echo_p99 = percentiles(echo)
    print(f"one decision (a {len(encode(request.model_dump(mode='json')))}-byte act request), {args.decisions} each:")
    print(f"  floor, a child echoing the line:       median {echo_med * 1e6:.0f} us, p99 {echo_p99 * 1e6:.0f} us")
    for what, samples in (("exec, a client answering unread:", fixed), ("exec, the standalone Python client:", asked)):
        med, p99 = percentiles(samples)
        print(f"  {what:<38} median {med * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us -> {med / echo_med:.2f}x the floor (goal <= 1.5x)")
    inline = games_per_second("random", args.games)
    over_exec = games_per_second(f'exec:cmd=["{sys.executable}","{client}"];stderr="discard"', args.games)
    server, url = ws_random_agent.start()
    try:
        over_ws = games_per_second(f"ws:url={url}", args.games)
    finally:
        close_all()
        server.shutdown()
    print(f"random 2-player Hanabi, {args.games} games each:")
    print(f"  built-in random: {inline:.1f} games/s")
    print(f"  exec (stdin/stdout): {over_exec:.1f} games/s -> a game takes {inline / over_exec:.2f}x (goal <= 3x)")
    print(f"  ws (loopback): {over_ws:.1f} games/s -> a game takes {inline / over_ws:.2f}x")


if __name__ == "__main__":
    main()
