"use strict";
// The replay debugger's page: served by `detente replay serve` (it asks the JSON API) and inlined
// into pages written by `detente replay page` (it answers from the data embedded in the page). Its
// pure functions are in view.js (loaded before this file, tested under node --test).
(function () {
const {bisectRight, bisectLeft, parseHash, formatHash, povSeq, stepSeq, xOfSeq, seqAtX, yScale, fmt, brief,
       assoc, getPath, matches} = DetenteView;
const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                 "#7f7f7f", "#bcbd22", "#393b79", "#637939"];
const MARK_COLOURS = {talk: "#4e79a7", deal: "#59a14f", broken: "#e15759", error: "#000000", trust: "#b07aa1"};
const $ = (id) => document.getElementById(id);
const embedded = document.getElementById("detente-data");
const DATA = embedded ? JSON.parse(embedded.textContent) : null;
let token = "";
const S = {game: null, player: null, seq: null, meta: null, seqs: [], fork: null, forkMeta: null, kb: null,
           filters: {actor: "", kind: "", channel: ""}, observer: "", busy: 0, opening: 0, colours: null};

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid.nodeType ? kid : document.createTextNode(String(kid)));
  return e;
}
function svgEl(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}
const OTHER_COLOURS = ["#4e79a7", "#f28e2b", "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac"];
function lineColour(line, k) {
  // a seat's line has the seat's colour; a line about something else (a card slot) its own
  return line.seat === null || line.seat === undefined ? OTHER_COLOURS[k % OTHER_COLOURS.length] : colour(line.seat);
}
function colour(seat) {
  if (seat === null || seat === undefined) return "#999";
  const own = S.colours;  // the board's own colour for the seat, where the game gives one
  return own && own[seat] ? own[seat] : PALETTE[seat % PALETTE.length];
}
function banner(text, kind) {
  const b = $("banner");
  b.textContent = text || "";
  b.className = "banner" + (text ? " " + (kind || "error") : "");
}

// ---- the data: the JSON API when served, the embedded data in an exported page ----------------
class ApiError extends Error { constructor(status, message) { super(message); this.status = status; } }

async function getJSON(path, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== null && v !== undefined && v !== "") q.set(k, v);
  const url = path + (q.toString() ? "?" + q : "");
  const r = await fetch(url, {headers: {"Accept": "application/json"}});
  let body = null;
  try { body = await r.json(); } catch (e) { body = {error: "the server's answer is not JSON (" + r.status + ")"}; }
  if (!r.ok) throw new ApiError(r.status, body && body.error ? body.error : "HTTP " + r.status);
  return body;
}
function gameUrl(id) { return "/api/game/" + encodeURIComponent(id); }

const served = {
  source: () => getJSON("/api/source"),
  games: (f) => getJSON("/api/games", f),
  head: (id, player, seq) => getJSON(gameUrl(id) + "/head", {player, seq}),
  meta: (id, player) => getJSON(gameUrl(id), {player}),
  at: (id, seq, player) => getJSON(gameUrl(id) + "/at/" + seq, {player}),
  messages: (id, player, around, f) => getJSON(gameUrl(id) + "/messages", {player, around, before: 40, after: 40, ...f}),
  record: (id, seq, player) => getJSON(gameUrl(id) + "/record/" + seq, {player}),
  detail: (id, seq, player, kb) => getJSON(gameUrl(id) + "/detail/" + seq, {player, kb}),
  original: (id, player) => getJSON(gameUrl(id) + "/original", {player}),
  fork: async (id, at, seats) => {
    const r = await fetch(gameUrl(id) + "/fork", {method: "POST", headers: {"Content-Type": "application/json",
      "X-Detente-Token": token}, body: JSON.stringify({at, seats})});
    const body = await r.json().catch(() => ({error: "HTTP " + r.status}));
    if (!r.ok) throw new ApiError(r.status, body.error || "HTTP " + r.status);
    return body;
  },
};

