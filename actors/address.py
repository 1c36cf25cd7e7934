"""The address convention of a player's actors: its President at `p3`, its offices at `p3/<name>`.

An office's name is usually its role (`p3/so`, `p3/fo`, `p3/io`); an agent may give an office
another name (e.g. a second Strategy Office at `p3/rso`). Every other address
("referee", "log", "bus", "runner") belongs to no seat. Build and parse addresses here only.
"""

from __future__ import annotations

from functools import lru_cache

PREFIX = "p"  # a player's address is PREFIX + its seat number
SEPARATOR = "/"  # between a player's address and one of its offices' names


@lru_cache(maxsize=4096)  # on the referee's hot path: a few dozen addresses a game, asked for per act
def player_address(seat: int) -> str:
    """The President's address of `seat`: 3 -> "p3"."""
    return f"{PREFIX}{seat}"


def office_address(seat: int, name: str) -> str:
    """The address of office `name` of `seat`: (3, "fo") -> "p3/fo"."""
    return f"{PREFIX}{seat}{SEPARATOR}{name}"


def player_of(address: str) -> str:
    """The player an address belongs to: "p3/fo" -> "p3", "p3" -> "p3" ("referee" -> "referee")."""
    return address.split(SEPARATOR, 1)[0]


@lru_cache(maxsize=4096)
def seat_of(address: str) -> int | None:
    """The seat of a player's or office's address ("p3", "p3/fo" -> 3); None for any other address."""
    head = player_of(address)
    digits = head[len(PREFIX):]
    return int(digits) if head.startswith(PREFIX) and digits.isdigit() else None


def office_of(address: str) -> str | None:
    """The office name of an office's address ("p3/fo" -> "fo"); None for a President or non-player."""
    if seat_of(address) is None:
        return None
    _, sep, name = address.partition(SEPARATOR)
    return name if sep else None
