"""Risk agents' win rates with Wilson 95% intervals, seats rotated.

Games are played straight on the rules with the Strategy Offices' own decision functions
(actors.risk.direct: the same choices as through the bus, other dice, no logs), so hundreds of
games fit in minutes. A game stops after MAX_ROUNDS rounds as a draw, which is not a win;
"leads" counts the survivor then holding the most territories (alone). A random-weight network
is a fresh one every game (net_seed = 1000 + game), so a rate against "random weights" is over
many networks, not one.

    python -m ops.bench.risk_agents                      # every pairing, 200 games each
    python -m ops.bench.risk_agents --games 500 --only seed-2000 seed-5600
    python -m ops.bench.risk_agents --list
    python -m ops.bench.risk_agents --speed              # decision times, games/s, training games/s
    python -m ops.bench.risk_agents --curve OUT.checkpoints --games 200   # the learning curve

The same pairings as tournaments through the whole stack: ops/examples/risk_*.toml.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

from actors.risk.board import Board
from actors.risk.direct import Policy, play, random_policy
from actors.risk.heuristic import suggest as heuristic_suggest
from actors.risk.network import get_net
from actors.risk.params import HeuristicParams, TDParams
from actors.risk.td import suggest as td_suggest

Maker = Callable[[int, int], Policy]  # (game, seat) -> policy
NETS = {"td": "trained", "td2000": "trained-2000", "mistrained": "mistrained"}  # shipped nets

MAX_ROUNDS = 60  # ours: the evaluation games' turn cap (then a draw), as in training
TWO, THREE = {"players": 2, "max_rounds": MAX_ROUNDS}, {"players": 3, "max_rounds": MAX_ROUNDS}
# name -> (game options, the agents in lineup order); td = the shipped net (5,600 training
# games), td2000 = its checkpoint after 2,000, mistrained = 500 games with the wrong update
PAIRINGS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "heuristic-random": (TWO, ["heuristic", "random"]),
    "td-random": (TWO, ["td", "random"]),
    "td-heuristic": (TWO, ["td", "heuristic"]),
    "td-randomnet": (TWO, ["td", "randomnet"]),
    "heuristic-td-random": (THREE, ["heuristic", "td", "random"]),
    # the seed's two results: 40/29/31 after 2,000 games; 48% against two random nets after 5,600
    "seed-2000": (THREE, ["td2000", "randomnet", "mistrained"]),
    "seed-5600": (THREE, ["td", "randomnet", "randomnet"]),
}


def maker(name: str, nets: dict[str, Any] | None = None) -> Maker:
    """A policy per (game, seat) for an agent name of PAIRINGS (`nets`: name -> Net, overriding the shipped ones)."""
    if name == "random":
        return lambda g, s: random_policy(f"bench-random/{g}/{s}")
    if name == "heuristic":
        params = HeuristicParams()
        return lambda g, s: (lambda obs, legal: heuristic_suggest(Board(obs), legal, params)[0])
    params = TDParams()

    def td(net_name: str, seed_of: Callable[[int, int], int]) -> Maker:
        def make(g: int, s: int) -> Policy:
            net = (nets or {}).get(net_name) or get_net(net_name, seed_of(g, s))
            return lambda obs, legal: td_suggest(Board(obs), legal, net, params)[0]
        return make

    if name == "randomnet":
        return td("random", lambda g, s: 1000 + g * 8 + s)
    if name in NETS:
        return td(NETS[name], lambda g, s: 0)
    raise ValueError(f"unknown agent {name!r}")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate wins / n."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(name: str, games: int, seed: int = 1, nets: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play one pairing; wins per lineup entry (seat of entry i in game g: (i + g) % players)."""
    options, agents = PAIRINGS[name]
    n = options["players"]
    makers = [maker(a, nets) for a in agents]
    wins, leads, draws, rounds = [0] * n, [0] * n, 0, 0
    t0 = time.process_time()
    for g in range(games):
        seats = [(i + g) % n for i in range(n)]
        policies: list[Policy] = [None] * n  # type: ignore[list-item]
        for i, s in enumerate(seats):
            policies[s] = makers[i](g, s)
        _, outcome = play(policies, options, f"bench/{seed}/{name}/{g}")
        held = outcome.extra["territories"]
        top = max(held)
        for i, s in enumerate(seats):
            wins[i] += s in outcome.winners
            leads[i] += not outcome.winners and held[s] == top and held.count(top) == 1
        draws += not outcome.winners
        rounds += outcome.extra["rounds"]
    cpu = time.process_time() - t0
    return {"pairing": name, "games": games, "agents": agents, "wins": wins, "leads": leads, "draws": draws,
            "rounds": rounds / games, "cpu_s": cpu}


