"""Misbehaving agents in small tournaments: the limits and the wall-clock budgets at work.

Four agents that no tournament should have to survive, each seated once in every Werewolves game
of its own tournament (the nine other seats random):
- `mb-hang`: blocks for ever on its first move;
- `mb-sleepy`: sleeps 10 s before every move;
- `mb-flood`: says 100,000 talk items in every talk round;
- `mb-huge`: answers every move with a 70 MB action.
Each tournament must complete with every game recorded (played, or aborted with its reason), every
recorded log verifying, and the report showing the aborts and errors against the agent.

    python -m ops.bench.misbehaving [--games 50] [--max-game-seconds 2] [--only hang ...]

The agents are registered by `register()` (in this process, and in Ray's workers through Ray's
`worker_process_setup_hook`, see `ray_init_args`); the tests import them from here.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from actors.actor import Actor
from bus.messages import REFEREE, Act, ActRequest, Message, Talk, TalkTurn

FLOOD_ITEMS = 100_000  # talk items a round ("10^5 talk items a round")
HUGE_BYTES = 70 * 1024 * 1024  # one answer ("one 70 MB answer")
SLEEP_SECONDS = 10.0  # before every move


class Plain(Actor):
    """A President alone: a uniformly random legal action, nothing to say; subclasses misbehave."""

    speaks = False

    def __init__(self, address: str, seed: int, options: dict[str, Any]):
        super().__init__(address, seed)
        self.options = options

    def handle(self, message: Message) -> list[Message]:
        if isinstance(message, ActRequest):
            return [Act(sender=self.address, to=REFEREE, turn=message.turn, action=self.act(message))]
        if isinstance(message, TalkTurn):
            return [Talk(sender=self.address, to=REFEREE, turn=message.turn, channel=message.channel,
                         round=message.round, says=self.say(message))]
        return []

    def act(self, request: ActRequest) -> str:
        return request.legal[self.rng.randrange(len(request.legal))]

    def say(self, turn: TalkTurn) -> tuple:
        return ()


class Hang(Plain):
    """Never answers its first move: blocks for ever (in interruptible sleeps)."""

    def act(self, request: ActRequest) -> str:
        while True:
            time.sleep(3600)


class Sleepy(Plain):
    """Plays at random, SLEEP_SECONDS (option `seconds`) before every move."""

    def act(self, request: ActRequest) -> str:
        time.sleep(float(self.options.get("seconds", SLEEP_SECONDS)))
        return super().act(request)


class Flood(Plain):
    """Says FLOOD_ITEMS (option `items`) claims in every talk round it is asked to speak in."""

    speaks = True

    def say(self, turn: TalkTurn) -> tuple:
        from games.werewolves.talk import WwClaim

        return (WwClaim(role="seer"),) * int(self.options.get("items", FLOOD_ITEMS))


class Huge(Plain):
    """Answers every move with an action of HUGE_BYTES (option `bytes`) characters."""

    def act(self, request: ActRequest) -> str:
        return "x" * int(self.options.get("bytes", HUGE_BYTES))


MISBEHAVING = {"mb-hang": Hang, "mb-sleepy": Sleepy, "mb-flood": Flood, "mb-huge": Huge}


def register() -> None:
    """Add the misbehaving agents to the agent registry (idempotent)."""
    from actors.registry import AGENTS, AgentDef

    for name, cls in MISBEHAVING.items():
        if name not in AGENTS:
            build = (lambda c: lambda game, seat, seed, opts: [c(f"p{seat}", seed, dict(opts))])(cls)
            AGENTS[name] = AgentDef(name, frozenset({"werewolves"}), build, (cls.__doc__ or "").splitlines()[0])


def unregister() -> None:
    """Take the misbehaving agents out of the registry again (what `register` added)."""
    from actors.registry import AGENTS

    for name in MISBEHAVING:
        AGENTS.pop(name, None)


def ray_init_args() -> dict[str, Any]:
    """What `ray.init` needs so that every Ray worker knows the misbehaving agents."""
    return {"runtime_env": {"worker_process_setup_hook": "ops.bench.misbehaving.register"}}


def spec_for(agent: str, games: int, max_game_seconds: float | None, **extra: Any):
    """A Werewolves tournament with `agent` in one seat of every game (seats rotated), random elsewhere."""
    from ops.tournament.spec import parse_spec

    register()
    data = {"game": "werewolves", "games": games, "seed": 12, "options": {"players": 10, "discussion_rounds": 2},
            "lineup": [{"agent": agent, "count": 1}, {"agent": "random", "count": 9}], "batch": 4, **extra}
    if max_game_seconds is not None:
        data["max_game_seconds"] = max_game_seconds
    return parse_spec(data, source=f"{agent} tournament")


def check_folder(out: Path) -> dict[str, Any]:
    """Every recorded game of a tournament folder: how many, how many aborted (and why), whether
    every log verifies; and the report's line for each agent."""
    from bus.log import read_game_at
    from ops.tournament.report import build_report
    from ops.tournament.store import Store
    from replay.verify import verify_game

    store = Store(out, read_only=True)
    try:
        rows = store.db.execute('select game_id, segment, "offset", aborted from games order by game_id').fetchall()
        report = build_report(store)
    finally:
        store.close()
    failures = []
    for gid, segment, offset, _ in rows:
        game, bad = read_game_at(out / "logs" / segment, offset)
        verdict = verify_game(game, bad)
        if not verdict.ok:
            failures.append(f"{gid}: {verdict.message}")
    return {"games": len(rows), "aborted": sum(1 for r in rows if r[3]), "reasons": sorted({r[3] for r in rows if r[3]}),
            "failures": failures, "agents": {a["agent"]: a for a in report["agents"]}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--max-game-seconds", type=float, default=2.0)
    parser.add_argument("--runners", type=int, default=None)
    parser.add_argument("--only", nargs="*", default=None, help="agents (hang, sleepy, flood, huge)")
    args = parser.parse_args(argv)
    import os

    import ray

    from ops.tournament.runner import run_tournament

    register()
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR", _node_ip_address="127.0.0.1",
             **ray_init_args())
    ok = True
    print(f"{'agent':<11}{'games':>6}{'played':>7}{'aborted':>8}{'verified':>9}{'abort rate':>11}{'error rate':>11}"
          f"{'win rate':>9}{'seconds':>9}")
    for name in MISBEHAVING:
        if args.only and name.removeprefix("mb-") not in args.only:
            continue
        spec = spec_for(name, args.games, args.max_game_seconds)
        with tempfile.TemporaryDirectory(prefix="detente-misbehaving-") as tmp:
            t0 = time.perf_counter()
            summary = run_tournament(spec, tmp, runners=args.runners)
            seconds = time.perf_counter() - t0
            seen = check_folder(Path(tmp))
        agent = seen["agents"][name]
        good = seen["games"] == args.games and not seen["failures"] and not summary.failed
        ok &= good
        print(f"{name:<11}{args.games:>6}{seen['games'] - seen['aborted']:>7}{seen['aborted']:>8}"
              f"{seen['games'] - len(seen['failures']):>9}{agent['abort_rate']:>11.3f}{agent['error_rate']:>11.3f}"
              f"{agent['win_rate']:>9.3f}{seconds:>9.1f}" + ("" if good else "  FAILED"), flush=True)
        for reason in seen["reasons"][:3]:
            print(f"  aborted: {reason}")
        for failure in seen["failures"][:3]:
            print(f"  FAIL {failure}")
    ray.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
