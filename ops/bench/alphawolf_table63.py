"""Thesis table 6.3 measured inline: 8 village-side players (6 villagers, seer, doctor) against 2
full-AlphaWolf werewolves, for each village configuration; village win rate and mean surviving
village-side players when the village wins, with 95% confidence intervals.

    python -m ops.bench.alphawolf_table63 [--games 2000] [--seed 1] [--config full ...]
        [--option discussion_rounds=3] [--json OUT.json]

Every game runs through the whole stack (referee, bus, every office) with the log packed into a
sink that only counts bytes. Game g of a configuration uses seed `seed + g`, so every
configuration meets the same deals. The same lineups as tournament specs:
ops/examples/alphawolf_table63_*.toml.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass, field

from actors.match import build_actors, make_header, play
from actors.placement import InlinePlacement
from actors.registry import AgentSpec
from bus.messages import REFEREE
from ops.logging import configure

FULL = "so+fo+io"
CONFIGS: dict[str, str] = {  # label -> village-side office set (werewolves: always full)
    "random": "random",
    "so": "so",
    "so+fo": "so+fo",
    "full": FULL,
}


class CountingSink:
    """Keeps no record, only their number and size."""

    def __init__(self) -> None:
        self.records = 0
        self.size = 0

    def record(self, payload: bytes) -> None:
        self.records += 1
        self.size += len(payload)


@dataclass
class Tally:
    games: int = 0
    village_wins: int = 0
    survivors: list[int] = field(default_factory=list)  # village-side players alive, village wins
    draws: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    records: int = 0
    log_bytes: int = 0

    def summary(self) -> dict:
        p, lo, hi = wilson(self.village_wins, self.games)
        mean, half = mean_ci(self.survivors)
        return {
            "games": self.games,
            "village_win_rate": round(p, 4),
            "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "mean_survivors_when_village_wins": round(mean, 3),
            "survivors_ci95": [round(mean - half, 3), round(mean + half, 3)],
            "draws": self.draws,
            "games_per_s": round(self.games / self.seconds, 2) if self.seconds else None,
            "games_per_cpu_s": round(self.games / self.cpu_seconds, 2) if self.cpu_seconds else None,
            "records_per_game": round(self.records / max(1, self.games), 1),
            "log_kib_per_game": round(self.log_bytes / 1024 / max(1, self.games), 1),
        }


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """Proportion k/n and its Wilson score interval."""
    if n == 0:
        return 0.0, 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def mean_ci(xs: list[int], z: float = 1.96) -> tuple[float, float]:
    """Mean and half-width of its normal-approximation interval."""
    if not xs:
        return 0.0, 0.0
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, z * math.sqrt(var / n)


def lineup(village: str, wolves: str = FULL, extra: dict | None = None) -> list[AgentSpec]:
    options = {"village": village, "wolves": wolves, **(extra or {})}
    return [AgentSpec(name="alphawolf", options=options)] * 10


def play_one(seed: int, agents: list[AgentSpec], options: dict) -> tuple[str, int, CountingSink]:
    """(winner, village-side players alive at the end, sink) of one game."""
    header = make_header("werewolves", seed, agents, options)
    actors = build_actors(header)
    sink = CountingSink()
    play(header, sink, placement=InlinePlacement(actors))
    state = actors[REFEREE].state
    data = state.to_json()
    alive_village = sum(1 for r, a in zip(data["roles"], data["alive"]) if a and r != "werewolf")
    return data["winner"], alive_village, sink


def run_config(village: str, games: int, seed: int, options: dict, agent_extra: dict | None = None) -> Tally:
    agents = lineup(village, extra=agent_extra)
    tally = Tally()
    start, cpu = time.perf_counter(), time.process_time()
    for g in range(games):
        winner, alive, sink = play_one(seed + g, agents, options)
        tally.games += 1
        tally.records += sink.records
        tally.log_bytes += sink.size
        if winner == "village":
            tally.village_wins += 1
            tally.survivors.append(alive)
        elif winner == "draw":
            tally.draws += 1
    tally.seconds = time.perf_counter() - start
    tally.cpu_seconds = time.process_time() - cpu
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--config", action="append", choices=sorted(CONFIGS), help="default: all four")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option")
    parser.add_argument("--agent-option", action="append", default=[], metavar="KEY=VALUE",
                        help="extra alphawolf option for every seat (e.g. variant=thesis)")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    configure()  # operational logs at WARNING unless DETENTE_LOG_LEVEL says otherwise
    options = {k: json.loads(v) for k, _, v in (o.partition("=") for o in args.option)}
    extra = {}
    for o in args.agent_option:
        k, _, v = o.partition("=")
        try:
            extra[k] = json.loads(v)
        except ValueError:
            extra[k] = v
    labels = args.config or list(CONFIGS)
    results = {}
    print(f"game options: {options or 'defaults'}; agent options: {extra or 'defaults'}; "
          f"{args.games} games per configuration, seeds {args.seed}..{args.seed + args.games - 1}")
    print(f"{'village':<10} {'win rate':>9} {'95% CI':>17} {'survivors':>10} {'95% CI':>15} {'games/s':>8} {'/cpu-s':>7}")
    for label in labels:
        s = run_config(CONFIGS[label], args.games, args.seed, options, extra).summary()
        results[label] = s
        lo, hi = s["win_rate_ci95"]
        slo, shi = s["survivors_ci95"]
        print(f"{label:<10} {s['village_win_rate']:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} "
              f"{s['mean_survivors_when_village_wins']:>10.2f} {f'[{slo:.2f}, {shi:.2f}]':>15} {s['games_per_s']:>8.1f} {s['games_per_cpu_s']:>7.1f}",
              flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"options": options, "agent_options": extra, "seed": args.seed, "results": results}, out, indent=2)


if __name__ == "__main__":
    main()
