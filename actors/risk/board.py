"""A player's reading of a Risk observation: who holds what, borders, threats, continents.

Built from the rules' observation (games.risk.rules), never from the state, so the agents see
exactly what the referee shows them. Every loop runs over territory indices in map order.
"""

from __future__ import annotations

from typing import Any

from games.risk.mapdata import CODES, CONTINENT_MEMBERS, CONTINENT_OF, INDEX, NEIGHBOURS, NUM_TERRITORIES

ALL = range(NUM_TERRITORIES)


class Board:
    """Owners and armies per territory from `me`'s point of view (the neutral is not a player)."""

    def __init__(self, obs: dict[str, Any]):
        self.me: int = obs["me"]
        self.owner: list[int] = obs["owner"]
        self.armies: list[int] = obs["armies"]
        self.neutral: int | None = obs["neutral"]
        self.players: int = obs["players"]
        self.phase: str = obs["phase"]
        self.rules: dict[str, Any] = obs["rules"]
        self.obs = obs

    # -- who ----------------------------------------------------------------------------
    def mine(self, t: int) -> bool:
        return self.owner[t] == self.me

    def is_foe(self, seat: int) -> bool:
        """A player other than me (the neutral and unclaimed land are not players)."""
        return seat >= 0 and seat != self.me and seat != self.neutral

    def own(self) -> list[int]:
        return [t for t in ALL if self.owner[t] == self.me]

    def owned_mask(self, seat: int | None = None) -> list[bool]:
        seat = self.me if seat is None else seat
        return [o == seat for o in self.owner]

    def foes_mask(self) -> list[bool]:
        """The seed's "fake player": every territory of every other player (not the neutral)."""
        return [self.is_foe(o) for o in self.owner]

    # -- borders and threats ----------------------------------------------------------------
    def hostile_neighbours(self, t: int) -> list[int]:
        """Neighbours of `t` held by someone else (players and the neutral)."""
        o = self.owner[t]
        return [n for n in NEIGHBOURS[t] if self.owner[n] != o]

    def foe_neighbours(self, t: int) -> list[int]:
        return [n for n in NEIGHBOURS[t] if self.is_foe(self.owner[n])]

    def threat(self, t: int) -> int:
        """The most armies any foe's neighbour of `t` could attack it with (armies - 1)."""
        return max((self.armies[n] - 1 for n in self.foe_neighbours(t)), default=0)

    def is_border(self, t: int) -> bool:
        return bool(self.hostile_neighbours(t))

    # -- continents -----------------------------------------------------------------------
    def held_by(self, c: int, seat: int) -> bool:
        return all(self.owner[t] == seat for t in CONTINENT_MEMBERS[c])

    def share(self, c: int, seat: int | None = None) -> float:
        seat = self.me if seat is None else seat
        members = CONTINENT_MEMBERS[c]
        return sum(1 for t in members if self.owner[t] == seat) / len(members)

    def completes(self, t: int) -> bool:
        """Taking `t` gives me its whole continent."""
        return all(self.owner[u] == self.me for u in CONTINENT_MEMBERS[CONTINENT_OF[t]] if u != t)


def parse_action(action: str) -> tuple[str, list[int]]:
    """("attack", [from, to, dice]), ("place", [t, n]), ("move", [n]), ... from an action string."""
    kind, _, rest = action.partition(":")
    if kind in ("claim",):
        return kind, [INDEX[rest]]
    if kind == "place":
        code, n = rest.split(":")
        return kind, [INDEX[code], int(n)]
    if kind == "attack":
        f, t, d = rest.split(",")
        return kind, [INDEX[f], INDEX[t], int(d)]
    if kind == "fortify":
        f, t = rest.split(",")
        return kind, [INDEX[f], INDEX[t]]
    if kind in ("move", "defend"):
        return kind, [int(rest)]
    return kind, []


def place_action(t: int, n: int) -> str:
    return f"place:{CODES[t]}:{n}"


def chunk(legal: list[str], t: int, n: int) -> str | None:
    """The legal `place:T:k` with the largest k <= n (placements come in powers of two or all)."""
    prefix = f"place:{CODES[t]}:"
    best = None
    for a in legal:
        if a.startswith(prefix):
            k = int(a[len(prefix):])
            if k <= n and (best is None or k > best[0]):
                best = (k, a)
    return None if best is None else best[1]
