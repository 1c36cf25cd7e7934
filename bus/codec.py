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

FORMAT_VERSION = 1


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
