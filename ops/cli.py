"""The `detente` command line.

  detente play GAME --seed N --agents SPEC --log FILE [--runtime inline|ray-players|ray-modules]
  detente replay verify FILE [--game ID]
  detente replay show FILE [--at SEQ] [--game ID]
  detente games | detente agents

Bad input (unknown game, malformed agents, missing or foreign log file) gives one line on stderr
and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

EXIT_USAGE = 2
EXIT_FAILED = 1


class UsageError(Exception):
    """Bad input from the user: one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line instead of usage + error
        raise UsageError(f"{self.prog}: {message}")


def _parse_option(text: str) -> tuple[str, Any]:
    key, eq, value = text.partition("=")
    if not eq or not key:
        raise UsageError(f"malformed --option {text!r}: expected key=value")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def _cmd_play(args: argparse.Namespace) -> int:
    from actors.match import make_header, play
    from actors.registry import parse_lineup
    from actors.match import game_options
    from bus.log import LogWriter, PackedLogWriter
    from games.registry import get_game

    game = get_game(args.game)
    options = dict(_parse_option(o) for o in args.option)
    players = game.num_players(game_options(args.game, options))
    agents = parse_lineup(args.agents, players)
    header = make_header(args.game, args.seed, agents, options, game_id=args.game_id)
    if args.runtime != "inline":
        from actors.ray_placement import ensure_ray

        print(f"starting Ray for --runtime {args.runtime} ..." if not args.address else f"joining Ray at {args.address} ...", flush=True)
        ensure_ray(address=args.address)
    path = Path(args.log)
    if path.parent and not path.parent.exists():
        raise UsageError(f"folder {path.parent} does not exist")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    placement = None
    if args.runtime != "inline":
        from actors.ray_placement import RayPlacement

        placement = RayPlacement(args.runtime)  # hosts started once, reset for every game
    writer = (PackedLogWriter if args.pack else LogWriter)(open(path, "wb"), fsync=args.fsync)
    records = 0
    try:
        for i in range(args.games):
            seed = args.seed + i
            if i:
                game_id = f"{args.game_id}-{seed}" if args.game_id else None
                header = make_header(args.game, seed, agents, options, game_id=game_id)
            writer.header(header)
            result = play(header, writer, runtime=args.runtime, placement=placement)
            writer.end_game()
            records += result.records
            end = result.end
            winners = ", ".join(f"p{w}" for w in end.winners) or "nobody"
            prefix = f"{header['game_id']}: " if args.games > 1 else ""
            print(f"{prefix}{end.summary}; winners: {winners}", flush=True)
    finally:
        writer.close()
        if placement is not None:
            placement.close()
    print(f"log: {path} ({args.games} game{'s' * (args.games > 1)}, {records} records, {path.stat().st_size} bytes)")
    return 0


def _load_game(path: str, game_id: str | None):
    """A game from a log file, or through the index of a tournament folder (needs --game)."""
    from bus.log import LogFile, read_game_at, read_log

    if Path(path).is_dir():
        from ops.tournament.store import Store

        if game_id is None:
            raise UsageError(f"{path} is a tournament folder: name a game with --game ID")
        store = Store(path, read_only=True)
        try:
            where = store.locate(game_id)
        finally:
            store.close()
        if where is None:
            raise UsageError(f"{path}: no recorded game {game_id!r}")
        game, bad = read_game_at(Path(path) / "logs" / where[0], where[1])
        return game, LogFile(games=[game], bad=bad)
    logfile = read_log(path)
    if not logfile.games:
        raise UsageError(f"{path}: no game in log" + (f" ({logfile.bad})" if logfile.bad else ""))
    if game_id is None:
        return logfile.games[0], logfile
    for game in logfile.games:
        if game.header.get("game_id") == game_id:
            return game, logfile
    raise UsageError(f"{path}: no game {game_id!r}")


def _cmd_verify(args: argparse.Namespace) -> int:
    from replay.verify import verify_game

    if Path(args.log).is_dir() and args.game is None:
        return _verify_folder(args.log, args.sample)
    game, logfile = _load_game(args.log, args.game)
    games = [game] if args.game else logfile.games
    for i, game in enumerate(games):
        bad = logfile.bad if i == len(games) - 1 else None  # a bad frame ends the last game read
        verdict = verify_game(game, bad)
        name = f"{game.header.get('game_id')}: " if len(games) > 1 else ""
        if not verdict.ok:
            print(f"FAIL: {name}{verdict.message}", file=sys.stderr)
            return EXIT_FAILED
        if len(games) > 1:
            print(f"{name}{verdict.message}")
    if len(games) == 1:
        print(verdict.message)
    else:
        print(f"ok: {len(games)} games reproduced")
    return 0


