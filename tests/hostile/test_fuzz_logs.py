"""Random hostile logs (issue 12, part 5, the log half): corruptions of real logs and of real
tournament segments, generated hostile headers and records, and non-canonical encodings, made
with hypothesis. Every case ends in a clean read or a typed LogError (never a traceback), a game
that verifies ok is byte for byte one that was recorded (never a silent acceptance of a changed
log), and reading stays under the declared memory bound (bus.log READ_MEMORY, tracemalloc).

The cases are derandomized (the same ones every run); DETENTE_FUZZ_SCALE=N runs N times as many.
"""

from __future__ import annotations

import os
import struct
import tempfile
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bus import packed
from bus.codec import pack, unpack
from bus.errors import BadPayload, BadRecord, LogError
from bus.log import MAGIC, READ_MEMORY, frame, iter_frames, parse_log, read_game_at
from replay.verify import verify_game
from tests.hostile.logs import (
    SMALL,
    TALKY,
    Original,
    golden,
    judge,
    judge_unchecked,
    originals,
    packed_frame,
    payloads_of,
    peak_memory,
    plain,
    rss_rise,
    tournament_folder,
)

SCALE = float(os.environ.get("DETENTE_FUZZ_SCALE", "1"))
EXAMPLES = {  # cases per generator in the default run: 6,000 in all
    "damaged": 1300, "rearranged": 900, "changed": 1000, "loose": 400, "headers": 700, "records": 700,
    "packed": 600, "index": 400, "columns": 250, "zstd": 300,
}


def fuzz(name: str):
    return settings(max_examples=max(1, int(EXAMPLES[name] * SCALE)), deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# -- the real logs the cases start from ---------------------------------------------------------------

@lru_cache(maxsize=None)
def _folder(compress: bool | str) -> tuple[Path, tuple[dict, ...]]:
    out = Path(tempfile.mkdtemp(prefix=f"detente-fuzz-logs-{compress}-"))
    return out, tuple(tournament_folder(out, 3, compress=compress))


def _segment(compress: bool | str) -> bytes:
    out, rows = _folder(compress)
    return (out / "logs" / rows[0]["segment"]).read_bytes()


BASES = {
    "small": lambda: golden(SMALL),
    "talky": lambda: golden(TALKY),
    "packed segment": lambda: _segment("zlib"),
    "plain segment": lambda: _segment(False),
    "columns segment": lambda: _segment("columns"),
    "zstd segment": lambda: _segment("zstd"),
}
WEIGHTS = ["small"] * 5 + ["talky", "packed segment", "packed segment", "plain segment", "columns segment", "zstd segment"]


@lru_cache(maxsize=None)
def base(name: str) -> bytes:
    return BASES[name]()


@lru_cache(maxsize=1)
def known() -> frozenset[Original]:
    return frozenset(originals(*(base(n) for n in BASES)))


def _games_of(name: str) -> list[list[bytes]]:
    """Each game of a base as its list of payloads (header first): a fresh copy to change."""
    return [list(g) for g in _games(name)]


@lru_cache(maxsize=None)
def _games(name: str) -> tuple[tuple[bytes, ...], ...]:
    return tuple((pack(g.header), *g.payloads) for g in parse_log(base(name)).games)


def _outer(name: str) -> list[bytes]:
    """The payloads of a base's frames in file order (a packed segment: its packed frames)."""
    return list(_outer_frames(name))


@lru_cache(maxsize=None)
def _outer_frames(name: str) -> tuple[bytes, ...]:
    frames, bad = iter_frames(base(name), len(MAGIC))
    assert bad is None
    return tuple(p for _, p in frames)


@lru_cache(maxsize=1)
def _donors() -> tuple[bytes, ...]:
    """Frames of other games to splice in."""
    return tuple(p for other in BASES if other not in ("packed segment", "zstd segment") for g in _games(other) for p in g[:40])


def _check(data: bytes, unchecked: bool = True) -> None:
    judge(data, known())
    if unchecked:
        judge_unchecked(data)


# -- generated values: what msgpack can hold, and some of what it should not --------------------------

SCALARS = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.integers(-40, 300)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12) | st.binary(max_size=6)
           | st.sampled_from(["", "p0", "referee", "log", "act", "step", "game_end", "$d", "$a", "$v", "$k", "format"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
    st.text(max_size=6) | st.sampled_from(["$d", "$a", "$v", "$k", "kind", "to", "observation", "seq"]), inner, max_size=5),
    max_leaves=16)
