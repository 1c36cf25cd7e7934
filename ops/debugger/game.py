"""One logged game indexed for stepping: fold snapshots, boards, phase marks, messages, the deal
ledger, knowledge bases and belief series, each for the omniscient view or one seat's (pov.py).

A seat's view names only seqs of records the seat observed, not even those of the others: its
timeline runs from its first observed record to its last, a phase is marked at its first record
the seat observed in it, a deal event at the first record the seat observed from that event on, a
cause it did not observe is null, and a position between two of its records is the earlier one's.

The index is one walk over the log (replay/walk.py): it keeps a clone of the state every
`SNAPSHOT_EVERY` state changes, the seq of every change, the phase labels and the chart values;
the state at any seq is then the nearest snapshot plus at most SNAPSHOT_EVERY - 1 records, so a
step never refolds the game. Answers for one view are computed on first use and cached.

A view's first board (`head`) is also drawn from the start of a game alone (`head_of`, over what
bus.log.read_game_head reads), so that the viewer shows it before the whole log is read, checked
and indexed; it is the same answer the indexed game gives (`DebugGame.head`).
"""

from __future__ import annotations

import bisect
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from actors.address import office_of, player_address, seat_of
from actors.alpha.generic.pacts import debugger_events as pact_events
from actors.external.lineup import seat_labels
from bus.log import GameLog
from games.api import State
from games.plugin import PluginError, resolve
from games.registry import get_plugin
from ops.debugger.pov import observed
from replay.fold import apply_record, initial_state
from replay.guard import checked_text, guard, guarded, numbers
from replay.series import Scale, belief_points, scales
from replay.walk import walk

SNAPSHOT_EVERY = 8  # state changes between two kept clones (a step applies at most 7 records)
BOARD_CACHE = 512  # boards kept per game (one per state change and view)
MAX_WINDOW = 400  # messages in one answer
TEXT_LIMIT = 240  # characters of a message's one-line summary


