// The debugger page's pure functions (ops/debugger/static/view.js), under Node's own test runner:
//   node --test tests/debugger/js/
// No npm packages: node:test and node:assert only.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const V = require(path.join(__dirname, "..", "..", "..", "ops", "debugger", "static", "view.js"));

test("bisect left and right agree with Python's bisect, with and without a key", () => {
  const a = [1, 3, 3, 7];
  assert.deepEqual([0, 1, 3, 4, 8].map((x) => V.bisectLeft(a, x)), [0, 0, 1, 3, 4]);
  assert.deepEqual([0, 1, 3, 4, 8].map((x) => V.bisectRight(a, x)), [0, 1, 3, 3, 4]);
  const rows = [[2, "a"], [5, "b"], [9, "c"]];
  assert.equal(V.bisectRight(rows, 5, (r) => r[0]), 2);
  assert.equal(V.bisectLeft(rows, 5, (r) => r[0]), 1);
  assert.equal(V.bisectLeft([], 5), 0);
});

test("hash routing: a view's hash parses back to the same view", () => {
  assert.deepEqual(V.parseHash("#game=g00000042&player=3&seq=812"), {game: "g00000042", player: "3", seq: "812"});
  assert.deepEqual(V.parseHash(""), {game: null, player: null, seq: null});
  assert.deepEqual(V.parseHash("seq=5"), {game: null, player: null, seq: "5"});
  const view = {game: "risk-train-1-000003 & more", player: 0, seq: 40};
  const hash = V.formatHash(view, false);
  assert.equal(hash, "#game=risk-train-1-000003+%26+more&player=0&seq=40");
  assert.deepEqual(V.parseHash(hash), {game: view.game, player: "0", seq: "40"});
});

test("hash routing: the omniscient view names no player; an exported page names only the seq", () => {
  assert.equal(V.formatHash({game: "g1", player: null, seq: 7}, false), "#game=g1&seq=7");
  assert.equal(V.formatHash({game: "g1", player: 2, seq: 7}, true), "#seq=7");
  assert.equal(V.formatHash({game: "g1", player: 2, seq: null}, false), "#game=g1&player=2");
  assert.equal(V.formatHash({game: null, player: null, seq: null}, false), "#");
});

test("a seat's point of view rounds a seq down to its own last record", () => {
  const mine = [3, 8, 20];
  assert.equal(V.povSeq(mine, 8), 8);    // its own record
  assert.equal(V.povSeq(mine, 19), 8);   // between two: the earlier one's
  assert.equal(V.povSeq(mine, 99), 20);  // after the last: the last
  assert.equal(V.povSeq(mine, 1), 3);    // before the first: the first
  assert.equal(V.povSeq([], 11), 11);    // no records: where it was asked
});

test("stepping moves between a view's own records and stops at the ends", () => {
  const seqs = [3, 8, 20];
  assert.equal(V.stepSeq(seqs, 8, 1), 20);
  assert.equal(V.stepSeq(seqs, 8, -1), 3);
  assert.equal(V.stepSeq(seqs, 10, 1), 20);   // from between two records: the next
  assert.equal(V.stepSeq(seqs, 10, -1), 8);   // and the previous
  assert.equal(V.stepSeq(seqs, 20, 1), null);
  assert.equal(V.stepSeq(seqs, 3, -1), null);
  assert.equal(V.stepSeq([], 3, 1), null);
});

test("the shared x scale maps the first and last seq to the drawing's edges and back", () => {
  const [first, last, width, pad] = [100, 600, 1000, 46];
  assert.equal(V.xOfSeq(first, first, last, width, pad), pad);
  assert.equal(V.xOfSeq(last, first, last, width, pad), width - 12);
  assert.equal(V.xOfSeq(350, first, last, width, pad), pad + (width - pad - 12) / 2);
  for (const seq of [100, 101, 333, 599, 600]) {
    assert.equal(V.seqAtX(V.xOfSeq(seq, first, last, width, pad), first, last, width, pad), seq);
  }
  assert.equal(V.xOfSeq(5, 5, 5, width, pad), pad);  // a one-record game: no division by zero
});

test("the y scale keeps a declared range, widens it to the data, and is never empty", () => {
  const trust = V.yScale({lo: 0, hi: 1}, [0.2, 0.9], 26, 200, 22);
  assert.deepEqual([trust.lo, trust.hi], [0, 1]);
  assert.equal(trust.y(1), 26);           // higher values up
  assert.equal(trust.y(0), 200 - 22);
  const wide = V.yScale({lo: 0, hi: 2}, [-0.5, 2.5], 0, 100, 0);
  assert.deepEqual([wide.lo, wide.hi], [-0.5, 2.5]);
  const free = V.yScale({lo: null, hi: null}, [4, 9, 6], 0, 100, 0);
  assert.deepEqual([free.lo, free.hi], [4, 9]);
  const flat = V.yScale({lo: null, hi: null}, [3, 3], 0, 100, 0);  // one value: a range just above it
  assert.equal(flat.lo, 3);
  assert.ok(flat.hi > flat.lo && flat.hi - flat.lo < 1e-6);
  assert.equal(flat.y(3), 100);
  const point = V.yScale({lo: 2, hi: 2}, [2], 0, 100, 0);  // a declared range of one value is widened by 1
  assert.deepEqual([point.lo, point.hi], [2, 3]);
});

test("formatting: integers as they are, other numbers to two places, nothing as empty", () => {
  assert.equal(V.fmt(3), "3");
  assert.equal(V.fmt(0.756), "0.76");
  assert.equal(V.fmt(-1.5), "-1.50");
  assert.equal(V.fmt(null), "");
  assert.equal(V.fmt(undefined), "");
  assert.equal(V.brief(undefined), "(none)");
  assert.equal(V.brief({a: 1}), '{\n "a": 1\n}');
  assert.ok(V.brief("x".repeat(5000)).endsWith(" ..."));
});

test("KB paths: assoc copies, sets and removes; getPath reads or gives null", () => {
  const kb = {trust: {p1: 0.5}};
  const next = V.assoc(kb, ["trust", "p2"], 0.7);
  assert.deepEqual(next, {trust: {p1: 0.5, p2: 0.7}});
  assert.deepEqual(kb, {trust: {p1: 0.5}});  // the original is untouched
  assert.deepEqual(V.assoc(next, ["trust", "p1"], null), {trust: {p2: 0.7}});
  assert.deepEqual(V.assoc(null, ["commitments", 1], "vote:9"), {commitments: {"1": "vote:9"}});
  assert.equal(V.getPath(next, ["trust", "p2"]), 0.7);
  assert.equal(V.getPath(next, ["trust", "p9"]), null);
  assert.equal(V.getPath(next, ["trust", "p2", "deeper"]), null);
});

test("message filters: kinds, channel, and an actor with its offices", () => {
  const m = {kind: "office_reply", sender: "p3/so", to: "p3", channel: undefined};
  assert.ok(V.matches(m, {}));
  assert.ok(V.matches(m, {kind: "act,office_reply"}));
  assert.ok(!V.matches(m, {kind: "act"}));
  assert.ok(V.matches(m, {actor: "p3"}));
  assert.ok(!V.matches(m, {actor: "p"}));     // a prefix of a name is not the actor
  assert.ok(!V.matches(m, {channel: "public"}));
  assert.ok(V.matches({kind: "talk", sender: "p1", to: "referee", channel: "public"}, {channel: "public"}));
});