def report(result: dict[str, Any]) -> str:
    n = result["games"]
    head = (f"{result['pairing']}: {n} games, {result['draws']} drawn at the cap, "
            f"{result['rounds']:.1f} rounds/game, {result['cpu_s']:.0f} s CPU")
    lines = [head]
    for agent, w, lead in zip(result["agents"], result["wins"], result["leads"]):
        lo, hi = wilson(w, n)
        lo2, hi2 = wilson(w + lead, n)
        lines.append(f"  {agent:<11} wins {w:4d} = {w / n:.3f} [{lo:.3f}, {hi:.3f}]   "
                     f"wins or leads at the cap {w + lead:4d} = {(w + lead) / n:.3f} [{lo2:.3f}, {hi2:.3f}]")
    return "\n".join(lines)


def speed(games: int = 4) -> list[str]:
    """CPU per decision of each agent on the positions of three-player games it plays with
    itself, whole games/s, and TD training games/s (3 to 6 players, LearnParams' turn cap)."""
    from actors.risk.params import LearnParams
    from actors.risk.train import train

    lines = []
    options = {"players": 3, "max_rounds": MAX_ROUNDS}
    for name in ("random", "heuristic", "td"):
        make = maker(name)
        clock = [0.0, 0]

        def timed(policy: Policy, clock: list = clock) -> Policy:
            def act(obs: dict[str, Any], legal: list[str]) -> str:
                t0 = time.process_time()
                out = policy(obs, legal)
                clock[0] += time.process_time() - t0
                clock[1] += 1
                return out
            return act

        t0 = time.process_time()
        for g in range(games):
            play([timed(make(g, s)) for s in range(3)], options, f"speed/{g}")
        whole = time.process_time() - t0
        lines.append(f"{name:<10} {1000 * clock[0] / clock[1]:7.3f} ms/decision ({clock[1]} decisions); "
                     f"{games / whole:6.2f} three-player games/s")
    t0 = time.process_time()
    train(games, 1, LearnParams(), TDParams())
    lines.append(f"training  {games / (time.process_time() - t0):6.2f} games/s (3 to 6 players, one process)")
    return lines


def curve(folder: str, games: int, seed: int = 1) -> list[str]:
    """The learning curve: each checkpoint of a training run (`detente risk train --out F`
    writes them to F.checkpoints/) against two random-weight nets, three players."""
    import json
    from pathlib import Path

    from actors.risk.network import net_from_json

    lines = []
    for path in sorted(Path(folder).glob("games-*.json")):
        net = net_from_json(json.loads(path.read_text()))
        result = run("seed-5600", games, seed, nets={"trained": net})
        w, lead, n = result["wins"][0], result["leads"][0], result["games"]
        lo, hi = wilson(w + lead, n)
        lines.append(f"{int(path.stem.split('-')[1]):6d} games: wins {w}/{n} = {w / n:.3f}; "
                     f"wins or leads {w + lead}/{n} = {(w + lead) / n:.3f} [{lo:.3f}, {hi:.3f}]")
        print(lines[-1], flush=True)
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="*", default=None, help="pairings to run (default: all)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--speed", action="store_true", help="time decisions, games and training instead")
    ap.add_argument("--curve", default=None, metavar="DIR", help="evaluate every checkpoint in DIR instead")
    args = ap.parse_args(argv)
    if args.speed:
        print("\n".join(speed()))
        return
    if args.curve:
        curve(args.curve, args.games, args.seed)
        return
    if args.list:
        for name, (options, agents) in PAIRINGS.items():
            print(f"{name}: {' v '.join(agents)} ({options['players']} players)")
        return
    for name in args.only or list(PAIRINGS):
        print(report(run(name, args.games, args.seed)), flush=True)


if __name__ == "__main__":
    main()
