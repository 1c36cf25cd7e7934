"""Verify names the first record that differs, in every log format: format 2 (a state digest in
every chance and step record) and formats 3 and 4 (digests at checkpoints only, bus.codec.CHECKPOINT;
4 also logs requests without their observation and legal actions), where the fold alone would only
notice a changed chance outcome at the next checkpoint and the lockstep rerun names the record itself. Each damaged record is re-encoded whole, in canonical form, with a
fresh checksum: a valid record of the game, only not the one its actor or the referee makes."""

from __future__ import annotations

import pytest

from bus.codec import CHECKPOINT, pack, unpack
from bus.log import frame, parse_log
from replay.fold import fold
from replay.verify import verify_game
from tests.golden.cases import HERE

LOGS = {2: HERE / "dominoes-random-3.log", 3: HERE / "f3-dominoes-random-3.log", 4: HERE / "f4-dominoes-random-3.log"}


def _replaced(data: bytes, index: int, payload: bytes) -> bytes:
    game = parse_log(data).games[0]
    start = game.offsets[index]
    return data[:start] + frame(payload) + data[start + 8 + len(game.payloads[index]):]


@pytest.mark.parametrize("version", sorted(LOGS))
def test_a_changed_answer_fails_at_its_own_seq(version):
    data = LOGS[version].read_bytes()
    game = parse_log(data).games[0]
    assert game.header["format"] == version
    # an act with another legal action: the request it answers lists the choices
    i = next(i for i, r in enumerate(game.records)
             if i > 40 and r["msg"]["kind"] == "act" and len(_legal(game, i)) > 1)
    item = unpack(game.payloads[i])
    item["msg"]["action"] = next(a for a in _legal(game, i) if a != item["msg"]["action"])
    verdict = verify_game(parse_log(_replaced(data, i, pack(item))).games[0])
    assert not verdict.ok and verdict.seq == game.records[i]["seq"], verdict.message
    assert f"seq {verdict.seq} (act)" in verdict.message


@pytest.mark.parametrize("version", sorted(LOGS))
def test_a_changed_chance_outcome_fails_at_its_own_seq(version):
    data = LOGS[version].read_bytes()
    game = parse_log(data).games[0]
    i = [i for i, r in enumerate(game.records) if r["msg"]["kind"] == "chance"][1]  # the second hand's deal
    item = unpack(game.payloads[i])
    deal = item["msg"]["outcome"]
    deal[0], deal[7] = deal[7], deal[0]  # a tile of seat 0's hand and one of seat 1's trade places: still a deal
    damaged = parse_log(_replaced(data, i, pack(item))).games[0]
    verdict = verify_game(damaged)
    assert not verdict.ok and verdict.seq == game.records[i]["seq"], verdict.message
    if version >= 3:  # the fold alone finds it later (the rules refuse a move, or a checkpoint differs)
        with pytest.raises(Exception) as found:
            fold(damaged)
        assert getattr(found.value, "seq", None) > game.records[i]["seq"]


def test_format_3_holds_digests_at_checkpoints_and_the_end():
    game = parse_log(LOGS[3].read_bytes()).games[0]
    steps = [r["msg"] for r in game.records if r["msg"]["kind"] in ("chance", "step")]
    assert [m["step"] for m in steps if m["digest"]] == [m["step"] for m in steps if m["step"] % CHECKPOINT == 0]
    assert game.records[-1]["msg"]["digest"] == fold(game).state.digest()
    old = parse_log(LOGS[2].read_bytes()).games[0]
    assert all(r["msg"]["digest"] for r in old.records if r["msg"]["kind"] in ("chance", "step"))


def test_a_changed_final_digest_fails_at_the_end():
    data = LOGS[3].read_bytes()
    game = parse_log(data).games[0]
    item = unpack(game.payloads[-1])
    digest = item["msg"]["digest"]
    item["msg"]["digest"] = ("0" if digest[0] != "0" else "1") + digest[1:]
    verdict = verify_game(parse_log(_replaced(data, len(game.payloads) - 1, pack(item))).games[0])
    assert not verdict.ok and verdict.seq == game.records[-1]["seq"]


def _legal(game, i: int) -> list[str]:
    """The legal actions of the act request that the act at index `i` answers (format 4 logs them
    not: the walk puts them back into the records)."""
    from replay.walk import walk

    if any(r["msg"]["kind"] == "act_request" and "legal" not in r["msg"] for r in game.records):
        for _ in walk(game):
            pass
    act = game.records[i]["msg"]
    return next(r["msg"]["legal"] for r in reversed(game.records[:i])
                if r["msg"]["kind"] == "act_request" and r["msg"]["to"] == act["sender"] and r["msg"]["turn"] == act["turn"])
