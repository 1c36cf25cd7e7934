"""Werewolves experiments beyond the thesis: bluffing AlphaWolf and the AIWolf role sets, measured
inline (the whole stack, logs only counted) on held-out seeds, with Wilson 95% intervals.

    python -m ops.plugins.werewolves.experiments bluff  [--games 400] [--seed 100001] [--option reveal_roles=false]
    python -m ops.plugins.werewolves.experiments aiwolf [--games 400] [--seed 200001] [--preset aiwolf5]

`bluff`: thesis table 6.3's village (10 players, 2 werewolves, full AlphaWolf in every seat)
against werewolves that never bluff and that bluff (claim honesty 0), each with the village's IO
reading claims as before and learning from claims proven false (`learn_claims`).
`aiwolf`: an AIWolf role set with AlphaWolf in every seat, and AlphaWolf against the random agent
on either side: the village's and the werewolf team's win rates.
Game g uses seed `seed + g` in every configuration, so configurations meet the same deals. The
same lineups as tournament specs: ops/examples/werewolves_bluff_*.toml, werewolves_aiwolf5_*.toml.
"""

from __future__ import annotations

import argparse
import json
import time

from actors.match import build_actors, make_header, play
from actors.placement import InlinePlacement
from actors.registry import parse_lineup
from bus.messages import REFEREE
from games.registry import get_game
from actors.match import game_options
from ops.bench.alphawolf_table63 import CountingSink, wilson
from ops.logging import configure

BLUFF = {  # label -> the alphawolf spec in every seat (its params reach both sides; each side reads its own)
    "honest": "alphawolf",
    "bluff": "alphawolf:params.claim_honesty=0",
    "honest+learn": "alphawolf:params.learn_claims=true",
    "bluff+learn": "alphawolf:params.claim_honesty=0;params.learn_claims=true",
}
AIWOLF = {
    "alphawolf": "alphawolf",
    "alphawolf-bluff": "alphawolf:params.claim_honesty=0",
    "alphawolf-bluff-learn": "alphawolf:params.claim_honesty=0;params.learn_claims=true",
    "village-alphawolf-vs-random": "alphawolf:wolves=random",
    "village-random-vs-alphawolf": "alphawolf:village=random",
}


def run(spec: str, options: dict, games: int, seed: int) -> dict:
    """Village win rate (Wilson 95%) of `games` games of `spec` in every seat."""
    n = get_game("werewolves").num_players(game_options("werewolves", options))
    agents = parse_lineup(spec, n)
    wins = draws = 0
    start = time.perf_counter()
    for g in range(games):
        header = make_header("werewolves", seed + g, agents, options)
        actors = build_actors(header)
        play(header, CountingSink(), placement=InlinePlacement(actors))
        winner = actors[REFEREE].state.to_json()["winner"]
        wins += winner == "village"
        draws += winner == "draw"
    p, lo, hi = wilson(wins, games)
    q, qlo, qhi = wilson(games - wins - draws, games)
    return {"spec": spec, "games": games, "village_win_rate": round(p, 4), "village_ci95": [round(lo, 4), round(hi, 4)],
            "wolf_team_win_rate": round(q, 4), "wolf_team_ci95": [round(qlo, 4), round(qhi, 4)], "draws": draws,
            "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment", choices=("bluff", "aiwolf"))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: 100001 bluff, 200001 aiwolf)")
    parser.add_argument("--preset", default="aiwolf5", help="aiwolf: the role set")
    parser.add_argument("--config", action="append", help="only these configurations")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option (JSON value), e.g. reveal_roles=false")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    configure()
    extra = {k: json.loads(v) for k, _, v in (o.partition("=") for o in args.option)}
    if args.experiment == "bluff":
        configs, options, seed = BLUFF, extra, args.seed or 100001
    else:
        configs, options, seed = AIWOLF, {"preset": args.preset, **extra}, args.seed or 200001
    labels = args.config or list(configs)
    print(f"{args.experiment}: options {options or 'defaults'}; {args.games} games each, seeds {seed}..{seed + args.games - 1}")
    print(f"{'configuration':<30} {'village':>8} {'95% CI':>17} {'wolf team':>10} {'95% CI':>17}")
    results = {}
    for label in labels:
        r = results[label] = run(configs[label], options, args.games, seed)
        print(f"{label:<30} {r['village_win_rate']:>8.3f} {str(r['village_ci95']):>17} "
              f"{r['wolf_team_win_rate']:>10.3f} {str(r['wolf_team_ci95']):>17}  ({r['seconds']} s)", flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"experiment": args.experiment, "options": options, "seed": seed, "results": results}, out, indent=2)


if __name__ == "__main__":
    main()
