"""Diplomacy agents' speed, in CPU time (`time.process_time`):

1. per phase and power, the decision alone: DumbBot's whole plan (`actors.diplomacy.dumbbot.plan`:
   values + orders) vs the random player's choices (each slot's legal orders, computed afresh,
   and one draw), on the positions of seven-DumbBot games played directly (no bus);
2. whole games through the stack (referee, Presidents and offices, bus, msgpack log), inline:
   games/s and CPU seconds per phase, seven DumbBots and seven random players.

    python -m ops.bench.diplomacy_agents [--games 3] [--stack-games 3] [--max-year 1920]
"""

from __future__ import annotations

import argparse
import random
import time

from actors.diplomacy.dumbbot import plan
from actors.match import make_header, record
from actors.registry import AgentSpec
from bus.log import parse_log
from games.diplomacy.board import POWERS, Board
from games.diplomacy.rules import Diplomacy


def positions(games: int, max_year: int) -> list[Board]:
    """Every phase's board of `games` seven-DumbBot games, played directly."""
    boards: list[Board] = []
    game = Diplomacy()
    for seed in range(games):
        state = game.new_initial_state({"max_year": max_year})
        rngs = [random.Random(f"{seed}/{p}") for p in POWERS]
        while not state.is_terminal():
            board = state.board
            boards.append(board)
            plans = [plan(board, p, rngs[s]) for s, p in enumerate(POWERS)]
            while not state.is_terminal() and state.board is board:
                acts = {}
                for s in state.current_players():
                    nxt = state.next_unit(s)
                    wanted = plans[s].orders.get(nxt) if nxt not in ("build", "remove") else None
                    if wanted is None:
                        done = list(state.observation(s)["my_orders"])
                        rest = [o for o, _ in plans[s].adjustments]
                        for o in done:
                            if o in rest:
                                rest.remove(o)
                        wanted = rest[0] if rest else state.default_action(s)
                    legal = state.legal_actions(s)
                    acts[s] = wanted if wanted in legal else state.default_action(s)
                state.apply_actions(acts)
    return boards


def per_phase(boards: list[Board]) -> tuple[float, float, int]:
    """CPU seconds per (phase, power) with something to order: DumbBot's plan, random's draws."""
    game = Diplomacy()
    pairs = []
    for b in boards:
        state = game.new_initial_state({"max_year": 9999})
        state._board = b  # a bench shortcut: the state at this position, nothing pending
        state._slots, state._legal = None, {}
        for s in state.current_players():
            pairs.append((b, s, state))
    rng = random.Random(0)
    t0 = time.process_time()
    for b, s, _ in pairs:
        plan(b, POWERS[s], rng)
    dumb = (time.process_time() - t0) / len(pairs)
    cold = []
    for _, s, state in pairs:
        st = state.clone()
        st._board = state.board.clone()
        st._board.changed()  # legal orders computed afresh, as on a new position
        cold.append((s, st))
    t0 = time.process_time()
    for s, st in cold:
        while s in st.current_players():
            choice = rng.choice(st.legal_actions(s))
            st._pending[s].append(choice)  # one power only: the others' slots stay empty
            st._legal = {}
    rand = (time.process_time() - t0) / len(pairs)
    return dumb, rand, len(pairs)


def stack(agent: str, games: int, max_year: int) -> tuple[float, float, float]:
    """Games/s, CPU seconds per phase and log bytes per game of seven `agent`s, inline."""
    phases = size = 0
    logs: list[bytes] = []
    t0 = time.process_time()
    for seed in range(games):
        header = make_header("diplomacy", seed, [AgentSpec(name=agent)] * 7, {"max_year": max_year})
        data = record(header)
        size += len(data)
        logs.append(data)
    cpu = time.process_time() - t0
    for data in logs:  # counted after the clock stops: phases that asked anyone for orders
        records = parse_log(data).games[0].records
        phases += len({r["msg"]["observation"]["phase"] for r in records if r["msg"]["kind"] == "act_request"})
    return games / cpu, cpu / phases, size / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="seven-DumbBot games whose positions are timed")
    ap.add_argument("--stack-games", type=int, default=3)
    ap.add_argument("--max-year", type=int, default=1920)
    args = ap.parse_args()
    boards = positions(args.games, args.max_year)
    dumb, rand, n = per_phase(boards)
    print(f"decision per phase and power ({n} from {len(boards)} positions, CPU):")
    print(f"  dumbbot: plan (values + orders)     {dumb * 1000:8.3f} ms")
    print(f"  random: legal orders + draw per slot {rand * 1000:8.3f} ms")
    print(f"whole games through the stack, inline ({args.stack_games} each, max_year {args.max_year}, CPU):")
    for agent in ("dumbbot", "random"):
        gps, spp, size = stack(agent, args.stack_games, args.max_year)
        print(f"  7 x {agent:<8} {gps:6.2f} games/s  {spp * 1000:7.2f} ms/phase  {size / 1e6:5.2f} MB log/game")


if __name__ == "__main__":
    main()
