#!/usr/bin/env node
// A random agent for detente's agent protocol, version 1, in JavaScript (Node 20, no packages).
//
// detente starts it as a child process and writes one JSON object a line on its stdin; it answers
// every request with exactly one JSON line on stdout (debug output goes to stderr only). It exits
// on {"kind":"bye"} or at the end of stdin.
//
// As a player (any seat of any game) it plays a uniformly random legal action. With `--fo`, or
// when detente's hello gives it the role "fo", it is the Foreign Office of an AlphaWolf seat
// (Werewolves): on every talk round it proposes a joint vote against a random player (round 0)
// or accepts one proposed by someone else (later rounds), bids for a night victim on the wolves'
// channel, and says one line of free text; when the decision comes (`talk.closing`) it hands the
// President the vote its deals bind it to, as the commitment `commitments.<turn>`. Any other
// office task gets an empty office_reply.
//
//   detente play hanabi --seed 5 --agents 'exec:cmd=["node","ops/examples/agents/js/random.js"]'
//   detente play werewolves --seed 3 --agents 'alphawolf:fo=exec:cmd=["node","ops/examples/agents/js/random.js","--fo"],alphawolf,...'
//
// Every draw comes from a small seeded generator (below), seeded by the game's seed, the seat and
// the role given in game_start, so the same game gets the same answers.
"use strict";

const fs = require("fs");

const NAME = "random-js";
const VERSION = "1.0.0";
const FO_FLAG = process.argv.includes("--fo");

// -- a seeded generator ---------------------------------------------------------------------------
// The seed string is hashed with FNV-1a (32 bits) into the state of mulberry32 (Tommy Ettinger's
// 32-bit generator, public domain). A game seed above 2**53 reaches JavaScript as the nearest
// double, which is still the same number every time the same game is played.

function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function generator(seedText) {
  let a = fnv1a(seedText);
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    below: (n) => Math.floor(next() * n),
    choice: (list) => list[Math.floor(next() * list.length)],
  };
}

let rng = generator("0");
let role = "player";

// -- output ---------------------------------------------------------------------------------------

// Input and output are read and written synchronously, one line at a time: an agent has nothing
// else to do while detente waits for it, and this skips the event loop's wake-ups (about half the
// round trip of a decision, measured by ops/bench/external.py).

const pause = new Int32Array(new SharedArrayBuffer(4));

function nap() {
  // 1 ms: only when another program made our descriptor non-blocking and it is not ready
  Atomics.wait(pause, 0, 0, 1);
}

function send(obj) {
  const data = Buffer.from(JSON.stringify(obj) + "\n", "utf8");
  let at = 0;
  while (at < data.length) {
    try {
      at += fs.writeSync(1, data, at);
    } catch (err) {
      if (err.code !== "EAGAIN") throw err;
      nap();
    }
  }
}

function* lines() {
  // Each line of stdin as a string; a line split across reads is joined before it is decoded.
  const chunk = Buffer.alloc(1 << 16);
  let part = [];
  for (;;) {
    let n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (err) {
      if (err.code === "EAGAIN") { nap(); continue; }
      if (err.code === "EOF") return;
      throw err;
    }
    if (n === 0) return; // end of input
    const got = chunk.subarray(0, n);
    let start = 0;
    for (let nl = got.indexOf(10); nl !== -1; nl = got.indexOf(10, start)) {
      part.push(got.subarray(start, nl));
      yield Buffer.concat(part).toString("utf8");
      part = [];
      start = nl + 1;
    }
    if (start < n) part.push(Buffer.from(got.subarray(start))); // a copy: chunk is read into again
  }
}

function debug(text) {
  process.stderr.write(`${NAME}: ${text}\n`);
}

// -- the Foreign Office of an AlphaWolf seat -------------------------------------------------------
// What it is shown (actors/werewolves/president.py, VIEWS["fo"]): the President's knowledge base
// trimmed to `deals`, `inbox` (talk heard before this decision: {turn, channel, round, speaker,
// says}), `observation` (the seat's Werewolves observation: me, role, phase, day, alive,
// candidates, known_roles), `seat`, `talk` ({channel, round, max_rounds}, or {closing: true} when
// the decision is asked for), and in round 0 also `beliefs`, `suggestions` and `trust`.

