"""OpenSpiel's MCTS (agent `openspiel-mcts`), or another agent, against `random` through the
bridge: win rate and mean return of its seat with 95% intervals, the seats alternating game by game.

    python -m ops.bench.openspiel_mcts --game openspiel-kuhn_poker --games 400 --simulations 100
    python -m ops.bench.openspiel_mcts --game openspiel-kuhn_poker --games 400 --agent openspiel-cfr:iterations=500
"""

from __future__ import annotations

import argparse

from actors.match import make_header, record
from actors.registry import parse_spec
from bus.log import parse_log
from ops.tournament.report import mean_ci, wilson


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="openspiel-kuhn_poker")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--agent", default=None, help="another agent spec (default: openspiel-mcts with the options above)")
    args = parser.parse_args(argv)
    text = args.agent or f"openspiel-mcts:simulations={args.simulations};samples={args.samples}"
    mcts = parse_spec(text)
    rand = parse_spec("random")
    wins, returns = 0, []
    for seed in range(args.games):
        seat = seed % 2
        lineup = [mcts, rand] if seat == 0 else [rand, mcts]
        game = parse_log(record(make_header(args.game, seed, lineup, {}))).games[0]
        end = next(r["msg"] for r in game.records if r["msg"]["kind"] == "game_end")
        wins += seat in end["winners"]
        returns.append(end["returns"][seat])
    rate, lo, hi = wilson(wins, args.games)
    mean, mlo, mhi = mean_ci(returns)
    print(f"{args.game}: {text} against random, {args.games} games, seats alternating")
    print(f"  win rate {rate:.3f} [{lo:.3f}, {hi:.3f}]; mean return {mean:+.3f} [{mlo:+.3f}, {mhi:+.3f}]")


if __name__ == "__main__":
    main()
