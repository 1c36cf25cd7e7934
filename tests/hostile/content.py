"""Logs valid in form, wrong in content, per game, and the run of one such log through every
plugin part of its game and through the debugger API (tests/hostile/test_fuzz_plugins.py).

Each case starts from a real log of the game (its smallest golden log, or a short random game
for games without one), cut to its first CUT records (a prefix is a log too: the game stopped
early), and changes one record in one of four ways, chosen by a seeded random.Random (the same
cases every run):

- removed: a field taken out of a record's message, at any depth (deep ones pass the schema);
- swapped: a value replaced by one of another type (a number for a list, text for a map...);
- foreign: a step's action, a chance outcome, an act, legal actions or a suggested action of
  another game put in;
- other seat: an observation or a heard line of another seat (or to another seat) put in.

`run_case` then checks the log as the core does (GameLog.check: a typed LogError ends the case
there), runs every plugin part (replay.guard.check_parts) and asks the debugger API for the
game's routes. What may come out: nothing, a LogError (PluginFault included) or a DebugError with
a status; anything else fails the case, as does a case running past CASE_SECONDS.
"""

from __future__ import annotations

import copy
import json
import random
import signal
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from bus.errors import LogError
from bus.log import GameLog, parse_log

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
# the golden log each game's cases start from: one with Intelligence Office updates among its first
# CUT records where the game has one (its belief reader has work); else the game's smallest
BASES = {"battleline": "battleline-deep-barca-io-notactics-4", "diplomacy": "diplomacy-alphadip-4",
         "dominoes": "dominoes-glutton-blocker-signal-22", "hanabi": "hanabi-self-estimation-4", "risk": "risk-td-2",
         "werewolves": "werewolves-alphawolf-so-2"}
CUT = 90  # records of the base log kept: enough for every part to have work, cheap enough for hundreds of cases
CASE_SECONDS = 30  # a case that runs longer has hung
KINDS = ("removed", "swapped", "foreign", "other seat")
# records whose content the schema leaves open (plain data inside) and plugin parts read: most
# removed and swapped fields are taken there, the rest anywhere
READ_BY_PLUGINS = ("kb_change", "game_end", "office_reply", "office_request", "heard", "talk", "act_request",
                   "talk_turn", "error")
_OTHER_TYPES: tuple[Any, ...] = (0, -1, 7, 2**40, 1.5, float("nan"), "", "x", None, True, [], [0], ["a", 1], {}, {"a": 1},
                                 {"0": [1, 2]})


class Hang(Exception):
    """A case ran past CASE_SECONDS."""


