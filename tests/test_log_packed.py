"""Packed games (issue 18, part 2): the "columns" method gives back every payload byte for byte,
is smaller than zlib, falls back to zlib where the readers' limits would refuse it, is chosen by
the tournament spec, and a committed segment of the zlib format stays readable."""

from __future__ import annotations

import hashlib
import io
import math
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bus import packed
from bus.codec import pack, unpack
from bus.errors import BadPacking, LogError, OverLimit
from bus.log import MAGIC, READ_MEMORY, PackedLogWriter, frame, iter_frames, parse_log, read_game_at, read_log
from replay.verify import verify_game
from tests.hostile.logs import peak_memory

DATA = Path(__file__).parent / "data"
GOLDEN = Path(__file__).parent / "golden"
# made by today's tournament runner (compress = true) before "columns" existed: 3 random
# 10-player Werewolves games, seed 18; the digest is of every payload, headers included, in order
ZLIB_SEGMENT = DATA / "zlib-format2-segment.dlog"
ZLIB_SEGMENT_GAMES = {"g00000000": 12, "g00000001": 9073, "g00000002": 17517}
ZLIB_SEGMENT_DIGEST = "558a754ebfde4d0191e117ba263d9d785219d2c035a8c6addbb209d30c14d3d1"


def _payloads(data: bytes) -> list[bytes]:
    frames, bad = iter_frames(data, len(MAGIC))
    assert bad is None
    return [p for _, p in frames]


def _packed(payloads: list[bytes], method: str) -> bytes:
    buf = io.BytesIO()
    writer = PackedLogWriter(buf, method=method)
    for p in payloads:
        writer.record(p)  # the header too: its payload as written
    writer.end_game()
    return buf.getvalue()


def _method(data: bytes) -> str:
    (_, outer), = iter_frames(data, len(MAGIC))[0]
    return unpack(outer)["packed"]


def test_the_committed_zlib_segment_stays_readable():
    log = read_log(ZLIB_SEGMENT)
    assert log.bad is None
    assert [g.header["game_id"] for g in log.games] == list(ZLIB_SEGMENT_GAMES)
    assert all(g.complete and g.header["format"] == 2 for g in log.games)
    digest = hashlib.sha256(b"".join(pack(g.header) + b"".join(g.payloads) for g in log.games)).hexdigest()
    assert digest == ZLIB_SEGMENT_DIGEST
    for game_id, offset in ZLIB_SEGMENT_GAMES.items():
        game, bad = read_game_at(ZLIB_SEGMENT, offset, game_id)
        assert bad is None and game.payloads == log.games[list(ZLIB_SEGMENT_GAMES).index(game_id)].payloads
    assert verify_game(log.games[0]).ok


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.log")), ids=lambda p: p.stem)
def test_columns_give_back_every_payload(path):
    data = path.read_bytes()
    plain = parse_log(data).games
    packed_data = _packed(_payloads(data), "columns")
    assert _method(packed_data) == "columns"
    log = parse_log(packed_data, check=True)
    assert log.bad is None
    (game,) = log.games
    assert (game.header, game.payloads, game.records) == (plain[0].header, plain[0].payloads, plain[0].records)


def test_columns_are_smaller_than_zlib_on_a_talky_game():
    data = (GOLDEN / "werewolves-random-8p.log").read_bytes()
    zlib_size = len(_packed(_payloads(data), "zlib"))
    columns_size = len(_packed(_payloads(data), "columns"))
    assert columns_size < 0.7 * zlib_size, (columns_size, zlib_size)


def test_a_game_the_columns_cannot_take_is_packed_with_zlib():
    data = (GOLDEN / "hanabi-random-2.log").read_bytes()
    payloads = _payloads(data)
    long = pack({"game": "x", "seq": 0, "cause": -1, "msg": {"blob": "x" * (packed.MAX_RECORD + 1)}})
    odd = b"\xcd\x00\x01"  # 1 as a 16-bit int: not canonical msgpack
    for extra in (long, odd):
        assert packed.encode(payloads[0], payloads[1:] + [extra]) is None
        out = _packed(payloads + [extra], "columns")
        assert _method(out) == "zlib"
    with pytest.raises(ValueError, match="unknown packing"):
        PackedLogWriter(io.BytesIO(), method="lzma")


FLOATS = [0.0, -0.0, 1.0, -1.5, 0.1, 1 / 3, 0.792787, 1e300, -2.5e-10, 5e-324, 2.0**70, 123456789.123,
          math.inf, -math.inf, math.nan, struct.unpack(">d", b"\x7f\xf8\x00\x00\x00\x00\x00\x01")[0]]


def test_floats_come_back_bit_for_bit():
    record = pack({"game": "g", "seq": 1, "cause": 0, "msg": {"values": FLOATS, "one": 0.5}})
    header = pack({"format": 2, "game": "g"})
    payloads = list(packed.decode(packed.encode(header, [record])))
    assert payloads == [header, record]
    again = unpack(payloads[1])["msg"]["values"]
    assert [struct.pack(">d", f) for f in again] == [struct.pack(">d", f) for f in FLOATS]


def test_decimal_floats_are_short():
    out = bytearray()
    packed._float(0.792787, out)
    assert len(out) == 4  # exponent -6 and 792787: 1 + 3 bytes, not msgpack's 9


LEAVES = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats() | st.text(max_size=8)
          | st.binary(max_size=4))
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=4) | st.sampled_from(["msg", "seq", "kind", "$d"]), inner, max_size=4), max_leaves=20)


