"""Language-model seats in a tournament: games per second against a scripted model server that
answers after a fixed delay (200 ms by default), with `concurrent_games` 1, 8 and 64, and
detente's own time per model call (prompt building, validation, logging, the game around it).

The server (tests/llm/scripted_server.py: a real HTTP server on loopback answering the first legal
action) runs in a process of its own, so its work does not share this process's interpreter lock.
One seat is the `llm` agent, the others `random`; each K is played by a tournament runner in this
process (`BatchPlayer`: the games' logs packed and appended to its segments), warmed up with K
games first (its threads, HTTP clients and connections made), then timed over K x 20 games. Goal:
games/s with K concurrent games at least 0.8 x K times the K=1 figure, up to 64. A run of K lanes
ends with a tail (the last games finishing one by one while the other lanes stand idle), about one
game's time out of the games each lane plays: over 6 games a lane it cost K=64 about a sixth of its
rate, over 20 a twentieth; a tournament's batches of many games a runner make it smaller still.

detente's own time per call is measured against a server answering at once (delay 0), in a warm
runner playing one game at a time: the games' wall time less the time spent in the client's requests
(timed here, not the whole milliseconds the records keep), over the calls (an upper bound: it
includes the referee's and the other seats' work); and the part of it spent in the model seat's own
actor outside its requests (prompt, schema, reading the answer, the record).
Printed beside it: the client-measured request time with nothing to wait for, and this process's
CPU per call (the HTTP client's work included). Goal: under 2 ms, under 1% of a 200 ms call.

    python -m ops.bench.llm [--game openspiel-kuhn_poker] [--ks 1,8,64] [--games-per-lane 20] [--delay 0.2]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SERVER = """
import sys, json
sys.path.insert(0, {root!r})
from tests.llm.scripted_server import ScriptedServer
with ScriptedServer(delay={delay}) as server:
    print(server.url, flush=True)
    sys.stdin.read()
    print(json.dumps({{"calls": server.calls}}), flush=True)