def _verify_folder(path: str, sample: int | None) -> int:
    """Verify the recorded games of a tournament folder (all, or `sample` spread evenly over the
    game ids), with progress; every failure is named, exit 1 if any."""
    from bus.log import LogError, read_game_at
    from ops.tournament.progress import Progress
    from ops.tournament.store import Store
    from replay.verify import verify_game

    if sample is not None and sample < 1:
        raise UsageError("--sample must be at least 1")
    store = Store(path, read_only=True)
    try:
        where = store.db.execute('select game_id, segment, "offset" from games order by game_id').fetchall()
    finally:
        store.close()
    if not where:
        raise UsageError(f"{path}: no recorded games")
    if sample is not None and sample < len(where):
        step = len(where) / sample
        where = [where[int(i * step)] for i in range(sample)]
    progress, failures = Progress(), 0
    for done, (gid, segment, offset) in enumerate(where, 1):
        try:
            game, bad = read_game_at(Path(path) / "logs" / segment, offset)
            verdict = verify_game(game, bad)
            ok, message = verdict.ok, verdict.message
        except LogError as exc:
            ok, message = False, str(exc)
        if not ok:
            failures += 1
            print(f"FAIL: {gid}: {message}", file=sys.stderr)
        progress(done, len(where))
    if failures:
        print(f"{failures} of {len(where)} games failed", file=sys.stderr)
        return EXIT_FAILED
    print(f"ok: {len(where)} games reproduced" + (f" (a sample of {sample})" if sample is not None else ""))
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from replay.show import show

    game, logfile = _load_game(args.log, args.game)
    print(show(game, at=args.at))
    if logfile.bad:
        print(f"note: log stops early, {logfile.bad}")
    return 0


def _cmd_tournament_run(args: argparse.Namespace) -> int:
    from ops.tournament.progress import Progress
    from ops.tournament.runner import run_tournament
    from ops.tournament.spec import load_spec

    if args.games is not None and args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.runners is not None and args.runners < 1:
        raise UsageError("--runners must be at least 1")
    spec = load_spec(args.spec, games=args.games)
    if args.address:
        from actors.ray_placement import check_reachable

        check_reachable(args.address)  # before anything is written
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder")
    try:
        summary = run_tournament(spec, out, runners=args.runners, address=args.address, on_progress=Progress())
    except KeyboardInterrupt:
        print("interrupted: games recorded so far are kept; rerun the same command to finish", file=sys.stderr)
        return 130
    print(
        f"{summary.recorded_before + summary.recorded_now:,}/{summary.total:,} games recorded in {out} "
        f"({summary.recorded_now:,} now, {summary.recorded_before:,} before; "
        f"{summary.runners} runners, {summary.restarts} restarts, {summary.seconds:.1f}s)"
    )
    for row in summary.failed[:10]:
        print(f"game {row['game_id']} crashed: {row['error']}", file=sys.stderr)
    return EXIT_FAILED if summary.failed else 0


def _cmd_tournament_report(args: argparse.Namespace) -> int:
    from ops.tournament.report import build_report, format_text
    from ops.tournament.store import Store

    store = Store(args.dir, read_only=True)
    try:
        report = build_report(store)
    finally:
        store.close()
    if args.format == "json":
        print(json.dumps(_no_nan(report), indent=2))
    elif args.format == "html":
        from ops.tournament.html import format_html

        target = Path(args.output or Path(args.dir) / "report.html")
        target.write_text(format_html(report, title=f"detente tournament: {args.dir}"))
        print(f"wrote {target}")
    else:
        print(format_text(report))
    return 0


def _no_nan(value):
    """JSON has no NaN: undefined statistics (no games, one game) become null."""
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_nan(v) for v in value]
    return value


