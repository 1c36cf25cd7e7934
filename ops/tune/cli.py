"""`detente tune SPEC --out DIR [--address ADDRESS]`: the command, delegated to from ops/cli.py."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    tune = sub.add_parser(
        "tune", help="search an agent's options by tournaments on Ray Tune (CMA-ES), then check the best on fresh seeds",
        description="A tuning spec (TOML, at most 1 MiB) names the agent, the options to search with their ranges "
                    "(checked against the agent's options model), the field, the game, games per trial, the "
                    "objective, the trials and how many run at once. Each trial is a tournament in DIR/trials/; "
                    "the report goes to DIR/report.txt, .json and .html. Rerun the same command after a kill to "
                    "resume: finished trials are kept.")
    tune.add_argument("spec", help="tuning spec (TOML)")
    tune.add_argument("--out", required=True, help="output folder (trials, Tune's state, the check, the report)")
    tune.add_argument("--address", default=None, help="join this Ray cluster instead of starting one")
    tune.set_defaults(func=run_command)


def run_command(args: argparse.Namespace) -> int:
    from ops.tune.report import format_text, write_reports
    from ops.tune.search import run_search
    from ops.tune.spec import load_tune_spec

    spec = load_tune_spec(args.spec)
    try:
        import optuna  # noqa: F401  (the searcher's library)
        import ray.tune  # noqa: F401
    except ImportError as exc:
        print(f"detente tune needs the tune extra (pip install 'detente[tune]'): {exc}", file=sys.stderr)
        return 2
    if args.address:
        from actors.ray_placement import check_reachable

        check_reachable(args.address)  # before anything is written
    out = Path(args.out)
    try:
        report = run_search(spec, out, address=args.address, say=lambda line: print(line, file=sys.stderr, flush=True))
    except KeyboardInterrupt:
        print("interrupted: finished trials are kept; rerun the same command to resume", file=sys.stderr)
        return 130
    paths = write_reports(report, out)
    print(format_text(report), end="")
    print(f"report: {paths['text']}, {paths['json']}, {paths['html']}")
    return 0
