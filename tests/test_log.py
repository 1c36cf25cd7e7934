"""The event log: frames, checksums, torn tails, and what verify and show make of damage."""

from __future__ import annotations

import io

import pytest

from bus.codec import FORMAT_VERSION, unpack
from bus.log import MAGIC, LogError, LogWriter, PackedLogWriter, frame, frames, parse_log, read_game_at, read_log
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
    assert log.games[0].header == {"format": FORMAT_VERSION, "game": "x", "game_id": "g"}
    assert log.games[0].records == [{"a": 1}]


def test_frames_of_many_payloads_are_their_frames_one_after_another():
    payloads = [b"", b"\x01", bytes(range(256)) * 3, b"\x81\xa1a\x01"]
    assert frames(payloads) == b"".join(frame(p) for p in payloads)
    assert frames([]) == b""


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


def test_bulky_fields_are_stored_as_deltas_and_read_back_whole():
    """Format 3: observations and office views are deltas against the previous one to the same
    recipient; readers get every record whole, equal to what the actors were sent."""
    from actors.match import make_header, record
    from actors.registry import AgentSpec
    from bus.codec import _diff, _patch

    good = record({"format": 3, **make_header("werewolves", 5, [AgentSpec(name="random")] * 10)})
    log = parse_log(good).games[0]
    requests = [(r, p) for r, p in zip(log.records, log.payloads) if r["msg"]["kind"] == "act_request"]
    stored = [unpack(p)["msg"]["observation"] for _, p in requests]
    assert any("$d" in s for s in stored) and all("me" in r["msg"]["observation"] for r, _ in requests)
    first_to = {}
    for (record_, _), raw in zip(requests, stored):
        to = record_["msg"]["to"]
        if to not in first_to:
            first_to[to] = True
            assert raw == record_["msg"]["observation"]  # the first one to a recipient is whole
    old = {"a": 1, "b": [1, 2], "c": {"x": 1.0}, "d": "same"}
    for new in ({"a": 1, "b": [1, 2, 3], "c": {"x": 2.0}, "d": "same"}, {"c": {}, "a": 1.0}, {"a": True}, [1]):
        restored = _patch(old, _diff(old, new))
        assert restored == new and [type(v) for v in (restored.values() if isinstance(new, dict) else restored)] == [
            type(v) for v in (new.values() if isinstance(new, dict) else new)
        ]
        if isinstance(new, dict):
            assert list(restored) == list(new)


def test_format_4_logs_requests_without_their_observation_and_the_walk_puts_it_back(good):
    """Format 4: no act request or talk turn holds its observation in the log (nor an act request
    its legal actions); the walk gives each back as the rules compute it from the state at the
    request, the same as format 3 stored."""
    from actors.match import make_header, record
    from actors.registry import AgentSpec
    from replay.walk import walk

    log = parse_log(good).games[0]
    assert log.header["format"] == 4 == FORMAT_VERSION
    requests = [p for r, p in zip(log.records, log.payloads) if r["msg"]["kind"] in ("act_request", "talk_turn")]
    assert requests and not any("observation" in unpack(p)["msg"] or "legal" in unpack(p)["msg"] for p in requests)
    restored = {s.seq: s.msg for s in walk(log) if s.msg["kind"] in ("act_request", "talk_turn")}
    assert restored and all(isinstance(m["observation"], dict) and "me" in m["observation"] for m in restored.values())
    assert all(log.records[i]["msg"] == m for i, m in restored.items())  # readers after the walk see them too
    # the same game in format 3 stored the same requests, field for field (its records are one for one)
    old = parse_log(record({"format": 3, **make_header("werewolves", 5, [AgentSpec(name="random")] * 10)})).games[0]
    assert {r["seq"]: r["msg"] for r in old.records if r["seq"] in restored} == restored
    assert all(list(old.records[i]["msg"]) == list(m) for i, m in restored.items())  # and in the same order


