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
    """Plain nested dicts, replaced (never mutated) by `set` and `apply`.

    What a decision writes at its top level (`decided`) may wait until the KB is next read: `data`
    is then what it would have been had each been written at once."""

    def __init__(self, data: dict[str, Any] | None = None):
        self._data: dict[str, Any] = dict(data or {})
        # the last decision not yet written: (observation, legal actions), and the last non-empty
        # suggestions among those not yet written; None: nothing waits
        self._asked: tuple[Any, Any] | None = None
        self._advised: list[Any] | None = None

    @property
    def data(self) -> dict[str, Any]:
        if self._asked is not None:
            self._write_decided()
        return self._data

    @data.setter
    def data(self, value: dict[str, Any]) -> None:
        self._asked = self._advised = None  # what waited would have been replaced with the rest
        self._data = value

    def decided(self, observation: Any, legal: Any, suggestions: list[Any] | None) -> None:
        """A decision's writes, kept aside until the KB is read: the observation and the legal actions
        (a list) set, talk deleted (a decision is asked once talk is over), and the suggestions (models
        that nest nothing: their field dicts) set where there are any (`President.observe` and the
        suggestions of an office's answer)."""
        self._asked = (observation, legal)
        if suggestions:
            self._advised = suggestions

    def holds(self, section: str) -> bool:
        """Whether the top level has `section`, one that `decided` does not write (it reads nothing
        kept aside)."""
        return section in self._data

    def _write_decided(self) -> None:
        (observation, legal), advised = self._asked, self._advised
        self._asked = self._advised = None
        data = dict(self._data)
        data["observation"] = observation
        data["legal"] = list(legal)
        data.pop("talk", None)
        if advised is not None:
            data["suggestions"] = [dict(s.__dict__) for s in advised]
        self._data = data

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