class DebugError(ValueError):
    """A request this game cannot answer (a seq out of range, a seat that is not one): a 4xx."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def hooks(plugin_board: str | None, game: str | None = None) -> dict[str, Callable[..., Any]]:
    """The optional debugger hooks a game's board module defines next to `board`: `phase(state)`
    (a public label of the phase), `deals(step, memo)` (called on every step of the one walk, with
    a dict of its own to keep between calls: the deal events this record makes, each a dict with
    "deal", "type" (proposed, accepted, rejected, retracted, confirmed, kept, broken, lapsed...),
    "by", "parties", "detail" and "seen_by", the seats that learn of it, None for everyone),
    `seat_names(state)` (public names of the seats, e.g. the powers), `seat_colours(state)` (the
    colour the board gives each seat, so that the page uses the same one everywhere). With `game`,
    each runs behind the plugin guard as part `board.<hook>` (replay/guard.py; keyword `_seq`)."""
    if not plugin_board:
        return {}
    module = plugin_board.partition(":")[0]
    found = {}
    for name in ("phase", "deals", "seat_names", "seat_colours"):
        try:
            hook = resolve(f"{module}:{name}")
            if name in ("seat_names", "seat_colours"):  # a list of text: made one inside the guard
                hook = _texts_of(hook)
            elif name == "deals":
                hook = _events_of(hook)
            found[name] = guarded(game, f"board.{name}", hook) if game is not None else hook
        except PluginError:
            continue
    return found


class DebugGame:
    """A game's log with its index (built once, at construction)."""

    def __init__(self, log: GameLog, warning: str | None = None, origin: str = ""):
        self.log = log
        self.header = log.header
        self.id = str(self.header.get("game_id"))
        self.game = self.header.get("game")
        self.origin = origin
        self.warning = warning  # the reader stopped early: only the valid prefix is shown
        self.records = log.records
        self.seqs = [r["seq"] for r in self.records]
        self.players = len(self.header.get("agents") or ())
        plugin = get_plugin(self.game)
        self.plugin = plugin
        # plugin code runs behind the guard: a failure is a PluginFault naming game, part and seq
        self._board = guarded(self.game, "board", resolve(plugin.board)) if plugin.board else None
        self._hooks = hooks(plugin.board, self.game)
        self._lock = threading.RLock()
        self._boards: OrderedDict[tuple[int, int | None], str] = OrderedDict()
        self._views: dict[tuple[str, int | None], Any] = {}
        self._index()

    # -- the one walk ----------------------------------------------------------------------

    def _index(self) -> None:
        charts = [(c.title, guarded(self.game, f"chart {c.title!r}", _numbers_of(resolve(c.read))))
                  for c in self.plugin.charts]
        phase_of = self._hooks.get("phase")
        self.change_seqs: list[int] = []  # seq of every record that changed the state
        self.change_pos: list[int] = []  # its position in self.records
        self.snapshots: list[State] = []  # state after change k * SNAPSHOT_EVERY (0: initial)
        self.phases: list[dict[str, Any]] = []  # {"seq", "label"}: where a phase begins
        self.chart_points: list[dict[str, Any]] = [{"title": t, "series": {}} for t, _ in charts]
        last_values: list[dict[str, float] | None] = [None] * len(charts)
        label = None
        deals = self._hooks.get("deals")
        memo: dict[str, Any] = {}
        pacts: dict[str, Any] = {}
        self.deal_events: list[dict[str, Any]] = []
        for pos, step in enumerate(walk(self.log)):
            state = step.state
            if deals is not None:
                self.deal_events += [{**e, "seq": step.seq} for e in deals(step, memo, _seq=step.seq)]
            # the generic agent's pacts (core talk, any game), beside the game's own deals
            self.deal_events += [{**e, "seq": step.seq} for e in pact_events(step, pacts)]
            if not step.changed and pos:  # the first record names the opening phase
                continue
            if step.changed:
                self.change_seqs.append(step.seq)
                self.change_pos.append(pos)
                if len(self.change_seqs) % SNAPSHOT_EVERY == 0:
                    self.snapshots.append(state.clone())
            now = phase_of(state, _seq=step.seq) if phase_of else (f"turn {step.msg['turn']}" if step.msg.get("kind") == "step" else None)
            if now is not None and now != label:
                label = now
                self.phases.append({"seq": step.seq, "label": str(now)})
            for i, (_, read) in enumerate(charts):
                values = read(state, _seq=step.seq)
                if values is None or values == last_values[i]:
                    continue
                for key, value in values.items():
                    self.chart_points[i]["series"].setdefault(str(key), []).append([step.seq, float(value)])
                last_values[i] = values
        self.chart_points = [c for c in self.chart_points if c["series"]]
        self.snapshots.insert(0, initial_state(self.header))
        self.seat_names, self.seat_colours = seat_hooks(self._hooks, self.snapshots[0], self.players,
                                                        self.seqs[0] if self.seqs else None)

    def last_seq(self) -> int:
        return self.seqs[-1] if self.seqs else -1

    def check_seq(self, seq: int, seat: int | None = None) -> int:
        """`seq` if it is within the view's timeline; for a seat, the seat's last observed record
        at or before it (DebugError 404 outside)."""
        seqs = self.seqs if seat is None else self.view_seqs(seat)
        if not seqs:
            raise DebugError("the game has no records" if seat is None else f"player {seat} observed no record", 404)
        if not isinstance(seq, int) or not seqs[0] <= seq <= seqs[-1]:
            raise DebugError(f"seq {seq} is out of range ({seqs[0]}..{seqs[-1]})", 404)
        return seq if seat is None else seqs[bisect.bisect_right(seqs, seq) - 1]

    def check_seat(self, seat: int | None) -> int | None:
        if seat is not None and not 0 <= seat < self.players:
            raise DebugError(f"player {seat} is not a seat (players 0..{self.players - 1})", 404)
        return seat

    def changes_upto(self, seq: int) -> int:
        """State changes among the records up to and including `seq`."""
        return bisect.bisect_right(self.change_seqs, seq)

    def state_at(self, seq: int) -> State:
        """A fresh state after the record at `seq` (the nearest snapshot plus a few records)."""
        return self._state_after(self.changes_upto(seq))

    def _state_after(self, changes: int) -> State:
        base = changes // SNAPSHOT_EVERY
        state = self.snapshots[base].clone()
        for k in range(base * SNAPSHOT_EVERY, changes):
            apply_record(state, self.records[self.change_pos[k]]["msg"])
        return state

    def board(self, seq: int, seat: int | None) -> str:
        """The game's own SVG board after `seq`, for `seat`'s view (None: the whole game)."""
        if self._board is None:
            return ""
        key = (self.changes_upto(seq), seat)
        with self._lock:
            svg = self._boards.get(key)
            if svg is not None:
                self._boards.move_to_end(key)
                return svg
        svg = self._board(self._state_after(key[0]), seat, _seq=seq)
        with guard(self.game, "board", seq):
            checked_text(svg, "a board")
        with self._lock:
            self._boards[key] = svg
            while len(self._boards) > BOARD_CACHE:
                self._boards.popitem(last=False)
        return svg

    def board_keys(self, seat: int | None) -> list[tuple[int, int]]:
        """(first seq, change count) of every distinct board of the view: the start, then each
        change (for a seat: the first of its records that sees the change)."""
        if seat is not None:
            keys: list[tuple[int, int]] = []
            for s in self.view_seqs(seat):
                k = self.changes_upto(s)
                if not keys or keys[-1][1] != k:
                    keys.append((s, k))
            return keys
        first = self.seqs[0] if self.seqs else 0
        keys = [(first, 0)] if not self.change_seqs or self.change_seqs[0] != first else []
        keys += [(s, k + 1) for k, s in enumerate(self.change_seqs)]
        return keys

    # -- per view, cached ------------------------------------------------------------------

    def _cached(self, what: str, seat: int | None, make: Callable[[], Any]) -> Any:
        key = (what, seat)
        with self._lock:
            if key in self._views:
                return self._views[key]
        value = make()
        with self._lock:
            self._views[key] = value
        return value

    def visible(self, seat: int | None) -> list[int]:
        """Positions of the records `seat` observed."""
        return self._cached("visible", seat, lambda: [i for i, r in enumerate(self.records) if observed(r, seat)])

    def view_seqs(self, seat: int | None) -> list[int]:
        """Seqs of the records `seat` observed."""
        return self._cached("seqs", seat, lambda: [self.seqs[i] for i in self.visible(seat)])

    def seen_from(self, seq: int, seat: int | None) -> int | None:
        """For a seat: its first observed record at or after `seq` (when it can have learnt of
        what happened at `seq`), None if there is none; the omniscient view: `seq` itself."""
        if seat is None:
            return seq
        seqs = self.view_seqs(seat)
        i = bisect.bisect_left(seqs, seq)
        return seqs[i] if i < len(seqs) else None

    def _cause(self, record: dict[str, Any], seat: int | None) -> Any:
        """A record's cause as `seat` may see it: null when the seat did not observe the cause."""
        cause = record.get("cause")
        if seat is None or not isinstance(cause, int) or cause < 0:
            return cause
        seqs = self.view_seqs(seat)
        i = bisect.bisect_left(seqs, cause)
        return cause if i < len(seqs) and seqs[i] == cause else None

    def summaries(self, seat: int | None) -> list[dict[str, Any]]:
        """One-line summaries of every record `seat` observed, in seq order."""
        def build() -> list[dict[str, Any]]:
            rows = [summary(self.records[i]) for i in self.visible(seat)]
            if seat is not None:
                for row, i in zip(rows, self.visible(seat)):
                    row["cause"] = self._cause(self.records[i], seat)
            return rows
        return self._cached("summaries", seat, build)

    def phases_of(self, seat: int | None) -> list[dict[str, Any]]:
        """The phase marks of the view: for a seat, each phase at the first record it observed in
        that phase (a phase it observed nothing of is not marked)."""
        if seat is None:
            return self.phases

        def build() -> list[dict[str, Any]]:
            seqs = self.view_seqs(seat)
            out = []
            for k, p in enumerate(self.phases):
                i = bisect.bisect_left(seqs, p["seq"])
                end = self.phases[k + 1]["seq"] if k + 1 < len(self.phases) else None
                if i < len(seqs) and (end is None or seqs[i] < end):
                    out.append({"seq": seqs[i], "label": p["label"]})
            return out
        return self._cached("phases", seat, build)

    def ledger(self, seat: int | None) -> list[dict[str, Any]]:
        """The deal ledger as `seat` knows it (the events the game's `deals` hook says it learns
        of), each event with its seq."""
        def build() -> list[dict[str, Any]]:
            keep = ("deal", "type", "by", "parties", "detail")
            out = []
            for e in self.deal_events:
                if seat is not None and e.get("seen_by") is not None and seat not in e["seen_by"]:
                    continue
                seq = self.seen_from(e["seq"], seat)
                if seq is not None:
                    out.append({"seq": seq, **{k: e.get(k) for k in keep}})
            return out
        return self._cached("ledger", seat, build)

    def beliefs(self, seat: int | None) -> dict[str, Any]:
        """Belief series (all observers, or `seat`'s own IO), each point with its subject's seat."""
        def build() -> dict[str, Any]:
            points = belief_points(self.log, None if seat is None else player_address(seat))
            known = scales(self.game)
            used = sorted({p.quantity for p in points})
            return {"scales": {q: asdict(known.get(q, Scale(q, 0.0, None, "more"))) for q in used},
                    "points": [[p.seq, seat_of(p.observer), self.seat_index(p.subject), p.subject, p.quantity, p.value]
                               for p in points]}
        return self._cached("beliefs", seat, build)

    def seat_index(self, subject: str) -> int | None:
        """The seat a belief's subject names: an address, a seat number or a public seat name."""
        found = seat_of(subject)
        if found is not None:
            return found
        if subject.isdigit():
            return int(subject)
        return self.seat_names.index(subject) if subject in self.seat_names else None

    def marks(self, seat: int | None) -> dict[str, list[int]]:
        """Seqs to jump to: talk rounds, deals, broken deals, errors, trust changes."""
        def build() -> dict[str, list[int]]:
            talk, errors, trust = [], [], []
            opened: set[tuple[Any, ...]] = set()
            for i in self.visible(seat):
                r = self.records[i]
                msg = r["msg"]
                kind = msg.get("kind")
                if kind == "talk_turn":
                    key = (msg.get("turn"), msg.get("channel"), msg.get("round"))
                    if key not in opened:
                        opened.add(key)
                        talk.append(r["seq"])
                elif kind == "error":
                    errors.append(r["seq"])
                elif kind == "kb_change" and office_of(str(msg.get("source"))) == "io":
                    trust.append(r["seq"])
            ledger = self.ledger(seat)
            deals = sorted({e["seq"] for e in ledger if e.get("type") != "broken"})
            broken = sorted({e["seq"] for e in ledger if e.get("type") == "broken"})
            return {"talk": talk, "deal": deals, "broken": broken, "error": errors, "trust": trust}
        return self._cached("marks", seat, build)

    def kb_changes(self, seat: int) -> list[tuple[int, int]]:
        """(seq, position) of every KB change of `seat`'s President."""
        address = player_address(seat)
        return self._cached("kb", seat, lambda: [(self.records[i]["seq"], i) for i in self.visible(seat)
                                                  if self.records[i]["msg"].get("kind") == "kb_change"
                                                  and self.records[i]["msg"].get("sender") == address])

    def kb_at(self, seat: int, seq: int) -> dict[str, Any]:
        """`seat`'s knowledge base after `seq`, as its KB changes build it."""
        kb: dict[str, Any] = {}
        for s, i in self.kb_changes(seat):
            if s > seq:
                break
            for update in self.records[i]["msg"].get("updates") or ():
                kb = assoc(kb, list(update.get("path") or ()), update.get("value"))
        return kb

    # -- answers ---------------------------------------------------------------------------

    def messages(self, seat: int | None, around: int, before: int = 30, after: int = 30,
                 actor: str = "", kind: str = "", channel: str = "") -> dict[str, Any]:
        """The observed messages around `around` (filtered by actor, kind, channel)."""
        rows = self.summaries(seat)
        if actor or kind or channel:
            rows = [m for m in rows if _matches(m, actor, kind, channel)]
        before, after = max(0, min(before, MAX_WINDOW)), max(0, min(after, MAX_WINDOW))
        at = bisect.bisect_left([m["seq"] for m in rows], around)
        lo, hi = max(0, at - before), min(len(rows), at + after + 1)
        return {"total": len(rows), "from": lo, "messages": rows[lo:hi]}

    def record(self, seq: int, seat: int | None) -> dict[str, Any]:
        """The whole record at `seq`, if `seat` observed it (its cause null if the seat did not).
        A seat is told the same for a seq it did not observe as for one that does not exist."""
        i = bisect.bisect_left(self.seqs, seq)
        if i >= len(self.seqs) or self.seqs[i] != seq or not observed(self.records[i], seat):
            if seat is not None:
                raise DebugError(f"player {seat} observed no record at seq {seq}", 404)
            self.check_seq(seq)
            raise DebugError(f"no record at seq {seq}", 404)
        record = self.records[i]
        if seat is not None and self._cause(record, seat) != record.get("cause"):
            record = {**record, "cause": None}
        return record

    def detail(self, seq: int, seat: int | None, kb_seat: int | None) -> dict[str, Any]:
        """What one seat knew at `seq`: its KB, the change made at `seq` (a diff), and its
        offices' suggestions and utilities at that decision."""
        seq = self.check_seq(seq, seat)
        if seat is not None:
            kb_seat = seat
        if kb_seat is None:
            return {"seq": seq, "seat": None}
        self.check_seat(kb_seat)
        i = bisect.bisect_left(self.seqs, seq)
        here = self.records[i] if i < len(self.seqs) and self.seqs[i] == seq else None
        msg = here["msg"] if here is not None and observed(here, kb_seat) else None
        diff = []
        turn = None
        if msg is not None and msg.get("kind") == "kb_change" and msg.get("sender") == player_address(kb_seat):
            before = self.kb_at(kb_seat, seq - 1)
            for update in msg.get("updates") or ():
                path = list(update.get("path") or ())
                diff.append({"path": path, "before": _get(before, path), "after": update.get("value")})
            turn = msg.get("turn")
        elif msg is not None:
            turn = msg.get("turn")
        return {"seq": seq, "seat": kb_seat, "source": msg.get("source") if msg else None, "diff": diff,
                "kb": self.kb_at(kb_seat, seq), "suggestions": self.suggestions(kb_seat, seq, turn)}

    def suggestion_replies(self, seat: int) -> list[dict[str, Any]]:
        """Every office reply to `seat`'s President that carries suggestions (moves or deals with
        their utilities), in seq order."""
        address = player_address(seat)

        def build() -> list[dict[str, Any]]:
            out = []
            for i in self.visible(seat):
                r = self.records[i]
                msg = r["msg"]
                if msg.get("kind") == "office_reply" and msg.get("to") == address and msg.get("suggestions"):
                    out.append({"seq": r["seq"], "office": msg.get("sender"), "task": msg.get("task"), "turn": msg.get("turn"),
                                "suggestions": [[x.get("action"), x.get("utility")] for x in msg["suggestions"]][:50]})
            return out
        return self._cached("suggestions", seat, build)

    def suggestions(self, seat: int, seq: int, turn: Any) -> list[dict[str, Any]]:
        """The suggestion replies of `seat` for decision `turn` (None: the last decision at or
        before `seq` that had any)."""
        replies = self.suggestion_replies(seat)
        if turn is None:
            before = [r for r in replies if r["seq"] <= seq]
            if not before:
                return []
            turn = before[-1]["turn"]
        return [r for r in replies if r["turn"] == turn]

    def players_info(self, seat: int | None) -> list[dict[str, Any]]:
        """Every seat: address, public name, agent spec; roles only in the omniscient view."""
        end = self.records[-1]["msg"] if self.records and self.log.complete else {}
        return players_of(self.header, self.seat_names, end.get("roles") if seat is None else None)

    def head(self, seat: int | None, target: int | None = None) -> dict[str, Any]:
        """The view's first answer: who plays, and the board at `target` (None: at the view's
        first record), as `head_of` draws it from the game's start alone."""
        self.check_seat(seat)
        seqs = self.view_seqs(seat)
        if not seqs:
            raise DebugError(f"player {seat} observed no record", 404)
        seq = seqs[0] if target is None or target < seqs[0] else self.check_seq(min(target, seqs[-1]), seat)
        at = self.at(seq, seat)
        return {**view_title(self.header, seat, self.seat_names, self.seat_colours),
                "seq": at["seq"], "phase": at["phase"], "board": at["board"]}

    def meta(self, seat: int | None) -> dict[str, Any]:
        """Everything the viewer needs once: players, timeline, marks, series, scales."""
        self.check_seat(seat)
        end = self.records[-1]["msg"] if self.records and self.log.complete else None
        outcome = None
        if end is not None and seat is None:
            outcome = {"summary": end.get("summary"), "winners": end.get("winners"), "returns": end.get("returns")}
        seqs = self.view_seqs(seat)
        warning = self.warning if seat is None or not self.warning else "the log stops early"
        return {
            **view_title(self.header, seat, self.seat_names, self.seat_colours),
            "players": self.players_info(seat), "origin": self.origin,
            # the seed replays the whole game, every hidden card and role with it: the omniscient view's only
            "seed": self.header.get("seed") if seat is None else None, "options": self.header.get("options"),
            "first": seqs[0] if seqs else 0, "last": seqs[-1] if seqs else -1,
            "records": len(seqs), "seqs": seqs, "complete": self.log.complete,
            "warning": warning, "phases": self.phases_of(seat), "marks": self.marks(seat),
            "beliefs": self.beliefs(seat), "charts": self.chart_points if seat is None else [],
            "ledger": self.ledger(seat), "outcome": outcome, "has_board": self._board is not None,
        }

    def at(self, seq: int, seat: int | None) -> dict[str, Any]:
        """The position at `seq` (for a seat: at its last observed record up to `seq`): the board
        and the phase."""
        self.check_seat(seat)
        seq = self.check_seq(seq, seat)
        phases = self.phases_of(seat)
        k = bisect.bisect_right([p["seq"] for p in phases], seq) - 1
        return {"seq": seq, "phase": phases[k]["label"] if k >= 0 else None, "board": self.board(seq, seat)}