RAW = st.binary(max_size=40) | st.sampled_from([
    b"", b"\xc1", b"\x80", b"\x90", b"\xdd\xff\xff\xff\xff", b"\xdf\xff\xff\xff\xff", b"\x91" * 1100 + b"\xc0",
    b"\x91" * 600 + b"\xc0", b"\xdc\xff\xff" * 64, b"\xd4\x05\x00", b"\xd6\xff\x00\x00\x00\x01", b"\xc7\x00\x07",
    b"\x81\xa1a\x01\x00", b"\x82\xa1a\x01\xa1a\x02", b"\x81\xc4\x01a\x01", b"\x81\x01\x02", b"\xa1\xff",
    b"\x84\xa4game\x01\xa3seq\x02\xa5cause\x03\xa3msg\x04",
])


@st.composite
def positions(draw, n: int, count: int = 1) -> list[int]:
    return [draw(st.integers(0, max(0, n - 1))) for _ in range(count)]


# -- 1. bytes damaged anywhere --------------------------------------------------------------------

@st.composite
def damaged(draw) -> bytes:
    data = bytearray(base(draw(st.sampled_from(WEIGHTS))))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "truncate", "repeat"]))
        at = draw(st.integers(0, len(data)))
        if op == "flip" and at < len(data):
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "set" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        elif op == "truncate":
            del data[at:]
        elif op == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 600))]
    return bytes(data)


@pytest.mark.slow  # ~6 s; in the default suite (CI), out of the quick subset
@fuzz("damaged")
@given(damaged())
def test_damaged_bytes(data):
    _check(data)


# -- 2. frames moved, dropped, repeated, swapped, spliced: every checksum right -------------------------

def _surgery(draw, payloads: list[bytes], donors: list[bytes]) -> list[bytes]:
    payloads = list(payloads)
    for _ in range(draw(st.integers(1, 3))):
        if not payloads:
            break
        i, j = draw(positions(len(payloads), 2))
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "move", "splice", "replace", "reverse"]))
        if op == "delete":
            del payloads[i]
        elif op == "duplicate":
            payloads.insert(j, payloads[i])
        elif op == "swap":
            payloads[i], payloads[j] = payloads[j], payloads[i]
        elif op == "move":
            payloads.insert(j, payloads.pop(i))
        elif op == "splice":
            payloads.insert(j, draw(st.sampled_from(donors)))
        elif op == "replace":
            payloads[i] = draw(st.sampled_from(donors))
        elif op == "reverse":
            lo, hi = min(i, j), max(i, j)
            payloads[lo : hi + 1] = payloads[lo : hi + 1][::-1]
    return payloads


@pytest.mark.slow  # in the default suite (CI), not the quick subset: the bulk of its time
@fuzz("rearranged")
@given(st.data())
def test_frames_rearranged(data):
    name = data.draw(st.sampled_from(["small", "small", "talky", "plain segment"]))
    _check(plain(_surgery(data.draw, _outer(name), list(_donors()))))


# -- 3. a value changed inside a frame, re-encoded canonically --------------------------------------

