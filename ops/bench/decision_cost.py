"""The cost of a decision through the whole stack, against the rules' own work, in one run.

    python -m ops.bench.decision_cost [--seconds 1] [--rounds 2] [--only dominoes ...] [--profile GAME]
    python -m ops.bench.decision_cost --instructions [--before PATH] [--formats 4,3] [--games N] [--only dominoes ... kuhn]
    python -m ops.bench.decision_cost --instructions --repeat [--before PATH --before-format 4] [--only ... kuhn]
    python -m ops.bench.decision_cost --instructions --setup [--before PATH] [--only ... kuhn]

For each game (Battle Line, Risk, Dominoes, Hanabi, Werewolves; random agents everywhere):

- rules alone: the game's `State` played with uniformly random legal moves, chance drawn by the
  rules (what a game costs before detente adds anything);
- the whole stack: `actors.match.record` of a seeded game (referee, each seat's President and its
  random Strategy Office, the bus, every record encoded and framed into a log in memory), inline,
  in the current log format (4: requests logged without their observation and legal actions, none
  computed for an agent that reads none), in format 3 (each request's observation computed and
  logged as a delta) and in format 2 (a state digest in every step record, the office's request and
  reply on the bus), interleaved in the same run;
- by hand: the same log written by one loop (`hand_game`: no actor, bus, message object or
  template; its bytes are the stack's), the floor of this log design under any stack;
- the ratios by hand / rules and stack / rules (goal: at most 4x), in CPU time per game, best of the rounds;
- the cost model per decision (decisions: act records): records by kind, bytes encoded, state
  digests, observations sent (computed by the rules for a request) and logged, messages built with
  validation (a pydantic constructor) against those `built` without it;
- bytes per game, plain and packed (zstd, the tournament default), in both formats.

Then Kuhn poker through the whole stack, and by hand, against OpenSpiel's own loop (where
open_spiel is installed; goal >= 0.2).

`--instructions` counts machine instructions instead (valgrind; ops/bench/instructions.py), which
the box's load cannot move: per game, the rules alone and the stack in formats 4 and 3 of this
tree (`--formats`), and with `--before PATH` the stack of another checkout (say `git worktree add
PATH REV` of the code before a change) writing the format it names with `--before-format` (default
3); with `--only ... kuhn`, Kuhn poker as well (OpenSpiel's loop, the stack, the bridge's rules
alone). Each count is the slope from n games to 2n, after a warm game and with the interpreter's
heap frozen (gc.freeze), so that neither what the first games pay once nor when a full collection
walks the imports moves it; such counts over different games still move by up to ~15% from one run
to the next, so `--repeat` counts one seeded game played over and over instead (the slope from n
plays to 3n), where two trees differ by their code alone, and `--setup` counts each part of a game's
setup (building its actors, seeding its generators, making its header, packing and framing it). Rates are CPU time (process time) on whatever box runs it: on a shared box
the ratios are the figures to read, not the rates.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
from collections import Counter
from typing import Any

from bus.log import frames

GAMES: dict[str, tuple[int, dict[str, Any]]] = {  # name -> (players, options)
    "battleline": (2, {}),
    "risk": (3, {}),
    "dominoes": (4, {"target": 1}),  # one scored hand
    "hanabi": (2, {"players": 2}),
    "werewolves": (10, {}),
}


def rules_alone(name: str, seconds: float) -> float:
    """CPU seconds per game of random legal play on the rules alone."""
    from actors.match import game_options
    from games.registry import get_game

    game = get_game(name)
    opts = game_options(name, GAMES[name][1])
    rng = random.Random(1)
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds or n == 0:
        state = game.new_initial_state(opts)
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
        n += 1
    return (time.process_time() - t0) / n


def _header(name: str, seed: int, version: int) -> dict[str, Any]:
    from actors.match import make_header
    from actors.registry import parse_lineup

    players, options = GAMES[name]
    return {"format": version, **make_header(name, seed, parse_lineup("random", players), options)}


def hand_game(game: Any, opts: Any, header: dict[str, Any], players: int) -> bytes:
    """One game of the random agents whose log is written by hand: what this log design needs at
    the least, with no actor, bus, message object or template around it. The same log, byte for
    byte, as the stack writes for `header` (format 4, every seat `random`; tests/test_stack_setup.py
    holds it to that): the header; start; a chance record per chance node; per decision an act
    request and an act, and a step once every seat to move has answered; game_end. Each record a
    map packed and framed, the state digested where a checkpoint falls and at the end, the random
    agent's draws (its Strategy Office's sample of three legal actions, its President's pick) from
    generators seeded as the stack seeds them."""
    from actors.actor import actor_rng
    from actors.address import office_address, player_address
    from actors.alpha.baseline import randbelow, sample_indices
    from bus.codec import CHECKPOINT
    from bus.codec import pack_now as pack
    from bus.log import MAGIC

    game_id, seed = header["game_id"], header["seed"]
    out = [pack({"format": 4, **header})]
    rng = actor_rng(seed, "referee")
    presidents = [actor_rng(seed, player_address(p)) for p in range(players)]
    offices = [actor_rng(seed, office_address(p, "so")) for p in range(players)]
    seq = step = turn = 0
    out.append(pack({"game": game_id, "seq": 0, "cause": -1, "msg": {"sender": "runner", "to": "referee", "kind": "start"}}))
    state = game.new_initial_state(opts)
    cause = 0
    while not state.is_terminal():
        if state.is_chance():
            outcome = state.sample_chance(rng)
            state.apply_chance(outcome)
            step += 1
            seq += 1
            out.append(pack({"game": game_id, "seq": seq, "cause": cause, "msg": {
                "sender": "referee", "to": "log", "kind": "chance", "step": step, "outcome": outcome,
                "digest": state.digest() if step % CHECKPOINT == 0 else ""}}))
            continue
        actions, asked = {}, []
        for p in state.current_players():
            seq += 1
            asked.append((seq, p, tuple(state.legal_actions(p))))
            out.append(pack({"game": game_id, "seq": seq, "cause": cause, "msg": {
                "sender": "referee", "to": f"p{p}", "kind": "act_request", "turn": turn, "player": p}}))
        for request, p, legal in asked:
            picks = sample_indices(offices[p], len(legal), min(3, len(legal)))
            picks.sort()
            actions[p] = action = legal[picks[randbelow(presidents[p], len(picks))]]
            seq += 1
            out.append(pack({"game": game_id, "seq": seq, "cause": request, "msg": {
                "sender": f"p{p}", "to": "referee", "kind": "act", "turn": turn, "action": action}}))
        cause = seq
        state.apply_actions(actions)
        step += 1
        seq += 1
        out.append(pack({"game": game_id, "seq": seq, "cause": cause, "msg": {
            "sender": "referee", "to": "log", "kind": "step", "step": step, "turn": turn,
            "actions": {str(p): a for p, a in sorted(actions.items())},
            "digest": state.digest() if step % CHECKPOINT == 0 else ""}}))
        turn += 1
    result = state.outcome()
    seq += 1
    out.append(pack({"game": game_id, "seq": seq, "cause": cause, "msg": {
        "sender": "referee", "to": "log", "kind": "game_end", "returns": result.returns, "winners": result.winners,
        "summary": result.summary, "steps": step, "digest": state.digest(), "extra": result.extra,
        "ranks": result.ranks, "roles": result.roles,
        "teams": result.teams if result.teams is not None else game.teams(opts)}}))
    return MAGIC + frames(out)


def by_hand(name: str, seconds: float) -> float:
    """CPU seconds per game of `hand_game` (its header made from a template, not by make_header):
    the floor of this log design under the stack."""
    from actors.match import game_options
    from games.registry import get_game

    game = get_game(name)
    opts = game_options(name, GAMES[name][1] if name in GAMES else {})
    players = game.num_players(opts)
    template = _header(name, 0, 4) if name in GAMES else _kuhn_header(0)
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds or n == 0:
        hand_game(game, opts, {**template, "game_id": f"{name}-{n}", "seed": n}, players)
        n += 1
    return (time.process_time() - t0) / n


def _kuhn_header(seed: int, version: int = 4) -> dict[str, Any]:
    from actors.match import make_header
    from actors.registry import AgentSpec

    return {"format": version, **make_header("openspiel-kuhn_poker", seed, [AgentSpec(name="random")] * 2, {})}


def stack(name: str, seconds: float, version: int) -> float:
    """CPU seconds per game through the whole stack (header made, game played, log in memory)."""
    from actors.match import record

    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds or n == 0:
        record(_header(name, n, version))
        n += 1
    return (time.process_time() - t0) / n


class _Validated:
    """Counts messages made by a pydantic constructor (validated) while it is on."""

    def __init__(self) -> None:
        from bus.messages import Message

        self.n = 0
        self._cls = Message
        self._init = Message.__init__

    def __enter__(self) -> "_Validated":
        init = self._init

        def counting(model, **data):
            self.n += 1
            init(model, **data)
        self._cls.__init__ = counting
        return self

    def __exit__(self, *exc) -> None:
        self._cls.__init__ = self._init


def cost_model(name: str, version: int, games: int = 3) -> dict[str, Any]:
    """Per-game counts of what the stack does (averaged over `games` seeded games)."""
    from actors.match import play, record
    from bus.log import PackedLogWriter, parse_log

    kinds: Counter[str] = Counter()
    plain = packed = digests = observations = validated = built = observed = 0
    for seed in range(games):
        header = _header(name, seed, version)
        made = _count_built()
        with _Validated() as v, _Observed() as o:
            data = record(header)
        observed += o.n
        validated += v.n
        built += made()
        plain += len(data)
        buf = io.BytesIO()
        writer = PackedLogWriter(buf, method="zstd")
        writer.header(header)
        play(header, writer)
        writer.end_game()
        packed += len(buf.getvalue())
        for r in parse_log(data).games[0].records:
            msg = r["msg"]
            kinds[msg["kind"]] += 1
            digests += bool(msg.get("digest"))
            observations += msg["kind"] in ("act_request", "talk_turn") and "observation" in msg
    decisions = kinds["act"] or 1
    return {"decisions": kinds["act"] / games, "records": sum(kinds.values()) / games,
            "per_decision": {k: n / decisions for k, n in sorted(kinds.items())},
            "digests": digests / games, "observations": observations / games, "observed": observed / games,
            "validated": validated / games,
            "built": built / games, "plain": plain / games, "packed": packed / games}


class _Observed:
    """Counts the observations the referee computes while it is on."""

    def __init__(self) -> None:
        from actors.referee import Referee

        self.n = 0
        self._cls = Referee
        self._fn = Referee._observation

    def __enter__(self) -> "_Observed":
        fn = self._fn

        def counting(referee, seat):
            obs = fn(referee, seat)
            self.n += obs is not None
            return obs
        self._cls._observation = counting
        return self

    def __exit__(self, *exc) -> None:
        self._cls._observation = self._fn


def _count_built():
    """A counter of messages made by `built` (without validation) from now on."""
    import bus.messages as m

    start = _MADE[0]
    if not _MADE[1]:
        new = m._new

        def counting_new(cls):
            _MADE[0] += 1
            return new(cls)
        m._new = counting_new
        _MADE[1] = True
    return lambda: _MADE[0] - start


_MADE = [0, False]


def kuhn(seconds: float) -> tuple[float, float, float, float, float] | None:
    """Games/s of Kuhn poker in OpenSpiel's own loop, through the whole stack in formats 4 and 3,
    on the bridge's rules alone (random legal moves) and by hand (`hand_game`, the same log as the
    stack's; None without open_spiel)."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    from actors.match import record
    from games.registry import get_game
    from ops.bench.bridges import _rate, bridge_loop, openspiel_loop

    name = "openspiel-kuhn_poker"

    def stack_at(version: int):
        def play(i: int) -> None:
            record(_kuhn_header(i, version))
        return play
    game = get_game(name)
    theirs = _rate(openspiel_loop(game.spiel(game.options({}))), seconds)
    return (theirs, _rate(stack_at(4), seconds), _rate(stack_at(3), seconds), _rate(bridge_loop(name), seconds),
            1 / by_hand(name, seconds))


