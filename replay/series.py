"""A logged game as numbers over time, for plots: the game's charts and its belief series.

Both come from the game's plugin and one walk over the log (replay/walk.py):
- `state_series(log)`: each chart the plugin declares, `{"title", "x", "series": {label: [[x, y], ...]}}`,
  a point kept when the values change;
- `belief_series(log)`: every Intelligence Office update as typed points
  `(seq, observer, subject, quantity, value)`, with each quantity's declared scale.
Trust is on the shared scale (0 no trust, 1 full trust) unless the game declares another one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bus.log import GameLog
from games.plugin import resolve
from games.registry import get_plugin
from replay.guard import guard, numbers, triples
from replay.walk import walk


@dataclass(frozen=True)
class Scale:
    """What a quantity's numbers mean: its range (hi None: unbounded) and what a higher value is."""

    quantity: str
    lo: float
    hi: float | None
    higher: str

    def label(self) -> str:
        top = "" if self.hi is None else f"{self.hi:g}"
        return f"{self.quantity} ({self.lo:g}..{top}; higher = {self.higher})"


TRUST = Scale("trust", 0.0, 1.0, "more trust")  # DESIGN.md section 1: 0 no trust, 1 full trust


@dataclass(frozen=True)
class Point:
    """One observer's value of one quantity about one subject, after the update at `seq`."""

    seq: int
    observer: str
    subject: str
    quantity: str
    value: float


def scales(game: str) -> dict[str, Scale]:
    """The scales of the quantities a game's belief series use (trust on the shared scale by default)."""
    declared = {q: Scale(q, lo, hi, higher) for q, (lo, hi, higher) in get_plugin(game).quantities.items()}
    return {"trust": TRUST, **declared}


def belief_points(log: GameLog, observer: str | None = None) -> list[Point]:
    """Every Intelligence Office update of the game (of one observer, e.g. "p3", if given)."""
    plugin = get_plugin(log.header["game"])
    if plugin.beliefs is None:
        return []
    read = resolve(plugin.beliefs)
    points: list[Point] = []
    for record in log.records:
        msg = record["msg"]
        if msg["kind"] != "kb_change" or not msg["source"].endswith("/io"):
            continue
        if observer is not None and msg["sender"] != observer:
            continue
        with guard(plugin.name, "beliefs", record["seq"]):  # plugin code (replay/guard.py)
            read_here = triples(read(msg))
        points += [Point(record["seq"], msg["sender"], subject, quantity, value)
                   for subject, quantity, value in read_here if subject != msg["sender"]]  # of the others
    return points


def belief_series(log: GameLog, observer: str | None = None) -> dict[str, Any]:
    """JSON-ready belief series: {"scales": {quantity: scale}, "points": [point, ...]}."""
    points = belief_points(log, observer)
    known = scales(log.header["game"])
    used = sorted({p.quantity for p in points})
    return {"scales": {q: asdict(known.get(q, Scale(q, 0.0, None, "more"))) for q in used},
            "points": [{"seq": p.seq, "observer": p.observer, "subject": p.subject, "quantity": p.quantity,
                        "value": p.value} for p in points]}


def state_series(log: GameLog) -> list[dict[str, Any]]:
    """The plugin's charts of the game's course, by state change."""
    charts = get_plugin(log.header["game"]).charts
    if not charts:
        return []
    readers = [resolve(chart.read) for chart in charts]
    xs = [resolve(chart.x_of) if chart.x_of else None for chart in charts]
    series: list[dict[str, list[list[float]]]] = [{} for _ in charts]
    last: list[dict[str, float] | None] = [None for _ in charts]
    ends: list[float] = [0 for _ in charts]  # each chart's x at the last state
    steps = 0
    game = log.header["game"]
    for step in walk(log):
        if not step.changed:
            continue
        steps = step.steps
        for i, read in enumerate(readers):
            with guard(game, f"chart {charts[i].title!r}", step.seq):  # plugin code (replay/guard.py)
                values = numbers(read(step.state))
            if values is None or values == last[i]:
                continue
            with guard(game, f"chart {charts[i].title!r} x", step.seq):
                x = _number(xs[i](step.state)) if xs[i] else steps
            for label, value in values.items():
                series[i].setdefault(label, []).append([x, value])
            last[i] = values
            ends[i] = x
        for i, x_of in enumerate(xs):
            if x_of is not None and last[i] is not None:
                with guard(game, f"chart {charts[i].title!r} x", step.seq):
                    ends[i] = _number(x_of(step.state))
    out = []
    for i, (chart, lines, final) in enumerate(zip(charts, series, last)):
        if final is None:
            continue
        end = ends[i] if xs[i] else steps
        for label, value in final.items():  # carry every line to the last state
            if lines[label][-1][0] != end:
                lines[label].append([end, value])
        out.append({"title": chart.title, "x": chart.x, "series": lines})
    return out


def _number(value: Any) -> float:
    """A chart's x, checked (a plugin's x_of returns a number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"a chart's x_of returns a number, not {type(value).__name__}")
    return value
