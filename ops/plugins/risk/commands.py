"""`detente risk ...`: the Risk plugin's own commands.

    detente risk train --games 2000 --seed 1 --out actors/risk/weights/trained.json
    detente risk train --games 2000 --seed 1 --update misupdate --out actors/risk/weights/mistrained.json
    detente risk odds 5 3

`train` plays TD self-play games of the seed's network (actors.risk.train), writes a checkpoint
every `--every` games into OUT.checkpoints/ (printing its sha256), and the final network to OUT;
`--resume` goes on from the last checkpoint there, ending with the weights of an uninterrupted run.
"""

from __future__ import annotations

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
    train.set_defaults(func=_train)
    odds = sub.add_parser("odds", help="exact and simulated odds of taking a territory")
    odds.add_argument("attackers", type=int, help="armies able to attack (the territory holds one more)")
    odds.add_argument("defenders", type=int)
    odds.set_defaults(func=_odds)


def _train(args: Any) -> int:
    from actors.risk.params import LearnParams, TDParams
    from actors.risk.train import run

    if args.games < 1 or args.every < 1:
        raise SystemExit("detente: error: --games and --every must be at least 1")
    learn = LearnParams(update=args.update, **({} if args.max_rounds is None else {"max_rounds": args.max_rounds}))
    run(Path(args.out), args.games, args.seed, learn, TDParams(odds=args.odds), args.every, args.resume,
        say=lambda line: print(line, flush=True))
    return 0


def _odds(args: Any) -> int:
    from actors.risk.odds import simulated_probability, win_probability
    from actors.risk.params import TDParams

    battles = TDParams().battles
    print(f"{args.attackers} v {args.defenders}: exact {win_probability(args.attackers, args.defenders):.4f}, "
          f"simulated ({battles} battles) {simulated_probability(args.attackers, args.defenders, battles):.4f}")
    return 0
