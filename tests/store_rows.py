"""Rows of a tournament store for the tests of report sections: hand-made rows with every field
`Store.add` reads, a store holding them, real played rows, and section equality."""

from __future__ import annotations

import json
from pathlib import Path

from ops.tournament.runner import BatchPlayer, _check_meta, ranks_of
from ops.tournament.spec import parse_spec
from ops.tournament.store import Store


def full_row(i: int, seats: list[str], extra: dict | None, winners: list[int] = (), aborted: str | None = None) -> dict:
    """A store row around a game's seats, `extra` and winners (scores 1 to a winner, else shared)."""
    k, winners = len(seats), list(winners)
    scores = [1.0 if s in winners else 0.0 for s in range(k)] if winners else [1 / k] * k
    return {"game_id": f"g{i:08d}", "idx": i, "seed": i, "seats": seats,
            "agents": [{"name": label, "options": {}} for label in seats], "scores": scores,
            "ranks": ranks_of(scores), "winners": winners, "roles": [], "steps": 10, "records": 20, "summary": "",
            "errors": 0, "duration_ms": 1.0, "segment": "s.dlog", "offset": 0, "nbytes": 1, "runner": "t-r001",
            "teams": None, "extra": extra, "aborted": aborted, "blame": 0 if aborted else None,
            "seat_errors": [0] * k}


def stored(folder: Path, rows: list[dict]) -> Store:
    """A store in `folder` holding `rows` (open: the caller closes it)."""
    store = Store(folder)
    store.add(rows)
    return store


def played(folder: Path, spec: dict, runner_id: str = "t-r001") -> list[dict]:
    """The result rows of the games of tournament `spec`, really played into `folder`'s segments."""
    parsed = parse_spec(spec)
    store = Store(folder)
    _check_meta(store, parsed)
    store.close()
    return BatchPlayer(str(folder), parsed.model_dump(mode="json"), runner_id).play(list(range(spec["games"])))


def same_sections(got: list[dict], want: list[dict]) -> bool:
    """Equal sections, value for value (NaN equal to NaN: json writes both `NaN`)."""
    return json.dumps(got) == json.dumps(want)
