"""Issue 12, "Why", the cases about logs: each one a test. Every hostile log ends in a clean read
or a typed LogError naming its offset or seq (never a traceback, never a changed game verifying
as ok), within the declared memory bound (bus.log READ_MEMORY, <= 256 MiB), measured here."""

from __future__ import annotations

import zlib

import pytest

from bus.codec import pack
from bus.errors import (
    BadDelta,
    BadHeader,
    BadPacking,
    BadPayload,
    BadRecord,
    LogError,
    OutOfOrder,
    OverLimit,
    WrongGame,
)
from bus.log import MAGIC, MAX_GAME_BYTES, READ_MEMORY, frame, parse_log, read_game_at, read_log
from replay.show import show
from replay.verify import verify_game
from tests.hostile.logs import (
    SMALL,
    TALKY,
    golden,
    judge,
    originals,
    packed_frame,
    payloads_of,
    peak_memory,
    plain,
    record_of,
    tournament_folder,
)

MiB = 1 << 20


def _header(stem: str = SMALL) -> dict:
    return record_of(payloads_of(golden(stem))[0])


def _with_header(header: dict, stem: str = SMALL) -> bytes:
    return plain([pack(header)] + payloads_of(golden(stem))[1:])


def _deflated(first: bytes, unit: bytes, times: int) -> bytes:
    """zlib data of `first` then `times` copies of `unit`, made in milliseconds: after a full
    flush the compressor starts afresh, so every copy compresses to the same bytes (the checksum
    at the end is wrong: no reader gets that far)."""
    packer = zlib.compressobj(9)
    head = packer.compress(first) + packer.compress(unit) + packer.flush(zlib.Z_FULL_FLUSH)
    again = packer.compress(unit) + packer.flush(zlib.Z_FULL_FLUSH)
    return head + again * (times - 1) + packer.flush()