def seat_hooks(found: dict[str, Callable[..., Any]], state: State, players: int,
               seq: int | None) -> tuple[list[str], list[str] | None]:
    """The seats' public names and colours from the board module's hooks (guarded ones, from
    `hooks(board, game)`), at the game's start (`seq`: its first record)."""
    names = found["seat_names"](state, _seq=seq) if "seat_names" in found else ["" for _ in range(players)]
    colours = found["seat_colours"](state, _seq=seq) if "seat_colours" in found else None
    return names, colours


def _texts_of(hook: Callable[[State], Any]) -> Callable[[State], list[str]]:
    return lambda state: [str(n) for n in hook(state)]


def _events_of(hook: Callable[..., Any]) -> Callable[..., list[dict[str, Any]]]:
    """A deals hook whose answer is checked: a list of event dicts."""
    def events(step: Any, memo: dict[str, Any]) -> list[dict[str, Any]]:
        out = list(hook(step, memo))
        for e in out:
            if not isinstance(e, dict):
                raise TypeError(f"a deals hook returns event dicts, not {type(e).__name__}")
        return out
    return events


def _numbers_of(read: Callable[[State], Any]) -> Callable[[State], Any]:
    """A chart reader whose answer is checked (inside the guard that wraps it)."""
    return lambda state: numbers(read(state))