@pytest.mark.slow  # ~7 s; in the default suite (CI), out of the quick subset
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(st.dictionaries(st.sampled_from(["game", "seq", "cause", "msg", "x"]), VALUES, max_size=5), max_size=6))
def test_any_records_round_trip(records):
    """Whatever maps of plain values a game holds, the columns give back their very bytes."""
    header = pack({"format": 2, "game": "g"})
    payloads = [pack(r) for r in records]
    blob = packed.encode(header, payloads)
    assert blob is not None
    assert list(packed.decode(blob)) == [header, *payloads]  # compress and inflate: the tests above


@pytest.mark.parametrize("damage", ["truncate", "extra", "count", "tag", "deep", "varint", "columns"])
def test_a_damaged_blob_is_a_typed_error(damage):
    header = pack({"format": 2, "game": "g"})
    records = [pack({"game": "g", "seq": i, "cause": i - 1, "msg": {"kind": "x", "v": [i, 0.5, "s"]}}) for i in range(3)]
    blob = bytearray(packed.encode(header, records))
    if damage == "truncate":
        del blob[-3:]
    elif damage == "extra":
        blob += b"\x00"
    elif damage == "count":  # more records than the blob holds
        blob[len(header) + 1] = 0x7F
    elif damage == "tag":  # a skeleton leaf that is no tag
        skeleton = pack({"a": 9})
        blob = bytearray([len(header)]) + header + b"\x01\x00" + bytes([len(skeleton)]) + skeleton
    elif damage == "deep":
        skeleton = b"\x91" * 2000 + b"\x00"
        blob = bytearray([len(header)]) + header + b"\x01\x01\x04"  # one record, one int column of 1 byte
        blob += bytes([len(skeleton) & 0x7F | 0x80, len(skeleton) >> 7]) + skeleton + b"\x00"
    elif damage == "columns":  # a column table that does not match the skeletons (one more, listed first)
        blob = bytearray(packed.encode(header, records))
        at = len(header) + 2  # the count of columns
        blob[at] += 1
        blob[at + 1 : at + 1] = b"\x00"  # an int column of no bytes
    else:  # a number not in its shortest form
        blob = bytearray([0x80 | len(header), 0x00]) + header + b"\x00"
    with pytest.raises(LogError):
        list(packed.decode(bytes(blob)))


def test_a_columns_bomb_stops_at_its_limit():
    bomb = packed.compress(b"\x00" * (packed.MAX_BLOB + 1024))
    assert len(bomb) < 8192
    with pytest.raises(OverLimit):
        packed.inflate(bomb)
    data = MAGIC + frame(pack({"packed": "columns", "data": bomb}))
    log, peak = peak_memory(lambda: parse_log(data))
    assert isinstance(log.bad, OverLimit) and log.bad.offset == len(MAGIC)
    assert peak < 2 * packed.MAX_BLOB < READ_MEMORY, f"{peak >> 20} MiB"


def test_a_columns_game_of_countless_empty_records_is_refused_at_once():
    """A 1 KB frame may not make a reader rebuild millions of one-byte records: the count is
    checked before any is built, and the writer packs a game of more records with zlib."""
    header = pack({"format": 2, "game": "g"})
    count = 4_000_000
    skeletons = b"".join([b"\x01\x80"] * count)  # each record an empty map
    blob = bytearray([len(header)]) + header
    for n in (count, 0):  # records, then no columns
        while n >= 0x80:
            blob.append(n & 0x7F | 0x80)
            n >>= 7
        blob.append(n)
    bomb = packed.compress(bytes(blob + skeletons))
    assert len(bomb) < 4096
    data = MAGIC + frame(pack({"packed": "columns", "data": bomb}))
    log = parse_log(data)
    assert isinstance(log.bad, OverLimit) and "records" in log.bad.reason
    assert not any(g.records for g in log.games)  # the header may be read; no record is built
    few = [pack({"game": "g", "seq": i, "cause": i - 1, "msg": {}}) for i in range(packed.MAX_RECORDS + 1)]
    assert packed.encode(header, few) is None and packed.encode(header, few[:-1]) is not None


def test_zlib_data_under_the_columns_name_is_refused():
    data = (GOLDEN / "hanabi-random-2.log").read_bytes()
    zlib_frame = _payloads(_packed(_payloads(data), "zlib"))[0]
    forged = MAGIC + frame(pack({"packed": "columns", "data": unpack(zlib_frame)["data"]}))
    log = parse_log(forged)
    assert isinstance(log.bad, BadPacking) and not log.games


def test_the_spec_picks_the_method(tmp_path):
    from ops.tournament.runner import BatchPlayer
    from ops.tournament.spec import SpecError, parse_spec

    base = {"game": "werewolves", "games": 3, "seed": 4, "lineup": [{"agent": "random", "count": 10}]}
    games = {}
    for compress in (True, "zlib", "columns", False):
        spec = parse_spec({**base, "compress": compress})
        player = BatchPlayer(str(tmp_path / str(compress)), spec.model_dump(mode="json"), "t-r001")
        rows = player.play([0, 1, 2])
        player.close()
        segment = tmp_path / str(compress) / "logs" / rows[0]["segment"]
        games[compress] = [read_game_at(segment, r["offset"], r["game_id"])[0] for r in rows]
        if compress:
            assert {_method(segment.read_bytes()[:len(MAGIC)] + segment.read_bytes()[r["offset"]:r["offset"] + r["nbytes"]])
                    for r in rows} == {"zstd" if compress is True else compress}
    assert ([g.payloads for g in games["columns"]] == [g.payloads for g in games[False]] == [g.payloads for g in games[True]]
            == [g.payloads for g in games["zlib"]])
    assert verify_game(games["columns"][0]).ok
    from replay.transcript import transcript

    assert [transcript(g) for g in games["columns"]] == [transcript(g) for g in games[True]]
    for bad in ("lzma", 1, "true"):
        with pytest.raises(SpecError):
            parse_spec({**base, "compress": bad})
