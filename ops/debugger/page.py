"""The viewer's HTML: the shell the server sends, and one game exported as a single
self-contained file (no network: inline script and style, the view's data embedded, a Content
Security Policy that forbids every fetch).

An exported page holds one view only: the omniscient one, or player N's, built from the same
server-side answers as the served viewer (so it holds nothing N did not observe).
"""

from __future__ import annotations

import html
import json
from typing import Any

from ops.debugger import assets
from ops.debugger.api import boards
from ops.debugger.game import DebugGame, finite

EMBED_RECORDS_LIMIT = 24 * 1024 * 1024  # whole records embedded up to this many bytes of JSON
EXPORT_CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
              "base-uri 'none'; form-action 'none'")

_BODY = """
<header><h1 id="title">detente replay debugger</h1>
<a id="home" href="#">all games</a>
<label>view <select id="view"></select></label>
<span id="phase-now"></span></header>
<div id="banner" class="banner" role="alert"></div>
<main>
<section id="list" class="hidden">
 <div class="panel"><h2>games</h2>
 <form id="filters">
  <label>agent <input id="f-agent" name="agent" placeholder="label or name"></label>
  <label>seat / power <input id="f-seat" name="seat" placeholder="3 or FRANCE"></label>
  <label>winner <input id="f-winner" name="winner" placeholder="label, or none"></label>
  <label>steps from <input id="f-min_steps" name="min_steps" type="number" min="0"></label>
  <label>to <input id="f-max_steps" name="max_steps" type="number" min="0"></label>
  <label>errors <select id="f-errors" name="errors"><option value="">any</option><option value="yes">yes</option><option value="no">no</option></select></label>
  <label>id <input id="f-q" name="q" placeholder="part of the id"></label>
  <button id="f-go" type="submit">filter</button>
 </form>
 <p><span id="list-count"></span> <button id="list-prev" type="button">&lt; previous</button> <button id="list-next" type="button">next &gt;</button></p>
 <table id="games"><thead><tr><th>game</th><th>kind</th><th>seats</th><th>winners</th><th>steps</th><th>errors</th><th>summary</th></tr></thead>
 <tbody id="games-body"></tbody></table></div>
</section>
<section id="viewer" class="hidden">
 <div class="panel">
  <div id="controls">
   <button id="prev" title="previous message (left arrow)">&#9664;</button>
   <input id="seq" type="number" aria-label="seq">
   <button id="next" title="next message (right arrow)">&#9654;</button>
   <select id="phase" aria-label="phase"></select>
   <button id="prev-phase" title="previous phase (up arrow)">&#8676; phase</button><button id="next-phase" title="next phase (down arrow)">phase &#8677;</button>
   <button id="prev-talk">&#8592;</button>talk<button id="next-talk">&#8594;</button>
   <button id="prev-deal">&#8592;</button>deal<button id="next-deal">&#8594;</button>
   <button id="prev-broken">&#8592;</button>broken<button id="next-broken">&#8594;</button>
   <button id="prev-error">&#8592;</button>error<button id="next-error">&#8594;</button>
   <button id="prev-trust">&#8592;</button>trust<button id="next-trust">&#8594;</button>
  </div>
  <div id="timeline"></div>
  <div id="players" class="legend"></div>
 </div>
 <div class="grid">
  <div>
   <div class="panel"><h2>board</h2><div id="board"></div></div>
   <div class="panel" id="compare"><h2 id="compare-title">fork</h2><div class="pair"><div id="compare-left"></div><div id="compare-right"></div></div></div>
  </div>
  <div>
   <div class="panel" id="ledger"><h2>deal ledger <span id="ledger-count" class="muted"></span></h2>
    <div class="scroll"><table><thead><tr><th>seq</th><th>deal</th><th>event</th><th>by</th><th>parties</th><th>detail</th></tr></thead><tbody id="ledger-body"></tbody></table></div></div>
   <div class="panel"><h2>knowledge base <select id="kb-seat" aria-label="seat"></select></h2><div id="detail"></div></div>
  </div>
 </div>
 <div class="panel" id="charts"><h2>trust and beliefs, course of the game (x: seq) <select id="observer" aria-label="observer"></select></h2><div id="charts-body"></div></div>
 <div class="panel" id="messages"><h2>messages <span id="messages-count" class="muted"></span></h2>
  <div>filter: <input id="m-actor" placeholder="actor, e.g. p3 or referee"> <input id="m-kind" placeholder="kinds, e.g. talk,heard"> <input id="m-channel" placeholder="channel"></div>
  <div class="scroll"><table><thead><tr><th>seq</th><th>cause</th><th>from → to</th><th>kind</th><th>what</th></tr></thead><tbody id="messages-body"></tbody></table></div>
  <h2>record</h2><pre id="record">(click a seq)</pre></div>
 <div class="panel hidden" id="fork"><h2>what if: fork here</h2>
  <p class="muted">The game is replayed to the cursor with its own agents, then goes on with these agents in the seats you fill in.</p>
  <div id="fork-seats"></div><button id="fork-go">fork here</button> <span id="fork-result"></span></div>
</section>
</main>
"""


def app_page() -> str:
    """The served viewer's shell (script and style from /static/)."""
    return ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>detente replay debugger</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="stylesheet" href="/static/app.css"></head><body>'
            + _BODY + '<script src="/static/app.js"></script></body></html>\n')


def error_page(status: int, message: str) -> str:
    """A short page for an error outside the API (never a traceback)."""
    return ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>detente: error</title></head><body>'
            f'<h1>{status}</h1><p id="error">{html.escape(message)}</p><p><a href="/">all games</a></p></body></html>\n')


def export_data(game: DebugGame, seat: int | None) -> dict[str, Any]:
    """Everything one view of one game shows, as the page embeds it."""
    game.check_seat(seat)
    meta = game.meta(seat)
    visible = game.visible(seat)
    data: dict[str, Any] = {"meta": meta, "boards": boards(game, seat), "summaries": game.summaries(seat)}
    records = {str(game.records[i]["seq"]): game.record(game.records[i]["seq"], seat) for i in visible}
    if len(json.dumps(records, default=str)) <= EMBED_RECORDS_LIMIT:
        data["records"] = records
    seats = range(game.players) if seat is None else [seat]
    data["kb"] = {str(s): [[q, game.records[i]["msg"].get("source"), game.records[i]["msg"].get("updates") or []]
                           for q, i in game.kb_changes(s)] for s in seats}
    data["suggestions"] = [{**entry, "seat": s} for s in seats for entry in game.suggestion_replies(s)]
    return data


def export_page(game: DebugGame, seat: int | None) -> str:
    """The viewer for one view of one game as one self-contained HTML file."""
    data = finite(export_data(game, seat))
    blob = json.dumps(data, separators=(",", ":"), allow_nan=False, default=str)
    blob = blob.replace("</", "<\\/").replace("<!--", "<\\!--")  # cannot close the script element
    view = "omniscient" if seat is None else f"player {seat}"
    title = f"{game.game} game {game.id} ({view})"
    return ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{EXPORT_CSP}">'
            f"<title>{html.escape(title)}</title><style>{assets.APP_CSS}</style></head><body>"
            + _BODY + f'<script type="application/json" id="detente-data">{blob}</script>'
            f"<script>{assets.APP_JS}</script></body></html>\n")