def players_of(header: dict[str, Any], names: list[str], roles: Any = None) -> list[dict[str, Any]]:
    """Every seat of a game: address, public name, agent spec (and its role, where given)."""
    out = []
    said = seat_labels(header)  # with what external agents said they are in their handshakes
    for s, agent in enumerate(header.get("agents") or ()):
        text = spec_text(agent)
        if "external" in header and said[s] != agent.get("name"):
            text += " " + said[s][len(str(agent.get("name"))):].strip()
        entry = {"seat": s, "address": player_address(s), "name": names[s] if s < len(names) else "",
                 "agent": text}
        if roles and s < len(roles):
            entry["role"] = roles[s]
        out.append(entry)
    return out


def view_title(header: dict[str, Any], seat: int | None, names: list[str], colours: list[str] | None) -> dict[str, Any]:
    """What names a view of a game: id, game, fork, the view, the seats (without roles), their colours."""
    fork = header.get("fork")
    if seat is not None and isinstance(fork, dict):  # where it was forked is a seq the seat may not have seen
        fork = {"from": fork.get("from")}
    return {"game_id": str(header.get("game_id")), "game": header.get("game"), "fork": fork, "player": seat,
            "players": players_of(header, names), "colours": colours}


def head_until(seat: int | None, target: int | None) -> Callable[[dict[str, Any]], bool]:
    """For bus.log.read_game_head: the start of a game is read once it holds the view's board at
    `target` (a record the view observed, at or past `target`; None: its first record)."""
    seen = False

    def until(record: dict[str, Any]) -> bool:
        nonlocal seen
        seen = seen or observed(record, seat)
        return seen and (target is None or record["seq"] >= target)
    return until


