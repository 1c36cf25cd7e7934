"""The one codec: pydantic model -> JSON-mode dict -> msgpack. No pickle anywhere.

A log record is a msgpack map {"game", "seq", "cause", "msg"}; a header is a map with
"format" set. Decoding never runs code: msgpack yields plain data, pydantic validates it.
"""

from __future__ import annotations

import sys
import typing
from operator import itemgetter
from typing import Any

import msgpack
from pydantic import BaseModel

from bus.errors import BadDelta, BadPayload, NotCanonical, OverLimit
from bus.messages import MESSAGE, Message

FORMAT_VERSION = 4  # 2: observations and office views stored as deltas; 3: state digests at checkpoints;
#                    4: act requests and talk turns logged without their observation (replay recomputes it)
FORMATS = (2, 3, 4)  # the formats readers take; writers write FORMAT_VERSION unless a header names its own
# Format 3: a chance, step or talk_round record carries the state digest only every CHECKPOINT steps
# (its `digest` is "" between them) and game_end always does. The digest encodes the whole state, so
# computing it at every step cost a fifth of a random game; verify's lockstep rerun compares every
# record byte for byte, which names the first record that differs without a digest at each step.
CHECKPOINT = 16


def digest_every(version: int) -> int:
    """Steps between two state digests in a log of format `version` (1: every step)."""
    return 1 if version < 3 else CHECKPOINT


def observations_logged(version: int) -> bool:
    """Whether act requests and talk turns carry their observation (and an act request its legal
    actions) into a log of format `version`. From format 4 on they do not: both are pure functions
    of the state at the request (`State.observation(seat)`, `State.legal_actions(seat)`), which
    replay folds anyway, so the walk (replay.walk) puts them back for every reader and verify's
    rerun recomputes them; the log keeps the rest of the request."""
    return version < 4


def dump(message: BaseModel) -> dict[str, Any]:
    """The dict of a message as the log and the wire carry it.

    Packs to the same bytes as `model_dump(mode="json")` (tests check this for every kind) at a
    fraction of the cost: our models hold only JSON values, tuples and nested models, and
    msgpack writes a tuple exactly as the list JSON mode would make of it. Only the fields that
    can hold nested models are walked.
    """
    data = dict(message.__dict__)
    names = _NESTED.get(type(message))
    if names is None:
        names = _nested(type(message))
    for name in names:
        value = data[name]
        if isinstance(value, BaseModel):
            data[name] = dump(value)
        elif value and type(value) is tuple:
            data[name] = [dump(v) if isinstance(v, BaseModel) else v for v in value]
    return data


def record_dict(message: BaseModel) -> dict[str, Any]:
    """What `dump` gives, for packing at once: a fresh dict at the top (the record codec replaces
    fields of it), nested models that hold no models themselves as their own field dicts, shared
    (never to be changed: msgpack only reads them)."""
    data = dict(message.__dict__)
    names = _NESTED.get(type(message))
    if names is None:
        names = _nested(type(message))
    for name in names:
        value = data[name]
        if isinstance(value, BaseModel):
            data[name] = record_dict(value)
        elif value and type(value) is tuple:
            data[name] = [(v.__dict__ if not _NESTED.get(type(v), True) else record_dict(v)) if isinstance(v, BaseModel) else v
                          for v in value]
    return data


_NESTED: dict[type, tuple[str, ...]] = {}


def _nested(cls: type[BaseModel]) -> tuple[str, ...]:
    """Names of the fields of `cls` whose type mentions a pydantic model (cached per class)."""
    names = _NESTED.get(cls)
    if names is None:
        names = _NESTED[cls] = tuple(
            name for name, info in cls.model_fields.items() if _mentions_model(info.annotation)
        )
    return names


def _mentions_model(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_mentions_model(arg) for arg in typing.get_args(annotation))


def load(data: dict[str, Any]) -> Message:
    """Validate a dict back into its message model (raises pydantic.ValidationError)."""
    return MESSAGE.validate_python(data)


_packer = msgpack.Packer(use_bin_type=True)  # reused: a Packer per call costs as much as packing