@contextmanager
def deadline(seconds: int = CASE_SECONDS) -> Iterator[None]:
    """Hang if the block runs longer than `seconds` (SIGALRM: the main thread)."""
    def ring(signum: int, frame: Any) -> None:
        raise Hang(f"a case ran past {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@lru_cache(maxsize=None)
def base_log(game: str) -> GameLog:
    """The game's base log: its smallest golden log, else a short random game; cut to CUT records."""
    goldens = sorted(GOLDEN.glob(f"{game}-*.log"), key=lambda p: (p.stat().st_size, p.name))
    preferred = GOLDEN / f"{BASES.get(game, '')}.log"
    if preferred.exists():
        data = preferred.read_bytes()
    elif goldens:
        data = goldens[0].read_bytes()
    else:
        from games.registry import get_plugin
        from replay.conformance import play_to_bytes

        data = play_to_bytes(game, 1, dict(get_plugin(game).short_options) or None)
    log = parse_log(data, check=True).games[0]
    return GameLog(header=log.header, records=log.records[:CUT], offsets=log.offsets[:CUT])


@lru_cache(maxsize=None)
def foreign_values(game: str) -> tuple[Any, ...]:
    """Actions and chance outcomes of the base logs of the other games (those with golden logs)."""
    out: list[Any] = []
    for other in sorted(BASES):
        if other == game:
            continue
        for r in base_log(other).records:
            msg = r["msg"]
            if msg["kind"] == "step":
                out += [a for _, a in sorted(msg["actions"].items())][:1]
            elif msg["kind"] == "chance":
                out.append(msg["outcome"])
            elif msg["kind"] == "act":
                out.append(msg["action"])
            if len(out) > 60:
                break
    return tuple(json.loads(json.dumps(v)) for v in out)


def _slots(node: Any, depth: int = 0) -> list[tuple[Any, Any, int]]:
    """(container, key, depth) of every value inside `node` (a message)."""
    out = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        out.append((node, key, depth))
        if depth < 8:
            out += _slots(value, depth + 1)
    return out


def mutate(game: str, case: int) -> tuple[str, int, GameLog]:
    """Case `case` of `game`: (its kind, the seq of the changed record, the changed log)."""
    rng = random.Random(f"{game}/{case}")
    kind = KINDS[case % len(KINDS)]
    base = base_log(game)
    records = copy.deepcopy(base.records)
    read = [i for i, r in enumerate(records) if r["msg"]["kind"] in READ_BY_PLUGINS]
    pos = rng.choice(read) if read and rng.random() < 0.7 else rng.randrange(len(records))
    if kind == "foreign":
        fit = [i for i, r in enumerate(records) if r["msg"]["kind"] in ("step", "chance", "act", "act_request")
               or r["msg"]["kind"] == "office_reply" and r["msg"].get("suggestions")]
        donors = foreign_values(game)
        if fit and donors:
            pos = rng.choice(fit)
            msg, value = records[pos]["msg"], copy.deepcopy(rng.choice(donors))
            if msg["kind"] == "step":
                seat = rng.choice(sorted(msg["actions"])) if msg["actions"] else "0"
                msg["actions"][seat] = value
            elif msg["kind"] == "chance":
                msg["outcome"] = value
            elif msg["kind"] == "act_request":  # the legal actions another game's (format 4 logs none: some are added)
                msg["legal"] = [copy.deepcopy(rng.choice(donors)) for _ in range(max(1, len(msg.get("legal", ()))))]
            elif msg["kind"] == "office_reply":  # a suggestion of another game's action
                suggestion = rng.choice(msg["suggestions"])
                suggestion["action"] = value if isinstance(value, str) else json.dumps(value)
            else:
                msg["action"] = value
        else:
            kind = "swapped"
    if kind == "other seat":
        # requests (which format 4 logs without their observation) and what a seat heard
        seen = [i for i, r in enumerate(records) if "observation" in r["msg"] or r["msg"]["kind"] in ("heard", "act_request")]
        if seen:
            pos = rng.choice(seen)
            msg = records[pos]["msg"]
            others = [r["msg"] for r in records if r["msg"]["kind"] == msg["kind"] and r["msg"].get("to") != msg.get("to")]
            if others and rng.random() < 0.7:
                donor = rng.choice(others)
                for name in ("observation", "lines", "legal", "player"):
                    if name in msg and name in donor:
                        msg[name] = copy.deepcopy(donor[name])
            else:  # addressed to another seat than the one it was made for
                players = len(base.header.get("agents") or ())
                msg["to"] = f"p{rng.randrange(max(players, 1))}"
        else:
            kind = "swapped"
    if kind in ("removed", "swapped"):
        slots = [s for s in _slots(records[pos]["msg"]) if s[2] > 0 or s[1] not in ("kind", "sender", "to")]
        while not slots:
            pos = rng.randrange(len(records))
            slots = [s for s in _slots(records[pos]["msg"]) if s[2] > 0]
        deep = [s for s in slots if s[2] > 0]
        container, key, _ = rng.choice(deep if deep and rng.random() < 0.8 else slots)
        if kind == "removed":
            del container[key]
        else:
            old = container[key]
            choices = [v for v in _OTHER_TYPES if type(v) is not type(old)]
            container[key] = copy.deepcopy(rng.choice(choices))
    log = GameLog(header=copy.deepcopy(base.header), records=records, offsets=list(base.offsets))
    return kind, records[pos]["seq"], log


class _OneGame:
    """A debugger source serving one in-memory game (ops.debugger.source.Source's `_load`)."""

    @staticmethod
    def make(log: GameLog) -> Any:
        from ops.debugger.source import Source, row_of

        class OneGame(Source):
            kind = "log"

            def _load(self, game_id: str) -> tuple[GameLog, LogError | None, str]:
                from ops.debugger.game import DebugError

                if game_id != str(log.header.get("game_id")):
                    raise DebugError("no such game", 404)
                return log, None, "case.log"

            def _rows(self, filters: dict[str, Any], offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
                return 1, [row_of(log)]

        return OneGame(Path("case"))


def run_case(log: GameLog, seq: int) -> dict[str, str]:
    """The outcome of one case: {"core": ...} when GameLog.check refuses it, else the outcome of
    every plugin part ("parts") and of each debugger route ("api ..."): "ok", or the typed error's
    class (a DebugError's status). Raises whatever is neither (a bug: the test fails)."""
    from ops.debugger.api import Api
    from ops.debugger.game import DebugError
    from replay.guard import check_parts

    out: dict[str, str] = {}
    try:
        log.check()
    except LogError as exc:
        return {"core": type(exc).__name__}
    players = len(log.header.get("agents") or ())
    try:
        check_parts(log, boards=4, seats=(None, 0))
        out["parts"] = "ok"
    except LogError as exc:
        out["parts"] = type(exc).__name__
    api = Api(_OneGame.make(log), None)
    gid = str(log.header.get("game_id"))
    seqs = [r["seq"] for r in log.records]
    routes = [(f"/api/game/{gid}/head", {}), (f"/api/game/{gid}/head", {"player": "0", "seq": str(seq)}),
              (f"/api/game/{gid}", {}), (f"/api/game/{gid}", {"player": str(max(players - 1, 0))}),
              (f"/api/game/{gid}/at/{seq}", {}), (f"/api/game/{gid}/at/{seqs[-1]}", {"player": "0"}),
              (f"/api/game/{gid}/messages", {"around": str(seq)}), (f"/api/game/{gid}/record/{seq}", {}),
              (f"/api/game/{gid}/detail/{seq}", {"kb": "0"}), (f"/api/game/{gid}/boards", {})]
    for path, query in routes:
        name = "api " + path.replace(gid, "ID").split("/", 4)[-1] + ("?" + "&".join(query) if query else "")
        try:
            answer = api.get(path, query)
            json.dumps(answer, allow_nan=True)  # what the server sends (NaN: its own rule)
            out[name] = "ok"
        except DebugError as exc:
            assert 400 <= exc.status < 600 and str(exc) and "\n" not in str(exc), (name, exc.status, str(exc))
            out[name] = str(exc.status)
    return out


def log_bytes(log: GameLog) -> bytes | None:
    """The case as a log file our writer's codec would lay out (deltas included); None when the
    change leaves it unwritable in that form (a removed recipient, say): not valid in form."""
    from bus.codec import RecordCodec, pack
    from bus.log import MAGIC, frame

    codec = RecordCodec()
    try:
        payloads = [pack(log.header)] + [codec.encode(r["game"], r["seq"], r["cause"], copy.deepcopy(r["msg"]))
                                         for r in log.records]
    except Exception:  # noqa: BLE001 - the writer's own refusal: such a file is not one of these cases
        return None
    return MAGIC + b"".join(frame(p) for p in payloads)


def cli_case(log: GameLog, folder: Path) -> dict[str, int]:
    """`detente replay transcript`, `show` and every exporter of the game on the case written as a
    file: each exits 0, or 2 with exactly one line on stderr (never a traceback)."""
    import contextlib
    import io

    from games.registry import get_plugin
    from ops.cli import main

    data = log_bytes(log)
    if data is None:
        return {}
    path = folder / "case.log"
    path.write_bytes(data)
    commands = [["replay", "transcript", str(path)], ["replay", "show", str(path)]]
    commands += [["export", fmt, str(path)] for fmt in sorted(get_plugin(log.header["game"]).exporters)]
    codes = {}
    for argv in commands:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        lines = err.getvalue().splitlines()
        assert code == 0 or code == 2 and len(lines) == 1 and lines[0].startswith("detente: error: "), (argv, code, lines)
        codes[" ".join(argv[:2])] = code
    return codes
