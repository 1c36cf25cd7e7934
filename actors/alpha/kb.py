"""The President's knowledge base: nested JSON-ready data changed only by path updates.

Sections (by convention): seat, traits, observation, legal, beliefs {player: {role: certainty}},
trust {player: value}, deals, commitments {turn: action}, inbox (talk heard), suggestions.
"""

from __future__ import annotations

import copy
from typing import Any, Iterable

from bus.messages import KBUpdate


class KnowledgeBase:
    """Plain nested dicts. `apply` is the only mutator used for office proposals."""

    def __init__(self, data: dict[str, Any] | None = None):
        self.data: dict[str, Any] = data or {}

    def get(self, *path: str, default: Any = None) -> Any:
        node: Any = self.data
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return default
            node = node[key]
        return node

    def set(self, path: tuple[str, ...], value: Any) -> None:
        node = self.data
        for key in path[:-1]:
            node = node.setdefault(key, {})
        if value is None:
            node.pop(path[-1], None)
        else:
            node[path[-1]] = value

    def apply(self, updates: Iterable[KBUpdate]) -> None:
        for update in updates:
            if not update.path:
                raise ValueError("a KB update needs a non-empty path")
            self.set(update.path, copy.deepcopy(update.value))

    def view(self, sections: Iterable[str]) -> dict[str, Any]:
        """A copy of the named sections (those present), for a request to an office."""
        return {name: copy.deepcopy(self.data[name]) for name in sorted(set(sections)) if name in self.data}