def _packed(games: list[bytes]) -> bytes:
    """The same games written by a PackedLogWriter."""
    buf = io.BytesIO()
    writer = PackedLogWriter(buf)
    for data in games:
        game = parse_log(data).games[0]
        writer.header({k: v for k, v in game.header.items() if k != "format"})
        for payload in game.payloads:
            writer.record(payload)
        writer.end_game()
    return buf.getvalue()


def test_packed_games_read_as_the_plain_ones(good, tmp_path):
    other = play_to_bytes("werewolves", 6)
    packed = _packed([good, other])
    assert len(packed) * 3 < len(good) + len(other)
    plain_games = [parse_log(good).games[0], parse_log(other).games[0]]
    log = parse_log(packed)
    assert log.bad is None and len(log.games) == 2
    for plain, game in zip(plain_games, log.games):
        assert game.header == plain.header and game.payloads == plain.payloads and game.records == plain.records
        assert verify_game(game).ok
    # by offset, as the tournament index does: the second game's packed frame
    path = tmp_path / "seg.dlog"
    path.write_bytes(packed)
    second = log.games[1].offsets[0]
    assert set(log.games[1].offsets) == {second} and second > len(MAGIC)
    game, bad = read_game_at(path, second)
    assert bad is None and game.payloads == plain_games[1].payloads


def test_damaged_packed_game_is_named_by_its_frame_offset(good):
    packed = _packed([good, play_to_bytes("werewolves", 6)])
    first_end = parse_log(packed).games[1].offsets[0]  # the second game's frame starts here
    data = bytearray(packed)
    data[first_end + 40] ^= 0xFF  # inside the second packed frame
    log = parse_log(bytes(data))
    assert len(log.games) == 1 and log.games[0].complete  # the first game is intact
    assert log.bad is not None and log.bad.offset == first_end and "checksum" in log.bad.reason
    torn = parse_log(packed[: first_end + 100])
    assert len(torn.games) == 1 and torn.bad.offset == first_end and "torn" in torn.bad.reason


def test_every_reading_failure_is_a_typed_log_error_with_its_place():
    """Issue 12: the reader's failures are LogError subclasses carrying the offset (and seq);
    they survive pickling (runners may hand them across processes)."""
    import pickle

    from bus.errors import BadFrame, ChecksumMismatch, OutOfOrder

    assert issubclass(BadFrame, LogError) and issubclass(ChecksumMismatch, BadFrame)
    error = OutOfOrder(1234, "seq 5 comes after seq 7: seqs must increase", 5)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is OutOfOrder and (again.offset, again.seq, str(again)) == (1234, 5, str(error))
    assert str(error) == "bad frame at byte offset 1234 (seq 5): seq 5 comes after seq 7: seqs must increase"


def test_read_log_checks_the_header_parse_log_only_when_asked(tmp_path):
    from bus.errors import BadHeader

    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header({"game": "x", "game_id": "g"})  # no seed, agents, options: not a header any game has
    path = tmp_path / "x.log"
    path.write_bytes(buf.getvalue())
    assert parse_log(buf.getvalue()).games[0].header["game"] == "x"
    for log in (read_log(path), parse_log(buf.getvalue(), check=True)):
        assert not log.games and isinstance(log.bad, BadHeader) and log.bad.offset == len(MAGIC)
    with pytest.raises(BadHeader):
        parse_log(buf.getvalue()).games[0].check()


def test_index_read_checks_the_game_id_it_was_asked_for(good, tmp_path):
    from bus.errors import WrongGame

    path = tmp_path / "seg.dlog"
    path.write_bytes(_packed([good]))
    game, bad = read_game_at(path, len(MAGIC), game_id="werewolves-5")
    assert bad is None and game.header["game_id"] == "werewolves-5"
    with pytest.raises(WrongGame, match="werewolves-5"):
        read_game_at(path, len(MAGIC), game_id="werewolves-6")
