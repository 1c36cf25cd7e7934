"""A self-contained HTML report: every number of the text report in tables, distributions as bar
charts on one shared axis with their counts, ratings over games, and links to the listed games'
pages (no scripts, no external files). Rendered with the one page renderer (ops/page.py)."""

from __future__ import annotations

import html
import math
from typing import Any

from ops.page import page
from ops.svg import COLOURS, line_chart


def format_html(report: dict[str, Any], title: str = "detente tournament", pages: str | None = "pages") -> str:
    """The report page; `pages` is the folder (relative to the page) holding each listed game's page."""
    intro = (f"{report['games']:,} games recorded; {report.get('games_aborted', 0)} aborted over their time budget "
             f"(each a loss for the seat it counts against); {report['games_with_agent_errors']} with agent errors; "
             f"mean {_fmt(report['mean_steps'] or 0, 1)} steps and {_fmt(report['mean_log_bytes'] or 0, 0)} log bytes "
             f"per game. Intervals are 95% (means: normal approximation; rates: Wilson).")
    cooperative = report.get("cooperative", False)
    sections = [("Agents", _agents(report["agents"], cooperative))]
    if cooperative:
        sections.append(("Score per game", _scores(report["scores"])))
    else:
        sections.append(("Rank distribution", _distributions([(a["agent"], a["rank_histogram"]) for a in report["agents"]],
                                                              "rank", "seats")))
    sections.append(("Per seat", _breakdown(report["agents"], "by_seat", "seat", cooperative)))
    if any(a["by_role"] for a in report["agents"]):
        sections.append(("Per role or power", _breakdown(report["agents"], "by_role", "role", cooperative)))
    if report.get("teams"):
        sections.append(("Teams", _teams(report["teams"])))
    for section in report.get("sections", []):
        sections.append((section["title"], _section(section)))
    if not cooperative:
        labels = [a["agent"] for a in report["agents"]]
        sections.append(("Rating over games", _rating_lines(report["rating_history"], labels) or "<p>(one game)</p>"))
        sections.append(("Head to head", _head_to_head(report["head_to_head"], labels)))
    if report.get("model_calls"):
        sections.append(("Model calls", _model_calls(report["model_calls"], report.get("capped"))))
    if report.get("games_listed"):
        sections.append(("Games", _games(report["games_listed"], pages)))
    return page(title, sections, intro=html.escape(intro))


def _agents(agents: list[dict[str, Any]], cooperative: bool) -> str:
    cols = ["agent", "games", "seats", "mean score", "win rate", "abort rate", "error rate"] + (
        [] if cooperative else ["mean rank", "rating mu", "rating sigma"])
    rows = []
    for a in agents:
        cells = [html.escape(a.get("name", a["agent"])), str(a["games"]), str(a["seats"]), _ci(a, "mean_score"), _ci(a, "win_rate"),
                 _share(a, "abort_rate", "aborted"), _share(a, "error_rate", "with_errors")]
        if not cooperative:
            r = a.get("rating") or {}
            cells += [_ci(a, "mean_rank"), _fmt(r.get("mu"), 2), _fmt(r.get("sigma"), 2)]
        rows.append(cells)
    return _table(cols, rows)


def _breakdown(agents: list[dict[str, Any]], key: str, name: str, cooperative: bool) -> str:
    cols = ["agent", name, "games", "mean score", "win rate", "abort rate", "error rate"] + ([] if cooperative else ["mean rank"])
    rows = []
    for a in agents:
        for k, b in a[key].items():
            cells = [html.escape(a["agent"]), html.escape(k), str(b["games"]), _ci(b, "mean_score"), _ci(b, "win_rate"),
                     _share(b, "abort_rate", "aborted"), _share(b, "error_rate", "with_errors")]
            rows.append(cells + ([] if cooperative else [_ci(b, "mean_rank")]))
    return _table(cols, rows)