def profile(name: str, games: int) -> None:
    from actors.match import record

    record(_header(name, 10**6, 4))
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        record(_header(name, seed, 4))
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(25)


# Each counted workload warms (imports, first-use caches), then freezes what the interpreter holds
# by then (gc.freeze: the collector no longer scans it), so that a count is not moved by when a full
# collection happens to walk the imported modules (tens of millions of instructions each, at points
# that shift from one run to the next); the games' own objects are collected as ever.
_RULES_CODE = r'''
import gc, sys
from ops.bench.decision_cost import rules_decisions
rules_decisions(sys.argv[1], 0)
gc.freeze()
rules_decisions(sys.argv[1], int(sys.argv[2]))
'''
_STACK_CODE = r'''
import gc, sys
from ops.bench.decision_cost import _header
from actors.match import record
name, n, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
headers = [_header(name, seed, version) for seed in range(max(n, 1))]
record(headers[0])
gc.freeze()
for header in headers[:n]:
    record(header)
'''
# one seeded game (seed 7) played n times over, after a warm run of it: only the code differs
# between two trees' counts (the same records, the same first-use caches), and no game's length
_REPEAT_CODE = r'''
import gc, sys
from ops.bench.decision_cost import GAMES, _header
from actors.match import record
name, n, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if name == "kuhn":
    from actors.match import make_header
    from actors.registry import AgentSpec
    header = {"format": version, **make_header("openspiel-kuhn_poker", 7, [AgentSpec(name="random")] * 2, {})}
else:
    header = _header(name, 7, version)
record(header)
gc.freeze()
for _ in range(n):
    record(header)
'''

