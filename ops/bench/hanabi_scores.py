"""Mean Hanabi scores of each strategy in self-play (every seat the same agent), with SD, standard
error and 95 % CI, bomb-out and perfect rates, and games/s. Plays the agents' policy functions
straight on the rules (`actors.hanabi.policies.play_direct`, the same code the offices run), deck
and seat generators seeded by game number, so reruns give the same numbers.

    python -m ops.bench.hanabi_scores --setting osawa --games 1000
    python -m ops.bench.hanabi_scores --setting standard --players 2 3 4 5 --games 1000
    python -m ops.bench.hanabi_scores --agents self-estimation --agent-option a=5 --games 300

Settings: `osawa` = 2 players, hands of 5, no completion bonus, score kept on bomb-out (Osawa
2015, 3.1); `standard` = the published rules (completion bonus on); both scoring modes are
reported from the same games (agents do not read the scoring rule).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from actors.hanabi.policies import POLICIES, play_direct

SETTINGS = {
    "osawa": {"completion_bonus": False, "bomb_out_scores_zero": False},
    "standard": {"completion_bonus": True, "bomb_out_scores_zero": False},
}
AGENTS = ("osawa-random", "rational", "self-estimation", "full-information", "alpha")


def measure(agent: str, options: dict[str, Any], games: int, agent_options: dict[str, Any],
            first_seed: int = 0) -> dict[str, Any]:
    opts = dict(options)
    if agent == "full-information":
        opts["reveal_own_cards"] = True
    kept, zeroed, perfect, bombs = [], [], 0, 0
    t0 = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        out = play_direct(POLICIES[agent], opts, seed, agent_options).outcome()
        kept.append(out.extra["fireworks"])
        bombed = out.extra["lives"] == 0
        bombs += bombed
        zeroed.append(0 if bombed else out.extra["fireworks"])
        perfect += out.extra["fireworks"] == 25
    elapsed = time.perf_counter() - t0
    return {"agent": agent, "options": opts, "agent_options": agent_options, "games": games,
            "keep": _stats(kept), "zero": _stats(zeroed), "bomb_rate": bombs / games,
            "perfect_rate": perfect / games, "games_per_s": games / elapsed}


def _stats(xs: list[int]) -> dict[str, float]:
    mean = statistics.fmean(xs)
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    sem = sd / len(xs) ** 0.5
    return {"mean": mean, "sd": sd, "sem": sem, "ci95": [mean - 1.96 * sem, mean + 1.96 * sem]}


def row(r: dict[str, Any]) -> str:
    k, z = r["keep"], r["zero"]
    return (f"| {r['agent']} | {r['options']['players']} | {k['mean']:.2f} | {k['sd']:.2f} | "
            f"{k['sem']:.2f} | [{k['ci95'][0]:.2f}, {k['ci95'][1]:.2f}] | {z['mean']:.2f} | "
            f"{100 * r['bomb_rate']:.1f} % | {100 * r['perfect_rate']:.1f} % | {r['games_per_s']:.0f} |")


HEADER = ("| agent | players | mean (kept) | SD | SEM | 95 % CI | mean (0 on bomb-out) | bomb-out "
          "| perfect | games/s |\n|---|---|---|---|---|---|---|---|---|---|")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setting", choices=sorted(SETTINGS), default="osawa")
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--agents", nargs="+", default=list(AGENTS), choices=sorted(POLICIES))
    parser.add_argument("--agent-option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    agent_options = {k: json.loads(v) for k, _, v in (o.partition("=") for o in args.agent_option)}
    results = []
    print(f"setting {args.setting}: {SETTINGS[args.setting]}, {args.games} games each")
    print(HEADER)
    for players in args.players:
        for agent in args.agents:
            r = measure(agent, {**SETTINGS[args.setting], "players": players}, args.games, agent_options)
            results.append(r)
            print(row(r), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