// An exported page answers the same questions from what it holds (one view of one game).
const local = {
  source: async () => ({kind: "page", name: DATA.meta.game_id, first: DATA.meta.game_id, forks: false}),
  games: async () => ({total: 1, games: []}),
  meta: async (id, player) => { checkView(player); return DATA.meta; },
  at: async (id, seq, player) => {
    checkView(player); checkSeq(seq);
    const b = DATA.boards[Math.max(0, bisectRight(DATA.boards, seq, (x) => x[0]) - 1)];
    const k = bisectRight(DATA.meta.phases, seq, (p) => p.seq) - 1;
    return {seq, board: b ? b[1] : "", phase: k >= 0 ? DATA.meta.phases[k].label : null};
  },
  messages: async (id, player, around, f) => {
    checkView(player);
    let rows = DATA.summaries;
    if (f.actor || f.kind || f.channel) rows = rows.filter((m) => matches(m, f));
    const at = bisectLeft(rows, around, (m) => m.seq);
    const lo = Math.max(0, at - 40), hi = Math.min(rows.length, at + 41);
    return {total: rows.length, from: lo, messages: rows.slice(lo, hi)};
  },
  record: async (id, seq, player) => {
    checkView(player);
    const r = DATA.records ? DATA.records[String(seq)] : undefined;
    if (r === undefined) throw new ApiError(404, DATA.records ? "no observed record at seq " + seq : "whole records are not in this page (too large): its summary is above");
    return r;
  },
  detail: async (id, seq, player, kb) => {
    checkView(player); checkSeq(seq);
    const seat = DATA.meta.player !== null ? DATA.meta.player : kb;
    if (seat === null || seat === undefined || seat === "") return {seq, seat: null};
    const changes = (DATA.kb || {})[String(seat)] || [];
    let data = {}, before = {}, diff = [], source = null;
    for (const [s, src, updates] of changes) {
      if (s > seq) break;
      if (s === seq) { before = data; source = src; diff = updates.map((u) => ({path: u.path, before: getPath(before, u.path), after: u.value})); }
      for (const u of updates) data = assoc(data, u.path, u.value);
    }
    const here = DATA.summaries[bisectLeft(DATA.summaries, seq, (m) => m.seq)];
    let turn = here && here.seq === seq && here.turn !== undefined ? here.turn : null;
    const mine = (DATA.suggestions || []).filter((x) => x.seat === Number(seat));
    if (turn === null) { const before = mine.filter((x) => x.seq <= seq); if (before.length) turn = before[before.length - 1].turn; }
    return {seq, seat: Number(seat), source, diff, kb: data, suggestions: mine.filter((x) => x.turn === turn)};
  },
  original: async () => { throw new ApiError(404, "an exported page holds one game: serve the fork with its original"); },
  fork: async () => { throw new ApiError(403, "an exported page cannot fork: serve the log (detente replay serve)"); },
};
function checkView(player) {
  const mine = DATA.meta.player;
  if ((player === null || player === undefined || player === "") ? mine !== null : Number(player) !== mine)
    throw new ApiError(403, "this page holds only the " + (mine === null ? "omniscient view" : "view of player " + mine));
}
function checkSeq(seq) {
  if (!(seq >= DATA.meta.first && seq <= DATA.meta.last)) throw new ApiError(404, "seq " + seq + " is out of range (" + DATA.meta.first + ".." + DATA.meta.last + ")");
}
const api = DATA ? local : served;

// ---- the URL: #game=ID&player=N&seq=812 --------------------------------------------------------
function readHash() { return parseHash(location.hash); }
function writeHash() {
  const text = formatHash({game: S.game, player: S.player, seq: S.seq}, !!DATA);
  if (location.hash !== text) history.replaceState(null, "", text);
}

// ---- the game list ----------------------------------------------------------------------------
async function showList() {
  $("viewer").classList.add("hidden");
  $("list").classList.remove("hidden");
  $("title").textContent = "detente replay debugger";
  await loadList(0);
}
async function loadList(offset) {
  const f = {offset, limit: 100};
  for (const name of ["agent", "seat", "winner", "min_steps", "max_steps", "errors", "q"]) f[name] = $("f-" + name).value.trim();
  try {
    const data = await api.games(f);
    banner("");
    const body = $("games-body");
    body.replaceChildren();
    for (const g of data.games) {
      const link = el("a", {href: "#game=" + encodeURIComponent(g.game_id), class: "game-link", "data-game": g.game_id, text: g.game_id});
      const winners = g.winners.length ? g.winners.map((s) => "p" + s + " " + (g.seats[s] || "")).join(", ") : "none";
      body.append(el("tr", {"data-game": g.game_id}, el("td", {}, link), el("td", {text: g.game || ""}),
        el("td", {text: g.seats.map((s, i) => "p" + i + " " + s + (g.roles && g.roles[i] ? " (" + g.roles[i] + ")" : "")).join(", ")}),
        el("td", {text: winners}), el("td", {text: g.steps === null ? "" : g.steps}), el("td", {text: g.errors}),
        el("td", {class: "summary", text: g.summary || ""})));
    }
    $("list-count").textContent = data.total + " games" + (data.total > data.games.length ? " (showing " + (data.offset + 1) + ".." + (data.offset + data.games.length) + ")" : "");
    $("list-prev").disabled = data.offset <= 0;
    $("list-next").disabled = data.offset + data.games.length >= data.total;
    $("list-prev").onclick = () => loadList(Math.max(0, data.offset - 100));
    $("list-next").onclick = () => loadList(data.offset + 100);
  } catch (e) { banner(e.message); }
}

