"""The course of a logged game as numbers over time, for plots: folded through the rules.

`state_series(log)` returns charts `{"title", "x", "series": {label: [[x, y], ...]}}`:
Werewolves: living werewolves and living others by step; Diplomacy: each power's supply centres
by movement phase; Hanabi: score, hint tokens and lives by turn. Games without an entry here get
no chart (the transcript still has every event).
"""

from __future__ import annotations

from typing import Any, Callable

from bus.log import GameLog
from games.api import State
from replay.fold import apply_record, initial_state


def _werewolves(state: State) -> dict[str, float] | None:
    data = state.to_json()
    if data["roles"] is None:
        return None
    wolves = sum(1 for r, a in zip(data["roles"], data["alive"]) if a and r == "werewolf")
    return {"werewolves alive": wolves, "others alive": sum(data["alive"]) - wolves}


def _diplomacy(state: State) -> dict[str, float] | None:
    obs = state.observation(0)  # public part: the board
    return {power: len(obs["centres"].get(power, ())) for power in obs["powers"]}


def _hanabi(state: State) -> dict[str, float] | None:
    data = state.to_json()
    return {"score": sum(data["fireworks"]), "hint tokens": data["hints"], "lives": data["lives"]}


# game -> (chart title, x label, what to read off a state); a point is kept when the values change
CHARTS: dict[str, tuple[str, str, Callable[[State], dict[str, float] | None]]] = {
    "werewolves": ("players alive", "step", _werewolves),
    "diplomacy": ("supply centres", "step", _diplomacy),
    "hanabi": ("score, hint tokens and lives", "step", _hanabi),
}


def state_series(log: GameLog) -> list[dict[str, Any]]:
    entry = CHARTS.get(log.header.get("game"))
    if entry is None:
        return []
    title, x_label, read = entry
    state = initial_state(log.header)
    series: dict[str, list[list[float]]] = {}
    last: dict[str, float] | None = None
    step = 0
    for record in log.records:
        if not apply_record(state, record["msg"]):
            continue
        step += 1
        values = read(state)
        if values is None or values == last:
            continue
        for label, value in values.items():
            series.setdefault(label, []).append([step, value])
        last = values
    if last is not None:  # carry every line to the last step
        for label, value in last.items():
            if series[label][-1][0] != step:
                series[label].append([step, value])
    return [{"title": title, "x": x_label, "series": series}] if series else []