def _cmd_fork(args: argparse.Namespace) -> int:
    from actors.match import play
    from actors.registry import parse_lineup
    from bus.log import LogWriter
    from replay.fork import ForkError, fork_header

    game, _ = _load_game(args.log, args.game)
    if not game.complete:
        raise UsageError(f"{args.log}: the game is incomplete (no game_end record)")
    try:
        header = fork_header(game, args.at, parse_lineup(args.agents, len(game.header["agents"])))
    except ForkError as exc:
        raise UsageError(str(exc)) from None
    path = Path(args.out)
    writer = LogWriter.open(path)
    try:
        writer.header(header)
        result = play(header, writer)
        writer.end_game()
    finally:
        writer.close()
    print(f"forked {header['fork']['from']} at seq {header['fork']['at']}: {result.end.summary}")
    print(f"log: {path} ({result.records} records)")
    return 0


def _cmd_transcript(args: argparse.Namespace) -> int:
    from replay.transcript import TranscriptError, transcript

    game, _ = _load_game(args.log, args.game)
    if args.out and args.format != "html":
        raise UsageError("--out is for --format html")
    try:
        if args.format == "html":
            from ops.transcript_html import transcript_html

            page = transcript_html(game, player=args.player)
        else:
            text, data = transcript(game, player=args.player)
    except TranscriptError as exc:
        raise UsageError(str(exc)) from None
    if args.format == "html":
        if args.out:
            Path(args.out).write_text(page)
            print(f"wrote {args.out}")
        else:
            print(page)
    else:
        print(json.dumps(data, indent=2) if args.format == "json" else text)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from games.plugin import resolve
    from games.registry import get_plugin

    game, _ = _load_game(args.log, args.game)
    exporter = get_plugin(game.header.get("game")).exporters.get(args.export_format)
    if exporter is None:
        raise UsageError(f"{args.export_format} exports {', '.join(args.exporter_games)} games, not {game.header.get('game')!r}")
    try:
        text = resolve(exporter)(game)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(text)
    return 0


def _cmd_games(args: argparse.Namespace) -> int:
    from games.registry import game_names, get_plugin

    for name in game_names():
        print(f"{name}: {get_plugin(name).doc.strip().splitlines()[0] if get_plugin(name).doc.strip() else ''}")
    return 0


def _cmd_agents(args: argparse.Namespace) -> int:
    from actors.registry import load_all_agents

    for name, agent in sorted(load_all_agents().items()):
        plays = "any game" if agent.games is None else ", ".join(sorted(agent.games))
        print(f"{name}: {agent.doc} ({plays})")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="detente", description="Agents that negotiate, cooperate and betray.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _play_parser(sub)
    rsub = _replay_parsers(sub)
    _tournament_parsers(sub)
    _replay_more_parsers(rsub)
    _plugin_parsers(sub)
    sub.add_parser("games", help="list games").set_defaults(func=_cmd_games)
    sub.add_parser("agents", help="list agents").set_defaults(func=_cmd_agents)
    return parser


def _play_parser(sub: Any) -> None:
    from actors.placement import RUNTIMES

    play = sub.add_parser("play", help="play one game and write its log")
    play.add_argument("game")
    play.add_argument("--seed", type=int, required=True)
    play.add_argument("--agents", required=True, help="one spec for all seats or one per seat, comma-separated")
    play.add_argument("--log", required=True, help="log file to write")
    play.add_argument("--runtime", choices=RUNTIMES, default="inline")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option (repeatable)")
    play.add_argument("--games", type=int, default=1, help="play N games, seeds SEED..SEED+N-1, into one log")
    play.add_argument("--game-id", default=None)
    play.add_argument("--address", default=None, help="join this Ray cluster instead of starting one")
    play.add_argument("--fsync", action="store_true", help="fsync the log at game end")
    play.add_argument("--pack", action="store_true",
                      help="write each game as one zlib-packed frame, as tournaments do (readers unpack it)")
    play.set_defaults(func=_cmd_play)


def _replay_parsers(sub: Any) -> Any:
    replay = sub.add_parser("replay", help="verify or show a logged game")
    rsub = replay.add_subparsers(dest="replay_command", required=True, parser_class=_Parser)
    verify = rsub.add_parser("verify", help="check frames, actor outputs and state digests")
    verify.add_argument("log", help="a log file, or a tournament folder (every recorded game, or --game ID)")
    verify.add_argument("--game", default=None, help="game id inside a multi-game log or a tournament folder")
    verify.add_argument("--sample", type=int, default=None, metavar="N",
                        help="in a tournament folder: verify N games spread evenly over the game ids")
    verify.set_defaults(func=_cmd_verify)
    show = rsub.add_parser("show", help="print the game at a seq")
    show.add_argument("log", help="a log file, or a tournament folder with --game")
    show.add_argument("--at", type=int, default=None, help="seq to show (default: the end)")
    show.add_argument("--game", default=None)
    show.set_defaults(func=_cmd_show)
    return rsub