// ---- one game -----------------------------------------------------------------------------------
async function openGame(id, player, seq) {
  $("list").classList.add("hidden");
  $("viewer").classList.remove("hidden");
  S.game = id; S.player = player; S.fork = null; S.forkMeta = null; S.meta = null;
  $("compare").classList.remove("on");
  const ticket = ++S.opening;
  if (!DATA) {
    // the first board comes from the game's start alone, while the server reads the rest
    const target = seq === null || seq === undefined || seq === "" || !Number.isInteger(Number(seq)) ? null : Number(seq);
    try { showHead(await api.head(id, player, target)); }
    catch (e) { banner(e.message); $("viewer").classList.add("hidden"); return; }
    if (ticket !== S.opening) return;
  }
  let meta;
  try { meta = await api.meta(id, player); }
  catch (e) { banner(e.message); $("viewer").classList.add("hidden"); return; }
  if (ticket !== S.opening) return;
  S.meta = meta;
  S.colours = meta.colours;
  banner(meta.warning ? "the log is damaged: " + meta.warning + " (the valid prefix is shown)" : "", "warn");
  $("title").textContent = meta.game + " game " + meta.game_id + (meta.fork ? " (fork of " + meta.fork.from + (meta.fork.at !== undefined ? " at seq " + meta.fork.at : "") + ")" : "");
  buildViews(meta);
  buildPlayers(meta);
  buildPhases(meta);
  buildFork(meta);
  S.seqs = meta.seqs || [];
  if (meta.fork && !DATA) await pairWithOriginal(id, player, ticket);
  if (ticket !== S.opening) return;
  drawTimeline();
  drawCharts();
  let target = seq === null || seq === undefined || seq === "" ? meta.first : Number(seq);
  if (!Number.isInteger(target)) { banner("seq " + seq + " is not a number"); target = meta.first; }
  await go(target, true);
}
function showHead(h) {
  S.colours = h.colours;
  $("title").textContent = h.game + " game " + h.game_id + (h.fork ? " (fork of " + h.fork.from + (h.fork.at !== undefined ? " at seq " + h.fork.at : "") + ")" : "");
  $("board").innerHTML = h.board || "<p class='muted'>(this game has no board)</p>";
  scalable($("board"));
  $("board").setAttribute("data-seq", h.seq);
  $("phase-now").textContent = (h.phase || "") + " · seq " + h.seq + " · reading the rest of the game ...";
  buildPlayers(h);
  for (const id of ["timeline", "charts-body", "messages-body", "ledger-body", "detail"]) $(id).replaceChildren();
  document.body.setAttribute("data-head-seq", h.seq);
}
function buildViews(meta) {
  const sel = $("view");
  sel.replaceChildren(el("option", {value: "", text: "omniscient"}));
  for (const p of meta.players) sel.append(el("option", {value: p.seat, text: "player " + p.seat + " " + p.name + " (" + p.agent + ")"}));
  sel.value = S.player === null ? "" : String(S.player);
  if (DATA) sel.disabled = true;
  sel.onchange = () => openGame(S.game, sel.value === "" ? null : Number(sel.value), S.seq);
  const kb = $("kb-seat");
  kb.replaceChildren(el("option", {value: "", text: "(choose a seat)"}));
  for (const p of meta.players) kb.append(el("option", {value: p.seat, text: "p" + p.seat + " " + p.name}));
  if (S.player !== null) { kb.value = String(S.player); kb.disabled = true; S.kb = S.player; }
  else { kb.disabled = false; kb.value = S.kb === null || S.kb === undefined ? "" : String(S.kb); }
  kb.onchange = () => { S.kb = kb.value === "" ? null : Number(kb.value); showDetail(S.seq); };
  const obs = $("observer");
  obs.replaceChildren(el("option", {value: "", text: "every observer"}));
  for (const p of meta.players) obs.append(el("option", {value: p.seat, text: "p" + p.seat + " " + p.name}));
  obs.value = S.observer;
  obs.onchange = () => { S.observer = obs.value; drawCharts(); };
}
function buildPlayers(meta) {
  const box = $("players");
  box.replaceChildren();
  for (const p of meta.players) {
    box.append(el("span", {"data-seat": p.seat}, el("span", {class: "swatch", style: "background:" + colour(p.seat)}),
      "p" + p.seat + " " + p.name + " " + p.agent + (p.role ? " [" + p.role + "]" : "")));
  }
  if (meta.outcome) box.append(el("div", {class: "muted", text: "end: " + meta.outcome.summary}));

}
function buildPhases(meta) {
  const sel = $("phase");
  sel.replaceChildren(el("option", {value: "", text: "jump to phase"}));
  for (const p of meta.phases) sel.append(el("option", {value: p.seq, text: p.label + " (seq " + p.seq + ")"}));
  sel.onchange = () => { if (sel.value !== "") go(Number(sel.value)); };
}