# one part of a game's setup, done n times over for one seeded header (seed 7), after a warm game:
# its actors built, its generators seeded and drawn once, its header made, its header packed and framed
_SETUP_CODE = r'''
import gc, io, sys
from actors.actor import actor_rng
from actors.lineup import build_actors
from actors.match import make_header, record
from actors.registry import parse_lineup
from bus.log import LogWriter
from ops.bench.decision_cost import GAMES
name, n, part = sys.argv[1], int(sys.argv[2]), sys.argv[3]
game, players, options = ("openspiel-kuhn_poker", 2, {}) if name == "kuhn" else (name, *GAMES[name])
lineup = parse_lineup("random", players)
header = make_header(game, 7, lineup, options)
record(header)
addresses = sorted(build_actors(header))
gc.freeze()
for _ in range(n):
    if part == "actors":
        build_actors(header)
    elif part == "seeding":
        for address in addresses:
            actor_rng(7, address).random()
    elif part == "header":
        make_header(game, 7, lineup, options)
    elif part == "header record":
        LogWriter(io.BytesIO()).header(header)
'''
_SETUP_PARTS = ("actors", "seeding", "header", "header record")

# Kuhn poker, one workload per run: OpenSpiel's own loop, the stack writing format VERSION, or the
# bridge's rules alone (random legal moves); written with the public calls only, so that a checkout
# of older code (--before) runs it as it is
_KUHN_CODE = r'''
import gc, sys
from actors.match import make_header, record
from actors.registry import AgentSpec
from games.registry import get_game
from ops.bench.bridges import bridge_loop, openspiel_loop
what, n, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
name = "openspiel-kuhn_poker"
def stack(i):
    record({"format": version, **make_header(name, i, [AgentSpec(name="random")] * 2, {})})
plays = {"openspiel": lambda: openspiel_loop(get_game(name).spiel(get_game(name).options({}))),
         "stack": lambda: stack, "rules": lambda: bridge_loop(name)}
play = plays[what]()
play(10 ** 6)
gc.freeze()
for i in range(n):
    play(i)
'''
_KUHN_GAMES = 1000  # Kuhn games counted per workload (a game is two or three decisions)

