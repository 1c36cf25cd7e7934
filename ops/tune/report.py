"""The tuning report: text, JSON and one self-contained HTML page (inline CSS and SVG, no scripts,
no external files): every trial with its objective and interval, the objective over trials, each
searched option's values against the objective, the check, and the best configuration as an
agent spec and a lineup entry ready to paste."""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any

from ops.page import page, pre
from ops.svg import COLOURS, svg, text


def _ci(r: dict[str, Any]) -> str:
    if r is None or math.isnan(r.get("value", math.nan)):
        return "n/a"
    return f"{r['value']:.4f} [{r['lo']:.4f}, {r['hi']:.4f}]"


def _v(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, float) else f"{value:g}"


def _this_run(report: dict[str, Any]) -> str:
    """A resumed search's seconds are its last run's (an earlier run's time was never recorded)."""
    return " (this run, which resumed the search)" if report.get("resumed") else ""


def format_text(report: dict[str, Any]) -> str:
    spec = report["spec"]
    paths = sorted(report["space"])
    lines = [f"tuning {spec['agent']['name']} on {spec['game']}: objective {spec['objective']}"
             + (f" (roles {', '.join(spec['roles'])})" if spec["roles"] else "")
             + f", {spec['algorithm']}, {len(report['trials'])} trials of {spec['games']} games",
             f"search seconds: {report['search_seconds']:.1f}{_this_run(report)} on {report['cpus']} CPUs "
             f"({report['runners_per_trial']} runner(s) a trial)",
             "", "trial  objective [95% interval]        " + "  ".join(paths)]
    for t in report["trials"]:
        lines.append(f"{t['number']:>5}  {_ci(t):<32}" + "  ".join(_v(t["values"][p]) for p in paths))
    best = report["best"]
    lines += ["", f"best: trial {best['number']}: {_ci(best)}", f"  agent spec: {report['agent_spec']}",
              "  lineup entry:", *("    " + line for line in report["lineup_entry"].splitlines())]
    check = report.get("check")
    if check:
        lines += ["", f"check on fresh seeds ({check['games']} games each, seed {check['seed']}):",
                  f"  best:     {_ci(check['best'])}", f"  defaults: {_ci(check['defaults'])}",
                  "  " + ("apart: the best configuration is better" if check["better"] else
                          "apart: the hand-set configuration is better" if check["apart"] else
                          "not apart: the intervals overlap")]
    return "\n".join(lines) + "\n"


def to_json(report: dict[str, Any]) -> str:
    def clean(v: Any) -> Any:
        if isinstance(v, float) and not math.isfinite(v):
            return None
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        if isinstance(v, list):
            return [clean(x) for x in v]
        return v

    return json.dumps(clean(report), indent=1, sort_keys=True) + "\n"


