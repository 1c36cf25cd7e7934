"""The debugger's JSON API: routes to answers, every error a 4xx with one line (never a traceback).

    GET  /api/source                                  what is served (kind, name, first game, games if known)
    GET  /api/games?agent=&seat=&winner=&min_steps=&max_steps=&errors=&q=&offset=&limit=
    GET  /api/game/ID/head?player=N&seq=S             the players and the board at S (default: the view's
                                                      first record), from the game's start alone: the first
                                                      thing the viewer draws, before the game is read whole
    GET  /api/game/ID?player=N                        players, timeline, marks, ledger, series
    GET  /api/game/ID/at/SEQ?player=N                 the board at SEQ (the game's own SVG)
    GET  /api/game/ID/messages?player=N&around=SEQ&before=&after=&actor=&kind=&channel=
    GET  /api/game/ID/record/SEQ?player=N             one whole record (if N observed it)
    GET  /api/game/ID/detail/SEQ?player=N&kb=M        a seat's KB at SEQ, the diff made there, suggestions
    GET  /api/game/ID/boards?player=N                 every distinct board (seq, SVG): the page export's
    GET  /api/game/ID/original?player=N               a fork's original, where this source holds it: its id,
                                                      the switch seq and the first seq where the two differ
    POST /api/game/ID/fork  {"at": SEQ, "seats": {"3": "SPEC"}}   (token) play the fork, return its id

`player` absent: the omniscient view; a seat: that seat's point of view (ops/debugger/pov.py).
Boards, hooks, charts and belief readers are the game's plugin code, run behind the plugin guard
(replay/guard.py): one that fails on a log answers 422 with the line naming game, part and seq, and
the server goes on serving every other game and request.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from bus.errors import LogError
from ops.debugger.game import DebugError, DebugGame
from ops.debugger.source import Source

MAX_BODY = 64 * 1024


class Api:
    """Answers API requests over one source; forks are written under `out`."""

    def __init__(self, source: Source, out: Path | None):
        self.source = source
        self.out = out

    def get(self, path: str, query: dict[str, str]) -> Any:
        """The answer to a GET; a log the core or the game's plugin cannot read this far is a 422
        with its one line (a plugin part's PluginFault names the game, the part and the seq)."""
        try:
            return self._get(path, query)
        except LogError as exc:
            raise DebugError(str(exc), 422) from None

    def _get(self, path: str, query: dict[str, str]) -> Any:
        parts = [unquote(p) for p in path.strip("/").split("/")][1:]  # after "api"
        if parts == ["source"]:
            return {"kind": self.source.kind, "name": self.source.root.name, "first": self.source.first_game(),
                    "games": self.source.count(), "forks": self.out is not None}
        if parts == ["games"]:
            return self.source.games(query, _int(query, "offset", 0), _int(query, "limit", 100))
        if len(parts) < 2 or parts[0] != "game":
            raise DebugError("no such API route", 404)
        if parts[2:] == ["head"]:
            seq = query.get("seq")
            return self.source.head(parts[1], _opt_int(query, "player"), None if seq in (None, "") else _seq(seq))
        game = self.source.game(parts[1])
        seat = game.check_seat(_opt_int(query, "player"))
        rest = parts[2:]
        if not rest:
            return game.meta(seat)
        if rest[0] == "at" and len(rest) == 2:
            return game.at(_seq(rest[1]), seat)
        if rest == ["messages"]:
            return game.messages(seat, _int(query, "around", 0), _int(query, "before", 30), _int(query, "after", 30),
                                 query.get("actor", "")[:100], query.get("kind", "")[:200], query.get("channel", "")[:100])
        if rest[0] == "record" and len(rest) == 2:
            return game.record(_seq(rest[1]), seat)
        if rest[0] == "detail" and len(rest) == 2:
            return game.detail(_seq(rest[1]), seat, game.check_seat(_opt_int(query, "kb")))
        if rest == ["boards"]:
            return boards(game, seat)
        if rest == ["original"]:
            return self._original(game, seat)
        raise DebugError("no such API route", 404)

    def _original(self, fork: DebugGame, seat: int | None) -> dict[str, Any]:
        """Where a fork (made here or by `detente replay fork`) leaves its original, for the side by side."""
        from ops.debugger.forking import first_difference

        point = fork.header.get("fork")
        if not isinstance(point, dict):
            raise DebugError(f"game {fork.id} is not a fork", 404)
        original_id = str(point.get("from"))
        try:
            original = self.source.game(original_id)
        except DebugError as exc:
            if exc.status != 404:
                raise
            raise DebugError(f"the original game {original_id} is not served here: serve a folder holding both logs, "
                             "or name the original's log with --with", 404) from None
        original.check_seat(seat)
        first = first_difference(original.log, fork.log)
        if seat is not None and first is not None:  # a seat learns they part at its first record after it
            first = fork.seen_from(first, seat)
        return {"game_id": original.id, "at": point.get("at") if seat is None else None, "first_difference": first}

    def post(self, path: str, body: bytes) -> Any:
        parts = [unquote(p) for p in path.strip("/").split("/")][1:]
        if len(parts) != 3 or parts[0] != "game" or parts[2] != "fork":
            raise DebugError("no such API route", 404)
        if self.out is None:
            raise DebugError("this server was started without an output folder: forks are off", 403)
        if len(body) > MAX_BODY:
            raise DebugError("request body too large", 413)
        try:
            data = json.loads(body or b"{}")
        except ValueError:
            raise DebugError("the body is not JSON") from None
        if not isinstance(data, dict):
            raise DebugError("the body is a JSON object: {\"at\": SEQ, \"seats\": {SEAT: SPEC}}")
        from ops.debugger.forking import fork_game

        game = self.source.game(parts[1])
        result = fork_game(game, data.get("at"), data.get("seats"), self.out)
        self.source.add_fork(result["game_id"], Path(result["path"]))
        result["path"] = str(Path(result["path"]).relative_to(self.out.resolve())) if self.out else result["path"]
        return result


def boards(game: DebugGame, seat: int | None) -> list[list[Any]]:
    """Every distinct board of the game for one view: [first seq, SVG], the start then each change."""
    out = []
    for seq, _ in game.board_keys(seat):
        out.append([seq, game.board(max(seq, game.seqs[0]), seat)])
    return out


def _seq(text: str) -> int:
    if not text.lstrip("-").isdigit() or len(text) > 20:
        raise DebugError(f"seq {text[:30]!r} is not a number", 400)
    return int(text)


def _int(query: dict[str, str], key: str, default: int) -> int:
    value = query.get(key)
    if value is None or value == "":
        return default
    if not value.lstrip("-").isdigit() or len(value) > 20:
        raise DebugError(f"{key} must be an integer", 400)
    return int(value)


def _opt_int(query: dict[str, str], key: str) -> int | None:
    value = query.get(key)
    if value is None or value in ("", "all"):
        return None
    return _int(query, key, 0)