def _mutate(draw, item):
    """`item` with one value somewhere inside replaced, removed, added or retyped."""
    if isinstance(item, (dict, list)) and item and draw(st.integers(0, 3)):
        keys = list(item) if isinstance(item, dict) else list(range(len(item)))
        key = draw(st.sampled_from(keys))
        op = draw(st.sampled_from(["into", "into", "into", "replace", "delete", "add"]))
        if op == "into":
            item[key] = _mutate(draw, item[key])
        elif op == "replace":
            item[key] = draw(VALUES)
        elif op == "delete":
            del item[key]
        elif isinstance(item, dict):
            item[draw(st.text(max_size=8) | st.sampled_from(["msg", "kind", "$k", "$v", "extra"]))] = draw(VALUES)
        else:
            item.insert(key, draw(VALUES))
        return item
    if type(item) is int and not isinstance(item, bool):
        return draw(st.sampled_from([item + 1, item - 1, -item, float(item), str(item), True, 2**64 - 1, None]))
    if isinstance(item, float):
        return draw(st.sampled_from([int(item) if item == item and abs(item) < 1e18 else 0, item * 2, -item, str(item)]))
    if isinstance(item, str):
        return draw(st.sampled_from([item + "x", item[:-1], item.upper(), "", 0, [item], item.encode()]))
    return draw(VALUES)


@pytest.mark.slow  # in the default suite (CI), not the quick subset: the bulk of its time
@fuzz("changed")
@given(st.data())
def test_values_changed(data):
    name = data.draw(st.sampled_from(WEIGHTS))
    if name == "packed segment":
        games = _games_of(name)
        g = data.draw(st.integers(0, len(games) - 1))
        i = data.draw(st.integers(0, len(games[g]) - 1))
        games[g][i] = _repacked(data.draw, games[g][i])
        _check(MAGIC + b"".join(packed_frame(p) for p in games))
        return
    payloads = _outer(name)
    i = data.draw(st.integers(0, len(payloads) - 1))
    payloads[i] = _repacked(data.draw, payloads[i])
    _check(plain(payloads))


def _repacked(draw, payload: bytes) -> bytes:
    try:
        return pack(_mutate(draw, unpack(payload)))
    except (OverflowError, ValueError, TypeError):  # a value msgpack cannot hold: the frame's bytes scrambled instead
        return payload[::-1]


# -- 4. the same values in an encoding our writer never makes ------------------------------------------

def _loose(draw, value) -> bytes:
    """msgpack of `value`, each length and number in a wider form than needed when drawn so."""
    wide = draw(st.integers(0, 6)) == 0
    if value is None or isinstance(value, bool):
        return pack(value)
    if isinstance(value, int):
        if wide and 0 <= value < 2**32:
            return b"\xce" + struct.pack(">I", value)
        if wide and -(2**31) <= value < 0:
            return b"\xd2" + struct.pack(">i", value)
        return pack(value)
    if isinstance(value, float):
        if wide and struct.unpack(">f", struct.pack(">f", value))[0] == value:
            return b"\xca" + struct.pack(">f", value)
        return pack(value)
    if isinstance(value, str):
        raw = value.encode()
        return b"\xda" + struct.pack(">H", len(raw)) + raw if wide and len(raw) < 65536 else pack(value)
    if isinstance(value, bytes):
        return b"\xc6" + struct.pack(">I", len(value)) + value if wide else pack(value)
    if isinstance(value, list):
        head = b"\xdd" + struct.pack(">I", len(value)) if wide else _array_head(len(value))
        return head + b"".join(_loose(draw, v) for v in value)
    if isinstance(value, dict):
        head = b"\xdf" + struct.pack(">I", len(value)) if wide else _map_head(len(value))
        return head + b"".join(_loose(draw, k) + _loose(draw, v) for k, v in value.items())
    return pack(value)


def _array_head(n: int) -> bytes:
    return bytes([0x90 | n]) if n < 16 else b"\xdc" + struct.pack(">H", n) if n < 65536 else b"\xdd" + struct.pack(">I", n)


def _map_head(n: int) -> bytes:
    return bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n) if n < 65536 else b"\xdf" + struct.pack(">I", n)


