"""A logged game as one self-contained HTML page: the course of the game and every Intelligence
Office's trust and beliefs as inline SVG plots (each on its declared scale, named on the axis),
then the whole text transcript (no scripts, no external files).

    detente replay transcript LOG --format html [--player N] [--out page.html]
"""

from __future__ import annotations

from typing import Any

from actors.address import seat_of
from bus.log import GameLog
from ops.page import page, pre
from ops.svg import COLOURS, line_chart
from replay.series import state_series
from replay.transcript import transcript


def view_charts(beliefs: dict[str, Any]) -> list[dict[str, Any]]:
    """One chart per (observer, quantity) of a transcript's belief series: a line per subject,
    by seq, with the quantity's scale (range and direction) as the y-axis label."""
    charts: dict[tuple[str, str], dict[str, list[list[float]]]] = {}
    for p in beliefs.get("points", []):
        lines = charts.setdefault((p["observer"], p["quantity"]), {})
        lines.setdefault(p["subject"], []).append([p["seq"], p["value"]])
    out = []
    for (observer, quantity), series in sorted(charts.items(), key=lambda kv: (_seat_key(kv[0][0]), kv[0][1])):
        scale = beliefs["scales"][quantity]
        top = "" if scale["hi"] is None else f"{scale['hi']:g}"
        axis = f"{quantity} ({scale['lo']:g}..{top}; higher = {scale['higher']})"
        # a subject is another player (a seat, a power) or one of the observer's own things (its
        # cards' slots): the lines name them, the title does not guess which
        out.append({"title": f"{quantity} of {observer} by subject, by seq", "series": series,
                    "y": axis, "lo": scale["lo"], "hi": scale["hi"]})
    return out


def _seat_key(address: str) -> tuple[int, str]:
    seat = seat_of(address)
    return (seat, "") if seat is not None else (1 << 30, address)


def transcript_html(log: GameLog, player: int | None = None) -> str:
    text, data = transcript(log, player)
    header = log.header
    title = f"{header.get('game')} game {header.get('game_id')} (seed {header.get('seed')})"
    course = "".join(f"<div>{line_chart(c['series'], c['title'], c['x'], steps=True)}</div>"
                     for c in state_series(log))
    span = (0, log.records[-1]["seq"]) if log.records else None  # one x-axis for every belief chart
    charts = view_charts(data.get("beliefs", {}))
    subjects = sorted({s for c in charts for s in c["series"]}, key=_seat_key)
    colours = {s: COLOURS[i % len(COLOURS)] for i, s in enumerate(subjects)}  # one colour per player on the page
    views = "".join(f"<div>{line_chart(c['series'], c['title'], 'seq', y_label=c['y'], y_range=(c['lo'], c['hi']), x_range=span, colours=colours)}</div>"
                    for c in charts)
    sections = [("Course of the game", course or "<p>(no charts for this game)</p>")]
    if views:
        sections.append(("Trust and beliefs", views))
    sections.append(("Transcript", pre(text)))
    return page(title, sections)
