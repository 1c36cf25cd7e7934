"""The "columns" packing of one game: its records taken apart by field, then LZMA2-compressed.

A game's records are maps of maps and lists whose leaves repeat by field: the same power names,
orders and trust values under the same keys record after record. Stored one record after the
other, a compressor sees them interleaved; stored by field ("columns", one per path of keys from
the record's root, list items sharing their list's path), like values sit together and compress
several times better (README, Benchmarks: bytes per game).

The data of a `{"packed": "columns", "data": ...}` frame is LZMA2 (raw, a fixed 8 MiB dictionary)
of a blob laid out as (varints are unsigned LEB128):

    varint n, the header payload (n bytes, as a plain writer writes it)
    varint count of records, varint count of columns
    for each column, in the order the skeletons first use it: varint (its bytes << 2 | its tag)
    for each record: varint n, its skeleton (msgpack: the record with each int, float, str and
              bin leaf replaced by its tag 0, 1, 2, 3; nil and booleans stay)
    each column's values, back to back, the columns ordered by tag, then by first use (a
    column is a (path, tag): the path of keys from the record's root, a list's items sharing
    one; paths and columns are numbered by first use, by writer and reader alike). Ints as
    zigzag varints of the change from the column's previous int, floats as their shortest
    decimal (varint zigzag exponent + 1, varint zigzag digits; or 0 and the 8 bytes msgpack
    stores, for nan, inf, -0.0 and the rest), str and bin as varint length + bytes

Decoding rebuilds each record and packs it: the very payload bytes the game was written with (the
writer checks every payload is canonical msgpack, and falls back to zlib when one is not). The
reader trusts none of it: the blob is inflated within MAX_BLOB, every count, length and varint is
bounded by the bytes left, skeletons are decoded within caps (bus.codec.Budget) and a record is
rebuilt within RECORD_MEMORY, the path tree within TREE_MEMORY, the columns must be used up
exactly, and every rebuilt payload goes through the same checks as a plain game's frames. The
writer packs a game this way only where the reader's limits hold for it (`encode` says None
otherwise: MAX_RECORD, MAX_BLOB, TREE_MEMORY, MAX_COLUMNS, MAX_RECORDS).
"""

from __future__ import annotations

import lzma
import struct
import sys
from typing import Any, Iterator

from bus.codec import Budget, pack, unpack
from bus.errors import BadFrame, BadPacking, OverLimit

METHOD = "columns"
MAX_BLOB = 16 * 1024 * 1024  # the inflated blob of one game (ours: a 5 MB AlphaDip game is ~2.5 MB)
MAX_RECORD = 64 * 1024  # the longest payload the writer packs this way (ours: the longest real one is 7.4 KB)
RECORD_MEMORY = 8 * 1024 * 1024  # heap one record may take while it is rebuilt (80x MAX_RECORD, its values)
TREE_MEMORY = 8 * 1024 * 1024  # heap of one game's path tree (ours: AlphaDip's 3,300 nodes take ~0.5 MiB)
MAX_COLUMNS = 1 << 16  # columns of one game (ours: AlphaDip's 1,800)
# records of one game packed this way: a record's skeleton may be one byte, so without it a 1 KB
# frame could make a reader rebuild and check millions of empty records (~80 s of CPU); with it a
# forged game costs at most a few seconds (ours: a 200-round random Risk game ~20,000 records)
MAX_RECORDS = 1 << 18
_NODE_COST = 160  # heap per tree node besides its key: a dict slot, a tuple, an int
PRESET = 6
_DICT = 8 * 1024 * 1024  # LZMA2 dictionary: preset 6's; fixed, so a stream cannot ask for more memory
# nice_len 128 and pb 0 (byte-aligned data): 4% fewer bytes than preset 6 alone on an AlphaDip
# game at the same CPU (ops.bench.bytes; nice_len 273 saves 3% more at twice the CPU)
_FILTER = {"id": lzma.FILTER_LZMA2, "preset": PRESET, "nice_len": 128, "pb": 0}
_READ_FILTERS = [{"id": lzma.FILTER_LZMA2, "dict_size": _DICT}]
_INT, _FLOAT, _STR, _BIN = 0, 1, 2, 3
_F64 = struct.Struct(">d")
_IN_CHUNK = 1 << 16  # compressed bytes fed to the inflater at a time
_OUT_CHUNK = 1 << 18  # the most it hands back at a time (so the blob is the only big buffer)


# --- varints ------------------------------------------------------------------------------------