@pytest.mark.slow  # in the default suite (CI), not the quick subset: the bulk of its time
@fuzz("loose")
@given(st.data())
def test_non_canonical_encodings(data):
    name = data.draw(st.sampled_from(["small", "small", "talky", "plain segment"]))
    payloads = _outer(name)
    offsets = [o for o, _ in iter_frames(base(name), len(MAGIC))[0]]
    i = data.draw(st.integers(0, len(payloads) - 1))
    loose = _loose(data.draw, unpack(payloads[i]))
    if loose == payloads[i]:
        return  # every choice was the canonical one: nothing changed
    payloads[i] = loose
    forged = plain(payloads)
    at = offsets[i]
    for check in (False, True):
        log = parse_log(forged, check=check)
        assert isinstance(log.bad, (BadPayload, BadRecord)) and log.bad.offset == at, (log.bad, at)
    _check(forged, unchecked=False)


# -- 5. generated hostile headers -----------------------------------------------------------------------

HEADER_FIELDS = ["format", "game", "game_id", "seed", "options", "agents", "code_version", "fork", "limits", "env", "extra"]


@st.composite
def hostile_header(draw) -> bytes:
    name = draw(st.sampled_from(["small", "small", "talky"]))
    payloads = _outer(name)
    header = unpack(payloads[0])
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.sampled_from(HEADER_FIELDS))
        op = draw(st.sampled_from(["drop", "value", "value", "option", "agents", "players"]))
        if op == "drop":
            header.pop(field, None)
        elif op == "value":
            header[field] = draw(VALUES)
        elif op == "option":
            options = header.get("options") if isinstance(header.get("options"), dict) else {}
            key = draw(st.sampled_from(["players", "hand_size", "werewolves", "max_days", "tie_rule", "colour"]) | st.text(max_size=5))
            header["options"] = {**options, key: draw(VALUES | st.integers(-5, 70) | st.sampled_from([10**6, 10**9, 2**63]))}
        elif op == "agents":
            spec = draw(st.fixed_dictionaries({"name": st.sampled_from(["random", "rational", "rando", ""]) | VALUES,
                                               "options": st.dictionaries(st.text(max_size=5), VALUES, max_size=3) | VALUES}))
            header["agents"] = [spec] * draw(st.sampled_from([0, 1, 2, 3, 8, 65]))
        else:
            players = draw(st.sampled_from([0, 1, 2, 3, 5, 6, 64, 65, 10**6, 10**9, 2**64 - 1]))
            header["options"] = {**(header.get("options") if isinstance(header.get("options"), dict) else {}), "players": players}
            if draw(st.booleans()):
                header["agents"] = [{"name": "random", "options": {}}] * min(players, 100)
    try:
        first = pack(header)
    except (OverflowError, ValueError, TypeError):
        first = pack({"format": 2})
    return plain([first] + payloads[1:])


@pytest.mark.slow  # in the default suite (CI), not the quick subset: the bulk of its time
@fuzz("headers")
@given(hostile_header())
def test_hostile_headers(data):
    _check(data)


# -- 6. generated hostile records ------------------------------------------------------------------------

@st.composite
def hostile_record(draw, game_id: str, seqs: int) -> bytes:
    kind = draw(st.sampled_from(["raw", "value", "shell", "delta", "message"]))
    if kind == "raw":
        return draw(RAW)
    if kind == "value":
        value = draw(VALUES)
    else:
        seq, cause = draw(st.integers(-2, seqs + 2)), draw(st.integers(-3, seqs + 2))
        msg = draw(st.dictionaries(st.sampled_from(["kind", "sender", "to", "observation", "view", "action", "turn",
                                                   "digest", "outcome", "actions", "step", "lines", "says"]), VALUES, max_size=6))
        if kind != "shell":
            msg["kind"] = draw(st.sampled_from(["act_request", "talk_turn", "office_request", "act", "step", "chance",
                                                "game_end", "talk_round", "heard", "error", "fault", "nonsense"]))
            msg.setdefault("to", draw(st.sampled_from(["p0", "p1", "p1/so", "referee", "log"])))
        if kind == "delta":
            delta = draw(st.sampled_from([{"$d": draw(VALUES)}, {"$a": draw(VALUES)}, {"$v": draw(VALUES)},
                                          {"$d": {}, "$k": draw(VALUES)}, draw(VALUES)]))
            msg[draw(st.sampled_from(["observation", "view"]))] = delta
        value = {"game": draw(st.sampled_from([game_id, game_id, "other", 7])), "seq": seq, "cause": cause, "msg": msg}
    try:
        return pack(value)
    except (OverflowError, ValueError, TypeError):
        return b"\xc1"


