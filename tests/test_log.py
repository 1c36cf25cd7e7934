"""The event log: frames, checksums, torn tails, and what verify and show make of damage."""

from __future__ import annotations

import io

import pytest

from bus.codec import unpack
from bus.log import MAGIC, LogError, LogWriter, frame, parse_log, read_log
from replay.conformance import play_to_bytes
from replay.show import show
from replay.verify import verify_game


@pytest.fixture(scope="module")
def good() -> bytes:
    return play_to_bytes("werewolves", 5)


def test_frames_round_trip():
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header({"game": "x", "game_id": "g"})
    writer.record(b"\x81\xa1a\x01")
    log = parse_log(buf.getvalue())
    assert log.bad is None
    assert log.games[0].header == {"format": 1, "game": "x", "game_id": "g"}
    assert log.games[0].records == [{"a": 1}]


def test_good_log_verifies(good):
    log = parse_log(good)
    assert log.bad is None and log.games[0].complete
    verdict = verify_game(log.games[0], log.bad)
    assert verdict.ok, verdict.message


def test_flipped_byte_in_the_middle_is_named_by_offset(good):
    data = bytearray(good)
    middle = len(data) // 2
    data[middle] ^= 0xFF
    log = parse_log(bytes(data))
    assert log.bad is not None
    # the bad frame is the one containing the flipped byte
    assert log.bad.offset <= middle
    frames_before = parse_log(good).games[0].offsets
    assert log.bad.offset in frames_before
    verdict = verify_game(log.games[0], log.bad)
    assert not verdict.ok
    assert verdict.offset == log.bad.offset
    assert str(log.bad.offset) in verdict.message


def test_torn_tail_is_reported_and_prefix_stays_readable(good):
    full = parse_log(good).games[0]
    cut = full.offsets[len(full.offsets) // 2] + 7  # inside a frame
    log = parse_log(good[:cut])
    assert log.bad is not None and "torn" in log.bad.reason
    assert log.bad.offset == full.offsets[len(full.offsets) // 2]
    prefix = log.games[0]
    assert not prefix.complete
    assert len(prefix.records) == len(full.offsets) // 2
    verdict = verify_game(prefix, log.bad)
    assert not verdict.ok and "torn" in verdict.message
    text = show(prefix)
    assert "state after seq" in text


def test_record_tampered_with_valid_checksum_diverges(good):
    """A record rewritten with a fresh checksum passes the frame check but not verify."""
    log = parse_log(good)
    game = log.games[0]
    i = next(i for i, r in enumerate(game.records) if r["msg"]["kind"] == "act")
    record = unpack(game.payloads[i])
    record["msg"]["action"] = "abstain" if record["msg"]["action"] != "abstain" else "vote:0"
    from bus.codec import pack

    start = game.offsets[i]
    end = start + 8 + len(game.payloads[i])
    data = good[:start] + frame(pack(record)) + good[end:]
    tampered = parse_log(data)
    assert tampered.bad is None
    verdict = verify_game(tampered.games[0], tampered.bad)
    assert not verdict.ok
    assert verdict.seq is not None and verdict.seq <= game.records[i]["seq"]


def test_not_a_log(tmp_path):
    path = tmp_path / "x.log"
    path.write_bytes(b"hello world")
    with pytest.raises(LogError, match="not a detente log"):
        read_log(path)
    with pytest.raises(LogError, match="no such log file"):
        read_log(tmp_path / "missing.log")
    assert MAGIC.endswith(b"\n")