def _varint(n: int, out: bytearray) -> None:
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _read_varint(data: bytes | memoryview, pos: int, limit: int = 10) -> tuple[int, int]:
    """(value, next position); BadPacking past the data or past `limit` bytes (10: 70 bits)."""
    if pos < len(data) and data[pos] < 0x80:
        return data[pos], pos + 1
    n = shift = 0
    for i in range(limit):
        if pos >= len(data):
            raise BadPacking(None, "packed game ends inside a number")
        b = data[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            if b == 0 and i:
                raise BadPacking(None, "packed game holds a number not in its shortest form")
            return n, pos
        shift += 7
    raise BadPacking(None, "packed game holds a number longer than it may be")


# --- writing ------------------------------------------------------------------------------------

class _Columns:
    """The path tree and columns of one game as its records are taken apart."""

    def __init__(self) -> None:
        self.nodes: dict[tuple[int, Any], int] = {}
        self.tree_heap = 0
        self.columns: dict[tuple[int, int], int] = {}
        self.data: list[bytearray] = []
        self.tags: list[int] = []
        self.last_int: list[int] = []

    def _child(self, node: int, key: Any) -> int:
        child = self.nodes.get((node, key))
        if child is None:
            child = self.nodes[(node, key)] = len(self.nodes) + 1
            self.tree_heap += _node_heap(key)
        return child

    def _column(self, node: int, tag: int) -> int:
        col = self.columns.get((node, tag))
        if col is None:
            col = self.columns[(node, tag)] = len(self.data)
            self.data.append(bytearray())
            self.tags.append(tag)
            self.last_int.append(0)
        return col

    def take(self, value: Any, node: int) -> Any:
        """The skeleton of `value` (its leaves sent to their columns); leaves are handled in
        their container's loop (most of a record is leaves: a call each would double the cost)."""
        t = type(value)
        if t is dict:
            nodes, out = self.nodes, {}
            for k, v in value.items():
                child = nodes.get((node, k))
                if child is None:
                    child = self._child(node, k)
                tv = type(v)
                out[k] = self.take(v, child) if tv is dict or tv is list else self._leaf(v, tv, child)
            return out
        if t is list:
            if not value:
                return []
            item = self._child(node, None)
            leaf, take = self._leaf, self.take
            return [take(v, item) if type(v) is dict or type(v) is list else leaf(v, type(v), item) for v in value]
        return self._leaf(value, t, node)

    def _leaf(self, value: Any, t: type, node: int) -> Any:
        if t is str:
            raw = value.encode("utf-8")
            col = self.columns.get((node, _STR))
            out = self.data[col if col is not None else self._column(node, _STR)]
            n = len(raw)
            if n < 0x80:
                out.append(n)
            else:
                _varint(n, out)
            out += raw
            return _STR
        if t is int:
            col = self.columns.get((node, _INT))
            if col is None:
                col = self._column(node, _INT)
            delta = value - self.last_int[col]
            self.last_int[col] = value
            _varint(delta << 1 if delta >= 0 else (-delta << 1) - 1, self.data[col])
            return _INT
        if t is float:
            _float(value, self.data[self._column(node, _FLOAT)])
            return _FLOAT
        if t is bytes:
            out = self.data[self._column(node, _BIN)]
            _varint(len(value), out)
            out += value
            return _BIN
        return value  # None, True, False


def _node_heap(key: Any) -> int:
    return _NODE_COST + (sys.getsizeof(key) if key is not None else 0)


def _float(value: float, out: bytearray) -> None:
    """A float as its shortest decimal (zigzag exponent + 1, zigzag digits: our agents round
    to 6 places, so most take 4 bytes), or 0 and its 8 bytes where that would not give it back."""
    text = repr(value)
    digits, _, exp = text.partition("e")
    whole, _, frac = digits.partition(".")
    if frac == "0":
        frac = ""
    try:
        mantissa, exponent = int(whole + frac), int(exp or 0) - len(frac)
    except ValueError:  # nan, inf
        mantissa = exponent = None
    if mantissa is None or text.startswith("-0") and not mantissa or -400 > exponent or exponent > 400 \
            or float(f"{mantissa}e{exponent}") != value:
        out.append(0)
        out += _F64.pack(value)
        return
    _varint((exponent << 1 if exponent >= 0 else (-exponent << 1) - 1) + 1, out)
    _varint(mantissa << 1 if mantissa >= 0 else (-mantissa << 1) - 1, out)


def encode(header: bytes, payloads: list[bytes]) -> bytes | None:
    """The blob of one game (module doc), or None when the reader's limits would refuse it or a
    payload is not canonical msgpack of maps, lists and plain values (pack the game otherwise)."""
    cols = _Columns()
    skeletons = bytearray()
    for payload in payloads:
        if len(payload) > MAX_RECORD:
            return None
        try:
            item = unpack(payload)
        except Exception:
            return None
        if type(item) is not dict or pack(item) != payload:
            return None
        try:
            skeleton = pack(cols.take(item, 0))
        except RecursionError:
            return None
        _varint(len(skeleton), skeletons)
        skeletons += skeleton
    if cols.tree_heap > TREE_MEMORY or len(cols.data) > MAX_COLUMNS or len(payloads) > MAX_RECORDS:
        return None
    blob = bytearray()
    _varint(len(header), blob)
    blob += header
    _varint(len(payloads), blob)
    _varint(len(cols.data), blob)
    for data, tag in zip(cols.data, cols.tags):
        _varint(len(data) << 2 | tag, blob)
    blob += skeletons
    for col in sorted(range(len(cols.data)), key=lambda c: (cols.tags[c], c)):
        blob += cols.data[col]
    return bytes(blob) if len(blob) <= MAX_BLOB else None


def compress(blob: bytes) -> bytes:
    """LZMA2, its dictionary no larger than the blob needs (a smaller one is quicker to set up;
    the reader's 8 MiB one reads any)."""
    size = min(_DICT, max(1 << 16, 1 << max(0, len(blob) - 1).bit_length()))
    return lzma.compress(blob, format=lzma.FORMAT_RAW, filters=[{**_FILTER, "dict_size": size}])


# --- reading ------------------------------------------------------------------------------------

def inflate(data: bytes | memoryview) -> bytearray:
    """The blob of a packed game's data, within MAX_BLOB (BadPacking / OverLimit, no offset)."""
    inflater = lzma.LZMADecompressor(format=lzma.FORMAT_RAW, filters=_READ_FILTERS)
    out = bytearray()
    fed = 0
    while not inflater.eof:
        if inflater.needs_input:
            if fed >= len(data):
                raise BadPacking(None, "compressed data ends before its stream does")
            chunk, fed = data[fed : fed + _IN_CHUNK], fed + _IN_CHUNK
        else:
            chunk = b""
        try:
            out += inflater.decompress(chunk, min(_OUT_CHUNK, MAX_BLOB + 1 - len(out)))
        except lzma.LZMAError as exc:
            raise BadPacking(None, f"packed game does not decompress ({exc})") from None
        if len(out) > MAX_BLOB:
            raise OverLimit(None, f"packed game inflates past {MAX_BLOB >> 20} MiB (limit of one game's columns)")
    if inflater.unused_data or fed < len(data):
        raise BadPacking(None, "packed frame has bytes after its compressed stream")
    return out  # not copied to bytes: the blob is the largest thing a read holds


class _Cursor:
    """Reads one column's values in order, within its bytes."""

    __slots__ = ("data", "pos", "end", "tag", "last")

    def __init__(self, data: bytes | bytearray, pos: int, end: int, tag: int):
        self.data, self.pos, self.end, self.tag, self.last = data, pos, end, tag, 0

    def next(self) -> Any:
        data, tag, pos, end = self.data, self.tag, self.pos, self.end
        if pos >= end:
            raise BadPacking(None, "packed game's column holds fewer values than its records use")
        n = data[pos]
        if n < 0x80:
            pos += 1
        else:
            n, pos = _read_varint(data, pos)
            if pos > end:
                raise BadPacking(None, "packed game's column ends inside a number")
        if tag == _INT:
            self.pos = pos
            self.last += (n >> 1) if not n & 1 else -((n + 1) >> 1)
            return self.last
        if tag == _FLOAT:
            if n == 0:
                if end - pos < 8:
                    raise BadPacking(None, "packed game's column ends inside a float")
                self.pos = pos + 8
                return _F64.unpack_from(data, pos)[0]
            m, pos = _read_varint(data, pos)
            if pos > end or n > 801:
                raise BadPacking(None, "packed game's column holds a float it cannot hold")
            self.pos = pos
            n -= 1
            return float(f"{(m >> 1) if not m & 1 else -((m + 1) >> 1)}e{(n >> 1) if not n & 1 else -((n + 1) >> 1)}")
        if n > end - pos:
            raise BadPacking(None, "packed game's column ends inside a string")
        self.pos = pos + n
        raw = data[pos : pos + n]
        if tag == _BIN:
            return bytes(raw)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadPacking(None, "packed game's column holds a string that is not UTF-8") from None


class _Game:
    """One blob's path tree and column cursors, numbered as the writer numbers them (in the
    order the skeletons first use them)."""

    def __init__(self, blob: bytes | bytearray, columns: list[tuple[int, int, int]]):
        self.blob = blob
        self.table = columns  # (tag, start, end) of each column, in the order of first use
        self.nodes: dict[tuple[int, Any], int] = {}
        self.cursors: dict[tuple[int, int], _Cursor] = {}
        self.tree = Budget(TREE_MEMORY)

    def child(self, node: int, key: Any) -> int:
        child = self.nodes.get((node, key))
        if child is None:
            try:
                self.tree.charge(_node_heap(key))
            except OverLimit:
                raise OverLimit(None, f"packed game's path tree takes more than {TREE_MEMORY >> 20} MiB") from None
            child = self.nodes[(node, key)] = len(self.nodes) + 1
        return child

    def cursor(self, node: int, tag: int) -> _Cursor:
        if not 0 <= tag <= _BIN:
            raise BadPacking(None, "packed game's record skeleton holds a value, not a tag")
        n = len(self.cursors)
        if n >= len(self.table) or self.table[n][0] != tag:
            raise BadPacking(None, "packed game's record skeleton uses a column its table does not list")
        _, start, end = self.table[n]
        cursor = self.cursors[(node, tag)] = _Cursor(self.blob, start, end, tag)
        return cursor

    def build(self, skeleton: Any, node: int, budget: Budget) -> Any:
        """A record from its skeleton."""
        t = type(skeleton)
        if t is dict:
            nodes, out = self.nodes, {}
            for k, v in skeleton.items():
                child = nodes.get((node, k))
                out[k] = self.build(v, child if child is not None else self.child(node, k), budget)
            return out
        if t is list:
            if not skeleton:
                return []
            item = self.child(node, None)
            return [self.build(v, item, budget) for v in skeleton]
        if t is int:
            cursor = self.cursors.get((node, skeleton))
            value = (cursor if cursor is not None else self.cursor(node, skeleton)).next()
            if type(value) is not int:
                budget.charge(sys.getsizeof(value))
            return value
        if skeleton is None or t is bool:
            return skeleton
        raise BadPacking(None, "packed game's record skeleton holds a value, not a tag")


def decode(blob: bytes | bytearray) -> Iterator[bytes]:
    """The payloads of one game's blob, header first, each rebuilt to its bytes. Raises BadFrame
    (without an offset) for anything the writer does not make."""
    n, pos = _read_varint(blob, 0)
    if n > len(blob) - pos:
        raise BadPacking(None, "packed game's header runs past its data")
    yield bytes(blob[pos : pos + n])
    records, pos = _read_varint(blob, pos + n)
    columns, pos = _read_varint(blob, pos)
    if records > len(blob) - pos or columns > min(len(blob) - pos, MAX_COLUMNS):
        raise BadPacking(None, "packed game counts more records or columns than it has bytes")
    if records > MAX_RECORDS:
        raise OverLimit(None, f"packed game counts {records:,} records (limit of one game packed by columns: {MAX_RECORDS:,})")
    sizes = []
    for _ in range(columns):
        n, pos = _read_varint(blob, pos)
        sizes.append((n & 3, n >> 2))
    first = pos  # the skeletons: walked here for where they end, read below (a list of their
    for _ in range(records):  # spans could take more heap than the blob: one per byte pair)
        n, pos = _read_varint(blob, pos)
        if n > min(len(blob) - pos, MAX_RECORD):
            raise BadPacking(None, "packed game's record skeleton runs past its data or its limit")
        pos += n
    table: list[tuple[int, int, int]] = [(0, 0, 0)] * columns
    for col in sorted(range(columns), key=lambda c: (sizes[c][0], c)):
        tag, size = sizes[col]
        if size > len(blob) - pos:
            raise BadPacking(None, "packed game's column runs past its data")
        table[col] = (tag, pos, pos + size)
        pos += size
    if pos != len(blob):
        raise BadPacking(None, "packed game has bytes after its last column")
    game = _Game(blob, table)
    end = first
    for _ in range(records):
        n, start = _read_varint(blob, end)
        end = start + n
        budget = Budget(RECORD_MEMORY)
        try:
            skeleton = budget.unpack(blob[start:end])
        except BadFrame as exc:
            raise BadPacking(None, f"packed game's record skeleton: {exc.reason}") from None
        try:
            record = game.build(skeleton, 0, budget)
        except RecursionError:
            raise BadPacking(None, "packed game's record skeleton is nested too deep") from None
        try:
            yield pack(record)
        except Exception:  # an int out of msgpack's range
            raise BadPacking(None, "packed game's record does not re-encode") from None
    if len(game.cursors) != columns or any(c.pos != c.end for c in game.cursors.values()):
        raise BadPacking(None, "packed game's columns hold more values than its records use")