@pytest.mark.slow  # in the default suite (CI), not the quick subset: the bulk of its time
@fuzz("records")
@given(st.data())
def test_hostile_records(data):
    name = data.draw(st.sampled_from(["small", "small", "talky"]))
    payloads = _outer(name)
    game_id = unpack(payloads[0])["game_id"]
    for _ in range(data.draw(st.integers(1, 3))):
        forged = data.draw(hostile_record(game_id, len(payloads)))
        at = data.draw(st.integers(1, len(payloads)))
        if data.draw(st.booleans()) and at < len(payloads):
            payloads[at] = forged
        else:
            payloads.insert(at, forged)
    _check(plain(payloads))


# -- 7. packed games: their inner frames, their compressed stream, their envelope -----------------------

@st.composite
def packed_damage(draw) -> bytes:
    games = _games_of("packed segment")
    outer = _outer("packed segment")
    g = draw(st.integers(0, len(games) - 1))
    op = draw(st.sampled_from(["inner", "inner", "merge", "level", "stream", "envelope", "raw"]))
    if op == "inner":  # frames inside one packed game rearranged, then packed again
        donors = [p for game in games for p in game[:30]]
        outer[g] = packed_frame(_surgery(draw, games[g], donors))[8:]
    elif op == "merge":  # two games (or one twice) in one packed frame
        h = draw(st.integers(0, len(games) - 1))
        outer[g] = packed_frame(games[g] + games[h])[8:]
    elif op == "level":  # the same frames compressed otherwise: the same game, which may verify
        outer[g] = packed_frame(games[g], level=draw(st.integers(0, 9)))[8:]
    elif op == "stream":
        stream = bytearray(unpack(outer[g])["data"])
        at = draw(st.integers(0, len(stream)))
        how = draw(st.sampled_from(["truncate", "append", "flip", "raw deflate", "gzip"]))
        if how == "truncate":
            del stream[at:]
        elif how == "append":
            stream += draw(st.binary(min_size=1, max_size=8)) if draw(st.booleans()) else zlib.compress(b"x")
        elif how == "flip" and at < len(stream):
            stream[at] ^= 1 << draw(st.integers(0, 7))
        else:
            frames = b"".join(frame(p) for p in games[g])
            wbits = -15 if how == "raw deflate" else 31
            packer = zlib.compressobj(6, zlib.DEFLATED, wbits)
            stream = bytearray(packer.compress(frames) + packer.flush())
        outer[g] = pack({"packed": "zlib", "data": bytes(stream)})
    elif op == "envelope":
        data = unpack(outer[g])["data"]
        outer[g] = pack(draw(st.sampled_from([
            {"packed": "lzma", "data": data}, {"packed": "zlib", "data": data, "x": 1}, {"data": data, "packed": "zlib"},
            {"packed": "zlib", "data": data.decode("latin-1")}, {"packed": "zlib"}, {"packed": None, "data": data},
            {"packed": "zlib", "data": [data]}])))
    else:
        outer[g] = draw(RAW)
    return MAGIC + b"".join(frame(p) for p in outer)


