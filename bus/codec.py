"""The one codec: pydantic model -> JSON-mode dict -> msgpack. No pickle anywhere.

A log record is a msgpack map {"game", "seq", "cause", "msg"}; a header is a map with
"format" set. Decoding never runs code: msgpack yields plain data, pydantic validates it.
"""

from __future__ import annotations

from typing import Any

import typing

import msgpack
from pydantic import BaseModel

from bus.messages import MESSAGE, Message

FORMAT_VERSION = 2  # 2: observations and office views stored as deltas


def dump(message: BaseModel) -> dict[str, Any]:
    """The dict of a message as the log and the wire carry it.

    Packs to the same bytes as `model_dump(mode="json")` (tests check this for every kind) at a
    fraction of the cost: our models hold only JSON values, tuples and nested models, and
    msgpack writes a tuple exactly as the list JSON mode would make of it. Only the fields that
    can hold nested models are walked.
    """
    data = dict(message.__dict__)
    for name in _nested(type(message)):
        value = data[name]
        if isinstance(value, BaseModel):
            data[name] = dump(value)
        elif value and type(value) is tuple:
            data[name] = [dump(v) if isinstance(v, BaseModel) else v for v in value]
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


def unpack(payload: bytes) -> Any:
    return msgpack.unpackb(payload, raw=False, strict_map_key=True)


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


def _same(old: Any, new: Any) -> bool:
    return old is new or (type(old) is type(new) and old == new)


def _diff(old: Any, new: Any) -> dict[str, Any]:
    if type(old) is dict and type(new) is dict:
        changes = {k: (_diff(old[k], v) if k in old else {"$v": v}) for k, v in new.items() if k not in old or not _same(old[k], v)}
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


class RecordCodec:
    """Stamps records of one game, storing DELTA_FIELDS as deltas (encode) or undoing that (decode)."""

    def __init__(self) -> None:
        self._last: dict[tuple[str, str, str], Any] = {}

    def encode(self, game_id: str, seq: int, cause: int, message: dict[str, Any]) -> bytes:
        """The record's bytes. `message` must be a fresh dict (as `dump` makes): it is changed."""
        fields = DELTA_FIELDS.get(message["kind"])
        if fields:
            for name in fields:
                key = (message["to"], message["kind"], name)
                new = message[name]
                old = self._last.get(key)
                self._last[key] = new
                if old is not None:
                    message[name] = _diff(old, new)
        return pack_record(game_id, seq, cause, message)

    def decode(self, record: dict[str, Any]) -> dict[str, Any]:
        message = record.get("msg")
        fields = DELTA_FIELDS.get(message.get("kind")) if isinstance(message, dict) else None
        if not fields:
            return record
        message = dict(message)
        for name in fields:
            key = (message["to"], message["kind"], name)
            old = self._last.get(key)
            value = message[name] if old is None else _patch(old, message[name])
            self._last[key] = message[name] = value
        return {**record, "msg": message}