def _scatter(points: list[tuple[float, float, float, float]], title: str, x_label: str, y_label: str,
             best: tuple[float, float] | None = None, width: int = 520, height: int = 260) -> str:
    """Points (x, y, lo, hi) with their intervals as vertical bars; `best` ringed."""
    if not points:
        return ""
    xs = [p[0] for p in points]
    ys = [v for p in points for v in p[1:] if math.isfinite(v)]
    x_lo, x_hi = min(xs), max(xs)
    y_lo, y_hi = min(ys), max(ys)
    x_span, y_span = (x_hi - x_lo) or 1.0, (y_hi - y_lo) or 1.0
    left, top, bottom = 50, 40, 34

    def px(x: float) -> float:
        return left + (width - left - 20) * (x - x_lo) / x_span

    def py(y: float) -> float:
        return height - bottom - (height - top - bottom) * (y - y_lo) / y_span

    parts = [text(5, 14, title), text(4, py(y_hi) + 4, f"{y_hi:.3g}", 10), text(4, py(y_lo) + 4, f"{y_lo:.3g}", 10),
             text(left, height - 6, f"{x_label} {x_lo:.4g}", 10), text(width - 20, height - 6, f"{x_hi:.4g}", 10, "end"),
             text(left, 28, f"y: {y_label}", 10),
             f'<line x1="{left}" y1="{height - bottom}" x2="{width - 20}" y2="{height - bottom}" stroke="#999"/>']
    for x, y, lo, hi in points:
        if math.isfinite(lo) and math.isfinite(hi):
            parts.append(f'<line x1="{px(x):.1f}" y1="{py(lo):.1f}" x2="{px(x):.1f}" y2="{py(hi):.1f}" '
                         f'stroke="{COLOURS[0]}" stroke-opacity="0.35"/>')
        if math.isfinite(y):
            parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{COLOURS[0]}">'
                         f"<title>{html.escape(f'{x:.4g}: {y:.4f} [{lo:.4f}, {hi:.4f}]')}</title></circle>")
    if best is not None and all(math.isfinite(v) for v in best):
        parts.append(f'<circle cx="{px(best[0]):.1f}" cy="{py(best[1]):.1f}" r="7" fill="none" stroke="{COLOURS[1]}" '
                     f'stroke-width="2"><title>best</title></circle>')
    return svg(width, height, parts, title)


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def format_html(report: dict[str, Any]) -> str:
    spec = report["spec"]
    objective = spec["objective"] + (f" ({', '.join(spec['roles'])})" if spec["roles"] else "")
    best = report["best"]
    paths = sorted(report["space"])
    sections = []
    check = report.get("check")
    if check:
        verdict = ("apart: the best configuration is better" if check["better"] else
                   "apart: the hand-set configuration is better" if check["apart"] else "not apart: the intervals overlap")
        sections.append(("Check on fresh seeds", _table(
            ["configuration", objective, "95% interval", "games"],
            [[name, f"{check[name]['value']:.4f}", f"[{check[name]['lo']:.4f}, {check[name]['hi']:.4f}]", str(check[name]["n"])]
             for name in ("best", "defaults")]) + f"<p><b>{html.escape(verdict)}</b> (seed {check['seed']}, never used by a trial)</p>"))
    sections.append(("Best configuration", f"<p>trial {best['number']}: {html.escape(_ci(best))}</p>"
                     + "<p>agent spec:</p>" + pre(report["agent_spec"]) + "<p>lineup entry:</p>" + pre(report["lineup_entry"])))
    over = _scatter([(t["number"], t["value"], t["lo"], t["hi"]) for t in report["trials"]],
                    "objective over trials", "trial", objective, (best["number"], best["value"]))
    sections.append(("Objective over trials", over))
    charts = []
    for path in paths:
        pts = [(float(t["values"][path]) if not isinstance(t["values"][path], str) else float(i), t["value"], t["lo"], t["hi"])
               for i, t in enumerate(report["trials"]) if isinstance(t["values"][path], (int, float, bool))]
        b = best["values"][path]
        charts.append(_scatter(pts, f"{path} against the objective", path, objective,
                               (float(b), best["value"]) if isinstance(b, (int, float, bool)) else None, width=400))
    sections.append(("Each option against the objective", "".join(charts)))
    sections.append(("Trials", _table(["trial", objective, "95% interval", "games", *paths, "folder"],
                                      [[str(t["number"]), f"{t['value']:.4f}", f"[{t['lo']:.4f}, {t['hi']:.4f}]", str(t["n"]),
                                        *(_v(t["values"][p]) for p in paths), t["folder"]] for t in report["trials"]])))
    sections.append(("Search space", _table(["option", "kind", "range"], [
        [p, s["kind"], json.dumps(s["choices"]) if s["kind"] == "choice" else f"{s['low']} .. {s['high']}" + (" (log)" if s["log"] else "")]
        for p, s in sorted(report["space"].items())])))
    intro = html.escape(f"{spec['agent']['name']} on {spec['game']}, objective {objective}, {spec['algorithm']}, "
                        f"{len(report['trials'])} trials of {spec['games']} games, seed {spec['seed']}; "
                        f"{report['search_seconds']:.0f} s{_this_run(report)} on {report['cpus']} CPUs.")
    return page(f"Tuning {spec['agent']['name']} on {spec['game']}", sections, intro)


def write_reports(report: dict[str, Any], out: str | Path) -> dict[str, Path]:
    out = Path(out)
    paths = {"text": out / "report.txt", "json": out / "report.json", "html": out / "report.html"}
    paths["text"].write_text(format_text(report), encoding="utf-8")
    paths["json"].write_text(to_json(report), encoding="utf-8")
    paths["html"].write_text(format_html(report), encoding="utf-8")
    return paths
