"""Inline SVG charts for the self-contained HTML pages (tournament reports, game transcripts):
no scripts, no external files."""

from __future__ import annotations

import html

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]


def line_chart(series: dict[str, list[list[float]]], title: str, x_label: str = "", width: int = 640,
               height: int = 260, steps: bool = False, y_label: str = "",
               y_range: tuple[float | None, float | None] = (None, None),
               x_range: tuple[float, float] | None = None, colours: dict[str, str] | None = None) -> str:
    """One line per label through its (x, y) points, each point marked; `steps` draws values held
    until the next point (a count that changes at events). `y_range` fixes the axis ends (None:
    from the data); `y_label` names the axis (e.g. a quantity's scale); `x_range` gives charts of
    one page a shared x-axis; `colours` keeps one colour per label across a page's charts. Empty
    when there is nothing to draw."""
    points = [p for pts in series.values() for p in pts]
    if not points:
        return ""
    x_lo, x_hi = min(p[0] for p in points), max(p[0] for p in points)
    if x_range is not None:
        x_lo, x_hi = min(x_lo, x_range[0]), max(x_hi, x_range[1])
    y_lo, y_hi = min(p[1] for p in points), max(p[1] for p in points)
    y_lo = y_lo if y_range[0] is None else min(y_lo, y_range[0])
    y_hi = y_hi if y_range[1] is None else max(y_hi, y_range[1])
    x_span, y_span = (x_hi - x_lo) or 1.0, (y_hi - y_lo) or 1.0
    right = 150  # legend

    def xy(x: float, y: float) -> str:
        return f"{40 + (width - 60 - right) * (x - x_lo) / x_span:.1f},{height - 25 - (height - 50) * (y - y_lo) / y_span:.1f}"

    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="{html.escape(title)}">',
             f'<text x="5" y="12" font-size="11">{html.escape(title)}</text>']
    if y_label:
        parts.append(f'<text x="40" y="24" font-size="10" class="y-axis">'
                     f'y: {html.escape(y_label)}</text>')
    for i, (label, pts) in enumerate(series.items()):
        coords = []
        for j, (x, y) in enumerate(pts):
            if steps and j:
                coords.append(xy(x, pts[j - 1][1]))
            coords.append(xy(x, y))
        colour = (colours or {}).get(label) or COLOURS[i % len(COLOURS)]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{" ".join(coords)}">'
                     f'<title>{html.escape(label)}</title></polyline>')
        if len(pts) <= 40:  # a lone update is a point, not an invisible line
            parts += [f'<circle cx="{xy(x, y).split(",")[0]}" cy="{xy(x, y).split(",")[1]}" r="2.5" fill="{colour}">'
                      f'<title>{html.escape(label)}: {_num(y)} at {_num(x)}</title></circle>' for x, y in pts]
        parts.append(f'<text x="{width - right + 10}" y="{30 + 14 * i}" font-size="11" fill="{colour}">{html.escape(label)}</text>')
    parts.append(f'<text x="2" y="{height - 25}" font-size="10">{_num(y_lo)}</text>'
                 f'<text x="2" y="30" font-size="10">{_num(y_hi)}</text>'
                 f'<text x="40" y="{height - 5}" font-size="10">{html.escape(x_label)} {_num(x_lo)}</text>'
                 f'<text x="{width - right - 20}" y="{height - 5}" font-size="10" text-anchor="end">{_num(x_hi)}</text></svg>')
    return "".join(parts)


def _num(v: float) -> str:
    return f"{v:.0f}" if float(v).is_integer() else f"{v:.2f}"


def svg(width: int, height: int, parts: list[str], label: str) -> str:
    """One SVG element holding `parts` (already escaped markup), labelled for screen readers."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
            f'aria-label="{html.escape(label)}">{"".join(parts)}</svg>')


def text(x: float, y: float, content: str, size: int = 11, anchor: str = "start", fill: str = "#000") -> str:
    """A text element with `content` escaped."""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}">'
            f"{html.escape(content)}</text>")
