"""The President's knowledge base: nested JSON-ready data changed only by path updates.

Sections (by convention): seat, traits, observation, legal, beliefs {player: {role: certainty}},
trust {player: value}, deals, commitments {turn: action}, inbox (talk heard), suggestions.

Invariant: nothing in the KB is ever mutated in place. `set` copies the dicts along the path
(copy-on-write), so a view handed to an office shares structure safely and costs no deep copy.
Offices, in turn, never mutate what they receive (DESIGN.md section 3).
"""

from __future__ import annotations

from typing import Any, Iterable

from bus.messages import KBUpdate


def _assoc(node: Any, path: tuple[str, ...], value: Any) -> dict[str, Any]:
    new = dict(node) if isinstance(node, dict) else {}
    head = path[0]
    if len(path) > 1:
        new[head] = _assoc(new.get(head), path[1:], value)
    elif value is None:
        new.pop(head, None)
    else:
        new[head] = value
    return new


class KnowledgeBase:
    """Plain nested dicts, replaced (never mutated) by `set` and `apply`."""

    def __init__(self, data: dict[str, Any] | None = None):
        self.data: dict[str, Any] = dict(data or {})

    def get(self, *path: str, default: Any = None) -> Any:
        node: Any = self.data
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return default
            node = node[key]
        return node

    def set(self, path: tuple[str, ...], value: Any) -> None:
        """Set (or, with None, delete) the entry at `path`."""
        if not path:
            raise ValueError("a KB path cannot be empty")
        self.data = _assoc(self.data, path, value)

    def apply(self, updates: Iterable[KBUpdate]) -> None:
        for update in updates:
            self.set(update.path, update.value)

    def view(self, sections: Iterable[str]) -> dict[str, Any]:
        """The named sections that exist, shared, for a request to an office."""
        data = self.data
        return {name: data[name] for name in sections if name in data}