def pack(data: Any) -> bytes:
    return _packer.pack(data)


pack_now = _packer.pack  # `pack` itself, without a Python call around it (the bus's hot path)


def unpack(payload: bytes) -> Any:
    return msgpack.unpackb(payload, raw=False, strict_map_key=True)


# --- reading what nobody vouches for -------------------------------------------------------------
# Readers decode payloads with `Budget.unpack`: containers capped, no ext types (our writer makes
# none: JSON-mode dicts only), the result re-encoded to the very same bytes, and the memory built
# charged to the game's budget as it is built, so a small frame cannot make a big heap.

MAX_ITEMS = 1 << 16  # entries of one list or map; ours: the largest in real logs is ~400 (a Risk legal list)
PRESIZE_SLOTS = 1 << 20  # list slots msgpack may allocate ahead of their items at once (8 MiB): it
#                          sizes a list when it reads the list's header, before the items come
CHEAP_RATE = 80  # bytes of heap one payload byte can become at most: an empty map (64 bytes and an
#                  8-byte slot in its parent) is one byte of msgpack
CHEAP_CEILING = 16 << 20  # a game's first frames are charged CHEAP_RATE per byte, unwalked, up to
#                           this; past it every container is walked and charged what it holds
_sizeof = sys.getsizeof
_check_packer = msgpack.Packer(use_bin_type=True)  # not the writer's: a failed check never touches it


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack ext type {code} (logs hold plain data only)")