@pytest.mark.slow  # in the default suite (CI), not the quick subset: the bulk of its time
@fuzz("packed")
@given(packed_damage())
def test_packed_games(data):
    _check(data)


# -- 7b. games packed by column (bus.packed): their blob, its compressed stream, their envelope ------------

@st.composite
def columns_damage(draw) -> bytes:
    games = _games_of("columns segment")
    outer = _outer("columns segment")
    g = draw(st.integers(0, len(games) - 1))
    op = draw(st.sampled_from(["blob", "blob", "blob", "stream", "envelope", "forged", "merge"]))
    if op == "blob":  # the inflated blob damaged, then compressed again: the damage reaches the decoder
        blob = _damage_segment(draw, packed.inflate(unpack(outer[g])["data"]))
        outer[g] = pack({"packed": "columns", "data": packed.compress(bytes(blob))})
    elif op == "stream":
        stream = _damage_segment(draw, unpack(outer[g])["data"])
        outer[g] = pack({"packed": "columns", "data": bytes(stream)})
    elif op == "envelope":
        data = unpack(outer[g])["data"]
        zlib_data = zlib.compress(b"".join(frame(p) for p in games[g]))
        outer[g] = pack(draw(st.sampled_from([
            {"packed": "zlib", "data": data}, {"packed": "columns", "data": zlib_data},
            {"packed": "columns", "data": data, "x": 1}, {"data": data, "packed": "columns"},
            {"packed": "columns", "data": data.decode("latin-1")}, {"packed": "columns"}])))
    elif op == "forged":  # records the writer would take apart, but hostile ones
        game_id = unpack(games[g][0]).get("game_id", "g")
        records = [hostile_record_values(draw, game_id) for _ in range(draw(st.integers(0, 6)))]
        blob = packed.encode(games[g][0], games[g][1 : draw(st.integers(1, 8))] + records)
        outer[g] = draw(RAW) if blob is None else pack({"packed": "columns", "data": packed.compress(blob)})
    else:  # two games' records in one blob (or one game twice)
        h = draw(st.integers(0, len(games) - 1))
        blob = packed.encode(games[g][0], games[g][1:] + games[h])
        outer[g] = pack({"packed": "columns", "data": packed.compress(blob)})
    return MAGIC + b"".join(frame(p) for p in outer)


def hostile_record_values(draw, game_id: str) -> bytes:
    return pack(draw(st.fixed_dictionaries({"game": st.sampled_from([game_id, "other"]), "seq": st.integers(-2, 400),
                                            "cause": st.integers(-2, 400), "msg": VALUES})))


@pytest.mark.slow  # in the default suite (CI), not the quick subset: the bulk of its time
@fuzz("columns")
@given(columns_damage())
def test_columns_games(data):
    _check(data)


def test_columns_segment_is_columns():
    """The columns base really holds games packed by column (else the cases above test zlib)."""
    assert all(unpack(p)["packed"] == "columns" for p in _outer("columns segment"))


# -- 7c. games packed with zstd: their inner frames, their Zstandard frame, their envelope -----------------

def _zstd(data: bytes, **options: Any) -> bytes:
    return zstandard.ZstdCompressor(**{"write_content_size": True, **options}).compress(data)


