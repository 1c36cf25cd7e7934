"""The index read (`read_game_at`) checks each plain frame's crc32 itself.

A packed game hides a missing check: zlib's own checksum refuses the damage first. So the damage
here is done to plain (unpacked) frames, and chosen so that the payload is still a valid record
of its game (one digit of an action changed): only the frame's checksum can tell.
"""

from __future__ import annotations

import pytest

from bus.errors import ChecksumMismatch
from bus.log import MAGIC, frame, parse_log, read_game_at
from replay.conformance import play_to_bytes
from replay.verify import verify_game


@pytest.fixture(scope="module")
def two_games() -> tuple[bytes, list[int], list]:
    """A plain segment of two games one after the other, each game's header offset, and the games."""
    first, second = play_to_bytes("werewolves", 5), play_to_bytes("werewolves", 6)
    data = first + second[len(MAGIC):]
    games = parse_log(data).games
    assert len(games) == 2 and all(g.complete for g in games)
    return data, [len(MAGIC), len(first)], games


def _act_digit(data: bytes, game) -> tuple[int, int, int, int]:
    """(offset of an `act` record's frame, index of the digit to change in the file, its seq, its payload's length)."""
    for record, offset, payload in zip(game.records, game.offsets, game.payloads):
        action = record["msg"].get("action", "") if record["msg"]["kind"] == "act" else ""
        if action[-1:].isdigit():
            at = offset + 8 + payload.rindex(action.encode()) + len(action) - 1
            assert data[at:at + 1] == action[-1:].encode()
            return offset, at, record["seq"], len(payload)
    raise AssertionError("no act record with a digit in this game")


def _damaged(data: bytes, at: int) -> bytes:
    digit = data[at]
    return data[:at] + bytes([ord("0") + (digit - ord("0") + 1) % 10]) + data[at + 1:]


@pytest.mark.parametrize("which", [0, 1], ids=["first game", "second game"])
def test_index_read_refuses_a_plain_frame_whose_payload_changed(two_games, tmp_path, which):
    data, starts, games = two_games
    offset, at, seq, size = _act_digit(data, games[which])
    damaged = _damaged(data, at)
    # the damage leaves a valid record: framed afresh, a checked read takes it
    refreshed = data[:offset] + frame(damaged[offset + 8:offset + 8 + size]) + data[offset + 8 + size:]
    assert parse_log(refreshed, check=True).bad is None
    path = tmp_path / "seg.dlog"
    path.write_bytes(damaged)
    game, bad = read_game_at(path, starts[which], game_id=games[which].header["game_id"])
    assert isinstance(bad, ChecksumMismatch), bad
    assert bad.offset == offset
    assert game.offsets[-1] < offset and len(game.records) == games[which].offsets.index(offset)
    assert seq == len(game.records)  # the prefix before the damaged record stays readable
    verdict = verify_game(game, bad)
    assert not verdict.ok and verdict.offset == offset and "checksum" in verdict.message


def test_index_read_of_the_untouched_game_is_whole(two_games, tmp_path):
    data, starts, games = two_games
    _, at, _, _ = _act_digit(data, games[1])
    path = tmp_path / "seg.dlog"
    path.write_bytes(_damaged(data, at))  # damage in the second game only
    game, bad = read_game_at(path, starts[0], game_id=games[0].header["game_id"])
    assert bad is None and game.complete and game.payloads == games[0].payloads


def test_whole_file_read_refuses_the_same_damage(two_games):
    data, _, games = two_games
    offset, at, _, _ = _act_digit(data, games[0])
    log = parse_log(_damaged(data, at))
    assert isinstance(log.bad, ChecksumMismatch) and log.bad.offset == offset