def _teams(teams: list[dict[str, Any]]) -> str:
    """Partnerships and sides: win rate with its Wilson interval, per team position."""
    positions = sorted({pos for t in teams for pos in t["by_position"]}, key=int)
    cols = ["team (its seats' labels)", "games", "wins", "win rate", "mean rank"] + [f"as team {p}" for p in positions]
    rows = [[html.escape(t["team"]), str(t["games"]), str(t["wins"]), _ci(t, "win_rate"), _fmt(t["mean_rank"])]
            + [f"{_fmt(t['by_position'][p]['win_rate'])} ({t['by_position'][p]['games']})" if p in t["by_position"] else "-"
               for p in positions]
            for t in teams]
    return _table(cols, rows)


def _scores(scores: dict[str, Any]) -> str:
    head = f"<p>Mean score per game {_ci(scores, 'mean')}.</p>"
    return head + _distributions([("all games", scores["histogram"])], "score", "games")


def _section(section: dict[str, Any]) -> str:
    if section.get("unavailable"):
        return f"<p>Unavailable: {html.escape(section['unavailable'])}</p>"
    rows = [[html.escape(r["label"]), _value(r), "-" if r.get("n") is None else str(r["n"])] for r in section.get("rows", [])]
    out = _table(["", "value [95% CI]", "n"], rows) if rows else ""
    if section.get("histogram"):
        out += _distributions([(section["title"], section["histogram"])], "value", "games")
    return out


def _distributions(hists: list[tuple[str, dict[str, int]]], x: str, what: str, width: int = 300, height: int = 150) -> str:
    """One bar chart per histogram, all on the same x categories and y scale, each bar labelled with its count."""
    keys = sorted({k for _, h in hists for k in h}, key=float)
    if not keys:
        return "<p>(none)</p>"
    peak = max(max(h.values(), default=1) for _, h in hists) or 1
    bar_w = (width - 40) / len(keys)
    charts = []
    for i, (name, hist) in enumerate(hists):
        colour = COLOURS[i % len(COLOURS)]
        parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="{html.escape(name)}: {what} per {x}">',
                 f'<text x="5" y="12" font-size="11">{html.escape(name)}: {what} per {x}</text>']
        for j, k in enumerate(keys):
            count = hist.get(k, 0)
            h = (height - 50) * count / peak
            bx = 30 + j * bar_w
            parts.append(f'<rect x="{bx:.1f}" y="{height - 20 - h:.1f}" width="{bar_w * 0.8:.1f}" height="{h:.1f}" '
                         f'fill="{colour}"><title>{x} {html.escape(k)}: {count}</title></rect>')
            parts.append(f'<text x="{bx + bar_w * 0.4:.1f}" y="{height - 24 - h:.1f}" font-size="9" '
                         f'text-anchor="middle">{count}</text>')
            parts.append(f'<text x="{bx + bar_w * 0.4:.1f}" y="{height - 6}" font-size="9" '
                         f'text-anchor="middle">{html.escape(k)}</text>')
        parts.append("</svg>")
        charts.append("".join(parts))
    return "<div>" + "".join(charts) + "</div>"


def _rating_lines(history: list[dict[str, Any]], labels: list[str]) -> str:
    if len(history) < 2:
        return ""
    series = {label: [[h["game"], h[label]] for h in history if label in h] for label in labels}
    return line_chart(series, f"openskill mu over games (1..{history[-1]['game']})", "game")


def _head_to_head(h2h: dict[str, dict[str, dict[str, Any]]], labels: list[str]) -> str:
    note = "<p>Share of meetings in which the row agent ranked ahead of the column agent (ties count half).</p>"
    rows = [[html.escape(a)] + [_fmt(h2h.get(a, {}).get(b, {}).get("score")) for b in labels] for a in labels]
    return note + _table([""] + [html.escape(b) for b in labels], rows)