async function go(seq, first) {
  const meta = S.meta;
  if (!(seq >= meta.first && seq <= meta.last)) {
    banner("seq " + seq + " is out of range (" + meta.first + ".." + meta.last + ")");
    if (!first) return;
    seq = meta.first;
  } else if (!first) banner(meta.warning ? "the log is damaged: " + meta.warning : "", "warn");
  if (S.player !== null) seq = povSeq(S.seqs, seq);  // a seat stands on its own records
  S.seq = seq;
  writeHash();
  $("seq").value = seq;
  const ticket = ++S.busy;
  try {
    const [at, msgs] = await Promise.all([api.at(S.game, seq, S.player), api.messages(S.game, S.player, seq, S.filters)]);
    if (ticket !== S.busy) return;
    $("board").innerHTML = at.board || "<p class='muted'>(this game has no board)</p>";
    scalable($("board"));
    $("board").setAttribute("data-seq", seq);
    $("phase-now").textContent = (at.phase || "") + " · seq " + seq + " of " + meta.first + ".." + meta.last;
    showMessages(msgs, seq);
    showLedger(seq);
    moveCursor(seq);
    await showDetail(seq);
    if (S.fork) await showCompare(seq);
    document.body.setAttribute("data-ready-seq", seq);
  } catch (e) { banner(e.message); }
}
function scalable(box) {
  // a board drawn at a fixed size scales to its panel: give it the viewBox of that size
  for (const svg of box.querySelectorAll(":scope > svg")) {
    if (!svg.getAttribute("viewBox") && svg.getAttribute("width") && svg.getAttribute("height"))
      svg.setAttribute("viewBox", "0 0 " + parseFloat(svg.getAttribute("width")) + " " + parseFloat(svg.getAttribute("height")));
  }
}
function step(delta) {
  const next = stepSeq(S.seqs, S.seq, delta);
  if (next !== null) go(next);
}
function jump(list, delta) {
  if (!list || !list.length) return;
  const target = delta > 0 ? list.find((s) => s > S.seq) : [...list].reverse().find((s) => s < S.seq);
  if (target !== undefined) go(target);
}
function phaseSeqs() { return S.meta.phases.map((p) => p.seq); }

