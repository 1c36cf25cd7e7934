"""Verify a logged game: frames intact, every actor reproduces its recorded outputs, every state
digest is reproduced by the rules.

Actors are rebuilt from the header alone and the game is re-run inline in lockstep with the log:
each record the bus stamps is compared, byte for byte, with the recorded one. The first record
that differs is the first place where an actor (or the rules) no longer returns what it returned
when the game was played: hidden non-determinism, a changed agent, or a tampered log. A divergence
is one line naming the seq, the recorded record's kind and both environments (bus.environment:
the header's `env` against this interpreter's), so a log made under another Python that fails
here says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from actors.match import environment_of, play
from actors.registry import AgentSpecError
from bus.environment import divergence_note
from bus.log import BadFrame, GameLog, LogError
from replay.fold import DigestMismatch, fold


@dataclass
class Verdict:
    ok: bool
    message: str
    seq: int | None = None
    offset: int | None = None


class _Diverged(Exception):
    def __init__(self, seq: int):
        self.seq = seq


class _LockstepSink:
    """Compares each newly stamped record with the recorded one at the same seq."""

    def __init__(self, log: GameLog):
        self.recorded = log.payloads
        self.records = log.records
        self.n = 0

    def record(self, payload: bytes) -> None:
        if self.n >= len(self.recorded):
            raise _Diverged(self.n)  # the rerun goes on past the recorded end
        if payload != self.recorded[self.n]:
            raise _Diverged(self.records[self.n]["seq"])
        self.n += 1


def verify_game(log: GameLog, bad: BadFrame | None = None) -> Verdict:
    """Check one game. `bad` is the reader's first bad frame, if it stopped early."""
    if bad is not None:
        return Verdict(False, str(bad), seq=bad.seq, offset=bad.offset)
    try:
        log.check()  # typed header, valid records in seq order, all of this game
    except LogError as exc:
        return Verdict(False, str(exc), seq=exc.seq, offset=exc.offset)
    fork = log.header.get("fork")
    if fork is not None and fork["before"] == log.header["agents"]:
        return Verdict(False, "the header's fork changes no seat: not a fork of anything")
    for expected, record in enumerate(log.records):
        if record["seq"] != expected:
            return Verdict(False, f"record at seq {expected} is missing (the next is seq {record['seq']})", seq=expected)
    try:
        fold(log)
    except (DigestMismatch, LogError) as exc:
        # a log of format 3 holds digests at checkpoints only: the fold finds a changed outcome at
        # the next one, the lockstep rerun at the record that changed. The earlier of the two stands.
        found = Verdict(False, f"diverges at {exc}; {_environments(log)}", seq=exc.seq) if isinstance(exc, DigestMismatch) \
            else Verdict(False, str(exc), seq=exc.seq, offset=exc.offset)
        try:
            earlier = _lockstep(log)[0]
        except Exception:  # noqa: BLE001 (the fold's finding stands if the rerun cannot run at all)
            earlier = None
        if earlier is not None and earlier.seq is not None and (found.seq is None or earlier.seq < found.seq):
            return earlier
        return found
    verdict, sink, given = _lockstep(log)
    if verdict is not None:
        return verdict
    if sink.n != len(log.records):
        return Verdict(False, f"diverges at seq {sink.n}: the rerun ends early; {_environments(log)}", seq=sink.n)
    if not log.complete:
        return Verdict(False, "log has no game_end record")
    taken = f"; {given.summary()}" if given is not None else ""
    return Verdict(True, f"ok: {len(log.records)} records reproduced{taken}")


def _lockstep(log: GameLog) -> tuple[Verdict | None, _LockstepSink, object]:
    """Re-run the game against its records: a failing verdict (None if every record so far is
    reproduced), the sink (how many it compared) and the external agents' given answers, if any."""
    sink = _LockstepSink(log)
    given = None
    try:
        if "external" in log.header:  # the external agents' answers come from the log, nothing is started
            from actors.external.actor import given_answers

            with given_answers(log.header, log.records) as given:
                play(log.header, sink)
        else:
            play(log.header, sink)
    except _Diverged as exc:
        return Verdict(False, f"diverges at seq {exc.seq} ({_kind(log, exc.seq)}): actors or rules no longer reproduce "
                              f"the recorded record; {_environments(log)}", seq=exc.seq), sink, given
    except AgentSpecError as exc:  # the header's agents, checked for shape only by the reader
        return Verdict(False, f"the header's agents cannot be built: {exc}"), sink, given
    return None, sink, given


def _kind(log: GameLog, seq: int) -> str:
    """What the record at `seq` was: its message kind, or that the rerun went past the end."""
    if 0 <= seq < len(log.records) and log.records[seq]["seq"] == seq:
        return log.records[seq]["msg"]["kind"]
    return "past the recorded end"


def _environments(log: GameLog) -> str:
    return divergence_note(log.header.get("env"), environment_of(log.header["game"]))
