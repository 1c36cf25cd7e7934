"""The one codec: pydantic model -> JSON-mode dict -> msgpack. No pickle anywhere.

A log record is a msgpack map {"game", "seq", "cause", "msg"}; a header is a map with
"format" set. Decoding never runs code: msgpack yields plain data, pydantic validates it.
"""

from __future__ import annotations

from typing import Any

import msgpack

from bus.messages import MESSAGE, Message

FORMAT_VERSION = 1


def dump(message: Message) -> dict[str, Any]:
    """The JSON-mode dict of a message (what the log and the wire carry)."""
    return message.model_dump(mode="json")


def load(data: dict[str, Any]) -> Message:
    """Validate a dict back into its message model (raises pydantic.ValidationError)."""
    return MESSAGE.validate_python(data)


def pack(data: Any) -> bytes:
    return msgpack.packb(data, use_bin_type=True)


def unpack(payload: bytes) -> Any:
    return msgpack.unpackb(payload, raw=False, strict_map_key=True)


def encode_message(message: Message) -> bytes:
    return pack(dump(message))


def decode_message(payload: bytes) -> Message:
    return load(unpack(payload))


def pack_record(game_id: str, seq: int, cause: int, message: dict[str, Any]) -> bytes:
    """One stamped event: the bus's (game_id, seq), the seq it answers, the message dict."""
    return pack({"game": game_id, "seq": seq, "cause": cause, "msg": message})
