"""Point-of-view checks against the log: what an answer for seat N may hold.

`view_answers` collects everything the API gives one view (meta, every message, every whole
record, every board, the KB details at each of N's KB changes, positions asked for at seqs N did
not observe); `assert_only_observed` checks it against the log and the fold: only records N's own
actors sent or received, no referee-only record, no seq of a record N did not observe anywhere
(not as a cause, a phase mark, a deal event, a board's start, a count or a bound), no seed,
boards showing no role or card N did not know, deals only of N's side."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

from actors.address import seat_of
from bus.log import GameLog
from replay.fold import fold

HIDDEN_KINDS = {"chance", "step", "talk_round", "game_end", "start"}


def observed_in_log(log: GameLog, seat: int) -> set[int]:
    """Seqs of the records seat N's President or offices sent or were sent (and errors about them)."""
    out = set()
    for r in log.records:
        msg = r["msg"]
        if seat in (seat_of(msg["sender"]), seat_of(msg["to"])) or (msg["kind"] == "error" and seat_of(msg["actor"]) == seat):
            out.add(r["seq"])
    return out


def view_answers(get: Callable[[str], Any], game_id: str, seat: int | None) -> dict[str, Any]:
    """Everything the API answers for one view of one game."""
    q = "" if seat is None else f"?player={seat}"
    amp = "&" if q else "?"
    meta = get(f"/api/game/{game_id}{q}")
    rows = get(f"/api/game/{game_id}/messages{q}{amp}around={meta['first']}&before=0&after=400")["messages"]
    while len(rows) < len(meta["seqs"]):
        rows += get(f"/api/game/{game_id}/messages{q}{amp}around={rows[-1]['seq'] + 1}&before=0&after=400")["messages"]
    records = {m["seq"]: get(f"/api/game/{game_id}/record/{m['seq']}{q}") for m in rows}
    boards = get(f"/api/game/{game_id}/boards{q}")
    kb_seqs = [m["seq"] for m in rows if m["kind"] == "kb_change"][:20]
    details = [get(f"/api/game/{game_id}/detail/{s}{q}") for s in kb_seqs]
    # positions asked for between N's records: the answer stands at N's record before them
    shown = meta["seqs"]
    gaps = [b - 1 for a, b in itertools.pairwise(shown) if b - a > 1][:: max(1, len(shown) // 15)]
    at = [get(f"/api/game/{game_id}/at/{s}{q}") for s in gaps]
    at += [get(f"/api/game/{game_id}/detail/{s}{q}") for s in gaps[:5]]
    return {"meta": meta, "rows": rows, "records": records, "boards": boards, "details": details, "at": at}


SEQ_KEYS = ("seq", "cause", "first", "last", "at")


def seqs_named(data: Any, out: list[int] | None = None) -> list[int]:
    """Every integer an answer gives under a key that names a seq, anywhere inside it."""
    out = [] if out is None else out
    if isinstance(data, dict):
        for key, value in data.items():
            if key in SEQ_KEYS and isinstance(value, int) and not isinstance(value, bool):
                out.append(value)
            else:
                seqs_named(value, out)
    elif isinstance(data, list):
        for value in data:
            seqs_named(value, out)
    return out


def assert_only_observed(log: GameLog, seat: int, answers: dict[str, Any]) -> None:
    mine = observed_in_log(log, seat)
    by_seq = {r["seq"]: r for r in log.records}
    meta = answers["meta"]
    assert meta["player"] == seat
    assert set(meta["seqs"]) == mine, "the view's seqs are exactly the records N sent or was sent"
    assert meta["records"] == len(mine) and (meta["first"], meta["last"]) == (min(mine), max(mine))
    assert meta["seed"] is None, "the seed replays every hidden card and role"
    for row in answers["rows"]:
        assert row["seq"] in mine and row["kind"] not in HIDDEN_KINDS, row
        logged = by_seq[row["seq"]]["cause"]
        assert row["cause"] == (logged if logged in mine or logged < 0 else None), row
    for seq, record in answers["records"].items():
        logged = by_seq[int(seq)]
        assert int(seq) in mine and record["msg"] == logged["msg"] and record["seq"] == logged["seq"]
        assert record["cause"] == (logged["cause"] if logged["cause"] in mine or logged["cause"] < 0 else None)
    # no seq of a record N did not observe, anywhere: causes, phase marks, deal events, marks,
    # belief points, boards, positions, KB details
    named = seqs_named({k: v for k, v in answers.items() if k != "records"}) + seqs_named(list(answers["records"].values()))
    named += [p["seq"] for p in meta["phases"]] + [s for marks in meta["marks"].values() for s in marks]
    named += [p[0] for p in meta["beliefs"]["points"]] + [b[0] for b in answers["boards"]]
    leaked = sorted({s for s in named if s >= 0} - mine)
    assert not leaked, f"seqs of records p{seat} did not observe: {leaked[:10]}"
    assert meta["phases"] and all(p["seq"] in mine for p in meta["phases"])
    for position in answers.get("at", ()):
        assert position["seq"] in mine
    assert all("role" not in p for p in meta["players"]), "roles are the omniscient view's only"
    assert meta["outcome"] is None and meta["charts"] == []
    assert all(p[1] == seat for p in meta["beliefs"]["points"]), "only N's own Intelligence Office"
    for d in answers["details"]:
        assert d["seat"] == seat
        assert all(s["office"].startswith(f"p{seat}/") for s in d["suggestions"])
    game = log.header["game"]
    if game == "werewolves":
        _werewolves_boards(log, seat, answers["boards"])
    elif game == "hanabi":
        _hanabi_boards(log, seat, answers["boards"])
    elif game == "diplomacy":
        from games.diplomacy.mapdata import POWERS

        assert all(POWERS[seat] in e["parties"] for e in meta["ledger"]), "deals of N's power only"


def _attrs(svg: str, cls: str) -> list[dict[str, str]]:
    """The data-* attributes of every element of class `cls` in an SVG."""
    out = []
    for tag in re.findall(rf'<[a-z]+ class="{cls}"([^>]*)>', svg):
        out.append(dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag)))
    return out


def _werewolves_boards(log: GameLog, seat: int, boards: list[list[Any]]) -> None:
    for seq, svg in boards:
        known = fold(log, at=seq, check=False).state.observation(seat)["known_roles"]
        for s in _attrs(svg, "seat"):
            if s["role"]:
                assert known.get(s["seat"]) == s["role"], f"seq {seq}: p{s['seat']}'s role shown to p{seat}"


def _hanabi_boards(log: GameLog, seat: int, boards: list[list[Any]]) -> None:
    for seq, svg in boards:
        state = fold(log, at=seq, check=False).state
        own = state.to_json()["hands"][seat]
        cards = [c for c in _attrs(svg, "card") if c["seat"] == str(seat)]
        assert len(cards) == len(own) and all(c["card"] == "" for c in cards), f"seq {seq}: p{seat}'s own cards shown"