@st.composite
def zstd_damage(draw) -> bytes:
    games = _games_of("zstd segment")
    outer = _outer("zstd segment")
    g = draw(st.integers(0, len(games) - 1))
    framed = b"".join(frame(p) for p in games[g])
    op = draw(st.sampled_from(["inner", "inner", "merge", "encoded", "stream", "stream", "envelope"]))
    if op == "inner":  # frames inside one packed game rearranged, then packed again
        donors = [p for game in games for p in game[:30]]
        data = _zstd(b"".join(frame(p) for p in _surgery(draw, games[g], donors)))
    elif op == "merge":  # two games (or one twice) in one packed frame
        h = draw(st.integers(0, len(games) - 1))
        data = _zstd(framed + b"".join(frame(p) for p in games[h]))
    elif op == "encoded":  # the same frames encoded otherwise: some are the same game, which may verify
        how = draw(st.sampled_from(["level", "checksum", "no size", "two frames", "skippable first", "skippable after"]))
        if how == "level":
            data = _zstd(framed, level=draw(st.integers(-5, 19)))
        elif how == "checksum":
            data = _zstd(framed, write_checksum=True)
        elif how == "no size":
            data = _zstd(framed, write_content_size=False)
        elif how == "two frames":
            at = draw(st.integers(0, len(framed)))
            data = _zstd(framed[:at]) + _zstd(framed[at:])
        else:  # a skippable frame (magic 0x184D2A50, its length, its bytes) before or after the game's
            skip = (0x184D2A50 + draw(st.integers(0, 15))).to_bytes(4, "little") + (4).to_bytes(4, "little") + b"skip"
            data = skip + _zstd(framed) if how == "skippable first" else _zstd(framed) + skip
    elif op == "stream":
        data = bytes(_damage_segment(draw, unpack(outer[g])["data"]))
    else:
        zstd_data, zlib_data = unpack(outer[g])["data"], zlib.compress(framed)
        outer[g] = pack(draw(st.sampled_from([
            {"packed": "zlib", "data": zstd_data}, {"packed": "zstd", "data": zlib_data},
            {"packed": "columns", "data": zstd_data}, {"packed": "zstd", "data": zstd_data, "x": 1},
            {"data": zstd_data, "packed": "zstd"}, {"packed": "zstd", "data": zstd_data.decode("latin-1")},
            {"packed": "zstd"}, {"packed": "zstd", "data": [zstd_data]}])))
        return MAGIC + b"".join(frame(p) for p in outer)
    outer[g] = pack({"packed": "zstd", "data": data})
    return MAGIC + b"".join(frame(p) for p in outer)


@pytest.mark.slow  # in the default suite (CI), not the quick subset: the bulk of its time
@fuzz("zstd")
@given(zstd_damage())
def test_zstd_games(data):
    _check(data)


def test_zstd_segment_is_zstd():
    """The zstd base really holds games packed with zstd (else the cases above test another method)."""
    assert all(unpack(p)["packed"] == "zstd" for p in _outer("zstd segment"))


# -- 8. the index read: the game asked for, or a typed error ----------------------------------------------

@pytest.mark.slow  # in the default suite (CI), not the quick subset: the bulk of its time
@fuzz("index")
@given(st.data())
def test_index_reads(data):
    compress = data.draw(st.booleans())
    out, rows = _folder(compress)
    original = _segment(compress)
    if data.draw(st.booleans()):
        forged = bytes(_damage_segment(data.draw, original))
    else:
        games = _outer("packed segment" if compress else "plain segment")
        forged = plain(_surgery(data.draw, games, games))
    path = out / "logs" / "forged.dlog"
    path.write_bytes(forged)
    by_id = {g.header["game_id"]: Original.of(g) for g in parse_log(original).games}
    for i, row in enumerate(rows):
        measure = peak_memory if i == 0 else rss_rise
        try:
            (game, bad), peak = measure(lambda: read_game_at(path, row["offset"], game_id=row["game_id"]))
        except LogError:
            continue
        assert peak < READ_MEMORY
        assert game.header["game_id"] == row["game_id"]
        if bad is None and Original.of(game) == by_id[row["game_id"]]:
            continue  # the game as recorded
        assert not verify_game(game, bad).ok, "the index read a changed game that verifies"


def _damage_segment(draw, data: bytes) -> bytearray:
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        op = draw(st.sampled_from(["flip", "delete", "insert", "truncate"]))
        if op == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 32))]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        else:
            del data[at:]
    return data


def test_the_suite_has_its_cases():
    """At least 5,000 generated cases in the default run (issue 12, "Must show")."""
    assert sum(EXAMPLES.values()) >= 5000
