"""The bridges' cost, measured side by side in one run (random players everywhere):

- a random game of OpenSpiel's Kuhn poker and of `bargaining` through the bridge (detente's
  Game/State API over pyspiel: the referee's loop without the bus) and through the whole stack
  (referee, random agents' Presidents and offices, bus, msgpack log), against OpenSpiel's own
  Python loop over the same pyspiel game;
- random steps per second of detente's Hanabi as a PettingZoo AEC environment (masked random
  actions, the tensor observation each step) against OpenSpiel's Hanabi (HLE, C++ behind
  pybind11) in OpenSpiel's loop with `observation_tensor()` of the player to act each step;
- the same for Battle Line: the PettingZoo environment against OpenSpiel's loop over the exported
  `detente_battleline` (ops/bridges/openspiel/export.py) with its observation tensor each step.
Each steps/s pair is counted in CPU time, in `--rounds` interleaved turns; the ratio is of the sums
(the range: each round's).

    python -m ops.bench.bridges [--seconds 2] [--rounds 4]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from actors.match import make_header, record
from actors.registry import AgentSpec
from games.registry import get_game


def _rate(play, seconds: float) -> float:
    """Games per second of `play(i)` over about `seconds`."""
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        play(n)
        n += 1
    return n / (time.perf_counter() - t0)


def openspiel_loop(spiel):
    rng = random.Random(0)

    def play(_: int) -> None:
        state = spiel.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return play


def bridge_loop(name: str):
    game = get_game(name)
    opts = game.options({})
    rng = random.Random(0)

    def play(_: int) -> None:
        state = game.new_initial_state(opts)
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
    return play


def stack(name: str):
    n = get_game(name).num_players(get_game(name).options({}))

    def play(i: int) -> None:
        record(make_header(name, i, [AgentSpec(name="random")] * n, {}))
    return play


def _steps_rate(play, seconds: float) -> float:
    """Steps per CPU second of `play(i) -> steps` over about `seconds` of this process's CPU time
    (CPU, not wall: on a shared box the time spent waiting for a core falls on neither side)."""
    n, steps, t0 = 0, 0, time.process_time()
    while time.process_time() - t0 < seconds:
        steps += play(n)
        n += 1
    return steps / (time.process_time() - t0)


def pettingzoo_steps(name: str, options: dict):
    """A random game of the PettingZoo environment: each step reads the tensor and the mask. The
    random pick reads the mask's numbers with the array's own `nonzero` (C), as OpenSpiel's side
    reads `legal_actions()` (C++): numpy's `flatnonzero`, a Python wrapper around the same, costs
    about twice its instructions and would time the harness rather than the environment."""
    from ops.bridges.pettingzoo import env

    e = env(name, options)
    rng = random.Random(0)

    def play(i: int) -> int:
        e.reset(seed=i)
        steps = 0
        for _ in e.agent_iter():
            obs, _, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(rng.choice(info["action_mask"].nonzero()[0].tolist()))
            steps += 1
        return steps
    return play


def openspiel_tensor_steps(spiel):
    """OpenSpiel's loop over `spiel`: each decision reads `observation_tensor()` of the player to act."""
    rng = random.Random(0)

    def play(_: int) -> int:
        state, steps = spiel.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps
    return play


def pettingzoo_hanabi():
    from ops.bridges.pettingzoo import env

    e = env("hanabi", {"players": 2})
    rng = np.random.default_rng(0)

    def play(i: int) -> None:
        e.reset(seed=i)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, info = e.last()
            e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(info["action_mask"]))))
    return play


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=4, help="turns each side of a steps/s pair takes (interleaved)")
    args = parser.parse_args(argv)
    import pyspiel

    s = args.seconds
    for short in ("kuhn_poker", "bargaining"):
        name = "openspiel-" + short
        theirs = _rate(openspiel_loop(get_game(name).spiel(get_game(name).options({}))), s)
        ours = _rate(bridge_loop(name), s)
        whole = _rate(stack(name), s)
        print(f"{short}: OpenSpiel's loop {theirs:,.0f} games/s; bridge (State API) {ours:,.0f} games/s "
              f"(ratio {ours / theirs:.3f}); whole stack {whole:,.0f} games/s (ratio {whole / theirs:.4f})")
    theirs, ours = _interleaved(lambda: openspiel_tensor_steps(pyspiel.load_game("hanabi", {"players": 2})),
                                lambda: pettingzoo_steps("hanabi", {"players": 2}), s, args.rounds)
    print(f"hanabi steps/s with tensor observations: OpenSpiel's Hanabi {sum(theirs) / len(theirs):,.0f}; "
          f"detente's Hanabi as a PettingZoo env {sum(ours) / len(ours):,.0f} ({_ratios(ours, theirs)})")
    from ops.bridges.openspiel.export import register

    register(["battleline"])
    theirs, ours = _interleaved(lambda: openspiel_tensor_steps(pyspiel.load_game("detente_battleline", {"options": "{}"})),
                                lambda: pettingzoo_steps("battleline", {}), s, args.rounds)
    print(f"battleline steps/s with tensor observations: OpenSpiel's loop over detente_battleline "
          f"{sum(theirs) / len(theirs):,.0f}; the PettingZoo env {sum(ours) / len(ours):,.0f} ({_ratios(ours, theirs)})")


def _interleaved(theirs, ours, seconds: float, rounds: int) -> tuple[list[float], list[float]]:
    """Steps/s of both loops, `rounds` times in turn, each for seconds / rounds (a load that comes and
    goes on a shared box falls on both)."""
    a, b = [], []
    for _ in range(rounds):
        a.append(_steps_rate(theirs(), seconds / rounds))
        b.append(_steps_rate(ours(), seconds / rounds))
    return a, b


def _ratios(ours: list[float], theirs: list[float]) -> str:
    each = [o / t for o, t in zip(ours, theirs)]
    return f"ratio {sum(ours) / sum(theirs):.3f}; rounds {min(each):.3f}-{max(each):.3f}"


if __name__ == "__main__":
    main()
