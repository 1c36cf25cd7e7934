"""A logged game as one self-contained HTML page: the course of the game and the players' trust
and beliefs as inline SVG plots, then the whole text transcript (no scripts, no external files).

    detente replay transcript LOG --format html [--player N] [--out page.html]
"""

from __future__ import annotations

import html
from typing import Any

from bus.log import GameLog
from ops.svg import line_chart
from replay.series import state_series
from replay.transcript import transcript


def view_charts(data: dict[str, Any]) -> list[tuple[str, dict[str, list[list[float]]]]]:
    """(title, series) per observer: its trust in each other player after each IO update, by seq
    (0 full trust, 1 neutral, higher less), and for Werewolves its belief that each player is a
    werewolf. Diplomacy views are per player; Werewolves views are of the `--player` seat only."""
    by_observer: dict[str, dict[str, list[list[float]]]] = {}
    wolf: dict[str, list[list[float]]] = {}  # Werewolves: the observer's P(werewolf) per player
    for ph in data.get("phases", []):
        for view in ph.get("views", []):  # Diplomacy: {"seq", "player", "power", "trust": {power: t}}
            who = f"p{view['player']} {view.get('power', '')}".strip()
            for other, t in sorted(view.get("trust", {}).items()):
                by_observer.setdefault(who, {}).setdefault(str(other), []).append([view["seq"], t])
        for view in ph.get("view", []):  # Werewolves, with --player: {"seq", "trust": {seat: t}, "beliefs"}
            who = f"p{data['player']}"
            for other, t in sorted(view.get("trust", {}).items(), key=lambda kv: int(kv[0])):
                by_observer.setdefault(who, {}).setdefault(f"p{other}", []).append([view["seq"], t])
            for other, roles in sorted((view.get("beliefs") or {}).items(), key=lambda kv: int(kv[0])):
                if str(other) != str(data["player"]):
                    wolf.setdefault(f"p{other}", []).append([view["seq"], roles.get("werewolf", 0.0)])
    charts = [(f"trust of {who} in the others, by seq", series) for who, series in sorted(by_observer.items())]
    if wolf:
        charts.append((f"p{data['player']}'s belief that each player is a werewolf, by seq", wolf))
    return charts


def transcript_html(log: GameLog, player: int | None = None) -> str:
    text, data = transcript(log, player)
    header = log.header
    title = f"{header.get('game')} game {header.get('game_id')} (seed {header.get('seed')})"
    charts = [line_chart(c["series"], c["title"], c["x"], steps=True) for c in state_series(log)]
    charts += [line_chart(series, name, "seq") for name, series in view_charts(data)]
    plots = "".join(f"<div>{c}</div>" for c in charts if c)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;margin:2em}}pre{{font-size:12px;line-height:1.35}}</style>
</head><body>
<h1>{html.escape(title)}</h1>
<h2>Course of the game</h2>{plots or "<p>(no plots for this game)</p>"}
<h2>Transcript</h2>
<pre>{html.escape(text)}</pre>
</body></html>
"""
