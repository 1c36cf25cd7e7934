"""Each of verify's verdicts, reached by the damage it is for (replay/verify.py), each record
rewritten with a fresh checksum in canonical form so that only verify's own check can name it:
a dropped record (a missing seq), a step's digest changed (the rules do not reproduce it), an
action changed in its last byte (the actor does not reproduce it), a fork header that changes no
seat; and the referee's step bound (a game whose rules never end it)."""

from __future__ import annotations

import pytest

from actors.match import record
from actors.registry import parse_lineup
from bus.codec import pack, unpack
from bus.log import frame, parse_log
from games.registry import get_game
from replay.conformance import play_to_bytes
from replay.fork import fork_header
from replay.verify import verify_game


@pytest.fixture(scope="module")
def good() -> bytes:
    return play_to_bytes("werewolves", 5)


def _replaced(data: bytes, index: int, payload: bytes | None) -> bytes:
    """The log with record `index`'s frame replaced by one of `payload` (dropped when None)."""
    game = parse_log(data).games[0]
    start = game.offsets[index]
    end = start + 8 + len(game.payloads[index])
    return data[:start] + (b"" if payload is None else frame(payload)) + data[end:]


def _first(game, kind: str, after: int = 10) -> int:
    return next(i for i, r in enumerate(game.records) if i > after and r["msg"]["kind"] == kind)


def test_a_dropped_record_is_named_as_missing(good):
    game = parse_log(good).games[0]
    i = _first(game, "act")  # no field of an act is stored as a delta: the rest decodes as before
    log = parse_log(_replaced(good, i, None))
    assert log.bad is None
    verdict = verify_game(log.games[0])
    seq = game.records[i]["seq"]
    assert not verdict.ok and verdict.seq == seq
    assert verdict.message == f"record at seq {seq} is missing (the next is seq {seq + 1})"


def test_a_changed_digest_is_named_by_the_fold(good):
    game = parse_log(good).games[0]
    i = next(i for i, r in enumerate(game.records) if r["msg"]["kind"] == "step" and r["msg"]["digest"])  # a checkpoint
    item = unpack(game.payloads[i])
    digest = item["msg"]["digest"]
    item["msg"]["digest"] = ("0" if digest[0] != "0" else "1") + digest[1:]
    verdict = verify_game(parse_log(_replaced(good, i, pack(item))).games[0])
    assert not verdict.ok and verdict.seq == game.records[i]["seq"]
    assert "state digest" in verdict.message and digest in verdict.message


def test_an_action_changed_in_its_last_byte_diverges_there(good):
    game = parse_log(good).games[0]
    i = next(i for i, r in enumerate(game.records)
             if r["msg"]["kind"] == "act" and r["msg"]["action"][-1:].isdigit() and i > 10)
    payload = game.payloads[i]
    assert payload.endswith(game.records[i]["msg"]["action"].encode())  # the action is the record's last field
    last = payload[-1]
    changed = payload[:-1] + bytes([ord("0") + (last - ord("0") + 1) % 10])
    log = parse_log(_replaced(good, i, changed), check=True)
    assert log.bad is None  # a valid record of the game, only not the one its actor returns
    verdict = verify_game(log.games[0])
    assert not verdict.ok and verdict.seq == game.records[i]["seq"] and "diverges" in verdict.message


def test_a_fork_header_that_changes_no_seat_is_refused(good):
    original = parse_log(good).games[0]
    header = fork_header(original, 40, parse_lineup("random:offices=", 10))
    same = {**header, "agents": header["fork"]["before"]}
    log = parse_log(record(same)).games[0]
    verdict = verify_game(log)
    assert not verdict.ok and "changes no seat" in verdict.message


def test_the_referee_stops_a_game_past_its_steps(monkeypatch):
    game = get_game("werewolves")
    monkeypatch.setattr(type(game), "max_steps", 5)
    with pytest.raises(RuntimeError, match="no end after 5 steps"):
        play_to_bytes("werewolves", 5)


def test_a_log_cut_cleanly_before_its_end_diverges_where_it_stops(good):
    game = parse_log(good).games[0]
    keep = len(game.records) - 3
    log = parse_log(good[:game.offsets[keep]])  # whole frames only: no bad frame, no game_end
    assert log.bad is None and not log.games[0].complete
    verdict = verify_game(log.games[0])
    assert not verdict.ok and verdict.seq == keep and "diverges" in verdict.message


def test_the_state_at_a_seq_includes_that_record(good):
    from replay.fold import fold

    game = parse_log(good).games[0]
    steps = [r for r in game.records if r["msg"]["kind"] in ("chance", "step", "talk_round")]  # the state's records
    checkpoints = [r for r in steps if r["msg"]["digest"]]  # format 3: every CHECKPOINT steps (bus.codec)
    assert checkpoints
    for step in checkpoints[:3]:
        assert fold(game, at=step["seq"]).state.digest() == step["msg"]["digest"]
        assert fold(game, at=step["seq"] - 1).state.digest() != step["msg"]["digest"]