# games counted per game name: enough decisions, little valgrind time (Battle Line's rules fill
# caches over many games, so its count over a dozen says little: left out unless asked for)
_COUNTED_GAMES = {"dominoes": 60, "hanabi": 60, "werewolves": 30, "risk": 1, "battleline": 12}
# games of the rules alone counted: a count differs by a few million instructions from one run of
# the same code to the next (the interpreter's start), which is much of a cheap game's rules over
# 60 games (a Dominoes hand's rules are ~0.4M), so they are counted over many more
_COUNTED_RULES_GAMES = {"dominoes": 1000, "hanabi": 1000, "werewolves": 300, "risk": 8, "battleline": 60}


def rules_decisions(name: str, n: int) -> float:
    """The rules alone over `n + 1` random games (the first warms, uncounted): decisions (one a seat
    to move) a game. `_RULES_CODE` runs it under valgrind; its count adds one sum a decision."""
    from actors.match import game_options
    from games.registry import get_game

    game = get_game(name)
    opts = game_options(name, GAMES[name][1])
    rng = random.Random(1)
    decisions = 0
    for i in range(n + 1):
        state = game.new_initial_state(opts)
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                players = state.current_players()
                decisions += len(players) if i else 0
                state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in players})
    return decisions / max(n, 1)


def stack_decisions(name: str, n: int, version: int, first: int = 0) -> float:
    """Decisions (act records) a game of `_STACK_CODE`'s seeded games `first` to `first + n - 1`."""
    from actors.match import record
    from bus.log import parse_log

    acts = sum(r["msg"]["kind"] == "act" for seed in range(first, first + n)
               for r in parse_log(record(_header(name, seed, version))).games[0].records)
    return acts / n