def _tournament_parsers(sub: Any) -> None:
    tour = sub.add_parser("tournament", help="run and report tournaments")
    tsub = tour.add_subparsers(dest="tournament_command", required=True, parser_class=_Parser)
    trun = tsub.add_parser("run", help="play every game of a spec not yet recorded in --out")
    trun.add_argument("spec", help="tournament spec (TOML)")
    trun.add_argument("--out", required=True, help="output folder (logs, results.duckdb)")
    trun.add_argument("--games", type=int, default=None, help="override the spec's number of games")
    trun.add_argument("--address", default=None, help="join this Ray cluster instead of starting one")
    trun.add_argument("--runners", type=int, default=None, help="runner actors (default: one per CPU)")
    trun.set_defaults(func=_cmd_tournament_run)
    trep = tsub.add_parser("report", help="statistics, head-to-head and ratings of a tournament folder")
    trep.add_argument("dir")
    trep.add_argument("--format", choices=("text", "json", "html"), default="text")
    trep.add_argument("--output", default=None, help="HTML file (default DIR/report.html)")
    trep.set_defaults(func=_cmd_tournament_report)


def _replay_more_parsers(rsub: Any) -> None:
    fork = rsub.add_parser("fork", help="replay a game to a point, then continue with other agents")
    fork.add_argument("log", help="a log file, or a tournament folder with --game")
    fork.add_argument("--at", type=int, required=True, help="fork after this seq (at the next decision)")
    fork.add_argument("--agents", required=True, help="the new lineup (one spec for all seats, or one per seat)")
    fork.add_argument("--out", required=True, help="log file for the forked game")
    fork.add_argument("--game", default=None)
    fork.set_defaults(func=_cmd_fork)
    trans = rsub.add_parser("transcript", help="the game's transcript: talk, deals kept or broken, trust and beliefs (JSON, text or a page with plots)")
    trans.add_argument("log", help="a log file, or a tournament folder with --game")
    trans.add_argument("--player", type=int, default=None, help="show this seat's trust and role certainties")
    trans.add_argument("--format", choices=("text", "json", "html"), default="text",
                       help="html: one self-contained page with plots of the game and of trust")
    trans.add_argument("--out", default=None, help="with --format html: write the page to this file")
    trans.add_argument("--game", default=None)
    trans.set_defaults(func=_cmd_transcript)


def _plugin_parsers(sub: Any) -> None:
    """`detente export FORMAT` for every exporter and `detente GAME ...` for every game's own
    commands, as the installed plugins declare them (reads the declarations, imports no game)."""
    from games.plugin import resolve
    from games.registry import game_names, get_plugin

    plugins = [get_plugin(name) for name in game_names()]
    formats: dict[str, list[str]] = {}
    for plugin in plugins:
        for fmt in plugin.exporters:
            formats.setdefault(fmt, []).append(plugin.name)
    export = sub.add_parser("export", help="export a logged game to another tool's format")
    esub = export.add_subparsers(dest="export_format", required=True, parser_class=_Parser)
    for fmt, games in sorted(formats.items()):
        ep = esub.add_parser(fmt, help=f"export a {' or '.join(games)} game")
        ep.add_argument("log", help="a log file, or a tournament folder with --game")
        ep.add_argument("--game", default=None)
        ep.set_defaults(func=_cmd_export, exporter_games=games)
    for plugin in plugins:
        if plugin.commands is not None:
            gp = sub.add_parser(plugin.name, help=f"{plugin.name}'s own commands")
            resolve(plugin.commands)(gp.add_subparsers(dest=f"{plugin.name}_command", required=True, parser_class=_Parser))


def main(argv: Sequence[str] | None = None) -> int:
    from actors.match import OptionsError
    from actors.registry import AgentSpecError
    from bus.log import LogError
    from games.registry import UnknownGame
    from ops.tournament.spec import SpecError
    from ops.tournament.store import StoreError
    from ops.logging import configure

    configure()
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except (UsageError, UnknownGame, AgentSpecError, OptionsError, LogError, SpecError, StoreError, ConnectionError) as exc:
        print(f"detente: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("detente: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
