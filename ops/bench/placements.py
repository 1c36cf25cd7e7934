"""Games/s of `ray-players` and `ray-modules` against `inline`, measured in one run on a local
Ray (hosts reused from game to game, as a tournament would). Also checks the bytes agree.

    python -m ops.bench.placements [--games 10] [--cpus 2]
"""

from __future__ import annotations

import argparse
import io
import os
import time

from actors.match import make_header, play
from actors.registry import AgentSpec
from bus.log import LogWriter


def run(runtime: str, games: int, placement=None) -> tuple[float, list[bytes]]:
    logs = []
    t0 = time.perf_counter()
    for seed in range(games):
        header = make_header("werewolves", seed, [AgentSpec(name="random")] * 10)
        buf = io.BytesIO()
        writer = LogWriter(buf)
        writer.header(header)
        play(header, writer, runtime=runtime, placement=placement)
        logs.append(buf.getvalue())
    return games / (time.perf_counter() - t0), logs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--cpus", type=int, default=2)
    args = parser.parse_args()
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    from actors.ray_placement import RayPlacement

    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    inline_rate, inline_logs = run("inline", max(args.games, 50))
    print(f"inline      : {inline_rate:9.1f} games/s")
    for runtime in ("ray-players", "ray-modules"):
        placement = RayPlacement(runtime)
        run(runtime, 1, placement)  # warm-up: start the hosts once
        rate, logs = run(runtime, args.games, placement)
        placement.close()
        same = logs == inline_logs[: args.games]
        print(f"{runtime:12}: {rate:9.1f} games/s  ratio to inline {rate / inline_rate:.4f}  same bytes: {same}")
    ray.shutdown()


if __name__ == "__main__":
    main()
