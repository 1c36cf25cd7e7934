"""Fork a logged game: the same game up to a point, then other agents (or traits) in some seats.

"What if the Intelligence Office had been switched on here?" The fork's header holds the
original lineup, the new one and the switch point, so the forked log is self-contained: it
replays and verifies like any other (the prefix is re-played with the original agents). The
prefix posts what the wall clock decided in the original (a seat retired for overrunning its
time) where it was decided, as verify does, instead of asking the agent again (`play_fork`).
"""

from __future__ import annotations

from typing import Any

from actors.match import environment_of, with_external
from actors.registry import AgentSpec
from bus.log import GameLog

_REQUESTS = ("act_request", "talk_turn")


class ForkError(ValueError):
    """A fork point or lineup that cannot be used."""


def fork_point(log: GameLog, at: int) -> int:
    """The seq where a fork asked for at `at` switches: the first record of the first batch of
    requests (a decision or a talk round) stamped after `at`."""
    starts: dict[int, int] = {}  # cause -> first request it caused
    for r in log.records:
        if r["msg"]["kind"] in _REQUESTS and r["msg"]["sender"] == "referee":
            start = starts.setdefault(r["cause"], r["seq"])
            if start > at:
                return start
    raise ForkError(f"no decision after seq {at}: nothing left to fork")


def fork_header(log: GameLog, at: int, agents: list[AgentSpec]) -> dict[str, Any]:
    """The header of a fork of `log` after seq `at` with lineup `agents`."""
    header = log.header
    if "fork" in header:
        raise ForkError("forking a fork is not supported: fork the original game")
    before = header["agents"]
    after = [a.model_dump(mode="json") for a in agents]
    if len(after) != len(before):
        raise ForkError(f"the game seats {len(before)} players, got {len(after)} agents")
    if after == before:
        raise ForkError("the new lineup is the same as the original: nothing to fork")
    switch = fork_point(log, at)
    forked = {
        **header,
        "game_id": f"{header['game_id']}-fork{switch}",
        "agents": after,
        "fork": {"from": header["game_id"], "at": switch, "before": before},
        "env": environment_of(header["game"]),  # the fork is made here, whatever made the original
    }
    forked.pop("external", None)
    forked = with_external(forked)  # the new lineup's external agents, started here
    if "external" in header:  # and the original's, whose answers the prefix takes from the log
        forked["external"] = dict(sorted({**header["external"], **forked.get("external", {})}.items()))
    return forked


def play_fork(log: GameLog, header: dict[str, Any], sink: Any):
    """Play the fork `header` (from `fork_header(log, ...)`) into `sink`: the original's
    wall-clock decisions before the switch are posted where they were made, never re-asked of
    an agent that may hang (actors.match.wall_clock_decisions)."""
    from actors.match import play

    switch = header["fork"]["at"]
    prefix = [r for r in log.records if r["seq"] < switch]
    if "external" not in header:
        return play(header, sink, decided=prefix)
    from actors.external.actor import given_answers

    # before the switch the original's external agents answer from the log; after it they play live
    with given_answers(header, prefix, scope="before"):
        return play(header, sink, decided=prefix)