function showMessages(data, seq) {
  const body = $("messages-body");
  body.replaceChildren();
  for (const m of data.messages) {
    const cause = m.cause !== null && m.cause !== undefined && m.cause >= 0
      ? el("a", {class: "cause", "data-seq": m.cause, title: "go to the message that caused this one", text: "← " + m.cause, onclick: () => go(m.cause)}) : "";
    const row = el("tr", {"data-seq": m.seq, class: (m.seq === seq ? "here " : "") + (m.kind === "kb_change" ? "kb-change" : "")},
      el("td", {}, el("a", {class: "seq", text: m.seq, onclick: () => { go(m.seq); showRecord(m.seq); }})),
      el("td", {}, cause), el("td", {text: m.sender + " → " + m.to}), el("td", {text: m.kind + (m.channel ? " [" + m.channel + "]" : "")}),
      el("td", {class: "text", text: m.text}));
    body.append(row);
  }
  $("messages-count").textContent = data.total + " messages" + (S.player !== null ? " observed by player " + S.player : "");
  const here = body.querySelector("tr.here");
  const box = body.closest(".scroll");
  if (here && box) box.scrollTop = Math.max(0, here.offsetTop - box.clientHeight / 2);  // the list only, not the page
}
async function showRecord(seq) {
  let r;
  try { r = await api.record(S.game, seq, S.player); }
  catch (e) { $("record").textContent = e.message; return; }
  const m = r.msg || {};
  if (m.kind === "model_call") $("record").replaceChildren(modelCall(m), el("details", {}, el("summary", {text: "the whole record"}), JSON.stringify(r, null, 1)));
  else $("record").textContent = JSON.stringify(r, null, 1);
}
function modelCall(m) {
  // every text goes in as textContent: a model's answer or a prompt is never markup here
  const box = el("div", {class: "model-call"},
    el("div", {class: "model-head", text: "model call " + m.call + " of player " + m.seat + " (" + m.purpose + "): " + m.model + " at " + m.endpoint +
      "; " + m.outcome + "; " + m.tokens_in + " tokens in, " + m.tokens_out + " out; " + m.latency_ms + " ms"}),
    el("div", {class: "pov", text: "The prompt exactly as the model saw it: player " + m.seat + "'s point of view (what that seat was shown, nothing else)."}));
  for (const msg of m.messages || []) box.append(el("div", {class: "prompt"}, el("b", {text: String(msg.role)}), el("div", {class: "text", text: String(msg.content)})));
  box.append(el("div", {class: "answer"}, el("b", {text: "answer" + (m.finish_reason ? " (" + m.finish_reason + ")" : "")}),
    el("div", {class: "text", text: m.answer === null || m.answer === undefined ? "(no answer)" : String(m.answer)})));
  const tries = m.tries || [];
  box.append(el("div", {class: "tries", text: tries.length ? "failed tries: " + tries.map((t, i) => (i + 1) + ". " + t.cause + (t.status ? " (HTTP " + t.status + ")" : "") + ", " + t.latency_ms + " ms").join("; ") : "no failed tries"}));
  return box;
}
function showLedger(seq) {
  const body = $("ledger-body");
  body.replaceChildren();
  const events = (S.meta.ledger || []).filter((e) => e.seq <= seq);
  for (const e of events.slice(-60).reverse()) {
    body.append(el("tr", {"data-seq": e.seq, class: e.type === "broken" ? "ledger-broken" : ""},
      el("td", {}, el("a", {class: "seq", text: e.seq, onclick: () => go(e.seq)})), el("td", {text: e.deal}),
      el("td", {text: e.type}), el("td", {text: e.by || ""}), el("td", {text: (e.parties || []).join(", ")}),
      el("td", {text: e.detail || ""})));
  }
  $("ledger-count").textContent = events.length ? events.length + " events so far" : (S.meta.ledger && S.meta.ledger.length ? "no deal yet" : "no deals in this game");
}
async function showDetail(seq) {
  const box = $("detail");
  const kb = S.player !== null ? S.player : S.kb;
  if (kb === null || kb === undefined) { box.replaceChildren(el("p", {class: "muted", text: "choose a seat to see its knowledge base, or click a trust point"})); return; }
  let d;
  try { d = await api.detail(S.game, seq, S.player, kb); } catch (e) { box.textContent = e.message; return; }
  const parts = [];
  if (d.diff && d.diff.length) {
    parts.push(el("h3", {text: "KB change at seq " + d.seq + " from " + (d.source || "?")}));
    const t = el("table", {class: "diff"}, el("tr", {}, el("th", {text: "path"}), el("th", {text: "before"}), el("th", {text: "after"})));
    for (const x of d.diff) t.append(el("tr", {}, el("td", {class: "diff-path", text: x.path.join("/")}),
      el("td", {}, el("pre", {text: brief(x.before)})), el("td", {}, el("pre", {text: brief(x.after)}))));
    parts.push(t);
  }
  if (d.suggestions && d.suggestions.length) {
    parts.push(el("h3", {text: "offices' suggestions at this decision"}));
    for (const s of d.suggestions) {
      const t = el("table", {class: "suggestions"}, el("tr", {}, el("th", {text: s.office + " " + s.task + " (seq " + s.seq + ")"}), el("th", {text: "utility"})));
      for (const [action, u] of s.suggestions) t.append(el("tr", {}, el("td", {text: action}), el("td", {text: typeof u === "number" ? u.toFixed(4) : u})));
      parts.push(t);
    }
  }
  parts.push(el("h3", {text: "knowledge base of p" + d.seat + " after seq " + d.seq}));
  parts.push(el("pre", {id: "kb-json", text: JSON.stringify(d.kb, null, 1)}));
  box.replaceChildren(...parts);
}

