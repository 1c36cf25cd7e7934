"""Risk rules in lockstep with an older commit's: the check behind every speed change of the rules.

    python -m ops.bench.risk_lockstep --rev 6c05759 [--games 3]

Loads the rules committed at `--rev` beside this tree's (ops.bench.risk.risk_at) and plays the
same random games on both, variant by variant (the default game, two players with the neutral,
cards, a dealt start with connected fortifies and the defender's choice of dice, six players),
comparing at every step what a caller can see: terminal and chance flags, who acts, every seat's
legal list, the default action, the sampled chance outcome and the rng state after it; every 7th
step (every step of a variant's first game) the state's JSON, every seat's observation and the
digest; clones and JSON round trips every 97th step (the game then goes on from the copy); one
decision in five through the checked `apply_actions`. Stops at the first difference, naming it.
`--rev` is any commit whose rules play the same games (so: the same logs).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from ops.bench.risk import risk_at

VARIANTS = (
    {"players": 3},
    {"players": 2},
    {"players": 3, "cards": True, "max_rounds": 40},
    {"players": 4, "cards": True, "start": "dealt", "fortify": "connected", "defender_dice": "chosen", "max_rounds": 30},
    {"players": 6, "cards": True, "max_rounds": 25},
    {"players": 2, "cards": True, "defender_dice": "chosen", "max_rounds": 60},
)


class Diverged(Exception):
    """The two rules disagree: what, in which variant, game and step."""


def _same(what: str, old: Any, new: Any, where: str) -> None:
    """Raise Diverged unless `old == new`; for two dicts, name the keys whose values differ."""
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        keys = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
        what += " at " + ", ".join(f"{k!r} ({str(old.get(k))[:80]} != {str(new.get(k))[:80]})" for k in keys[:3])
        raise Diverged(f"{where}: {what}")
    raise Diverged(f"{where}: {what} differs: {str(old)[:200]} != {str(new)[:200]}")


def _json(state: Any) -> dict:
    """The state's JSON as a reader gets it (tuples as lists), to compare key by key."""
    return json.loads(json.dumps(state.to_json()))


def _acting(state: Any) -> int:
    players = state.current_players()
    return players[0] if players else 0


def lockstep(old_game: Any, new_game: Any, options: dict, seed: int, label: str) -> int:
    """Play game `seed` of `options` on both rules at once; the steps compared."""
    a, b = old_game.new_initial_state(options), new_game.new_initial_state(options)
    pick_a, pick_b = random.Random(seed), random.Random(seed)
    dice_a, dice_b = random.Random(f"d{seed}"), random.Random(f"d{seed}")
    seats = options["players"]
    step = 0
    while True:
        step += 1
        where = f"{label} game {seed} step {step}"
        _same("is_terminal", a.is_terminal(), b.is_terminal(), where)
        if step % 7 == 0 or seed == 0 or a.is_terminal():
            _same("to_json", _json(a), _json(b), where)
            for s in range(seats):
                _same(f"observation of seat {s}", a.observation(s), b.observation(s), where)
            _same("digest", a.digest(), b.digest(), where)
        if a.is_terminal():
            _same("outcome", dataclasses.asdict(a.outcome()), dataclasses.asdict(b.outcome()), where)
            return step
        _same("is_chance", a.is_chance(), b.is_chance(), where)
        _same("current_players", a.current_players(), b.current_players(), where)
        if a.is_chance():
            outcome_a, outcome_b = a.sample_chance(dice_a), b.sample_chance(dice_b)
            _same("sampled outcome", outcome_a, outcome_b, where)
            _same("rng state after sampling", dice_a.getstate(), dice_b.getstate(), where)
            a.apply_chance(outcome_a)
            b.apply_chance(outcome_b)
        else:
            for s in range(seats):
                _same(f"legal actions of seat {s}", a.legal_actions(s), b.legal_actions(s), where)
            p = a.current_players()[0]
            _same("default action", a.default_action(p), b.default_action(p), where)
            legal = a.legal_actions(p)
            action = legal[int(pick_a.random() * len(legal))]
            pick_b.random()
            if step % 5 == 0:  # the checked path too
                a.apply_actions({p: action})
                b.apply_actions({p: action})
            else:
                a.apply_action(action)
                b.apply_action(action)
        if step % 97 == 0:  # copies go on exactly as the original would
            back = new_game.state_from_json(json.loads(json.dumps(b.to_json())))
            _same("JSON round trip", _json(back), _json(b), where)
            _same("legal list after a JSON round trip", back.legal_actions(_acting(back)), b.legal_actions(_acting(b)), where)
            clone_a, clone_b = a.clone(), b.clone()
            _same("clone", _json(clone_a), _json(clone_b), where)
            a, b = clone_a, (clone_b if step % 2 else back)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the commit whose rules to compare with")
    parser.add_argument("--games", type=int, default=3, help="games a variant")
    args = parser.parse_args()
    from games.risk.rules import Risk

    with tempfile.TemporaryDirectory() as tmp:
        old, new = risk_at(args.rev, Path(tmp)), Risk()
        total = 0
        for i, options in enumerate(VARIANTS):
            label = f"variant {i} {json.dumps(options)}"
            steps = sum(lockstep(old, new, options, g, label) for g in range(args.games))
            total += steps
            print(f"{label}: {args.games} games, {steps:,} steps the same", flush=True)
    print(f"ok: {total:,} steps compared with {args.rev}")


if __name__ == "__main__":
    try:
        main()
    except Diverged as exc:
        raise SystemExit(f"DIVERGED {exc}") from None