const SLOTS = 4; // proposal ids: turn * SLOTS + slot, unique per proposer and game (as AlphaWolf's own FO)

function linesOf(inbox, turn, channel) {
  return (inbox || [])
    .filter((x) => x.turn === turn && x.channel === channel)
    .sort((x, y) => x.round - y.round || x.speaker - y.speaker);
}

// The deals of one talk phase and their fate, read as actors/werewolves/deals.py reads them: an
// acceptance counts when it comes in a later round than the proposal, by someone else, once, and
// not after the proposal was retracted; a joint vote with a counted acceptance binds its proposer
// and its acceptors.
function readDeals(lines) {
  const deals = new Map();
  const each = (kind, fn) => {
    for (const x of lines) for (const s of x.says) if (s.kind === kind) fn(x.round, x.speaker, s);
  };
  each("ww_propose", (rnd, speaker, s) => {
    const key = `${speaker}:${s.proposal_id}`;
    if (!deals.has(key)) {
      deals.set(key, { proposer: speaker, id: s.proposal_id, deal: s.deal, target: s.target, round: rnd,
                       retracted: null, accepts: [] });
    }
  });
  each("ww_retract", (rnd, speaker, s) => {
    const d = deals.get(`${speaker}:${s.proposal_id}`);
    if (d && d.retracted === null && rnd >= d.round) d.retracted = rnd;
  });
  each("ww_accept", (rnd, speaker, s) => {
    const d = deals.get(`${s.proposer}:${s.proposal_id}`);
    if (!d || rnd <= d.round || (d.retracted !== null && d.retracted < rnd)) return;
    if (d.accepts.some(([a]) => a === speaker)) return;
    d.accepts.push([speaker, rnd]);
  });
  return deals;
}

function members(d) {
  return d.deal === "joint_vote" && d.accepts.length ? [d.proposer, ...d.accepts.map(([a]) => a)] : [];
}

// The target `me` is bound to vote against: of the joint votes binding it, the largest coalition;
// ties: the earlier round it joined, its own acceptance before its own proposal, the lower
// proposer, the lower id (the same rule as deals.py, so every seat reads the same).
function boundTarget(deals, me) {
  let best = null;
  let chosen = null;
  for (const d of deals.values()) {
    const ms = members(d);
    if (!ms.includes(me)) continue;
    const joined = me === d.proposer ? d.round : d.accepts.find(([a]) => a === me)[1];
    const rank = [-ms.length, joined, me === d.proposer ? 1 : 0, d.proposer, d.id];
    if (best === null || less(rank, best)) {
      best = rank;
      chosen = d;
    }
  }
  return chosen === null ? null : chosen.target;
}