// ---- timeline and charts on one x-axis ---------------------------------------------------------
const W = 1000, PAD = 46;
function xOf(seq, width) { return xOfSeq(seq, S.meta.first, S.meta.last, width, PAD); }
function drawTimeline() {
  const box = $("timeline");
  box.replaceChildren();
  const svg = svgEl("svg", {viewBox: "0 0 " + W + " 64", preserveAspectRatio: "none", id: "timeline-svg"});
  svg.append(svgEl("rect", {x: PAD, y: 26, width: W - PAD - 12, height: 10, fill: "#e8e8e8"}));
  for (const p of S.meta.phases) {
    const x = xOf(p.seq, W);
    svg.append(svgEl("line", {x1: x, x2: x, y1: 18, y2: 44, stroke: "#888", "stroke-width": 1}));
  }
  let row = 0;
  for (const [name, list] of Object.entries(S.meta.marks)) {
    const y = 46 + (row++ % 3) * 5;
    for (const s of list) {
      const x = xOf(s, W);
      svg.append(svgEl("rect", {x: x - 1, y, width: 2, height: 4, fill: MARK_COLOURS[name] || "#555", class: "mark-" + name}));
    }
  }
  const labels = S.meta.phases.filter((p, i, all) => i === 0 || xOf(p.seq, W) - xOf(all[i - 1].seq, W) > 40);
  let lastX = -100;
  for (const p of labels) {
    const x = xOf(p.seq, W);
    if (x - lastX < 48) continue;
    lastX = x;
    const t = svgEl("text", {x, y: 14, "font-size": 10, fill: "#444"}); t.textContent = p.label; svg.append(t);
  }
  svg.append(svgEl("line", {x1: PAD, x2: PAD, y1: 16, y2: 60, stroke: "#d00", "stroke-width": 2, class: "cursor"}));
  svg.addEventListener("click", (ev) => {
    const r = svg.getBoundingClientRect();
    const x = (ev.clientX - r.left) * W / r.width;
    const m = S.meta;
    const seq = seqAtX(x, m.first, m.last, W, PAD);
    const seqs = S.seqs;
    const i = Math.min(seqs.length - 1, Math.max(0, bisectLeft(seqs, seq)));
    go(seqs.length ? seqs[i] : Math.max(m.first, Math.min(m.last, seq)));
  });
  box.append(svg);
  const legend = el("div", {class: "legend"});
  for (const [name, list] of Object.entries(S.meta.marks)) legend.append(el("span", {}, el("span", {class: "swatch", style: "background:" + MARK_COLOURS[name]}), name + " (" + list.length + ")"));
  box.append(legend);
}
function moveCursor(seq) {
  for (const c of document.querySelectorAll("line.cursor")) {
    const w = Number(c.getAttribute("data-width") || W);
    const x = xOf(seq, w);
    c.setAttribute("x1", x); c.setAttribute("x2", x);
  }
}
function drawCharts() {
  const box = $("charts-body");
  box.replaceChildren();
  const b = S.meta.beliefs || {points: [], scales: {}};
  const groups = new Map();
  for (const p of b.points) {
    const [seq, observer, subjectSeat, subject, quantity, value] = p;
    if (S.observer !== "" && String(observer) !== S.observer) continue;
    const key = observer + "\u0000" + quantity;
    if (!groups.has(key)) groups.set(key, {observer, quantity, lines: new Map()});
    const g = groups.get(key);
    if (!g.lines.has(subject)) g.lines.set(subject, {seat: subjectSeat, pts: []});
    g.lines.get(subject).pts.push([seq, value]);
  }
  const fork = S.forkMeta ? forkGroups(S.forkMeta) : new Map();
  const names = S.meta.players;
  for (const [key, g] of [...groups.entries()].sort((a, b) => a[1].observer - b[1].observer || a[1].quantity.localeCompare(b[1].quantity))) {
    const scale = b.scales[g.quantity] || {lo: 0, hi: null, higher: "more"};
    const seats = [...g.lines.values()].some((l) => l.seat !== null && l.seat !== undefined);
    const title = g.quantity + " of p" + g.observer + " " + (names[g.observer] ? names[g.observer].name : "") + (seats ? " in each other player" : " by subject");
    box.append(chart(title, g.lines, scale, "beliefs", g.observer, fork.get(key)));
  }
  for (const c of S.meta.charts || []) {
    const lines = new Map(Object.entries(c.series).map(([label, pts], i) => [label, {seat: seatOfLabel(label, i), pts}]));
    box.append(chart(c.title, lines, {lo: null, hi: null, higher: ""}, "course", null, null, true));
  }
  if (!box.children.length) box.append(el("p", {class: "muted", text: "no trust or belief series in this view"}));
  moveCursor(S.seq === null ? S.meta.first : S.seq);
}
function seatOfLabel(label, i) {
  const k = S.meta.players.findIndex((p) => p.name === label || p.address === label);
  return k >= 0 ? k : i;
}
function forkGroups(meta) {
  const out = new Map();
  for (const p of (meta.beliefs || {points: []}).points) {
    const [seq, observer, subjectSeat, subject, quantity, value] = p;
    const key = observer + "\u0000" + quantity;
    if (!out.has(key)) out.set(key, new Map());
    const lines = out.get(key);
    if (!lines.has(subject)) lines.set(subject, {seat: subjectSeat, pts: []});
    lines.get(subject).pts.push([seq, value]);
  }
  return out;
}
function chart(title, lines, scale, kind, observer, forkLines, steps) {
  const width = 520, height = 200, top = 26, bottom = 22;
  const all = [...lines.values()].flatMap((l) => l.pts).concat(forkLines ? [...forkLines.values()].flatMap((l) => l.pts) : []);
  const {lo, hi, y} = yScale(scale, all.map((p) => p[1]), top, height, bottom);
  const svg = svgEl("svg", {width, height, class: "chart-svg", "data-kind": kind});
  const t = svgEl("text", {x: 4, y: 12, "font-size": 11}); t.textContent = title; svg.append(t);
  const axis = svgEl("text", {x: PAD, y: 23, "font-size": 9.5, fill: "#555", class: "y-axis"});
  axis.textContent = kind === "beliefs" ? "y: " + (title.split(" of ")[0]) + " (" + fmt(scale.lo) + ".." + (scale.hi === null || scale.hi === undefined ? "" : fmt(scale.hi)) + "; higher = " + scale.higher + ")" : "x: seq";
  svg.append(axis);
  for (const p of S.meta.phases) {
    const x = xOf(p.seq, width);
    svg.append(svgEl("line", {x1: x, x2: x, y1: top, y2: height - bottom, stroke: "#eee"}));
  }
  for (const v of [lo, hi]) { const tt = svgEl("text", {x: 2, y: y(v) + 3, "font-size": 9}); tt.textContent = fmt(v); svg.append(tt); }
  const xl = svgEl("text", {x: PAD, y: height - 6, "font-size": 9}); xl.textContent = "seq " + S.meta.first; svg.append(xl);
  const xr = svgEl("text", {x: width - 12, y: height - 6, "font-size": 9, "text-anchor": "end"}); xr.textContent = String(S.meta.last); svg.append(xr);
  const draw = (lns, dashed) => {
    let k = 0;
    for (const [label, line] of lns) {
      const c = lineColour(line, k++);
      const coords = [];
      line.pts.forEach(([sx, sy], j) => { if (steps && j) coords.push(xOf(sx, width) + "," + y(line.pts[j - 1][1])); coords.push(xOf(sx, width) + "," + y(sy)); });
      const pl = svgEl("polyline", {points: coords.join(" "), fill: "none", stroke: c, "stroke-width": 1.5});
      if (dashed) pl.setAttribute("stroke-dasharray", "4 3");
      const tt = svgEl("title", {}); tt.textContent = label + (dashed ? " (fork)" : ""); pl.append(tt); svg.append(pl);
      if (dashed) continue;
      for (const [sx, sy] of line.pts) {
        const dot = svgEl("circle", {cx: xOf(sx, width), cy: y(sy), r: 3, fill: c, class: "point", "data-seq": sx, "data-observer": observer === null ? "" : observer, "data-subject": label});
        const title = svgEl("title", {}); title.textContent = label + ": " + fmt(sy) + " at seq " + sx; dot.append(title);
        dot.addEventListener("click", () => { if (observer !== null && S.player === null) { S.kb = observer; $("kb-seat").value = String(observer); } go(sx); showRecord(sx); });
        svg.append(dot);
      }
    }
  };
  draw(lines, false);
  if (forkLines) draw(forkLines, true);
  svg.append(svgEl("line", {x1: PAD, x2: PAD, y1: top, y2: height - bottom, stroke: "#d00", "stroke-width": 1.5, class: "cursor", "data-width": width}));
  const legend = el("div", {class: "legend"});
  let k = 0;
  for (const [label, line] of lines) legend.append(el("span", {}, el("span", {class: "swatch", style: "background:" + lineColour(line, k++)}), label));
  return el("div", {class: "chart"}, svg, legend);
}

