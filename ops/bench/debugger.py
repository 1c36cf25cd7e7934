"""The replay debugger's speed, through its HTTP server as the browser meets it (not a timed test).

    python -m ops.bench.debugger [--log LOG] [--max-year 1905] [--games 100000] [--steps 200]
        [--store DIR] [--list-only] [--json OUT]

- time to first board: a 7-power AlphaDip game (a multi-MB log; played here with --max-year
  unless --log names one), from a cold server to the first board, as the page asks for it: open
  the source (a log file: its first game's start), /api/source, then /api/game/ID/head (the board
  drawn from the game's start alone, while the server reads the rest). Goal <= 1 s. Then, for the
  record, the whole game ready: its meta (the log read and checked whole, the index: one walk with
  fold snapshots) and the board at its first seq; and a seat's first board from another cold server.
- one step: the viewer's requests for one step (board, messages around the seq, KB detail) at
  random seqs of that game, warm. Goal <= 50 ms.
- the game list of a large store: a tournament store of --games synthetic rows written with
  ops/tournament/store.py, its first page of games unfiltered and with filters. Goal <= 1 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

LINEUP = "alphadip"  # all seven powers AlphaDip (the full PR+SO+FO+IO agent)


def _get(port: int, path: str) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"{path}: {response.status} {body[:200]!r}")
    return json.loads(body)


def _serve(path: Path, out: Path) -> Any:
    from ops.debugger.server import DebugServer
    from ops.debugger.source import open_source

    server = DebugServer(open_source(path), port=0, out=out)
    server.start()
    return server


def play_game(path: Path, max_year: int, seed: int) -> None:
    from actors.match import make_header, play
    from actors.registry import parse_lineup
    from bus.log import LogWriter

    header = make_header("diplomacy", seed, parse_lineup(LINEUP, 7), {"max_year": max_year})
    with open(path, "wb") as f:
        writer = LogWriter(f)
        writer.header(header)
        play(header, writer)
        writer.end_game()


def first_board(log: Path, out: Path, player: int | None = None) -> dict[str, Any]:
    from ops.debugger.server import DebugServer
    from ops.debugger.source import open_source

    view = "" if player is None else f"?player={player}"
    c0 = time.process_time()  # the CPU this process spent: what a shared box's load does not stretch
    t0 = time.perf_counter()
    source = open_source(log)
    t_open = time.perf_counter()
    server = DebugServer(source, port=0, out=out)
    server.start()
    try:
        gid = _get(server.port, "/api/source")["first"]
        head = _get(server.port, f"/api/game/{gid}/head{view}")
        t_board, c_board = time.perf_counter(), time.process_time()
        meta = _get(server.port, f"/api/game/{gid}{view}")
        at = _get(server.port, f"/api/game/{gid}/at/{meta['first']}{view}")
        t_all, c_all = time.perf_counter(), time.process_time()
    finally:
        server.shutdown()
        server.server_close()
    assert at["board"] == head["board"], "the first board from the start alone is the indexed game's"
    return {"log_bytes": log.stat().st_size, "records": meta["records"], "open_s": t_open - t0,
            "first_board_s": t_board - t0, "board_bytes": len(head["board"]), "whole_game_s": t_all - t0,
            "first_board_cpu_s": c_board - c0, "whole_game_cpu_s": c_all - c0}


def steps(log: Path, out: Path, n: int, seed: int) -> dict[str, Any]:
    server = _serve(log, out)
    try:
        port = server.port
        gid = server.api.source.first_game()
        meta = _get(port, f"/api/game/{gid}")
        seqs = meta["seqs"]
        rng = random.Random(seed)
        times = []
        for _ in range(n):
            seq = rng.choice(seqs)
            seat = rng.randrange(7)
            t = time.perf_counter()
            _get(port, f"/api/game/{gid}/at/{seq}")
            _get(port, f"/api/game/{gid}/messages?around={seq}&before=40&after=40")
            _get(port, f"/api/game/{gid}/detail/{seq}?kb={seat}")
            times.append(time.perf_counter() - t)
        pov = []
        for _ in range(max(1, n // 4)):
            seat = rng.randrange(7)
            mine = _get(port, f"/api/game/{gid}?player={seat}")["seqs"]
            seq = rng.choice(mine)
            t = time.perf_counter()
            _get(port, f"/api/game/{gid}/at/{seq}?player={seat}")
            _get(port, f"/api/game/{gid}/messages?player={seat}&around={seq}&before=40&after=40")
            _get(port, f"/api/game/{gid}/detail/{seq}?player={seat}")
            pov.append(time.perf_counter() - t)
    finally:
        server.shutdown()
        server.server_close()
    times.sort()
    return {"steps": n, "median_s": statistics.median(times), "p95_s": times[int(0.95 * (len(times) - 1))],
            "max_s": times[-1], "player_view_median_s": statistics.median(pov)}


def synthetic_store(folder: Path, games: int, seed: int) -> None:
    """A tournament store of `games` rows as the runner writes them (7 seats, mixed labels)."""
    from ops.tournament.store import Store

    rng = random.Random(seed)
    labels = ["alphadip", "dipblue", "dumbbot", "alphadip-so", "random"]
    powers = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder)
    store.set_meta("spec", json.dumps({"game": "diplomacy"}))
    batch = []
    for idx in range(games):
        seats = [rng.choice(labels) for _ in range(7)]
        winners = [rng.randrange(7)] if rng.random() < 0.3 else []
        batch.append({"game_id": f"g{idx:08d}", "idx": idx, "seed": idx, "seats": seats,
                      "agents": [{"name": s.split("-")[0], "options": {}} for s in seats],
                      "scores": [rng.random() for _ in range(7)], "ranks": [float(r) for r in range(1, 8)],
                      "winners": winners, "roles": powers, "steps": rng.randrange(10, 200), "records": rng.randrange(300, 9000),
                      "summary": "synthetic row", "errors": int(rng.random() < 0.02), "duration_ms": 1.0,
                      "segment": "none.dlog", "offset": 12, "nbytes": 1, "runner": "bench"})
        if len(batch) == 5000:
            store.add(batch)
            batch = []
    store.add(batch)
    store.close()


def game_list(folder: Path, out: Path) -> dict[str, Any]:
    server = _serve(folder, out)
    try:
        port = server.port
        result = {}
        for name, query in (("all", ""), ("agent", "agent=alphadip"), ("agent_in_seat", "agent=alphadip&seat=FRANCE"),
                            ("winner", "winner=dumbbot"), ("length_errors", "min_steps=50&max_steps=120&errors=no"),
                            ("last_page", "offset=99900&limit=100")):
            t = time.perf_counter()
            data = _get(port, f"/api/games?{query}")
            result[name] = {"s": time.perf_counter() - t, "total": data["total"], "rows": len(data["games"])}
    finally:
        server.shutdown()
        server.server_close()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the replay debugger's speed through its server")
    parser.add_argument("--log", type=Path, default=None, help="a 7-power AlphaDip log (default: play one)")
    parser.add_argument("--max-year", type=int, default=1905, help="the game played when --log is not given")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--games", type=int, default=100_000, help="rows of the synthetic store")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--store", type=Path, default=None,
                        help="keep the synthetic store in this folder (reused when it is there already)")
    parser.add_argument("--list-only", action="store_true", help="only the game list")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    from ops.logging import configure

    configure()
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        first: dict[str, Any] = {}
        step: dict[str, Any] = {}
        log = args.log
        if log is None and not args.list_only:
            log = tmp_path / "alphadip.log"
            t = time.perf_counter()
            play_game(log, args.max_year, args.seed)
            print(f"played a 7-power AlphaDip game to {args.max_year}: {log.stat().st_size / 1e6:.1f} MB "
                  f"in {time.perf_counter() - t:.1f} s")
        if not args.list_only:
            first, step = _game_figures(log, tmp_path, args)
        store = args.store or tmp_path / "store"
        from ops.tournament.store import STORE

        if not (store / STORE).is_file():
            t = time.perf_counter()
            synthetic_store(store, args.games, args.seed)
            print(f"wrote a store of {args.games} synthetic games in {time.perf_counter() - t:.1f} s")
        listing = game_list(store, tmp_path / "out")
        for name, r in listing.items():
            print(f"game list ({name}): {r['s'] * 1000:.0f} ms, {r['total']} games, {r['rows']} rows (goal <= 1 s)")
        if args.json:
            args.json.write_text(json.dumps({"first_board": first, "step": step, "list": listing}, indent=2))
    return 0


def _game_figures(log: Path, tmp_path: Path, args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    first = first_board(log, tmp_path / "out")
    seat = first_board(log, tmp_path / "out", player=3)
    first["player_first_board_s"], first["player_whole_game_s"] = seat["first_board_s"], seat["whole_game_s"]
    print(f"time to first board: {first['first_board_s']:.3f} s (goal <= 1 s) for {first['log_bytes'] / 1e6:.1f} MB, "
          f"{first['records']} records (source opened in {first['open_s']:.3f} s; CPU {first['first_board_cpu_s']:.3f} s); "
          f"the whole game ready (read, checked, indexed) {first['whole_game_s']:.3f} s (CPU {first['whole_game_cpu_s']:.3f} s "
          f"while the background read runs); player 3's view: first board {seat['first_board_s']:.3f} s, "
          f"whole {seat['whole_game_s']:.3f} s")
    step = steps(log, tmp_path / "out", args.steps, args.seed)
    print(f"one step (board + messages + KB detail): median {step['median_s'] * 1000:.1f} ms, "
          f"p95 {step['p95_s'] * 1000:.1f} ms, max {step['max_s'] * 1000:.1f} ms (goal <= 50 ms); "
          f"a player's view: median {step['player_view_median_s'] * 1000:.1f} ms")
    return first, step


if __name__ == "__main__":
    raise SystemExit(main())