def instructions(names: list[str], before: str | None, before_format: int, formats: tuple[int, ...] = (4, 3)) -> None:
    """Instructions a game: the rules alone, the stack in `formats` here (and `before`'s). Each is
    the slope between a run of n games and one of 2n (the games n to 2n - 1, each game's header
    made as well): what the first games pay once (caches filled on first use: new actions'
    suggestions, a game's tables) is in both runs, not in the slope."""
    from pathlib import Path

    from ops.bench.instructions import count

    here = Path(__file__).resolve().parents[2]

    def per_game(code: str, n: int, *args: object, tree: Path = here) -> float:
        return (count(code, *args[:1], 2 * n, *args[1:], tree=tree) - count(code, *args[:1], n, *args[1:], tree=tree)) / n

    print("machine instructions a game (valgrind), and x = over the rules alone; x/dec = the same a decision "
          "(random games differ in length: the rules' games and the stack's seeded ones are not the same games)")
    for name in names:
        n = _COUNTED_GAMES.get(name, 10)
        n_rules = _COUNTED_RULES_GAMES.get(name, 10 * n)
        rules = per_game(_RULES_CODE, n_rules, name)
        # the decisions of the rules' counted games (n_rules + 1 to 2 n_rules of one generator's run)
        rules_dec = rules / (2 * rules_decisions(name, 2 * n_rules) - rules_decisions(name, n_rules))
        line = f"{name:<12} rules {rules / 1e6:9.3f}M"
        for version in formats:
            stacked = per_game(_STACK_CODE, n, name, version)
            per_dec = stacked / stack_decisions(name, n, version, first=n)
            line += f"  f{version} {stacked / 1e6:9.3f}M {stacked / rules:5.1f}x {per_dec / rules_dec:5.1f}x/dec"
        if before:
            stacked = per_game(_STACK_CODE, n, name, before_format, tree=Path(before).resolve())
            per_dec = stacked / stack_decisions(name, n, before_format, first=n)  # the same seeded games: the same decisions
            line += f"  before (f{before_format}) {stacked / 1e6:9.3f}M {stacked / rules:5.1f}x {per_dec / rules_dec:5.1f}x/dec"
        print(line, flush=True)