"""


class Server:
    """The scripted server in a child process: `url`, and at `stop` the calls it received."""

    def __init__(self, delay: float) -> None:
        root = str(Path(__file__).resolve().parents[2])
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER.format(root=root, delay=delay)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()

    def stop(self) -> int:
        out, _ = self.proc.communicate("", timeout=30)
        return json.loads(out.strip().splitlines()[-1])["calls"]


def run(game: str, url: str, k: int, games: int, work: Path) -> dict:
    """A warm runner (K games played first: its threads, clients and connections made) playing
    `games` games with `concurrent_games` K: games per second, calls and their mean latency."""
    from ops.tournament.runner import BatchPlayer
    from ops.tournament.spec import parse_spec

    spec = parse_spec({"game": game, "games": games + k, "seed": 1, "batch": games, "concurrent_games": k,
                       "lineup": [{"agent": "llm", "options": {"endpoint": url, "model": "scripted"}},
                                  {"agent": "random", "count": _players(game) - 1}]})
    player = BatchPlayer(str(work / f"k{k}"), spec.model_dump(mode="json"), f"k{k}")
    try:
        player.play(list(range(games, games + k)))
        t0 = time.perf_counter()
        rows = player.play(list(range(games)))
        wall = time.perf_counter() - t0
    finally:
        player.close()
    seats = [p for r in rows for p in (r.get("model_calls") or ())]
    done = sum(1 for r in rows if "error" not in r)
    return {"k": k, "games": done, "failed": len(rows) - done, "seconds": wall, "games_per_s": done / wall,
            "calls": sum(p["calls"] for p in seats), "latency_ms": sum(sum(p["latency_ms"]) for p in seats)}


def own_time(game: str, url: str, games: int, work: Path) -> dict:
    """A warm runner (one game played first) playing `games` games one at a time against a server
    answering at once: wall and CPU time of this process per model call, and the calls' latency
    as the client measured it."""
    from ops.tournament.runner import BatchPlayer
    from ops.tournament.spec import parse_spec

    spec = parse_spec({"game": game, "games": games + 1, "seed": 2,
                       "lineup": [{"agent": "llm", "options": {"endpoint": url, "model": "scripted"}},
                                  {"agent": "random", "count": _players(game) - 1}]})
    from actors.llm.agent import LLMActor
    from actors.llm.client import Client

    player = BatchPlayer(str(work / "own"), spec.model_dump(mode="json"), "own")
    inside, asked = [0.0], [0.0]  # seconds in the seat's actor; in the client's requests (the records keep whole ms)
    handle, complete = LLMActor.handle, Client.complete

    def timed(self, message):  # the seat's actor at work: prompt, schema, client, reading the answer
        t0 = time.perf_counter()
        try:
            return handle(self, message)
        finally:
            inside[0] += time.perf_counter() - t0

    def requested(self, *args, **kwargs):
        t0 = time.perf_counter()
        try:
            return complete(self, *args, **kwargs)
        finally:
            asked[0] += time.perf_counter() - t0

    try:
        player.play([0])
        LLMActor.handle, Client.complete = timed, requested
        wall, cpu = time.perf_counter(), time.process_time()
        rows = player.play(list(range(1, games + 1)))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        LLMActor.handle, Client.complete = handle, complete
        player.close()
    seats = [p for r in rows for p in (r["model_calls"] or ())]
    calls = sum(p["calls"] for p in seats)
    return {"calls": calls, "wall_ms": wall * 1000, "cpu_ms": cpu * 1000, "latency_ms": asked[0] * 1000,
            "actor_ms": inside[0] * 1000}


def _players(game: str) -> int:
    from games.registry import get_game

    g = get_game(game)
    return g.num_players(g.options({}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="openspiel-kuhn_poker", help="default: Kuhn poker (the openspiel extra), one or two calls a game")
    parser.add_argument("--ks", default="1,8,64")
    parser.add_argument("--games-per-lane", type=int, default=20, help="games per concurrent game slot (K=1: this many)")
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--own-game", default="battleline", help="the game for detente's own time (many calls a game)")
    parser.add_argument("--own-games", type=int, default=4, help="games against the delay-0 server for detente's own time")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="detente-bench-llm-"))
    try:
        server = Server(0.0)
        own = own_time(args.own_game, server.url, args.own_games, work)
        server.stop()
        n = max(1, own["calls"])
        per_call = (own["wall_ms"] - own["latency_ms"]) / n
        print(f"{args.own_game}, {own['calls']} model calls against a server answering at once, one game at a time:")
        print(f"  detente's own time per call, outside the client's request (prompt, validation, logging, the "
              f"game around it): {per_call:.2f} ms = {100 * per_call / (args.delay * 1000):.2f}% of a "
              f"{args.delay * 1000:.0f} ms call (goal: < 2 ms, < 1%)")
        actor = (own["actor_ms"] - own["latency_ms"]) / n
        print(f"  of which in the model seat's actor, outside the request (prompt, schema, reading the answer, its "
              f"record): {actor:.2f} ms = {100 * actor / (args.delay * 1000):.2f}%")
        print(f"  the request as the client measured it (HTTP client and server, nothing waited for): "
              f"{own['latency_ms'] / n:.2f} ms; this process's CPU per call, client included: {own['cpu_ms'] / n:.2f} ms")
        server = Server(args.delay)
        base = None
        for k in [int(x) for x in args.ks.split(",")]:
            r = run(args.game, server.url, k, k * args.games_per_lane, work)
            if base is None:
                base = r["games_per_s"]
                print(f"{args.game} against the server answering after {args.delay * 1000:.0f} ms:")
            ratio = r["games_per_s"] / base
            print(f"  concurrent_games={k:>3}: {r['games']:>4} games in {r['seconds']:6.2f} s = {r['games_per_s']:7.3f} games/s, "
                  f"{ratio:6.2f}x K=1 (goal >= {0.8 * k:.1f}x), {r['calls']} model calls, "
                  f"mean latency {r['latency_ms'] / max(1, r['calls']):.0f} ms, {r['failed']} failed")
        calls = server.stop()
        print(f"  the server received {calls} calls")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