def head_of(log: GameLog, seat: int | None, target: int | None = None) -> dict[str, Any]:
    """`DebugGame.head`'s answer from the start of a game alone (what `head_until` reads): the
    board after the view's last record at or before `target` (its first if it has none there)."""
    header = log.header
    players = len(header.get("agents") or ())
    if seat is not None and not 0 <= seat < players:
        raise DebugError(f"player {seat} is not a seat (players 0..{players - 1})", 404)
    mine = [i for i, r in enumerate(log.records) if observed(r, seat)]
    if not mine:
        raise DebugError("the game has no records" if seat is None else f"player {seat} observed no record", 404)
    upto = [i for i in mine if target is not None and log.records[i]["seq"] <= target]
    pos = upto[-1] if upto else mine[0]
    game = header.get("game")
    plugin = get_plugin(game)
    found = hooks(plugin.board, game)
    state = initial_state(header)
    names, colours = seat_hooks(found, state, players, log.records[0]["seq"])
    for record in log.records[: pos + 1]:
        apply_record(state, record["msg"])
    seq = log.records[pos]["seq"]
    if "phase" in found:
        phase = found["phase"](state, _seq=seq)
    else:  # the index's rule: the last turn a step record named
        turns = [r["msg"]["turn"] for r in log.records[: pos + 1] if r["msg"].get("kind") == "step"]
        phase = f"turn {turns[-1]}" if turns else None
    board = ""
    if plugin.board:
        draw = resolve(plugin.board)
        with guard(game, "board", seq):
            board = checked_text(draw(state, seat), "a board")
    return {**view_title(header, seat, names, colours), "seq": seq, "phase": None if phase is None else str(phase),
            "board": board}