def _model_calls(rows: list[dict[str, Any]], capped: dict[str, Any] | None) -> str:
    body = []
    for r in rows:
        causes = ", ".join(f"{html.escape(k)}: {v}" for k, v in r["failed_tries"].items()) or "-"
        body.append([html.escape(r["agent"]), str(r["calls"]), f"{r['tokens_in']:,}", f"{r['tokens_out']:,}",
                     f"{r['cost']:.4f}", _fmt(r["latency_ms_median"], 0) if r["latency_ms_median"] is not None else "-",
                     _fmt(r["latency_ms_p95"], 0) if r["latency_ms_p95"] is not None else "-", str(r["retries"]),
                     str(r["defaults"]), causes])
    note = ""
    if capped:
        note = (f"<p>Stopped handing out games: {html.escape(capped['why'])}; {capped['recorded']:,} of "
                f"{capped['games']:,} games recorded (a run with a higher cap plays on).</p>")
    return note + _table(["agent", "calls", "tokens in", "tokens out", "cost", "latency p50 (ms)", "p95 (ms)",
                          "retries", "rules' default", "failed tries by cause"], body)


def _games(games: list[dict[str, Any]], pages: str | None) -> str:
    rows = []
    calls = any(g.get("model_calls") for g in games)
    for g in games:
        gid = html.escape(g["game_id"])
        link = f'<a href="{pages}/{gid}.html">{gid}</a>' if pages else gid
        row = [link, html.escape(g["summary"] or ""), str(g["steps"]), str(g["errors"]),
               html.escape(g.get("aborted") or "-")]
        if calls:
            m = g.get("model_calls") or {"calls": 0, "tokens_in": 0, "tokens_out": 0, "cost": 0.0}
            row += [str(m["calls"]), f"{m['tokens_in']:,}/{m['tokens_out']:,}", f"{m['cost']:.4f}"]
        rows.append(row)
    cols = ["game", "result", "steps", "agent errors", "aborted"] + (["model calls", "tokens in/out", "cost"] if calls else [])
    return "<p>The first games, then any aborted or with agent errors; each links to its page.</p>" + _table(cols, rows)


def _table(cols: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{c}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _share(block: dict[str, Any], key: str, count: str) -> str:
    """A rate with the count it is of (seats), e.g. "0.250 (2)"."""
    return f"{_fmt(block.get(key))} ({block.get(count, 0)})"


def _ci(block: dict[str, Any], key: str) -> str:
    lo, hi = block.get(f"{key}_ci") or (None, None)
    return f"{_fmt(block.get(key))} [{_fmt(lo)}, {_fmt(hi)}]"


def _value(row: dict[str, Any]) -> str:
    value = _fmt(row["value"]) if isinstance(row["value"], float) else html.escape(str(row["value"]))
    return value + (f" [{_fmt(row['ci'][0])}, {_fmt(row['ci'][1])}]" if row.get("ci") else "")


def _fmt(value: float | None, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:,.{digits}f}"


def write_game_pages(folder: str, report: dict[str, Any], out: str, pages: str = "pages") -> int:
    """Write the page of every game the report lists under `out`/`pages`/ (read through the
    folder's index), so each of the report's game links resolves; returns how many were written."""
    from pathlib import Path

    from bus.log import LogError, read_game_at
    from ops.files import write_text
    from ops.tournament.store import Store
    from ops.transcript_html import transcript_html

    target = Path(out) / pages
    target.mkdir(parents=True, exist_ok=True)
    store = Store(folder, read_only=True)
    try:
        where = {g["game_id"]: store.locate(g["game_id"]) for g in report.get("games_listed", [])}
    finally:
        store.close()
    for game_id, (segment, offset) in sorted((k, v) for k, v in where.items() if v is not None):
        try:
            game, _ = read_game_at(Path(folder) / "logs" / segment, offset, game_id=game_id)
            text = transcript_html(game)
        except LogError as exc:  # the log, or the game's plugin on it (a PluginFault): the page says so
            text = page(f"game {game_id}", [("Unavailable", f"<p>{html.escape(str(exc))}</p>")])
        write_text(target / f"{game_id}.html", text)
    return len(where)
