"""What the plugin guard costs (replay/guard.py), measured side by side in one run (not a timed test).

    python -m ops.bench.plugin_guard [--repeat 5]

Every plugin part the debugger's index, the charts, the belief series and the transcripts call
runs behind the guard (a context manager per call: per record for the debugger's hooks, per
state change for charts). The same work is timed with the guard as shipped and with the guard
replaced by a pass-through, on three golden logs (Werewolves, Diplomacy, Hanabi with Intelligence
Offices); the best of `--repeat` interleaved runs of each, and their ratio, are printed.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
LOGS = ("werewolves-alphawolf-7", "diplomacy-dumbbot-2", "hanabi-alpha-6")


@contextlib.contextmanager
def _pass_through(*args: Any, **kwargs: Any) -> Iterator[None]:
    yield


def _pass_through_part(game: Any, part: str, fn: Any) -> Any:
    return lambda *args, _seq=None, **kwargs: fn(*args, **kwargs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    import ops.debugger.game as debug_game
    import replay.guard as guard
    import replay.series as series
    import replay.transcript as transcript
    from bus.log import read_log

    logs = [read_log(ROOT / "tests" / "golden" / f"{stem}.log").games[0] for stem in LOGS]
    modules = (debug_game, series, transcript)

    def work() -> None:
        for log in logs:
            debug_game.DebugGame(log)
            series.state_series(log)
            series.belief_series(log)
            transcript.transcript(log)

    def once() -> float:
        start = time.perf_counter()
        work()
        return time.perf_counter() - start

    def use(guard_fn: Any, guarded_fn: Any) -> None:
        for module in modules:
            if hasattr(module, "guard"):
                module.guard = guard_fn
            if hasattr(module, "guarded"):
                module.guarded = guarded_fn

    work()  # imports and caches warm
    offs, ons = [], []
    for _ in range(args.repeat):  # interleaved, so that a busy machine slows both alike
        use(_pass_through, _pass_through_part)
        offs.append(once())
        use(guard.guard, guard.guarded)
        ons.append(once())
    off, on = min(offs), min(ons)
    print(f"index + charts + beliefs + transcripts of {len(logs)} golden logs: guarded {on * 1e3:.1f} ms, "
          f"unguarded {off * 1e3:.1f} ms, ratio {on / off:.3f}")


if __name__ == "__main__":
    main()
