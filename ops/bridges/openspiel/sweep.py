"""Every game OpenSpiel registers, through the bridge: played by random agents, verified, transcribed.

    python -m ops.bridges.openspiel.sweep [--timeout 60] [--jobs 2] [--markdown FILE]

Each game runs in its own process (a game that cannot load, or runs past `--timeout` seconds, is
one line of the list, not a stuck run): `check(name)` loads `openspiel-<name>` with the options
`SWEEP_OPTIONS` gives (default: OpenSpiel's defaults), plays one seeded game with `random` in every
seat, replays it with `verify` and writes its transcript. The list says, for every name, `ok` or
why not.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

# Options of games whose default is too long for a sweep of random play (ours: smaller boards).
SWEEP_OPTIONS: dict[str, dict[str, Any]] = {
    "go": {"board_size": 9}, "phantom_go": {"board_size": 9}, "cursor_go": {"board_size": 9},
    "hex": {"board_size": 5}, "dark_hex": {"board_size": 3}, "dark_hex_ir": {"board_size": 3},
    "havannah": {"board_size": 4}, "twixt": {"board_size": 8}, "y": {"board_size": 7},
    "clobber": {"rows": 4, "columns": 4}, "amazons": {}, "goofspiel": {"num_cards": 5},
}
SEED = 1
# Why a game cannot be played, by the start of its failure (the error itself follows in the list).
WHY = (
    ("load: SpielError: Missing parameter game", "a wrapper: it needs another game as its `game` parameter"),
    ("load: SpielError: Missing parameter", "a parameter without a default that OpenSpiel requires"),
    ("load: SpielError: /project/open_spiel/utils/file.cc", "reads a game file named by a parameter (none by default)"),
    ("load: IndexError: map::at", "reads a game file named by a parameter (none by default)"),
    ("load: SpielError: Unknown parameter", "its default parameters do not load in this OpenSpiel"),
    ("play: SpielError: LegalActions unimplemented", "actions are structs only: no action ids to offer"),
    ("play: IndexError", "a mean-field game: its mean-field node is neither a player's nor chance"),
    ("play: SpielError: /project/open_spiel/games/mfg", "a mean-field game: its mean-field node is neither a player's nor chance"),
    ("over ", "a random game runs past the sweep's time limit on this machine"),
)


def check(name: str) -> dict[str, Any]:
    """Load, play, verify and transcribe `openspiel-<name>`: {"game", "ok", "why", "steps"}."""
    from actors.match import make_header, record
    from actors.registry import parse_lineup
    from bus.log import parse_log
    from games.registry import get_game
    from replay.transcript import transcript
    from replay.verify import verify_game

    game_name, options = "openspiel-" + name, SWEEP_OPTIONS.get(name, {})
    stage = "load"
    try:
        game = get_game(game_name)
        opts = game.options(options)
        players = game.num_players(opts)
        stage = "play"
        log = parse_log(record(make_header(game_name, SEED, parse_lineup("random", players), options))).games[0]
        errors = [r["msg"] for r in log.records if r["msg"]["kind"] in ("error", "fault")]
        if errors:
            return {"game": name, "ok": False, "why": f"play: {errors[0].get('reason') or errors[0]}"[:200]}
        stage = "verify"
        verdict = verify_game(log)
        if not verdict.ok:
            return {"game": name, "ok": False, "why": f"verify: {verdict.message}"[:300]}
        stage = "transcript"
        text, _ = transcript(log)
        if "end:" not in text:
            return {"game": name, "ok": False, "why": "transcript: no end line"}
        return {"game": name, "ok": True, "why": "", "steps": len(log.records)}
    except Exception as exc:  # noqa: BLE001 - every failure is one line of the list
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return {"game": name, "ok": False, "why": f"{stage}: {type(exc).__name__}: {first}"[:300]}


def _one(name: str, timeout: float) -> dict[str, Any]:
    code = f"import json; from ops.bridges.openspiel.sweep import check; print(json.dumps(check({name!r})))"
    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                              env=_env())
    except subprocess.TimeoutExpired:
        return {"game": name, "ok": False, "why": f"over {timeout:g} s (a random game too long for the sweep)"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"game": name, "ok": False, "why": f"crashed (exit {done.returncode}): {tail}"[:300]}
    found = json.loads(lines[-1])
    found["seconds"] = round(time.perf_counter() - t0, 1)
    return found


def _env() -> dict[str, str]:
    import os

    return {**os.environ, "RAY_AUTH_MODE": "disabled", "PYTHONHASHSEED": "0"}


def sweep(names: list[str] | None = None, timeout: float = 60.0, jobs: int = 2) -> list[dict[str, Any]]:
    """`check` for every OpenSpiel game (default: every registered name), each in its own process."""
    if names is None:
        from ops.bridges.openspiel.plugin import member_names

        names = member_names()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda n: _one(n, timeout), names))


def markdown(results: list[dict[str, Any]]) -> str:
    """The list as a Markdown table: the games that pass, then those that cannot, with why."""
    ok = [r for r in results if r["ok"]]
    lines = [f"{len(ok)} of {len(results)} games play, verify and transcribe.", "",
             "| game | options | result |", "| --- | --- | --- |"]
    for r in sorted(results, key=lambda r: (not r["ok"], r["game"])):
        options = json.dumps(SWEEP_OPTIONS.get(r["game"], {})) if SWEEP_OPTIONS.get(r["game"]) else ""
        why = next((text for start, text in WHY if r["why"].startswith(start)), "") if not r["ok"] else ""
        result = "ok" if r["ok"] else (f"{why}: " if why else "") + "`" + r["why"].replace("|", "/").replace("`", "'") + "`"
        lines.append(f"| `{r['game']}` | {options} | {result} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--markdown", default=None, help="write the table to this file")
    parser.add_argument("--from-list", default=None, help="make the table from a list this command printed")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    if args.from_list:
        with open(args.from_list, encoding="utf-8") as listed:
            rows = [line.rstrip("\n").split(": ", 1) for line in listed if ": " in line and " of " not in line[:12]]
        results = [{"game": g, "ok": w == "ok", "why": "" if w == "ok" else w} for g, w in rows]
    else:
        results = sweep(args.names or None, args.timeout, args.jobs)
    for r in results:
        print(f"{r['game']}: {'ok' if r['ok'] else r['why']}")
    print(f"{sum(r['ok'] for r in results)} of {len(results)} ok in {time.perf_counter() - t0:.0f} s")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(markdown(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