def assoc(node: Any, path: list[str], value: Any) -> dict[str, Any]:
    """`node` with the entry at `path` set to `value` (None deletes it), copied along the path
    (the KB's own rule, actors/alpha/kb.py)."""
    new = dict(node) if isinstance(node, dict) else {}
    if not path:
        return new
    head = str(path[0])
    if len(path) > 1:
        new[head] = assoc(new.get(head), path[1:], value)
    elif value is None:
        new.pop(head, None)
    else:
        new[head] = value
    return new


def _get(node: Any, path: list[str]) -> Any:
    for key in path:
        if not isinstance(node, dict) or str(key) not in node:
            return None
        node = node[str(key)]
    return node


def spec_text(agent: Any) -> str:
    """An agent spec as the command line writes it: `name:key=value;...`."""
    if not isinstance(agent, dict):
        return str(agent)
    opts = ";".join(f"{k}={_plain(v)}" for k, v in sorted((agent.get("options") or {}).items()))
    return str(agent.get("name")) + (f":{opts}" if opts else "")


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _matches(m: dict[str, Any], actor: str, kind: str, channel: str) -> bool:
    if kind and m["kind"] not in kind.split(","):
        return False
    if channel and m.get("channel") != channel:
        return False
    if actor:
        addresses = (m["sender"], m["to"], m.get("actor") or "")
        return any(a == actor or a.startswith(actor + "/") for a in addresses)
    return True


