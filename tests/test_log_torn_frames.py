"""A log cut anywhere inside its last frame is a torn tail (TornFrame) at that frame's offset, for
the whole-file read and the index read alike: one byte short of the payload included (not a
checksum mismatch of a shorter payload), and the header of the frame cut too."""

from __future__ import annotations

import pytest

from bus.errors import TornFrame
from bus.log import MAGIC, parse_log, read_game_at
from replay.conformance import play_to_bytes


@pytest.fixture(scope="module")
def good() -> bytes:
    return play_to_bytes("werewolves", 5)


def _cuts(good: bytes) -> tuple[int, list[int]]:
    """The last frame's offset, and cuts inside it: in its header, just after, one byte short."""
    game = parse_log(good).games[0]
    start = game.offsets[-1]
    end = start + 8 + len(game.payloads[-1])
    assert end == len(good)
    return start, [start + 1, start + 7, start + 8, start + 9, end - 2, end - 1]


def test_a_cut_inside_the_last_frame_is_a_torn_tail(good):
    start, cuts = _cuts(good)
    for cut in cuts:
        log = parse_log(good[:cut])
        assert isinstance(log.bad, TornFrame), (cut - start, log.bad)
        assert log.bad.offset == start and "torn" in log.bad.reason
        assert not log.games[0].complete and len(log.games[0].records) == len(parse_log(good).games[0].records) - 1


def test_the_index_read_names_the_same_torn_tail(good, tmp_path):
    start, cuts = _cuts(good)
    path = tmp_path / "seg.dlog"
    for cut in cuts:
        path.write_bytes(good[:cut])
        game, bad = read_game_at(path, len(MAGIC), game_id="werewolves-5")
        assert isinstance(bad, TornFrame) and bad.offset == start, (cut - start, bad)
        assert not game.complete