def repeat_instructions(names: list[str], before: str | None, before_format: int, n: int = 150) -> None:
    """Instructions of one seeded game (seed 7) through the stack, played over and over: this
    tree's and `before`'s, the slope from n plays to 3n."""
    from pathlib import Path

    from ops.bench.instructions import count

    here = Path(__file__).resolve().parents[2]

    def per_game(name: str, version: int, tree: Path) -> float:
        return (count(_REPEAT_CODE, name, 3 * n, version, tree=tree) - count(_REPEAT_CODE, name, n, version, tree=tree)) / (2 * n)

    print("machine instructions of one seeded game (seed 7) through the stack, played over and over (valgrind)")
    for name in names:
        now = per_game(name, 4, here)
        line = f"{name:<12} f4 {now / 1e3:10.1f}K"
        if before:
            then = per_game(name, before_format, Path(before).resolve())
            line += f"  before (f{before_format}) {then / 1e3:10.1f}K  now / before {now / then:.3f}"
        print(line, flush=True)


def setup_instructions(names: list[str], before: str | None, n: int = 300) -> None:
    """Instructions of each part of a game's setup (`_SETUP_PARTS`), here and in `before`: the
    slope from n times to 3n. Seeding draws once from every actor's generator (each seeds on its
    first draw), the referee's included."""
    from pathlib import Path

    from ops.bench.instructions import count

    here = Path(__file__).resolve().parents[2]

    def per_game(name: str, part: str, tree: Path) -> float:
        return (count(_SETUP_CODE, name, 3 * n, part, tree=tree) - count(_SETUP_CODE, name, n, part, tree=tree)) / (2 * n)

    print("machine instructions of a game's setup, by part, one seeded header (valgrind)")
    for name in names:
        line = f"{name:<12}"
        for part in _SETUP_PARTS:
            now = per_game(name, part, here)
            line += f"  {part} {now / 1e3:.1f}K"
            if before:
                line += f" (before {per_game(name, part, Path(before).resolve()) / 1e3:.1f}K)"
        print(line, flush=True)


