"""A policy learned through the OpenSpiel bridge with OpenSpiel's own tabular Q-learning, saved with
the command that made it, played by the `policy` agent.

    python -m ops.bridges.openspiel.learn --game werewolves --options '{"players": 5, ...}' \
        --episodes 20000 --seed 1 --out ops/bridges/openspiel/policies/werewolves5.json
    detente play werewolves --option players=5 ... --agents "policy:fn=ops.bridges.openspiel.learn:werewolves5,random"

Training: the game exported to OpenSpiel (`detente_<game>`, ops/bridges/openspiel/export.py),
OpenSpiel's `rl_environment.Environment` over it with the game's observation tensor as each seat's
state (`ObservationType.OBSERVATION`), and one `tabular_qlearner.QLearner` per seat (Watkins'
Q-learning, epsilon-greedy, open_spiel/python/algorithms/tabular_qlearner.py) in self-play. The
saved table maps an observation tensor (its nonzero entries, `key`) to the Q-values of the action
numbers seen there; the command, the options and the figures of the run are saved with it.

Playing: `table_policy(path)` is a PettingZoo-style policy `(observation tensor, action mask) ->
action number`: the legal action of the highest Q-value at that observation (ties to the lowest
number), and where the table does not hold the observation, the legal action of the highest mean
Q-value over the whole table (`means`: what each action number was worth wherever it was tried;
ties to the lowest number). The observation tensor holds the game's history, so most observations
are met once in training: the saved table keeps those where at least `--min-actions` actions were
valued, and the means carry the rest.
It is deterministic, so the policy agent's games verify.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

POLICIES = Path(__file__).parent / "policies"
WEREWOLVES5 = {"players": 5, "werewolves": 1, "seers": 1, "doctors": 0, "discussion_rounds": 0}


def key(tensor) -> str:
    """The table's key of an observation tensor: its nonzero entries as `index:value`."""
    values = np.asarray(tensor, np.float32).reshape(-1)
    return ",".join(f"{i}:{float(values[i]):.6g}" for i in np.flatnonzero(values))


def train(game: str, options: dict[str, Any], episodes: int, seed: int, epsilon: float = 0.2,
          step_size: float = 0.1) -> dict[str, Any]:
    """Self-play tabular Q-learning on the exported game; the table and how it was made."""
    import pyspiel
    from open_spiel.python import rl_environment, rl_tools
    from open_spiel.python.algorithms import tabular_qlearner

    from ops.bridges.openspiel.export import register

    register([game])
    spiel = pyspiel.load_game(f"detente_{game}", {"options": json.dumps(options, sort_keys=True), "seed": seed})
    env = rl_environment.Environment(spiel, observation_type=rl_environment.ObservationType.OBSERVATION)
    env.seed(seed)
    n, actions = env.num_players, env.action_spec()["num_actions"]
    np.random.seed(seed)  # the learners' epsilon-greedy draws (np.random)
    learners = [tabular_qlearner.QLearner(p, actions, step_size=step_size,
                                          epsilon_schedule=rl_tools.ConstantSchedule(epsilon)) for p in range(n)]
    t0 = time.perf_counter()
    for _ in range(episodes):
        step = env.reset()
        while not step.last():
            if not env.is_turn_based:
                chosen = [learner.step(step).action for learner in learners]
            else:
                chosen = [learners[step.observations["current_player"]].step(step).action]
            step = env.step(chosen)
        for learner in learners:
            learner.step(step)
    seconds = time.perf_counter() - t0
    table: dict[str, dict[str, float]] = {}
    for learner in learners:
        for state, values in learner._q_values.items():  # noqa: SLF001 - the learned table itself
            row = table.setdefault(key(json.loads(state)), {})
            for action, q in values.items():
                row[str(action)] = round((row.get(str(action), q) + q) / 2, 6)
    return {"game": game, "options": options, "episodes": episodes, "seed": seed, "epsilon": epsilon,
            "step_size": step_size, "seconds": round(seconds, 1), "states": len(table),
            "library": f"open_spiel {_version('open_spiel')}: rl_environment + tabular_qlearner.QLearner",
            "means": _means(table), "table": dict(sorted(table.items()))}


def _means(table: dict[str, dict[str, float]]) -> dict[str, float]:
    """Each action number's mean Q-value over every observation where it was valued."""
    sums: dict[str, list[float]] = {}
    for row in table.values():
        for action, q in row.items():
            sums.setdefault(action, []).append(q)
    return {a: round(float(np.mean(qs)), 6) for a, qs in sorted(sums.items(), key=lambda kv: int(kv[0]))}


def prune(made: dict[str, Any], min_actions: int) -> dict[str, Any]:
    """The table without the observations where fewer than `min_actions` actions were valued (seen
    once or twice: their Q-values say little); the means stay those of the whole table."""
    table = {k: row for k, row in made["table"].items() if len(row) >= min_actions}
    return {**made, "table": table, "kept": len(table), "min_actions": min_actions}


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


@lru_cache(maxsize=8)
def _load(path: str) -> tuple[dict[str, dict[int, float]], dict[int, float]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    table = {k: {int(a): q for a, q in row.items()} for k, row in data["table"].items()}
    return table, {int(a): q for a, q in data["means"].items()}


def table_policy(path: str | Path):
    """The greedy policy of a saved table, as `(observation, action_mask) -> action number`."""

    def policy(observation, action_mask) -> int:
        table, means = _load(str(path))
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        row = table.get(key(observation))
        values = row if row else means
        return max(legal, key=lambda a: (values.get(a, 0.0), -a))

    return policy


def werewolves5(observation, action_mask) -> int:
    """The shipped Werewolves policy (five players: one werewolf, one seer, no talk), `policies/werewolves5.json`."""
    return table_policy(POLICIES / "werewolves5.json")(observation, action_mask)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="werewolves")
    parser.add_argument("--options", default=json.dumps(WEREWOLVES5), help="the game's options as JSON")
    parser.add_argument("--episodes", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epsilon", type=float, default=0.2)
    parser.add_argument("--step-size", type=float, default=0.1)
    parser.add_argument("--min-actions", type=int, default=1, help="keep observations with this many actions valued")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    made = prune(train(args.game, json.loads(args.options), args.episodes, args.seed, args.epsilon, args.step_size),
                 args.min_actions)
    made["command"] = "python -m ops.bridges.openspiel.learn " + " ".join(
        [f"--game {args.game}", f"--options '{json.dumps(json.loads(args.options), sort_keys=True)}'",
         f"--episodes {args.episodes}", f"--seed {args.seed}", f"--epsilon {args.epsilon}",
         f"--step-size {args.step_size}", f"--min-actions {args.min_actions}", f"--out {args.out}"])
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(made, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{made['states']} observations, {args.episodes} episodes in {made['seconds']} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