function less(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

function wolvesKnown(obs) {
  return Object.entries(obs.known_roles || {}).filter(([, r]) => r === "werewolf").map(([q]) => Number(q));
}

// Whom the coming decision can name: day votes (any living other), a revote's candidates, or a
// werewolf's victims at night.
function targets(obs) {
  const me = obs.me;
  if (obs.phase === "night") {
    if (obs.role !== "werewolf") return [];
    const pack = wolvesKnown(obs);
    return obs.alive.filter((q) => !pack.includes(q));
  }
  if (obs.phase === "revote") return (obs.candidates || []).filter((q) => q !== me);
  return obs.alive.filter((q) => q !== me);
}

function negotiate(msg) {
  const view = msg.view || {};
  const talk = view.talk || {};
  const turn = msg.turn;
  if (talk.closing) return close(msg);
  const obs = view.observation;
  const me = view.seat;
  const says = [];
  const updates = [];
  let text;
  if (talk.channel === "wolves") {
    const victims = targets(obs);
    if (talk.round === 0 && victims.length) {
      const target = rng.choice(victims);
      says.push({ kind: "ww_bid", target, preference: Math.round(rng.next() * 1e6) / 1e6 });
      text = `Tonight I would take player ${target}.`;
    } else {
      text = "Agreed, let us be quick.";
    }
  } else {
    const current = ((view.deals || {}).current) || {};
    const deals = readDeals(linesOf(view.inbox, turn, talk.channel));
    const open = targets(obs);
    if (!current.proposed && open.length) {
      const target = rng.choice(open);
      says.push({ kind: "ww_propose", proposal_id: turn * SLOTS, deal: "joint_vote", target });
      updates.push({ path: ["deals", "current", "proposed"], value: true });
      text = `Day ${obs.day}: who votes with me against player ${target}?`;
    } else if (boundTarget(deals, me) === null) {
      const offers = [...deals.values()].filter((d) => d.deal === "joint_vote" && d.proposer !== me
        && d.retracted === null && open.includes(d.target) && !d.accepts.some(([a]) => a === me));
      if (offers.length) {
        const d = rng.choice(offers);
        says.push({ kind: "ww_accept", proposal_id: d.id, proposer: d.proposer });
        text = `I am with player ${d.proposer}: against player ${d.target}.`;
      } else {
        text = "Nobody has offered me a vote worth taking yet.";
      }
    } else {
      text = `I keep my word: my vote goes to player ${boundTarget(deals, me)}.`;
    }
  }
  says.push({ kind: "say", text });
  return { says, updates };
}

// The decision: the deals it is bound to become the President's commitment for this turn.
function close(msg) {
  const view = msg.view || {};
  const obs = view.observation || {};
  const me = view.seat;
  const turn = msg.turn;
  let action = null;
  if (obs.phase === "day" || obs.phase === "revote") {
    const target = boundTarget(readDeals(linesOf(view.inbox, turn, "public")), me);
    if (target !== null) action = `vote:${target}`;
  } else if (obs.role === "werewolf") {
    const totals = new Map(); // the sealed bids: the highest total preference, ties to the lower seat
    const last = new Map();
    for (const x of linesOf(view.inbox, turn, "wolves")) {
      for (const s of x.says) if (s.kind === "ww_bid") last.set(`${x.speaker}:${s.target}`, [s.target, s.preference]);
    }
    for (const [target, pref] of last.values()) totals.set(target, (totals.get(target) || 0) + pref);
    let best = null;
    for (const [target, total] of totals) {
      if (best === null || total > totals.get(best) || (total === totals.get(best) && target < best)) best = target;
    }
    if (best !== null) action = `attack:${best}`;
  }
  const updates = [];
  if (action !== null && (msg.legal || []).includes(action)) updates.push({ path: ["commitments", String(turn)], value: action });
  return { says: [], updates };
}

// -- requests ------------------------------------------------------------------------------------

function answer(msg) {
  switch (msg.kind) {
    case "act_request":
      return msg.legal.length ? [{ kind: "act", turn: msg.turn, action: rng.choice(msg.legal) }] : [];
    case "talk_turn":
      return [{ kind: "talk", turn: msg.turn, channel: msg.channel, round: msg.round, says: [] }];
    case "office_request": {
      const reply = { kind: "office_reply", task: msg.task, turn: msg.turn, says: [], updates: [] };
      if (msg.task === "negotiate" && (FO_FLAG || role === "fo")) Object.assign(reply, negotiate(msg));
      return [reply];
    }
    default:
      return []; // heard, and any request kind this agent does not know
  }
}

function onLine(line) {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  switch (msg.kind) {
    case "hello":
      role = msg.role;
      debug(`serving ${msg.address} as ${msg.role}${FO_FLAG ? " (--fo)" : ""}`);
      send({ kind: "hello", protocol: 1, name: NAME, version: VERSION,
             plays: { games: ["*"], roles: ["player", "so", "fo", "io"] }, talks: false });
      break;
    case "game_start":
      role = msg.role;
      rng = generator(`${msg.seed}/${msg.seat}/${msg.role}`);
      break;
    case "game_end":
      break;
    case "bye":
      process.exit(0);
      break;
    default:
      send(answer(msg));
  }
}

try {
  for (const line of lines()) onLine(line);
} catch (err) {
  debug(`cannot answer: ${err && err.stack ? err.stack : err}`);
  process.exit(1);
}
process.exit(0);
