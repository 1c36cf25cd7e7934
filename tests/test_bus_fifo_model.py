"""The bus's stamped order is the order of a plain FIFO queue (DESIGN.md section 2; bus/bus.py).

The model below knows nothing of waves, placements or codecs: one queue, one actor at a time.
Stamp a message (the next seq, the seq it answers), log it, and queue it for delivery unless it is
for the log; take the oldest queued message, hand it to its actor, stamp what it returns in the
order returned. An empty queue posts a `quiet` to the referee; the game ends at its `game_end`.
The bus must log exactly this, record for record, for the same actors (built afresh from the
same header), whatever games and agents: any reordering of a wave or of an answer shows.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from actors.actor import Actor
from actors.lineup import build_actors
from actors.match import make_header, record
from actors.placement import InlinePlacement
from bus.bus import Bus, deliver_one
from bus.codec import dump, pack, unpack
from bus.log import parse_log
from bus.messages import BUS, LOG, REFEREE, RUNNER, Act, Fault, GameEnd, Quiet, Start
from games.registry import get_plugin
from tests.play import lineup

MAX_RECORDS = 200_000  # far above any game below: the model never runs unbounded
# what a record of log format 4 leaves out (the rules recompute it from the state at the request)
UNLOGGED = {"act_request": ("legal", "observation"), "talk_turn": ("observation",)}


def fifo_records(game_id: str, actors: dict[str, Actor]) -> list[dict[str, Any]]:
    """The records a FIFO delivery of `actors` logs, from the runner's start to the game's end."""
    queue: deque = deque()
    records: list[dict[str, Any]] = []

    def post(message, cause: int) -> bool:
        if message.to not in actors and message.to not in (LOG, BUS, RUNNER):
            message = Fault(sender=BUS, to=message.sender, actor=message.sender,
                            error=f"unknown address {message.to!r}", cause=cause)
        seq = len(records)
        msg = {k: v for k, v in dump(message).items() if k not in UNLOGGED.get(message.kind, ())}
        records.append({"game": game_id, "seq": seq, "cause": cause, "msg": unpack(pack(msg))})
        if message.kind == "game_end":
            return True
        if message.to in actors and message.kind != "error":
            queue.append((seq, message))
        return False

    if post(Start(sender=RUNNER, to=REFEREE), -1):
        return records
    quiet_at = None
    while len(records) < MAX_RECORDS:
        if not queue:
            assert quiet_at != len(records) - 1, "the game stalls"
            post(Quiet(sender=BUS, to=REFEREE), -1)
            quiet_at = len(records) - 1
            continue
        seq, message = queue.popleft()
        for out in deliver_one(actors[message.to], message, seq):
            if post(out, seq):
                return records
    raise AssertionError(f"no game_end within {MAX_RECORDS} records")


GAMES = [
    ("werewolves", "alphawolf", 1), ("werewolves", "alphawolf", 2), ("werewolves", "alphawolf", 3),
    ("werewolves", "random", 4), ("hanabi", "alpha", 1), ("dominoes", "alpha-pair", 2),
    ("diplomacy", "dipblue", 1), ("battleline", "random", 1),
]


@pytest.mark.parametrize("game,agents,seed", GAMES, ids=[f"{g}-{a}-{s}" for g, a, s in GAMES])
def test_the_bus_logs_what_a_fifo_queue_delivers(game, agents, seed):
    options = dict(get_plugin(game).short_options)
    header = make_header(game, seed, lineup(game, agents, options), options)
    logged = parse_log(record(header)).games[0].records
    model = fifo_records(header["game_id"], build_actors(header))
    kinds = {r["msg"]["kind"] for r in logged}
    assert not kinds & {"breach", "retire"}, "limits acted: the model does not cover them"
    first = next((i for i, (a, b) in enumerate(zip(logged, model)) if a != b), None)
    assert first is None, f"seq {first}: the bus logged {logged[first]['msg']!r:.300}, FIFO order gives {model[first]['msg']!r:.300}"
    assert len(logged) == len(model)
    # the games exercise waves: several messages delivered between two stamps of one cause
    fanned = sum(1 for a, b in zip(logged, logged[1:]) if a["cause"] == b["cause"] >= 0)
    assert fanned > 10


class Fan(Actor):
    """Answers each act with up to three acts to peers (chosen by its own generator) until a depth."""

    def __init__(self, address, seed, peers):
        super().__init__(address, seed)
        self.peers = peers

    def handle(self, message):
        if isinstance(message, Act) and message.turn < 5:
            k = self.rng.randrange(1, 4)
            return [Act(sender=self.address, to=p, turn=message.turn + 1, action=f"{self.address}>{p}")
                    for p in self.rng.sample(self.peers, k)]
        if isinstance(message, Act) and message.turn == 5:
            return [Act(sender=self.address, to="nobody", turn=6, action="lost")]  # a fault to itself
        return []


class Starter(Actor):
    """A referee stand-in: opens to two actors, ends at the second quiet."""

    quiets = 0

    def handle(self, message):
        if isinstance(message, Start):
            return [Act(sender=REFEREE, to="a", turn=0, action="go"), Act(sender=REFEREE, to="c", turn=0, action="go")]
        if isinstance(message, Quiet):
            self.quiets += 1
            if self.quiets == 1:
                return [Act(sender=REFEREE, to="b", turn=3, action="again")]
            return [GameEnd(sender=REFEREE, to=LOG, returns=(), winners=(), summary="done", steps=0, digest="")]
        return []


def _fans(seed: int) -> dict[str, Actor]:
    names = ["a", "b", "c", "d", "e"]
    actors: dict[str, Actor] = {n: Fan(n, seed, [p for p in names if p != n]) for n in names}
    actors[REFEREE] = Starter(REFEREE, seed)
    return actors


class _Sink:
    def __init__(self):
        self.payloads: list[bytes] = []

    def record(self, payload: bytes) -> None:
        self.payloads.append(payload)


@pytest.mark.parametrize("seed", range(5))
def test_fan_out_with_faults_and_quiets_in_fifo_order(seed):
    sink = _Sink()
    Bus("fan", InlinePlacement(_fans(seed)), sink).run(Start(sender=RUNNER, to=REFEREE))
    logged = [unpack(p) for p in sink.payloads]  # acts, faults and quiets: no field stored as a delta
    model = fifo_records("fan", _fans(seed))
    assert logged == model
    kinds = [r["msg"]["kind"] for r in model]
    assert kinds.count("quiet") == 2 and "fault" in kinds and len(model) > 100