class Budget:
    """The heap one game's reading may take (bytes), charged as it is built; OverLimit past it."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self._keys: set[Any] = set()  # map keys are interned by msgpack: charged once per game

    def charge(self, n: int) -> None:
        self.used += n
        if self.used > self.limit:
            raise OverLimit(None, f"the game takes more than {self.limit >> 20} MiB to read (limit of one game)")

    def unpack(self, payload: bytes) -> Any:
        """`payload` decoded within the caps, charged, and checked to be in canonical form."""
        _check_presize(payload)
        if self.used + CHEAP_RATE * len(payload) <= CHEAP_CEILING:
            self.charge(CHEAP_RATE * len(payload))
            hooks: dict[str, Any] = {}
        else:
            hooks = {"object_hook": self._map, "list_hook": self._list}
        try:
            item = msgpack.unpackb(payload, raw=False, strict_map_key=True, max_array_len=MAX_ITEMS,
                                   max_map_len=MAX_ITEMS, max_ext_len=0, ext_hook=_no_ext, **hooks)
        except OverLimit:
            raise
        except Exception as exc:  # msgpack's: malformed, truncated, trailing bytes, too deep, ext, bad UTF-8
            raise BadPayload(None, f"undecodable payload ({_reason(exc)})") from None
        try:
            again = _check_packer.pack(item)
        except Exception as exc:  # nested deeper than the packer goes: not something our writer makes
            raise NotCanonical(None, f"payload does not re-encode ({_reason(exc)})") from None
        if again != payload:
            raise NotCanonical(None, "payload is not in canonical form (it re-encodes to other bytes)")
        return item

    def _map(self, d: dict[Any, Any]) -> dict[Any, Any]:
        n = _sizeof(d)
        keys = self._keys
        for k, v in d.items():
            if k not in keys:
                keys.add(k)
                n += _sizeof(k) + 32  # the string and its place in the set
            n += _scalar_size(v)
        self.charge(n)
        return d

    def _list(self, items: list[Any]) -> list[Any]:
        n = _sizeof(items)
        for v in items:
            n += _scalar_size(v)
        self.charge(n)
        return items


def _scalar_size(v: Any) -> int:
    """Heap of a decoded scalar (containers are charged by their own hook; None and bools are shared)."""
    t = type(v)
    if t is str or t is bytes:
        return _sizeof(v)
    if t is int:
        return 0 if -5 <= v <= 256 else _sizeof(v)
    if t is float:
        return 24
    return 0


def _reason(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 80 else text[:77] + "..."


_FIXED = {0xCA: 4, 0xCB: 8, 0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8,
          0xD4: 2, 0xD5: 3, 0xD6: 5, 0xD7: 9, 0xD8: 17}  # numbers and fixext: bytes after the type byte
_SIZED = {0xC4: (1, 0), 0xC5: (2, 0), 0xC6: (4, 0), 0xC7: (1, 1), 0xC8: (2, 1), 0xC9: (4, 1),
          0xD9: (1, 0), 0xDA: (2, 0), 0xDB: (4, 0)}  # bin, ext, str: (width of the length, type bytes)


def _check_presize(payload: bytes) -> None:
    """Refuse lists declared bigger than the bytes left could fill. Only frames with many 16/32-bit
    list headers (or bytes that look like them) are walked: up to 16 of them cannot presize more
    than PRESIZE_SLOTS."""
    if (payload.count(b"\xdc") + payload.count(b"\xdd")) * MAX_ITEMS <= PRESIZE_SLOTS:
        return
    pending: list[int] = []  # items still due in each open container (the one under way included)
    slots: list[int] = []  # list slots each open container holds (0 for maps)
    due = open_slots = 0  # sum of `pending`; sum of `slots`
    pos, end = 0, len(payload)
    while pos < end:
        b = payload[pos]
        pos += 1
        n = arr = 0
        if b <= 0x7F or b >= 0xE0 or b in (0xC0, 0xC2, 0xC3):
            pass
        elif b <= 0x8F:
            n = 2 * (b & 0x0F)
        elif b <= 0x9F:
            n = arr = b & 0x0F
        elif b <= 0xBF:
            pos += b & 0x1F
        elif b in _FIXED:
            pos += _FIXED[b]
        elif b in _SIZED:
            width, extra = _SIZED[b]
            pos += width + extra + int.from_bytes(payload[pos : pos + width], "big")
        elif b in (0xDC, 0xDD, 0xDE, 0xDF):
            width = 2 if b in (0xDC, 0xDE) else 4
            count = int.from_bytes(payload[pos : pos + width], "big")
            pos += width
            n, arr = (count, count) if b in (0xDC, 0xDD) else (2 * count, 0)
        else:
            return  # 0xC1 is never used: msgpack refuses it
        if n:
            pending.append(n)
            slots.append(arr)
            due += n
            open_slots += arr
            # every item takes at least one byte; an item under way in each outer container is
            # the inner container itself
            if due - (len(pending) - 1) > end - pos:
                raise BadPayload(None, f"payload declares a container of {n} items with {end - pos} bytes left")
            if open_slots > PRESIZE_SLOTS:
                raise OverLimit(None, f"payload opens more than {PRESIZE_SLOTS} list slots at once")
            continue
        while pending:  # an item is complete: so is every container it completes
            pending[-1] -= 1
            due -= 1
            if pending[-1]:
                break
            pending.pop()
            open_slots -= slots.pop()


def encode_message(message: Message) -> bytes:
    return pack(dump(message))


def decode_message(payload: bytes) -> Message:
    return load(unpack(payload))


def pack_record(game_id: str, seq: int, cause: int, message: dict[str, Any]) -> bytes:
    """One stamped event: the bus's (game_id, seq), the seq it answers, the message dict."""
    return _packer.pack({"game": game_id, "seq": seq, "cause": cause, "msg": message})


# --- delta records ------------------------------------------------------------------------------
# The bulky fields (a player's observation, an office's KB view) change little between two
# messages to the same recipient, so a record stores them as a delta against the previous value
# of the same (recipient, kind, field) in the same game; the first one is stored whole. The
# encoding is a pure function of the log so far, so it is the same in every placement and in
# verify's rerun, and readers undo it record by record (bus.log does, for every reader).
# A delta is one of: {"$d": {key: delta, ...}} for a dict (unchanged keys left out; "$k": the new
# key order when keys came, went or moved), {"$a": [items]} for a list that grew at its end, or
# {"$v": value}.

