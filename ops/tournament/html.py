"""A self-contained HTML report: tables plus inline SVG plots (no scripts, no external files)."""

from __future__ import annotations

import html
import math
from typing import Any

from ops.svg import COLOURS, line_chart



def _rank_bars(agent: dict[str, Any], colour: str, width: int = 320, height: int = 140) -> str:
    hist = agent["rank_histogram"]
    if not hist:
        return ""
    peak = max(hist.values())
    bar_w = (width - 40) / len(hist)
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="rank distribution of {html.escape(agent["agent"])}">']
    for i, (rank, count) in enumerate(hist.items()):
        h = (height - 40) * count / peak
        x = 30 + i * bar_w
        parts.append(f'<rect x="{x:.1f}" y="{height - 20 - h:.1f}" width="{bar_w * 0.8:.1f}" height="{h:.1f}" fill="{colour}"><title>rank {rank}: {count}</title></rect>')
        parts.append(f'<text x="{x + bar_w * 0.4:.1f}" y="{height - 5}" font-size="10" text-anchor="middle">{rank}</text>')
    parts.append(f'<text x="5" y="12" font-size="11">{html.escape(agent["agent"])}: games per rank</text></svg>')
    return "".join(parts)


def _rating_lines(history: list[dict[str, Any]], labels: list[str]) -> str:
    if len(history) < 2:
        return ""
    series = {label: [[h["game"], h[label]] for h in history if label in h] for label in labels}
    return line_chart(series, f"openskill mu over games (1..{history[-1]['game']})", "game")


def _fmt(value: float) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"


def format_html(report: dict[str, Any], title: str = "detente tournament") -> str:
    labels = [a["agent"] for a in report["agents"]]
    rows = "".join(
        f"<tr><td>{html.escape(a['agent'])}</td><td>{a['games']}</td>"
        f"<td>{_fmt(a['mean_score'])} [{_fmt(a['mean_score_ci'][0])}, {_fmt(a['mean_score_ci'][1])}]</td>"
        f"<td>{_fmt(a['mean_rank'])} [{_fmt(a['mean_rank_ci'][0])}, {_fmt(a['mean_rank_ci'][1])}]</td>"
        f"<td>{_fmt(a['win_rate'])} [{_fmt(a['win_rate_ci'][0])}, {_fmt(a['win_rate_ci'][1])}]</td>"
        f"<td>{_fmt((a['rating'] or {}).get('mu'))} / {_fmt((a['rating'] or {}).get('sigma'))}</td></tr>"
        for a in report["agents"]
    )
    h2h = report["head_to_head"]
    h2h_rows = "".join(
        f"<tr><th>{html.escape(a)}</th>" + "".join(f"<td>{_fmt(h2h.get(a, {}).get(b, {}).get('score'))}</td>" for b in labels) + "</tr>"
        for a in labels
    )
    bars = "".join(_rank_bars(a, COLOURS[i % len(COLOURS)]) for i, a in enumerate(report["agents"]))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}</style>
</head><body>
<h1>{html.escape(title)}</h1>
<p>{report['games']:,} games recorded; {report['games_with_agent_errors']} with agent errors. Intervals are 95%.</p>
<table><tr><th>agent</th><th>games</th><th>mean score</th><th>mean rank</th><th>win rate</th><th>rating mu / sigma</th></tr>{rows}</table>
{_teams(report.get("teams") or [])}
<h2>Rank distribution</h2><div>{bars}</div>
<h2>Rating over games</h2>{_rating_lines(report['rating_history'], labels)}
<h2>Head to head</h2><p>Share of meetings in which the row agent ranked ahead of the column agent (ties count half).</p>
<table><tr><th></th>{''.join(f'<th>{html.escape(l)}</th>' for l in labels)}</tr>{h2h_rows}</table>
</body></html>
"""


def _teams(teams: list[dict[str, Any]]) -> str:
    """The team table (partnerships, sides): win rate with its Wilson interval, per team position."""
    if not teams:
        return ""
    positions = sorted({pos for t in teams for pos in t["by_position"]}, key=int)
    head = "".join(f"<th>as team {html.escape(p)}</th>" for p in positions)
    rows = "".join(
        f"<tr><td>{html.escape(t['team'])}</td><td>{t['games']}</td>"
        f"<td>{_fmt(t['win_rate'])} [{_fmt(t['win_rate_ci'][0])}, {_fmt(t['win_rate_ci'][1])}]</td>"
        + "".join(f"<td>{_fmt(t['by_position'][p]['win_rate'])} ({t['by_position'][p]['games']})</td>"
                  if p in t["by_position"] else "<td>-</td>" for p in positions) + "</tr>"
        for t in teams)
    return (f"<h2>Teams</h2><p>A team is named by its seats' labels. Win rate with its 95% Wilson interval.</p>"
            f"<table><tr><th>team</th><th>games</th><th>win rate</th>{head}</tr>{rows}</table>")