def summary(record: dict[str, Any]) -> dict[str, Any]:
    """One record as a row of the message list: seq, cause, sender, recipient, kind, a line of text."""
    msg = record["msg"]
    kind = str(msg.get("kind"))
    row = {"seq": record["seq"], "cause": record.get("cause"), "sender": str(msg.get("sender")),
           "to": str(msg.get("to")), "kind": kind}
    for key in ("turn", "channel", "round", "task", "source", "actor"):
        if key in msg:
            row[key] = msg[key]
    row["text"] = _clip(_text(kind, msg))
    return row


def _text(kind: str, msg: dict[str, Any]) -> str:
    if kind == "act_request":
        return f"turn {msg.get('turn')}: {len(msg.get('legal') or ())} legal actions"
    if kind == "act":
        return str(msg.get("action"))
    if kind in ("talk_turn",):
        return f"{msg.get('channel')} round {msg.get('round')} of {msg.get('max_rounds')}"
    if kind == "talk":
        return "; ".join(_item(s) for s in msg.get("says") or ()) or "(nothing)"
    if kind in ("heard", "talk_round"):
        lines = msg.get("lines") or ()
        return f"{msg.get('channel')} round {msg.get('round')}: " + " | ".join(
            f"p{line.get('speaker')}: " + ("; ".join(_item(s) for s in line.get("says") or ()) or "-") for line in lines)
    if kind == "office_request":
        return f"{msg.get('task')} (turn {msg.get('turn')})"
    if kind == "office_reply":
        best = sorted(msg.get("suggestions") or (), key=lambda s: -float(s.get("utility", 0)))[:3]
        parts = [f"{msg.get('task')}"]
        if best:
            parts.append("best " + ", ".join(f"{s.get('action')} {float(s.get('utility', 0)):.3g}" for s in best))
        if msg.get("says"):
            parts.append("says " + "; ".join(_item(s) for s in msg["says"]))
        if msg.get("updates"):
            parts.append("updates " + ", ".join("/".join(map(str, u.get("path") or ())) for u in msg["updates"]))
        return ": ".join(parts[:1]) + (" " + "; ".join(parts[1:]) if parts[1:] else "")
    if kind == "kb_change":
        return f"from {msg.get('source')}: " + ", ".join("/".join(map(str, u.get("path") or ())) for u in msg.get("updates") or ())
    if kind == "step":
        actions = msg.get("actions") or {}
        return f"step {msg.get('step')}: " + ", ".join(f"p{p} {a}" for p, a in sorted(actions.items(), key=lambda kv: _int(kv[0])))
    if kind == "chance":
        return f"chance: {json.dumps(msg.get('outcome'))}"
    if kind == "error":
        return f"{msg.get('category', 'unknown')} {msg.get('actor')}: {msg.get('reason')} (applied {msg.get('applied')})"
    if kind == "game_end":
        return str(msg.get("summary"))
    if kind == "fault":
        return f"{msg.get('actor')}: {msg.get('error')}"
    if kind == "model_call":
        tries = msg.get("tries") or ()
        retried = f", {len(tries)} failed tries ({', '.join(str(t.get('cause')) for t in tries)})" if tries else ""
        answer = msg.get("answer")
        return (f"call {msg.get('call')} ({msg.get('purpose')}, {msg.get('outcome')}): "
                f"{'(no answer)' if answer is None else _short(str(answer))}; {msg.get('tokens_in')} tokens in, "
                f"{msg.get('tokens_out')} out, {msg.get('latency_ms')} ms{retried}")
    return kind


def _item(item: Any) -> str:
    if not isinstance(item, dict):
        return str(item)
    rest = ", ".join(f"{k}={_short(v)}" for k, v in item.items() if k != "kind")
    return f"{item.get('kind')}({rest})"


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 80 else text[:77] + "..."


def _clip(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 3] + "..."


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 1 << 30


def finite(value: Any) -> Any:
    """JSON-ready data with every NaN or infinity as null (JSON has none)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value