DELTA_FIELDS: dict[str, tuple[str, ...]] = {
    "act_request": ("observation",),
    "talk_turn": ("observation",),
    "office_request": ("view",),
}
# From format 4 on: the observation is left out of the record (see observations_logged), so only an
# office's view is stored as a delta.
DELTA_FIELDS_4: dict[str, tuple[str, ...]] = {"office_request": ("view",)}
# kind -> the fields left out of its record: each a pure function of the state at the request
UNLOGGED_4: dict[str, tuple[str, ...]] = {"act_request": ("legal", "observation"), "talk_turn": ("observation",)}


def _same(old: Any, new: Any) -> bool:
    return old is new or (type(old) is type(new) and old == new)


def _diff(old: Any, new: Any) -> dict[str, Any]:
    if type(old) is dict and type(new) is dict:
        # the keys of `new` whose value is not `_same` as before (inlined: this runs for every key)
        changes = {k: (_diff(old[k], v) if k in old else {"$v": v}) for k, v in new.items()
                   if k not in old or ((o := old[k]) is not v and (type(o) is not type(v) or o != v))}
        keys = list(new)
        return {"$d": changes} if keys == list(old) else {"$d": changes, "$k": keys}
    if type(old) is list and type(new) is list and len(old) <= len(new) and new[: len(old)] == old:
        return {"$a": new[len(old) :]}
    return {"$v": new}


def _patch(old: Any, delta: dict[str, Any]) -> Any:
    if "$v" in delta:
        return delta["$v"]
    if "$a" in delta:
        return old + delta["$a"]
    changes = delta["$d"]
    keys = delta.get("$k", old)
    return {k: (_patch(old.get(k), changes[k]) if k in changes else old[k]) for k in keys}


_SHAPES: dict[int, tuple[set[type], dict[type, tuple[tuple[str, ...], Any]]]] = {}  # RecordCodec.plain, .trimmed by format


