"""`detente risk ...`: the Risk plugin's own commands.

    detente risk train --games 5600 --seed 1 --workers 2 --out actors/risk/weights/trained.json
    detente risk train --games 500 --seed 1 --update misupdate --out actors/risk/weights/mistrained.json
    detente risk odds 5 3

`train` plays TD self-play games of the seed's network (actors.risk.train) in batches of
`--batch` games, each batch's games on `--workers` local processes (or Ray actors with
`--backend ray`): the weights do not depend on the workers. After every batch it replaces
OUT.checkpoints/last.json, every `--every` games it keeps a checkpoint there (printing its sha256,
games/s and, with `--eval N`, N games' win rate against two random nets), and at the end writes
OUT; `--resume` goes on from the furthest checkpoint there, ending with an uninterrupted run's weights.
Every game is logged (a batch a segment in OUT.games/, each game verifiable with `detente replay
verify OUT.games/games-NNNNNN.dlog`); `--no-log` plays them straight on the rules instead (the
same weights, ~2.6x as fast, no logs).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def commands(sub: Any) -> None:
    train = sub.add_parser("train", help="train the td agent's network by TD self-play (the seed's scheme)")
    train.add_argument("--games", type=int, required=True, help="training games in all")
    train.add_argument("--seed", type=int, default=1, help="seeds the first network and every game's dice")
    train.add_argument("--out", required=True, help="the network file to write (JSON)")
    train.add_argument("--every", type=int, default=500, help="games between checkpoints")
    train.add_argument("--resume", action="store_true", help="go on from the last checkpoint of OUT")
    train.add_argument("--update", choices=("td", "misupdate"), default="td",
                       help="misupdate: the hidden layer's gradient with the wrong sign (the seed's mis-trained net)")
    train.add_argument("--odds", choices=("simulated", "exact"), default="simulated",
                       help="the agents' battle odds while training (the seed: simulated)")
    train.add_argument("--max-rounds", type=int, default=None, help="a training game's turn cap")
    train.add_argument("--need-gain", action=argparse.BooleanOptionalAction, default=None,
                       help="attack only for a better board (default: no, see actors/risk/params.py)")
    train.add_argument("--batch", type=int, default=None,
                       help="games that start from the same network (default 10; 1: the seed's game by game)")
    train.add_argument("--passed-on", choices=("winner", "all"), default=None,
                       help="what seeds the next game: the winner's net (the seed's) or every player's change "
                            "averaged (default all, see actors/risk/params.py)")
    train.add_argument("--workers", type=int, default=1, help="processes (or Ray actors) playing a batch's games")
    train.add_argument("--backend", choices=("processes", "ray"), default="processes",
                       help="local processes, or Ray actors (a local Ray on 127.0.0.1, or --address)")
    train.add_argument("--address", default=None, help="a Ray cluster to join (--backend ray)")
    train.add_argument("--log", action=argparse.BooleanOptionalAction, default=True,
                       help="log every game into OUT.games/ (default); --no-log: straight on the rules, same weights, faster")
    train.add_argument("--eval", type=int, default=0, metavar="N",
                       help="at every kept checkpoint, N games against two random nets (does not change the weights)")
    train.set_defaults(func=_train)
    odds = sub.add_parser("odds", help="exact and simulated odds of taking a territory")
    odds.add_argument("attackers", type=int, help="armies able to attack (the territory holds one more)")
    odds.add_argument("defenders", type=int)
    odds.set_defaults(func=_odds)


def _train(args: Any) -> int:
    from actors.risk.params import LearnParams, TDParams
    from actors.risk.train import InProcess, Processes, run

    if args.games < 1 or args.every < 1 or args.workers < 1 or (args.batch is not None and args.batch < 1):
        raise SystemExit("detente: error: --games, --every, --batch and --workers must be at least 1")
    given = {"max_rounds": args.max_rounds, "batch": args.batch, "passed_on": args.passed_on}
    learn = LearnParams(update=args.update, **{k: v for k, v in given.items() if v is not None})
    params = TDParams(odds=args.odds, **({} if args.need_gain is None else {"need_gain": args.need_gain}))
    if args.games % learn.batch or args.every % learn.batch:
        raise SystemExit(f"detente: error: --games and --every must be multiples of the batch ({learn.batch})")
    if args.backend == "ray":
        from ops.plugins.risk.raytrain import RayWorkers

        workers: Any = RayWorkers(args.workers, args.seed, learn, params, args.address, log=args.log)
    elif args.workers > 1:
        workers = Processes(args.workers, args.seed, learn, params, log=args.log)
    else:
        workers = InProcess(args.seed, learn, params, log=args.log)
    try:
        run(Path(args.out), args.games, args.seed, learn, params, args.every, args.resume,
            say=lambda line: print(line, flush=True), workers=workers, count=args.workers, evaluation=args.eval, log=args.log)
    finally:
        workers.close()
    return 0


def _odds(args: Any) -> int:
    from actors.risk.odds import simulated_probability, win_probability
    from actors.risk.params import TDParams

    battles = TDParams().battles
    print(f"{args.attackers} v {args.defenders}: exact {win_probability(args.attackers, args.defenders):.4f}, "
          f"simulated ({battles} battles) {simulated_probability(args.attackers, args.defenders, battles):.4f}")
    return 0