def _zeros(n: int, first: bytes = b"") -> bytes:
    return _deflated(first, b"\0" * MiB, n // MiB)


def _stops_with(data: bytes, kind: type[LogError], check: bool = True) -> LogError:
    log = parse_log(data, check=check)
    assert isinstance(log.bad, kind), log.bad
    assert log.bad.offset is not None and f"byte offset {log.bad.offset}" in str(log.bad)
    return log.bad


# -- a small CRC-valid file can take the reader to gigabytes --------------------------------------

def test_zlib_bomb_in_a_packed_frame():
    """Why: "a packed frame of zlib-compressed zeros (65 KB on disk, > 0.5 GB in memory and growing)"."""
    header = pack(_header())
    for inside in (_zeros(1 << 30), _zeros(256 * MiB, frame(header))):  # 1 GiB of zeros: ~1 MB on disk
        data = MAGIC + frame(pack({"packed": "zlib", "data": inside}))
        log, peak = peak_memory(lambda: parse_log(data))
        assert isinstance(log.bad, (BadPacking, BadPayload)) and log.bad.offset == len(MAGIC)
        assert peak < 16 * MiB  # inflated a chunk at a time: it stops at the first frame that is not one


def _bomb(msg: dict) -> bytes:
    """A packed game: a real header, then the same record over and over, past every limit."""
    payloads = payloads_of(golden(SMALL))
    repeated = pack({**record_of(payloads[1]), "msg": msg})
    inside = _deflated(frame(payloads[0]), frame(repeated), MAX_GAME_BYTES // len(repeated) + 2)
    return MAGIC + frame(pack({"packed": "zlib", "data": inside}))


def test_zlib_bomb_of_long_records_stops_at_the_bytes_of_one_game():
    """The same bomb built of frames that all decode (70 KB on disk): the limit on one game's
    bytes of frames stops it, inside the declared bound."""
    data = _bomb({"sender": "bus", "to": "p0", "kind": "fault", "actor": "p0", "error": "x" * MiB, "cause": 0})
    log, peak = peak_memory(lambda: parse_log(data))  # unchecked: repeated seqs are not refused
    assert isinstance(log.bad, OverLimit) and f"{MAX_GAME_BYTES >> 20} MiB" in log.bad.reason, log.bad
    assert peak < READ_MEMORY, f"{peak / MiB:.0f} MiB"
    checked = parse_log(data, check=True)  # checked: the second copy is out of order
    assert isinstance(checked.bad, OutOfOrder) and checked.bad.offset == len(MAGIC)


def test_zlib_bomb_of_small_containers_stops_at_the_heap_of_one_game(monkeypatch):
    """Frames of 60,000 empty maps each (1 byte of msgpack, 72 bytes of heap): the budget of one
    game's heap stops it. Measured with the budget at 24 MiB (at 192 MiB the same run takes ~25 s
    under tracemalloc); the peak stays within the budget and a few MiB more."""
    import bus.log

    budget = 24 * MiB
    monkeypatch.setattr(bus.log, "MAX_GAME_MEMORY", budget)
    data = _bomb({"sender": "bus", "to": "p0", "kind": "fault", "actor": "p0", "error": [{}] * 60_000, "cause": 0})
    log, peak = peak_memory(lambda: parse_log(data))
    assert isinstance(log.bad, OverLimit) and "MiB to read" in log.bad.reason, log.bad
    assert peak < budget + 8 * MiB, f"{peak / MiB:.0f} MiB"


def _header_bytes(header: dict, options: bytes) -> bytes:
    """A header's msgpack with its options map given as raw bytes (millions of entries, fast)."""
    parts = [bytes([0x80 | len(header)])]
    for key, value in header.items():
        parts += [pack(key), options if key == "options" else pack(value)]
    return b"".join(parts)


@pytest.mark.parametrize("entries", [2_000_000, 70_000, 65])
def test_header_with_a_huge_options_map(entries):
    """Why: "a header with a two-million-entry options map": over the frame limit, over the cap on
    one map, or over the header schema's; a typed error every time, in bounded memory."""
    size = (b"\xdf" + entries.to_bytes(4, "big")) if entries > 65_535 else (b"\xde" + entries.to_bytes(2, "big"))
    header = _header_bytes(_header(), size + b"".join(b"\xa8k%07d\x00" % i for i in range(entries)))
    for data in (plain([header] + payloads_of(golden(SMALL))[1:]), MAGIC + packed_frame([header])):
        log, peak = peak_memory(lambda: parse_log(data, check=True))
        assert isinstance(log.bad, (OverLimit, BadPayload, BadHeader)) and not log.games
        assert peak < 3 * len(data) + 64 * MiB
    assert isinstance(log.bad, BadHeader if entries <= 65_536 else (OverLimit, BadPayload))


@pytest.mark.parametrize("game, players", [("werewolves", 10**6), ("werewolves", 10**9), ("hanabi", 10**6), ("hanabi", 10**9)])
def test_header_with_a_million_or_a_billion_players(game, players):
    """Why: "a header with `players` = 10^6 or 10^9": the game's options model and the seat bound
    refuse it before any state is built."""
    stem = "werewolves-random-8p" if game == "werewolves" else SMALL
    header = _header(stem)
    header["options"] = {**header["options"], "players": players}
    (log, peak) = peak_memory(lambda: parse_log(_with_header(header, stem), check=True))
    assert isinstance(log.bad, BadHeader) and "players" in str(log.bad) and not log.games
    assert peak < 16 * MiB
    unchecked = parse_log(_with_header(header, stem)).games[0]
    with pytest.raises(BadHeader):
        show(unchecked)
    assert not verify_game(unchecked).ok


# -- a quarter of hostile-but-framed logs ended in a traceback ------------------------------------

@pytest.mark.parametrize("field", ["game", "agents", "seed", "game_id", "options", "format"])
def test_header_without_a_field(field):
    """Why: "a header without `game`, `agents` or `seed`"."""
    header = {k: v for k, v in _header().items() if k != field}
    data = _with_header(header)
    bad = _stops_with(data, LogError)
    assert isinstance(bad, BadHeader if field != "format" else BadRecord) and not parse_log(data, check=True).games
    if field != "format":
        game = parse_log(data).games[0]
        assert not verify_game(game).ok
        with pytest.raises(BadHeader):
            show(game)
    assert judge(data, originals(golden(SMALL))).verified == 0


@pytest.mark.parametrize("field, value", [
    ("options", [1, 2]), ("options", "players=2"), ("options", None), ("options", {"players": "2"}),
    ("options", {"players": 2.0}), ("options", {"players": True}), ("options", {"colour": "red"}),
    ("agents", "random"), ("agents", [1]), ("agents", [{"name": 3, "options": {}}]), ("agents", [{"name": "random"}]),
    ("agents", [{"name": "random", "options": []}] * 2), ("agents", [{"name": "random", "options": {}}] * 3),
    ("agents", [{"name": "random", "options": {}, "x": 1}] * 2), ("agents", []),
    ("seed", "1"), ("seed", 1.5), ("seed", True), ("seed", None), ("game", 7), ("game", "chess"), ("game_id", ""),
    ("fork", "yes"), ("fork", {"from": "g", "at": -1, "before": []}), ("extra", 1),
])
def test_header_fields_of_the_wrong_type(field, value):
    """Why: "options or agents of the wrong type"."""
    header = {**_header(), field: value}
    bad = _stops_with(_with_header(header), BadHeader)
    assert field in str(bad) or field in ("game",) or "seat" in str(bad)
    game = parse_log(_with_header(header)).games[0]
    assert not verify_game(game).ok
    with pytest.raises(BadHeader):
        show(game)


@pytest.mark.parametrize("drop", ["msg", "kind", "seq", "game", "cause"])
def test_record_without_msg_or_kind(drop):
    """Why: "a record without `msg` or `kind`"."""
    payloads = payloads_of(golden(SMALL))
    record = record_of(payloads[5])
    if drop == "kind":
        del record["msg"]["kind"]
    else:
        del record[drop]
    data = plain(payloads[:5] + [pack(record)] + payloads[6:])
    bad = _stops_with(data, BadRecord)
    assert parse_log(data, check=True).games[0].records[-1]["seq"] == 3  # the valid prefix stays readable
    game = parse_log(data).games[0]  # unchecked: the consumers check it first
    verdict = verify_game(game)
    assert not verdict.ok and verdict.offset == bad.offset
    with pytest.raises(BadRecord):
        show(game)


@pytest.mark.parametrize("ext", [b"\xd4\x05\x00", b"\xd6\xff\x00\x00\x00\x01", b"\xc7\x00\x07", b"\xd8\x01" + b"\0" * 16])
def test_msgpack_ext_type(ext):
    """Why: "a msgpack ext type" (an application ext, a timestamp, an empty ext)."""
    payloads = payloads_of(golden(SMALL))
    i = next(i for i, p in enumerate(payloads[1:], 1) if record_of(p)["msg"]["kind"] == "act")
    record = record_of(payloads[i])
    raw = pack(record)
    forged = raw.replace(pack(record["msg"]["action"]), ext, 1)  # an act's action as an ext value
    assert forged != raw
    data = plain(payloads[:i] + [forged] + payloads[i + 1 :])
    for check in (True, False):
        bad = _stops_with(data, BadPayload, check=check)
        assert "ext" in bad.reason


def test_two_frames_swapped_break_delta_decoding():
    """Why: "two frames swapped, which breaks delta decoding with a KeyError": the first
    observation sent to a player swapped with the next one to that player (a delta of it)."""
    payloads = payloads_of(golden(TALKY))
    records = [record_of(p) for p in payloads[1:]]
    to_p2 = [i + 1 for i, r in enumerate(records) if r["msg"]["kind"] == "act_request" and r["msg"]["to"] == "p2"]
    a, b = to_p2[:2]
    swapped = list(payloads)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    data = plain(swapped)
    unchecked = _stops_with(data, BadDelta, check=False)
    assert unchecked.seq == records[a - 1]["seq"]  # the whole one, arriving where a delta was due
    checked = _stops_with(data, OutOfOrder)  # checked: the seqs are out of order first
    assert checked.seq is not None and checked.seq < records[b - 1]["seq"]
    assert judge(data, originals(golden(TALKY))).verified == 0


def test_show_never_folds_past_an_out_of_order_record(capsys, tmp_path):
    """Why: "`replay show` folding past an out-of-order record": a step moved to the end of the
    game; show (from the library or the CLI) refuses it, one line."""
    from ops.cli import main

    payloads = payloads_of(golden(SMALL))
    records = [record_of(p) for p in payloads[1:]]
    step = next(i + 1 for i, r in enumerate(records) if r["msg"]["kind"] == "step")
    moved = payloads[:step] + payloads[step + 1 : -1] + [payloads[step], payloads[-1]]
    data = plain(moved)
    game = parse_log(data).games[0]
    with pytest.raises(OutOfOrder) as caught:
        show(game, at=records[-1]["seq"])
    assert caught.value.seq == records[step - 1]["seq"] and caught.value.offset is not None
    assert not verify_game(game).ok
    path = tmp_path / "moved.log"
    path.write_bytes(data)
    # the CLI reads checked: it keeps the prefix before the moved step, whose next step the rules
    # then refuse (a turn is missing): one line, exit 2, with the seq and offset
    assert main(["replay", "show", str(path), "--at", str(records[-1]["seq"])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refused by the hanabi rules" in err and "byte offset" in err and "Traceback" not in err


# -- verify / show DIR --game X reported on another game --------------------------------------------

def _swap_first_two(folder, rows):
    seg = folder / "logs" / rows[0]["segment"]
    data = seg.read_bytes()
    a, b = rows[0], rows[1]
    assert a["segment"] == b["segment"] and a["offset"] + a["nbytes"] == b["offset"]
    first, second = data[a["offset"] : b["offset"]], data[b["offset"] : b["offset"] + b["nbytes"]]
    seg.write_bytes(data[: a["offset"]] + second + first + data[b["offset"] + b["nbytes"] :])
    return seg


@pytest.mark.parametrize("compress", [True, False])
def test_index_read_checks_the_game_it_lands_on(tmp_path, compress):
    """Why: "`replay verify DIR --game X` and `replay show DIR --game X` can silently report on
    another game when a segment's frames were moved: the reader never checks the game id it was
    asked for". The index read names the game it expects and refuses any other."""
    rows = tournament_folder(tmp_path, 3, compress=compress)
    seg = _swap_first_two(tmp_path, rows)
    a, b = rows[0], rows[1]
    with pytest.raises(WrongGame) as caught:
        read_game_at(seg, a["offset"], game_id=a["game_id"])
    assert b["game_id"] in str(caught.value) and a["game_id"] in str(caught.value)
    game, bad = read_game_at(seg, a["offset"] + b["nbytes"], game_id=a["game_id"])  # where it went
    assert bad is None and verify_game(game).ok
    try:  # lands inside a frame now (or on game a, if the sizes agree)
        game, bad = read_game_at(seg, b["offset"], game_id=b["game_id"])
    except LogError:
        pass
    else:
        assert bad is not None and not verify_game(game, bad).ok
    game, bad = read_game_at(seg, rows[2]["offset"], game_id=rows[2]["game_id"])  # untouched
    assert bad is None and verify_game(game).ok


@pytest.mark.parametrize("command", ["verify", "show"])
def test_verify_and_show_dir_refuse_a_moved_game(tmp_path, capsys, command):
    from ops.cli import main

    rows = tournament_folder(tmp_path, 3)
    _swap_first_two(tmp_path, rows)
    code = main(["replay", command, str(tmp_path), "--game", rows[0]["game_id"]])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and rows[1]["game_id"] in err


@pytest.mark.parametrize("same", [True, False])
def test_packed_frame_holding_two_games_or_the_same_game_twice(tmp_path, capsys, same):
    """Why: "a packed frame holding two games, or the same game twice, verifies as '2 games'"."""
    from ops.cli import main

    one, other = payloads_of(golden(SMALL)), payloads_of(golden("hanabi-rational-1"))
    data = MAGIC + packed_frame(one + (one if same else other))
    log = parse_log(data)
    assert isinstance(log.bad, WrongGame) and log.bad.offset == len(MAGIC)
    assert ("the same game twice" if same else "more than one game") in log.bad.reason
    assert len(log.games) == 1 and not verify_game(log.games[0], log.bad).ok
    path = tmp_path / "two.log"
    path.write_bytes(data)
    assert main(["replay", "verify", str(path)]) != 0
    out, err = capsys.readouterr()
    assert "2 games" not in out and "ok" not in out and err.count("\n") == 1
    assert read_log(path).games[0].complete  # the first game itself is whole...
    game, bad = read_game_at(path, len(MAGIC))  # ...but the index read says the frame is bad
    assert isinstance(bad, WrongGame) and not verify_game(game, bad).ok
