"""The generic agent measured: search speed per game, and small matches with 95% intervals.

    python -m ops.bench.generic speed [--games g1,g2] [--positions 20] [--sampler auto|observation|referee]
                                      [--agent SPEC]   (a generic spec's search options: rollout, prune...)
        per game: the Strategy Office's median decision time at its default budget (wall clock, and
        the process's own CPU time, which a shared box's load does not inflate), ISMCTS descents
        per second, and the wall median over the 50 ms goal (side by side, one run)
    python -m ops.bench.generic random [--games g1,g2] [--per-game 20] [--seed S] [--agent SPEC]
        the agent (default generic) on one side (a seat or a team), rotated, random in the others
        (a cooperative game: tables of the agent against tables of random players); per game both
        mean returns with 95% intervals and whether they are apart (S drawn at run time, printed)
    python -m ops.bench.generic tables FIRST SECOND [--games g1,g2] [--per-game 20] [--seed S]
        whole tables of one agent spec against whole tables of another (an office ablation:
        generic against generic:offices=so), the same seeds for both; mean return per seat with 95%
        intervals (S drawn at run time, printed)
    python -m ops.bench.generic versus ops/examples/generic_*.toml [--games N] [--seed S]
        plays each spec's lineup in process (seats rotated each game), seeds S, S+1, ...; S is
        drawn at run time unless given, and printed so the run can be repeated; per label: its
        seats' mean win share and mean return over games, with 95% intervals (Wilson where the
        label wins or loses as one each game, else a normal interval over games)

The specs are ordinary tournament specs (`detente tournament run` reads them too); this runner
plays them without Ray, for the small runs a shared 2-core box allows. A game brought by a
plugin that is not installed needs its folder on PYTHONPATH (tests/generic/plugins).
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

from actors.match import make_header, record
from actors.registry import AgentSpec, parse_spec
from bus.log import parse_log
from bus.messages import OfficeRequest
from games.registry import game_names, get_game, get_plugin
from ops.tournament.report import mean_ci, wilson

GOAL_MS = 50.0


def _positions(name: str, count: int, seed: int = 0) -> list[tuple[Any, int]]:
    """Decision nodes (state, seat) of seeded random playthroughs, spread over the game."""
    game = get_game(name)
    options = game.options(dict(get_plugin(name).short_options))
    rng, found = random.Random(seed), []
    while len(found) < count * 3:
        state, steps = game.new_initial_state(options), 0
        while not state.is_terminal() and steps < 400 and len(found) < count * 3:
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            players = state.current_players()
            p = players[rng.randrange(len(players))]
            if len(state.legal_actions(p)) > 1:
                found.append((state.clone(), p))
            state.apply_actions({q: rng.choice(state.legal_actions(q)) for q in players})
            steps += 1
    return found[::3][:count]


def speed(names: list[str], count: int, sampler: str = "auto", agent: str = "generic") -> None:
    from actors.alpha.generic.agent import GenericOptions, _agent
    from actors.referee import Referee

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (the box may be shared);"
          f" sampler {sampler}")
    print(f"{'game':<12} {'median ms':>9} {'p90 ms':>7} {'cpu ms':>7} {'descents/s':>10} {'mean desc':>9}"
          f" {'x goal':>6}")
    options = GenericOptions.model_validate({**parse_spec(agent).options, "sampler": sampler})
    for name in names:
        office = _agent(name).offices["so"]("p0/so", 1, options)
        game = get_game(name)
        referee = Referee(game, game.options(dict(get_plugin(name).short_options)), 1)
        times, cpu, done = [], [], []
        for state, p in _positions(name, count):
            legal = tuple(state.legal_actions(p))
            office.address = f"p{p}/so"
            request = OfficeRequest(sender=f"p{p}", to=f"p{p}/so", task="suggest", turn=0, legal=legal,
                                    view={"seat": p, "observation": state.observation(p)})
            office._drawn = None
            referee.state = state
            start, cpu_start = time.perf_counter(), time.process_time()
            outs = office.handle(request)
            if outs and outs[0].kind == "sample_request":  # the referee's round trip, timed with the search
                outs = office.handle(referee.handle(outs[0])[0])
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - cpu_start)
            done.append(getattr(office, "last_iterations", 0) if len(legal) > 1 else 0)
            office.last_iterations = 0
        med = statistics.median(times) * 1000
        p90 = sorted(times)[int(0.9 * (len(times) - 1))] * 1000
        searched = sum(done)
        rate = searched / sum(times) if searched else float("nan")
        mean = searched / len(done) if done else 0
        cpu_med = statistics.median(cpu) * 1000
        print(f"{name:<12} {med:9.1f} {p90:7.1f} {cpu_med:7.1f} {rate:10.0f} {mean:8.1f} {med / GOAL_MS:6.2f}"
              + ("" if searched else "   (no search)"))


def _lineup(spec: dict[str, Any]) -> list[tuple[str, AgentSpec]]:
    seats = []
    for entry in spec["lineup"]:
        agent = AgentSpec(name=entry["agent"], options=dict(entry.get("options", {})))
        seats += [(entry.get("label", entry["agent"]), agent)] * int(entry.get("count", 1))
    return seats


def versus(paths: list[str], games: int | None, seed: int) -> None:
    for path in paths:
        spec = tomllib.loads(Path(path).read_text())
        name, options, seats = spec["game"], dict(spec.get("options", {})), _lineup(spec)
        n = games or int(spec["games"])
        labels = sorted({label for label, _ in seats})
        wins: dict[str, list[float]] = {lab: [] for lab in labels}
        returns: dict[str, list[float]] = {lab: [] for lab in labels}
        game = get_game(name)
        span = (game.max_return - game.min_return) or 1.0
        start = time.perf_counter()
        for k in range(n):
            shift = k % len(seats)
            order = seats[shift:] + seats[:shift]
            log = parse_log(record(make_header(name, seed + k, [a for _, a in order], options))).games[0]
            end = log.records[-1]["msg"]
            for lab in labels:
                mine = [s for s, (label, _) in enumerate(order) if label == lab]
                wins[lab].append(sum(1.0 for s in mine if s in end["winners"]) / len(mine))
                returns[lab].append(sum((end["returns"][s] - game.min_return) / span for s in mine) / len(mine))
        took = time.perf_counter() - start
        print(f"\n{Path(path).name}: {name} {options or ''}, {n} games, seeds {seed}..{seed + n - 1}, {took:.0f} s")
        print(f"  {'label':<28} {'seats':>5} {'win share [95%]':>24} {'return [95%]':>24}")
        for lab in labels:
            count = sum(1 for label, _ in seats if label == lab)
            if all(x in (0.0, 1.0) for x in wins[lab]):  # one outcome per game (one seat, or one side)
                w = wilson(int(sum(wins[lab])), n)
            else:
                w = mean_ci(wins[lab])
            r = mean_ci(returns[lab])
            print(f"  {lab:<28} {count:5d} {w[0]:8.3f} [{w[1]:.3f}, {w[2]:.3f}] {r[0]:8.3f} [{r[1]:.3f}, {r[2]:.3f}]")


def against_random(names: list[str], games: int, seed: int, agent: str) -> None:
    """`agent` on one side (a seat, or every seat of a team, rotated each game), `random` in every
    other seat; in a cooperative game (one team) alternate tables of the agent and of random players.
    Per game the agent's and the random seats' mean return (scaled to [0, 1]) with 95% intervals,
    and whether they are apart."""
    print(f"  {'game':<24} {'games':>5} {'agent return [95%]':>26} {'random return [95%]':>26}  apart  s")
    for name in names:
        game = get_game(name)
        options = dict(get_plugin(name).short_options)
        n_seats = game.num_players(game.options(options))
        span = (game.max_return - game.min_return) or 1.0
        teams = game.teams(game.options(options))
        mine, theirs = [], []
        start = time.perf_counter()
        for k in range(games):
            # the agent takes one side (a seat, or a team's seats, rotated); in a game of one team
            # (cooperative) a table of the agent and one of random players take turns
            if len(teams) == 1:
                ours = set(range(n_seats)) if k % 2 == 0 else set()
            else:
                ours = set(teams[k % len(teams)])
            lineup = [parse_spec(agent) if s in ours else AgentSpec(name="random") for s in range(n_seats)]
            log = parse_log(record(make_header(name, seed + k, lineup, options))).games[0]
            returns = [(r - game.min_return) / span for r in log.records[-1]["msg"]["returns"]]
            if len(teams) == 1:
                (mine if ours else theirs).append(sum(returns) / n_seats)
                continue
            mine.append(sum(returns[s] for s in ours) / len(ours))
            theirs.append(sum(r for s, r in enumerate(returns) if s not in ours) / (n_seats - len(ours)))
        a, b = mean_ci(mine), mean_ci(theirs)
        apart = "yes" if a[1] > b[2] else "no"
        print(f"  {name:<24} {games:5d} {a[0]:8.3f} [{a[1]:.3f}, {a[2]:.3f}]   {b[0]:8.3f} [{b[1]:.3f}, {b[2]:.3f}]"
              f"  {apart:>5}  {time.perf_counter() - start:.0f}", flush=True)


def tables(names: list[str], games: int, seed: int, first: str, second: str) -> None:
    """Whole tables of `first` against whole tables of `second`, taking turns on seeds seed, seed+1..;
    per game each table's mean return per seat (scaled to [0, 1]) with 95% intervals."""
    print(f"  {'game':<24} {'games':>5} {first[:24]:>26} {second[:24]:>26}  apart  s")
    for name in names:
        game = get_game(name)
        options = dict(get_plugin(name).short_options)
        n_seats = game.num_players(game.options(options))
        span = (game.max_return - game.min_return) or 1.0
        means: dict[str, list[float]] = {first: [], second: []}
        start = time.perf_counter()
        for k in range(games):
            agent = first if k % 2 == 0 else second
            log = parse_log(record(make_header(name, seed + k // 2, [parse_spec(agent)] * n_seats, options))).games[0]
            returns = [(r - game.min_return) / span for r in log.records[-1]["msg"]["returns"]]
            means[agent].append(sum(returns) / n_seats)
        a, b = mean_ci(means[first]), mean_ci(means[second])
        apart = "yes" if a[1] > b[2] or b[1] > a[2] else "no"
        print(f"  {name:<24} {games:5d} {a[0]:8.3f} [{a[1]:.3f}, {a[2]:.3f}]   {b[0]:8.3f} [{b[1]:.3f}, {b[2]:.3f}]"
              f"  {apart:>5}  {time.perf_counter() - start:.0f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ops.bench.generic", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed", help="decision time and descents per second per game")
    s.add_argument("--games", default=",".join(game_names()))
    s.add_argument("--positions", type=int, default=20)
    v = sub.add_parser("versus", help="play specs, print per-label win share and return with 95%% intervals")
    v.add_argument("specs", nargs="+")
    v.add_argument("--games", type=int, default=None)
    v.add_argument("--seed", type=int, default=None)
    r = sub.add_parser("random", help="the agent against random players: mean returns with 95%% intervals")
    r.add_argument("--games", default=",".join(game_names()))
    r.add_argument("--per-game", type=int, default=20)
    r.add_argument("--seed", type=int, default=None)
    r.add_argument("--agent", default="generic")
    t = sub.add_parser("tables", help="tables of one agent against tables of another: mean returns, 95%% intervals")
    t.add_argument("first")
    t.add_argument("second")
    t.add_argument("--games", default=",".join(game_names()))
    t.add_argument("--per-game", type=int, default=20)
    t.add_argument("--seed", type=int, default=None)
    s.add_argument("--sampler", default="auto", choices=("auto", "observation", "referee"))
    s.add_argument("--agent", default="generic", help="a generic agent spec whose options the search takes")
    args = parser.parse_args(argv)
    if args.command == "speed":
        speed([g for g in args.games.split(",") if g], args.positions, args.sampler, args.agent)
    elif args.command == "random":
        seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
        print(f"seed {seed} (drawn at run time; --seed {seed} repeats this run), agent {args.agent}")
        against_random([g for g in args.games.split(",") if g], args.per_game, seed, args.agent)
    elif args.command == "tables":
        seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
        print(f"seed {seed} (drawn at run time; --seed {seed} repeats this run): {args.first} against {args.second}")
        tables([g for g in args.games.split(",") if g], args.per_game, seed, args.first, args.second)
    else:
        seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
        print(f"seed {seed} (held out: drawn at run time; --seed {seed} repeats this run)")
        versus(args.specs, args.games, seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