def kuhn_instructions(before: str | None, before_format: int) -> None:
    """Instructions a Kuhn poker game: OpenSpiel's loop, the stack here (and `before`'s), the
    bridge's rules alone; each game's ratio to OpenSpiel's loop is its rate's (goal >= 0.2)."""
    from pathlib import Path

    from ops.bench.instructions import count

    here = Path(__file__).resolve().parents[2]
    n = _KUHN_GAMES

    def per_game(what: str, version: int = 4, tree: Path = here) -> float:
        return (count(_KUHN_CODE, what, 2 * n, version, tree=tree) - count(_KUHN_CODE, what, n, version, tree=tree)) / n

    theirs = per_game("openspiel")
    line = f"kuhn poker   OpenSpiel's loop {theirs / 1e3:8.1f}K"
    counted = [("stack f4", per_game("stack"))]
    if before:
        counted.append((f"before (f{before_format})", per_game("stack", before_format, Path(before).resolve())))
    counted.append(("rules alone", per_game("rules")))
    for label, value in counted:
        line += f"  {label} {value / 1e3:8.1f}K ({theirs / value:.4f} of OpenSpiel's rate)"
    print(line, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--profile", default=None, help="print a cProfile of GAME's random games instead")
    parser.add_argument("--instructions", action="store_true", help="count machine instructions (valgrind) instead")
    parser.add_argument("--before", default=None, help="with --instructions: another checkout's stack, side by side")
    parser.add_argument("--before-format", type=int, default=3, help="the log format the --before checkout writes")
    parser.add_argument("--formats", default="4,3", help="with --instructions: the formats this tree's stack is counted in")
    parser.add_argument("--setup", action="store_true",
                        help="with --instructions: each part of a game's setup (actors, seeding, header), kuhn too")
    parser.add_argument("--repeat", action="store_true",
                        help="with --instructions: one seeded game played over and over (kuhn among --only's names too)")
    parser.add_argument("--games", type=int, default=None,
                        help="with --instructions: the stack's games counted (n of the slope n -> 2n), for every game")
    args = parser.parse_args(argv)
    if args.profile:
        return profile(args.profile, 20)
    if args.instructions:
        names = args.only or [n for n in GAMES if n != "battleline"]
        if args.setup:
            wanted = args.only or [*GAMES, "kuhn"]
            return setup_instructions([n for n in wanted if n in GAMES or n == "kuhn"], args.before, args.games or 300)
        if args.repeat:
            wanted = args.only or [*GAMES, "kuhn"]
            return repeat_instructions([n for n in wanted if n in GAMES or n == "kuhn"], args.before,
                                       args.before_format, args.games or 150)
        if args.games:
            _COUNTED_GAMES.update(dict.fromkeys(GAMES, args.games))
        instructions([n for n in names if n in GAMES], args.before, args.before_format,
                     tuple(int(f) for f in args.formats.split(",")))
        if args.only and "kuhn" in args.only:
            kuhn_instructions(args.before, args.before_format)
        return None
    names = [n for n in GAMES if not args.only or n in args.only]
    for name in names:  # warm: imports and first-use caches outside the timing
        for version in (4, 3, 2):
            stack(name, 0, version)
        rules_alone(name, 0)
        by_hand(name, 0)
    if names:
        print(f"CPU ms per game, best of {args.rounds} interleaved rounds of {args.seconds:g} s; random agents; "
              "stack = inline, log written in memory; x = stack / rules")
        print(f"{'game':<12}{'rules':>9}{'by hand':>9}{'x':>6}{'stack f4':>10}{'x':>6}{'stack f3':>10}{'x':>6}{'stack f2':>10}{'x':>6}"
              f"{'plain f3':>12}{'plain f4':>12}{'zstd f3':>10}{'zstd f4':>10}")
    for name in names:
        best: dict[str, list[float]] = {"rules": [], "hand": [], "f4": [], "f3": [], "f2": []}
        for _ in range(args.rounds):
            best["rules"].append(rules_alone(name, args.seconds))
            best["hand"].append(by_hand(name, args.seconds))
            for version in (4, 3, 2):
                best[f"f{version}"].append(stack(name, args.seconds, version))
        r, h, s4, s3, s2 = (min(best[k]) * 1000 for k in ("rules", "hand", "f4", "f3", "f2"))
        c3, c4 = cost_model(name, 3), cost_model(name, 4)
        print(f"{name:<12}{r:>9.3f}{h:>9.3f}{h / r:>6.1f}{s4:>10.3f}{s4 / r:>6.1f}{s3:>10.3f}{s3 / r:>6.1f}{s2:>10.3f}{s2 / r:>6.1f}"
              f"{c3['plain']:>12,.0f}{c4['plain']:>12,.0f}{c3['packed']:>10,.0f}{c4['packed']:>10,.0f}", flush=True)
        for label, c in (("f4", c4), ("f3", c3)):
            per = ", ".join(f"{k} {v:.2f}" for k, v in c["per_decision"].items())
            d = c["decisions"]
            print(f"  {label}: {d:,.0f} decisions, {c['records']:,.0f} records; per decision: {per}; "
                  f"{c['plain'] / d:,.0f} bytes; digests {c['digests'] / d:.3f}; observations sent "
                  f"{c['observed'] / d:.2f}, logged {c['observations'] / d:.2f}; validated {c['validated'] / d:.3f}, "
                  f"built {c['built'] / d:.2f}", flush=True)
        print(f"  per decision over the rules: by hand {(h - r) / c4['decisions'] * 1000:.1f} us, f4 {(s4 - r) / c4['decisions'] * 1000:.1f} us, "
              f"f3 {(s3 - r) / c4['decisions'] * 1000:.1f} us, f2 {(s2 - r) / c4['decisions'] * 1000:.1f} us", flush=True)
    if not args.only or "kuhn" in args.only:
        found = kuhn(args.seconds)
        if found is None:
            print("kuhn poker: open_spiel not installed")
        else:
            theirs, ours, before, rules, hand = found
            print(f"kuhn poker: OpenSpiel's loop {theirs:,.0f} games/s; whole stack f4 {ours:,.0f} games/s "
                  f"(ratio {ours / theirs:.4f}; goal >= 0.2), f3 {before:,.0f} (ratio {before / theirs:.4f}); "
                  f"the bridge's rules alone {rules:,.0f} (ratio {rules / theirs:.3f}: the ceiling of any stack); "
                  f"the same log by hand {hand:,.0f} (ratio {hand / theirs:.3f}: the floor of this log design)")


if __name__ == "__main__":
    main()
