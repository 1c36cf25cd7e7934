"""verify names a record of another game as such (not as a divergence found later).

A record carries its game's id; one with another id inside a game is a spliced log (bus.header
`check_record`: "the header's game"). The record is rewritten with a fresh checksum and stays in
canonical form, so only the game id check can name it.
"""

from __future__ import annotations

import pytest

from bus.codec import pack, unpack
from bus.errors import WrongGame
from bus.log import frame, parse_log
from replay.conformance import play_to_bytes
from replay.verify import verify_game


@pytest.fixture(scope="module")
def good() -> bytes:
    return play_to_bytes("werewolves", 5)


def _with_game_id(data: bytes, index: int, game_id: str) -> tuple[bytes, int, int]:
    """The log with record `index` claiming `game_id`, the record's offset and seq."""
    game = parse_log(data).games[0]
    record = unpack(game.payloads[index])
    assert list(record) == ["game", "seq", "cause", "msg"]
    record["game"] = game_id
    start = game.offsets[index]
    end = start + 8 + len(game.payloads[index])
    return data[:start] + frame(pack(record)) + data[end:], start, game.records[index]["seq"]


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_verify_names_a_record_of_another_game(good, where):
    n = len(parse_log(good).games[0].records)
    index = {"first": 0, "middle": n // 2, "last": n - 1}[where]
    data, offset, seq = _with_game_id(good, index, "werewolves-6")
    log = parse_log(data)  # unchecked read: the check is verify's
    assert log.bad is None and len(log.games) == 1
    verdict = verify_game(log.games[0], log.bad)
    assert not verdict.ok
    assert (verdict.seq, verdict.offset) == (seq, offset)
    assert "'werewolves-6'" in verdict.message and "'werewolves-5'" in verdict.message
    assert "of game" in verdict.message and "diverges" not in verdict.message


def test_checked_read_stops_at_the_record_of_another_game(good):
    data, offset, seq = _with_game_id(good, 20, "another-game")
    log = parse_log(data, check=True)
    assert isinstance(log.bad, WrongGame) and (log.bad.offset, log.bad.seq) == (offset, seq)
    assert len(log.games[0].records) == 20  # the records before it stay readable
    with pytest.raises(WrongGame):
        parse_log(data).games[0].check()


def test_same_id_rewritten_is_no_change(good):
    """The rewrite itself changes nothing when the id is the game's own (the test's control)."""
    data, _, _ = _with_game_id(good, 20, "werewolves-5")
    assert data == good
    assert verify_game(parse_log(data).games[0]).ok
