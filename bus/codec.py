"""The one codec: pydantic model -> JSON-mode dict -> msgpack. No pickle anywhere.

A log record is a msgpack map {"game", "seq", "cause", "msg"}; a header is a map with
"format" set. Decoding never runs code: msgpack yields plain data, pydantic validates it.
"""

from __future__ import annotations

from typing import Any

import msgpack
from pydantic import BaseModel

from bus.messages import MESSAGE, Message

FORMAT_VERSION = 1


def dump(message: BaseModel) -> dict[str, Any]:
    """The dict of a message as the log and the wire carry it.

    Packs to the same bytes as `model_dump(mode="json")` (tests check this for every kind) at a
    fraction of the cost: our models hold only JSON values, tuples and nested models, and
    msgpack writes a tuple exactly as the list JSON mode would make of it.
    """
    return {key: _plain(value) for key, value in message.__dict__.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return dump(value)
    if type(value) is tuple and value and isinstance(value[0], BaseModel):
        return [dump(item) for item in value]
    return value


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
