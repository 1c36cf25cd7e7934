"use strict";
// The replay debugger's pure functions: no DOM, no fetch, no state. app.js (the page) uses them
// through the global `DetenteView`; tests/debugger/js/ runs them under Node's own test runner
// (`node --test`), which loads this file as a CommonJS module.
var DetenteView = (function () {
  // ---- sorted arrays -------------------------------------------------------------------------
  // The index after the last item <= x (as Python's bisect.bisect_right); `key` reads an item.
  function bisectRight(arr, x, key) {
    let lo = 0, hi = arr.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if ((key ? key(arr[mid]) : arr[mid]) <= x) lo = mid + 1; else hi = mid; }
    return lo;
  }
  // The index of the first item >= x (as Python's bisect.bisect_left).
  function bisectLeft(arr, x, key) {
    let lo = 0, hi = arr.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if ((key ? key(arr[mid]) : arr[mid]) < x) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // ---- the URL: #game=ID&player=N&seq=812 ------------------------------------------------------
  // What a location hash asks for; absent parts are null (strings, as the URL holds them).
  function parseHash(hash) {
    const h = new URLSearchParams(String(hash || "").replace(/^#/, ""));
    return {game: h.get("game"), player: h.get("player"), seq: h.get("seq")};
  }
  // The hash of a view. An exported page holds one game and one view, so its hash is the seq alone.
  function formatHash(view, exported) {
    const h = new URLSearchParams();
    if (view.game && !exported) h.set("game", view.game);
    if (view.player !== null && view.player !== undefined && !exported) h.set("player", view.player);
    if (view.seq !== null && view.seq !== undefined) h.set("seq", view.seq);
    return "#" + h.toString();
  }

  // ---- a seat's point of view ------------------------------------------------------------------
  // A seat stands on its own records: a seq between two of them shows the earlier one (the rule
  // of ops/debugger/pov.py); before its first record, the first. No records: the seq itself.
  function povSeq(seqs, seq) {
    if (!seqs.length) return seq;
    return seqs[Math.max(0, bisectRight(seqs, seq) - 1)];
  }
  // The seq one step forward (delta > 0) or back from `current` among `seqs`, or null at an end.
  function stepSeq(seqs, current, delta) {
    if (!seqs.length) return null;
    let i = bisectLeft(seqs, current);
    if (delta > 0) i = seqs[i] === current ? i + 1 : i; else i = i - 1;
    return i >= 0 && i < seqs.length ? seqs[i] : null;
  }

  // ---- scales: every chart and the timeline share one x-axis over seqs --------------------------
  // The x of a seq in a drawing `width` wide, with `pad` on the left and 12 on the right.
  function xOfSeq(seq, first, last, width, pad) {
    const span = Math.max(1, last - first);
    return pad + (width - pad - 12) * (seq - first) / span;
  }
  // The seq under an x of the timeline (rounded, not clamped: the caller snaps it to a record).
  function seqAtX(x, first, last, width, pad) {
    return Math.round(first + (x - pad) / (width - pad - 12) * (last - first));
  }
  // A chart's y range: the declared scale (lo, hi; null = from the data) widened to every value,
  // never empty; and the y of a value, higher values up, between `top` and height - bottom.
  function yScale(declared, values, top, height, bottom) {
    let lo = declared.lo, hi = declared.hi;
    if (lo === null || lo === undefined) lo = Math.min(...values);
    if (hi === null || hi === undefined) hi = Math.max(...values, lo + 1e-9);
    lo = Math.min(lo, ...values); hi = Math.max(hi, ...values);
    if (hi === lo) hi = lo + 1;
    return {lo, hi, y: (v) => top + (height - top - bottom) * (1 - (v - lo) / (hi - lo))};
  }

  // ---- formatting -------------------------------------------------------------------------------
  // A value on an axis or in a tooltip: integers as they are, other numbers to 2 places, none as "".
  function fmt(v) { return v === null || v === undefined ? "" : Number.isInteger(v) ? String(v) : Number(v).toFixed(2); }
  // A JSON value shown in a panel, cut at 4,000 characters.
  function brief(v) { const t = JSON.stringify(v, null, 1); return t === undefined ? "(none)" : t.length > 4000 ? t.slice(0, 4000) + " ..." : t; }

  // ---- knowledge bases and message filters ----------------------------------------------------------
  // A copy of `node` with `value` at `path` (a null value removes the key), as a KB update applies.
  function assoc(node, path, value) {
    const out = (node && typeof node === "object" && !Array.isArray(node)) ? Object.assign({}, node) : {};
    if (!path.length) return out;
    const head = String(path[0]);
    if (path.length > 1) out[head] = assoc(out[head], path.slice(1), value);
    else if (value === null || value === undefined) delete out[head];
    else out[head] = value;
    return out;
  }
  // The value at `path`, or null where the path leads nowhere.
  function getPath(node, path) {
    for (const k of path) { if (!node || typeof node !== "object" || !(String(k) in node)) return null; node = node[String(k)]; }
    return node;
  }
  // Whether a message summary passes the filters: kinds (comma-separated), channel, an actor and its offices.
  function matches(m, f) {
    if (f.kind && !f.kind.split(",").includes(m.kind)) return false;
    if (f.channel && m.channel !== f.channel) return false;
    if (f.actor) return [m.sender, m.to, m.actor || ""].some((a) => a === f.actor || a.startsWith(f.actor + "/"));
    return true;
  }

  return {bisectRight, bisectLeft, parseHash, formatHash, povSeq, stepSeq, xOfSeq, seqAtX, yScale, fmt, brief,
          assoc, getPath, matches};
})();
if (typeof module === "object" && module.exports) module.exports = DetenteView;