// ---- what if: fork here --------------------------------------------------------------------------
function buildFork(meta) {
  const box = $("fork");
  box.classList.toggle("hidden", !!DATA || !!meta.fork || !S.forks);
  const seats = $("fork-seats");
  seats.replaceChildren();
  for (const p of meta.players) {
    seats.append(el("div", {}, el("label", {text: "p" + p.seat + " " + p.name + " (" + p.agent + ") → "}),
      el("input", {id: "fork-seat-" + p.seat, "data-seat": p.seat, placeholder: "unchanged, or e.g. " + p.agent.split(":")[0] + ":offices=so"})));
  }
  $("fork-go").onclick = doFork;
}
async function doFork() {
  const seats = {};
  for (const input of document.querySelectorAll("#fork-seats input")) if (input.value.trim()) seats[input.dataset.seat] = input.value.trim();
  $("fork-result").textContent = "forking at seq " + S.seq + " ...";
  try {
    const r = await api.fork(S.game, S.seq, seats);
    S.fork = r;
    $("fork-result").replaceChildren(el("span", {text: "fork " + r.game_id + " switches at seq " + r.at + "; first difference at seq " + r.first_difference + "; " + (r.summary || "") + " (" + r.path + ") "}),
      el("a", {href: "#game=" + encodeURIComponent(r.game_id) + (S.player !== null ? "&player=" + S.player : "") + "&seq=" + (r.first_difference ?? r.at), id: "fork-open", text: "open the fork alone"}));
    S.forkMeta = await api.meta(r.game_id, S.player);
    $("compare").classList.add("on");
    drawCharts();
    if (r.first_difference !== null && r.first_difference !== undefined) await go(r.first_difference);
    else await showCompare(S.seq);
  } catch (e) { $("fork-result").textContent = "fork refused: " + e.message; }
}
async function pairWithOriginal(id, player, ticket) {
  // a fork opened on its own (made here or by `detente replay fork`): beside its original, where served
  try {
    const r = await api.original(id, player);
    const m = await api.meta(r.game_id, player);
    if (ticket !== S.opening) return;
    S.fork = {game_id: r.game_id, at: r.at, first_difference: r.first_difference, original: true};
    S.forkMeta = m;
    $("compare").classList.add("on");
  } catch (e) {
    if (ticket !== S.opening) return;
    $("compare-title").textContent = "fork of " + S.meta.fork.from + ": " + e.message;
    $("compare-left").replaceChildren(); $("compare-right").replaceChildren();
    $("compare").classList.add("on");
  }
}
async function showCompare(seq) {
  const f = S.forkMeta;
  if (!f) return;
  // the original on the left, the fork on the right, whichever of the two this page opened
  const opened = S.fork.original;
  const [left, right] = opened ? [f.game_id, S.game] : [S.game, f.game_id];
  const diff = S.fork.first_difference === null || S.fork.first_difference === undefined ? "none seen" : "at seq " + S.fork.first_difference;
  $("compare-title").textContent = "original " + left + " (left) and fork " + right + " (right) at seq " + seq + "; first difference " + diff;
  const s = Math.max(f.first, Math.min(f.last, seq));
  const [ls, rs] = opened ? [s, seq] : [seq, s];
  try {
    const [a, b] = await Promise.all([api.at(left, ls, S.player), api.at(right, rs, S.player)]);
    $("compare-left").innerHTML = a.board; $("compare-right").innerHTML = b.board;
    scalable($("compare-left")); scalable($("compare-right"));
  } catch (e) { $("compare-right").textContent = e.message; }
}