class RecordCodec:
    """Stamps records of one game, storing DELTA_FIELDS as deltas (encode) or undoing that (decode)."""

    def __init__(self, version: int = FORMAT_VERSION) -> None:
        """`version`: the log format of the game (its header's): what is stored as a delta, what is left out."""
        self._last: dict[tuple[str, str, str], Any] = {}
        self.version = version
        self._deltas = DELTA_FIELDS if observations_logged(version) else DELTA_FIELDS_4
        self._unlogged: dict[str, tuple[str, ...]] = {} if observations_logged(version) else UNLOGGED_4
        # message classes packed from their own field dict as it is (nothing nested, left out or
        # stored as a delta), and those packed from some of their fields (the others unlogged,
        # nothing nested or a delta: their kept names in order and a getter of their values):
        # learnt as they come, a function of the class and the format, so shared by every game of it
        self.plain, self.trimmed = _SHAPES.setdefault(version, (set(), {}))

    def encode(self, game_id: str, seq: int, cause: int, message: dict[str, Any]) -> bytes:
        """The record's bytes. `message` must be a fresh dict (as `dump` makes): it is changed."""
        kind = message["kind"]
        for name in self._unlogged.get(kind, ()):
            del message[name]
        fields = self._deltas.get(kind)
        if fields:
            last, to = self._last, message["to"]
            for name in fields:
                key = (to, kind, name)
                new = message[name]
                old = last.get(key)
                last[key] = new
                if old is not None:
                    message[name] = _diff(old, new)
        return _packer.pack({"game": game_id, "seq": seq, "cause": cause, "msg": message})

    def encode_model(self, game_id: str, seq: int, cause: int, message: BaseModel,
                     keep: bool = True) -> tuple[bytes, list | None]:
        """`encode(..., dump(message))`, copying only what it changes: a message without nested
        models or delta fields is packed from its own field dict. With `keep` false the codec's
        memory is left as it was and what it would remember comes back, for `commit` once the
        record is kept (a record the bus refuses must not be the base of the next delta)."""
        data = message.__dict__
        if type(message) in self.plain:  # nothing nested, left out or stored as a delta: its own dict
            return _packer.pack({"game": game_id, "seq": seq, "cause": cause, "msg": data}), None
        trim = self.trimmed.get(type(message))
        if trim is not None:
            return _packer.pack({"game": game_id, "seq": seq, "cause": cause, "msg": dict(zip(trim[0], trim[1](data)))}), None
        names = _NESTED.get(type(message))
        if names is None:
            names = _nested(type(message))
        if names:
            data = record_dict(message)
        kind = data["kind"]
        unlogged = self._unlogged.get(kind)
        if not names and kind not in self._deltas:
            if unlogged is None:
                self.plain.add(type(message))
            else:
                keys = tuple(k for k in data if k not in unlogged)
                if len(keys) > 1:
                    self.trimmed[type(message)] = (keys, itemgetter(*keys))
        if unlogged is not None:
            data = {k: v for k, v in data.items() if k not in unlogged}
        fields = self._deltas.get(kind)
        pending = None
        if fields:
            if not names:
                data = dict(data)
            last, to = self._last, data["to"]
            if not keep:
                pending = []
            for name in fields:
                key = (to, kind, name)
                new = data[name]
                old = last.get(key)
                if keep:
                    last[key] = new
                else:
                    pending.append((key, new))
                if old is not None:
                    data[name] = _diff(old, new)
        return _packer.pack({"game": game_id, "seq": seq, "cause": cause, "msg": data}), pending

    def commit(self, pending: list) -> None:
        """Remember what `encode_model` left out: the record it encoded is kept."""
        last = self._last
        for key, new in pending:
            last[key] = new

    def decode(self, record: dict[str, Any], budget: Budget | None = None) -> dict[str, Any]:
        """The record with its deltas undone. Raises BadDelta for a delta that does not apply to
        what came before (as when frames were moved); charges what it builds to `budget`."""
        message = record.get("msg")
        kind = message.get("kind") if isinstance(message, dict) else None
        fields = self._deltas.get(kind) if type(kind) is str else None
        if not fields:
            return record
        to = message.get("to")
        if type(to) is not str:
            raise BadDelta(None, f"{kind} record without a string 'to'")
        charge = budget.charge if budget is not None else _no_charge
        message = dict(message)
        for name in fields:
            if name not in message:
                raise BadDelta(None, f"{kind} record without its {name!r}")
            key = (to, kind, name)
            old = self._last.get(key)
            value = message[name] if old is None else _undo(old, message[name], charge)
            self._last[key] = message[name] = value
        out = {**record, "msg": message}
        charge(_sizeof(message) + _sizeof(out))
        return out


def _no_charge(n: int) -> None:
    pass


def _undo(old: Any, delta: Any, charge: typing.Callable[[int], None]) -> Any:
    """`_patch`, trusting nothing: the delta must be one the writer makes, applying to `old`."""
    if type(delta) is not dict:
        raise BadDelta(None, "a stored delta is not a map")
    if len(delta) == 1 and "$v" in delta:
        return delta["$v"]
    if len(delta) == 1 and "$a" in delta:
        more = delta["$a"]
        if type(old) is not list or type(more) is not list:
            raise BadDelta(None, "an append delta ('$a') needs a list before it and a list to add")
        new = old + more
        charge(_sizeof(new))
        return new
    changes = delta.get("$d")
    if type(changes) is not dict or type(old) is not dict or len(delta) != 1 + ("$k" in delta):
        raise BadDelta(None, "a stored delta does not apply to the value before it ($v, $a or $d on a map)")
    keys = delta["$k"] if "$k" in delta else old
    if type(keys) is not list and keys is not old:
        raise BadDelta(None, "a delta's key order ('$k') is not a list")
    new = {}
    for k in keys:
        if type(k) is not str:
            raise BadDelta(None, "a delta names a key that is not a string")
        if k in changes:
            new[k] = _undo(old.get(k), changes[k], charge)
        elif k in old:
            new[k] = old[k]
        else:
            raise BadDelta(None, f"a delta keeps key {k[:40]!r} that the value before it lacks")
    if len(new) != len(keys) or any(k not in new for k in changes):
        raise BadDelta(None, "a delta repeats a key, or changes a key its new value lacks")
    charge(_sizeof(new))
    return new
