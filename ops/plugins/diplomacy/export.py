"""Export a logged Diplomacy game to the `diplomacy` package's saved-game JSON, so its viewers can
open our games: `{id, map, rules, phases: [{name, state, orders, results, messages}]}`, one phase
per adjudicated phase plus the final position.

The log is folded through our rules (the same fold as replay); nothing of the package is used.

    python -m ops.plugins.diplomacy.export g.log > g.json     (CLI: detente export diplomacy-json g.log)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from actors.address import seat_of
from bus.log import GameLog, read_log
from games.diplomacy.board import HOMES, POWERS, Board
from ops.plugins.diplomacy.transcript import say
from replay.fold import initial_state
from replay.walk import walk

RULES = ["NO_PRESS", "POWER_CHOICE"]


def export_log(path: str | Path, game_index: int = 0) -> dict[str, Any]:
    """The saved-game dict of game `game_index` of the log at `path`."""
    log = read_log(path)
    if not log.games:
        raise ValueError(f"{path}: no game in the log")
    return export_game(log.games[game_index], game_id=f"detente-{log.games[game_index].header.get('seed', 0)}-{game_index}")


def export_json(game: GameLog) -> str:
    """The saved-game JSON text of one logged game (the plugin's `diplomacy-json` exporter)."""
    return json.dumps(export_game(game))


def export_game(game: GameLog, game_id: str | None = None) -> dict[str, Any]:
    """The saved-game dict of one logged game (raises ValueError if it is not Diplomacy)."""
    header = game.header
    if header.get("game") != "diplomacy":
        raise ValueError(f"game {header.get('game')!r} is not diplomacy")
    game_id = game_id or str(header.get("game_id"))
    state = initial_state(header)  # before the first record; then the walk's state after each one
    before, last = state.board, state.to_json()["last"]
    phases: list[dict[str, Any]] = []
    press = Press()
    for step in walk(game):
        press.read(step.msg, before.phase)
        if not step.changed:
            continue
        state = step.state
        press.ledger(state.to_json()["deals"]["events"])
        now = state.to_json()["last"]
        if now is not None and now != last:
            phases.append(_phase(before, now["orders"], now["results"], game_id, len(phases)))
        before, last = state.board, now
    final = _phase(state.board, {}, {}, game_id, len(phases))
    if state.is_terminal():
        final["name"] = final["state"]["name"] = "COMPLETED"
    phases.append(final)
    by_phase = press.messages()
    for phase in phases:
        phase["messages"] = by_phase.get(phase["state"]["name"], [])
    rules = [r for r in RULES if not (r == "NO_PRESS" and press.count)]  # press was on: the viewers show it
    for phase in phases:
        phase["state"]["rules"] = list(rules)
    return {"id": game_id, "map": "standard", "rules": rules, "phases": phases}


class Press:
    """The negotiation of a game as the package's messages: every talk item a power said, to each
    power that heard it (GLOBAL when all six others did), in the phase it was said; and the deal
    ledger's confirmations and breaks, from the deal's proposer to its other parties."""

    def __init__(self) -> None:
        self.said: dict[tuple[int, str, int, int, int], dict[str, Any]] = {}  # (turn, channel, round, speaker, item)
        self.events_seen = 0
        self.extra: list[dict[str, Any]] = []
        self.count = 0

    def read(self, msg: dict[str, Any], phase: str) -> None:
        """Take the lines of a `heard` record (one recipient's copy of a closed talk round)."""
        if msg["kind"] != "heard":
            return
        hearer = POWERS[seat_of(msg["to"])]
        for line in msg["lines"]:
            for i, item in enumerate(line["says"]):
                key = (msg["turn"], msg["channel"], msg["round"], line["speaker"], i)
                entry = self.said.setdefault(key, {"phase": phase, "sender": POWERS[line["speaker"]],
                                                   "text": say({**item, "speaker": POWERS[line["speaker"]]}),
                                                   "to": set()})
                if hearer != entry["sender"]:
                    entry["to"].add(hearer)

    def ledger(self, events: list[dict[str, Any]]) -> None:
        """Take the ledger's new confirmed and broken deals."""
        for e in events[self.events_seen:]:
            if e["type"] in ("confirmed", "broken"):
                proposer = e["deal"].split("#", 1)[0]
                detail = f" by {e['by']}: {e.get('detail', '')}" if e["type"] == "broken" else ""
                self.extra.append({"phase": e["phase"], "sender": proposer, "text": f"deal {e['deal']} {e['type']}{detail}",
                                   "to": {p for p in e["to"] if p != proposer}})
        self.events_seen = len(events)

    def messages(self) -> dict[str, list[dict[str, Any]]]:
        """Phase name -> the package's message dicts, in the order said, each with a unique time_sent."""
        out: dict[str, list[dict[str, Any]]] = {}
        entries = [self.said[k] for k in sorted(self.said)] + self.extra
        time_sent = 0
        for entry in entries:
            others = sorted(entry["to"])
            recipients = ["GLOBAL"] if len(others) == len(POWERS) - 1 else others
            for recipient in recipients:
                time_sent += 1
                out.setdefault(entry["phase"], []).append({"sender": entry["sender"], "recipient": recipient,
                                                           "time_sent": time_sent, "phase": entry["phase"],
                                                           "message": entry["text"]})
        self.count = time_sent
        return out


def _phase(board: Board, orders: dict[str, list[str]], results: dict[str, list[str]],
           game_id: str, index: int) -> dict[str, Any]:
    units = {p: board.units_of(p) for p in POWERS}
    centres = {p: board.centres_of(p) for p in POWERS}
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in POWERS}
    for _, (pw, t, loc, opts) in sorted(board.dislodged.items()):
        retreats[pw][f"{t} {loc}"] = list(opts)
    builds = {}
    for p in POWERS:
        n = board.adjustment(p) if board.phase_kind == "A" else 0
        builds[p] = {"count": n, "homes": board.build_sites(p) if n > 0 else []}
    influence = {p: sorted(set(centres[p]) | {u.split()[1][:3] for u in units[p]}) for p in POWERS}
    state = {
        "timestamp": index + 1,  # only the order of phases matters to the viewers
        "zobrist_hash": "0",
        "note": "",
        "name": board.phase,
        "units": units,
        "retreats": retreats,
        "centers": centres,
        "homes": {p: sorted(HOMES[p]) for p in POWERS},
        "influence": influence,
        "civil_disorder": {p: 0 for p in POWERS},
        "builds": builds,
        "game_id": game_id,
        "map": "standard",
        "rules": list(RULES),
    }
    return {
        "name": board.phase,
        "state": state,
        "orders": {p: list(orders.get(p, [])) for p in POWERS},
        "results": {u: list(r) for u, r in results.items()},
        "messages": [],
    }


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: python -m ops.plugins.diplomacy.export LOG [GAME_INDEX]", file=sys.stderr)
        return 2
    data = export_log(argv[1], int(argv[2]) if len(argv) > 2 else 0)
    sys.stdout.write(json.dumps(data) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