// ---- wiring -------------------------------------------------------------------------------------
function wire() {
  $("prev").onclick = () => step(-1);
  $("next").onclick = () => step(1);
  $("seq").onchange = () => go(Number($("seq").value));
  for (const name of ["talk", "deal", "broken", "error", "trust"]) {
    $("prev-" + name).onclick = () => jump(S.meta.marks[name], -1);
    $("next-" + name).onclick = () => jump(S.meta.marks[name], 1);
  }
  $("prev-phase").onclick = () => jump(phaseSeqs(), -1);
  $("next-phase").onclick = () => jump(phaseSeqs(), 1);
  for (const name of ["actor", "kind", "channel"]) $("m-" + name).onchange = () => { S.filters[name] = $("m-" + name).value.trim(); go(S.seq); };
  document.addEventListener("keydown", (ev) => {
    if (!S.meta || $("viewer").classList.contains("hidden")) return;
    const tag = (ev.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    if (ev.key === "ArrowRight") { ev.preventDefault(); step(1); }
    else if (ev.key === "ArrowLeft") { ev.preventDefault(); step(-1); }
    else if (ev.key === "ArrowDown" || ev.key === "PageDown") { ev.preventDefault(); jump(phaseSeqs(), 1); }
    else if (ev.key === "ArrowUp" || ev.key === "PageUp") { ev.preventDefault(); jump(phaseSeqs(), -1); }
    else if (ev.key === "Home") { ev.preventDefault(); go(S.meta.first); }
    else if (ev.key === "End") { ev.preventDefault(); go(S.meta.last); }
  });
  $("filters").addEventListener("submit", (ev) => { ev.preventDefault(); loadList(0); });
  window.addEventListener("hashchange", route);
}
async function route() {
  const h = readHash();
  const player = h.player === null || h.player === "" ? null : Number(h.player);
  if (DATA) {
    if (!S.meta) return openGame(DATA.meta.game_id, DATA.meta.player, h.seq);
    if (h.seq !== null && Number(h.seq) !== S.seq) return go(Number(h.seq));
    return;
  }
  if (!h.game) {
    if (S.sourceKind === "log" && S.first && S.single !== false) { location.hash = "#game=" + encodeURIComponent(S.first); return; }
    S.meta = null;
    return showList();
  }
  if (!S.meta || S.game !== h.game || S.player !== player) return openGame(h.game, player, h.seq);
  if (h.seq !== null && Number(h.seq) !== S.seq) return go(Number(h.seq));
}
async function start() {
  const q = new URLSearchParams(location.search);
  if (q.get("token")) { sessionStorage.setItem("detente-token", q.get("token")); history.replaceState(null, "", location.pathname + location.hash); }
  token = sessionStorage.getItem("detente-token") || "";
  wire();
  if (!DATA) {
    try {
      const src = await api.source();
      S.sourceKind = src.kind; S.first = src.first; S.forks = src.forks && !!token;
      // a log file's games are counted once the server has read it: its first game opens at once
      S.single = src.games === null || src.games === undefined ? null : src.games === 1;
      $("home").classList.toggle("hidden", src.kind === "log" && S.single !== false);
      if (src.kind === "log" && S.single === null)
        api.games({limit: 2}).then((list) => { S.single = list.total === 1; $("home").classList.toggle("hidden", S.single); }).catch(() => {});
    } catch (e) { banner(e.message); }
  } else { $("home").classList.add("hidden"); }
  await route();
}
start();
})();
