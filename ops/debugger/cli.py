"""`detente replay serve` and `detente replay page`: the debugger's commands (ops/cli.py calls
`add_parsers` from its replay group). Importing this module imports no game and no server."""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import Any

from ops.files import write_text

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is not a port (0..65535)")
    return value


def _seat(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 10**6:
        raise argparse.ArgumentTypeError(f"{text} is out of range (0..1000000)")
    return value


def _path(text: str) -> str:
    if not text or "\0" in text:
        raise argparse.ArgumentTypeError("not a usable path")
    return text


def _name(text: str) -> str:
    if len(text) > 200 or not text.isprintable():
        raise argparse.ArgumentTypeError("expected printable text of at most 200 characters")
    return text


def add_parsers(rsub: Any) -> None:
    """Add `serve` and `page` to the `replay` command group."""
    serve = rsub.add_parser("serve", help="step through logged games in the browser (a local web app)",
                            description="Serve the replay debugger for one log, a folder of logs or a tournament "
                                        "folder. Bound to 127.0.0.1 unless --host says otherwise; forks need the "
                                        "token printed with the URL and are written under --out only.")
    serve.add_argument("log", type=_path, metavar="LOG|DIR", help="a log file, a folder of logs or a tournament folder")
    serve.add_argument("--port", type=_port, default=8000, help="port (0: any free one); default 8000")
    serve.add_argument("--host", type=_name, default="127.0.0.1", help="address to listen on; default 127.0.0.1")
    serve.add_argument("--with", dest="more", type=_path, action="append", default=[], metavar="LOG",
                       help="another log file to serve beside it (repeatable): the original of a fork made with "
                            "`replay fork`, say, so that the fork opens beside it")
    serve.add_argument("--out", type=_path, default="debugger-out",
                       help="folder the server writes forks to (nowhere else); default ./debugger-out")
    serve.set_defaults(func=cmd_serve)
    page = rsub.add_parser("page", help="write the debugger for one game as one self-contained HTML file",
                           description="The served viewer for one game as a single file: no network, one view "
                                       "(omniscient, or --player N's point of view only).")
    page.add_argument("log", type=_path, help="a log file, or a tournament folder with --game")
    page.add_argument("--out", type=_path, required=True, help="the HTML file to write (replaced only when complete)")
    page.add_argument("--player", type=_seat, default=None, help="embed only this seat's point of view")
    page.add_argument("--game", type=_name, default=None, help="game id inside a multi-game log or a tournament folder")
    page.set_defaults(func=cmd_page)


def _usage(message: str) -> Exception:
    from ops.cli import UsageError

    return UsageError(message)


def _open(path: str) -> Any:
    from ops.debugger.source import SourceError, open_source

    try:
        return open_source(path)
    except SourceError as exc:
        raise _usage(str(exc)) from None


def cmd_serve(args: argparse.Namespace) -> int:
    from ops.debugger.server import serve

    from ops.debugger.source import SourceError

    source = _open(args.log)
    for more in args.more:
        if not Path(more).is_file():
            raise _usage(f"--with {more}: no such log file")
        try:
            source.add_logs(Path(more))
        except SourceError as exc:
            raise _usage(f"--with {exc}") from None
    out = Path(args.out).resolve()
    if out.exists() and not out.is_dir():
        raise _usage(f"--out {args.out} exists and is not a folder")

    def ready(server: Any) -> None:
        print(f"detente replay debugger: {source.kind} {args.log}")
        print(f"open {server.url}?token={server.token}")
        print(f"forks are written under {out}; the token above is needed to make one")
        if args.host not in LOOPBACK:
            print(f"warning: listening on {args.host}, not only on this machine", file=sys.stderr)
        sys.stdout.flush()
        first = source.first_game()
        if source.kind == "log" and first is not None:  # index the log's first game while the browser starts
            threading.Thread(target=_warm, args=(source, first), daemon=True).start()

    try:
        serve(source, args.host, args.port, out, on_ready=ready)
    except OSError as exc:
        raise _usage(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:
        print("stopped")
    return 0


def _warm(source: Any, game_id: str) -> None:
    from ops.debugger.game import DebugError

    try:
        source.game(game_id)
    except DebugError:
        pass  # the browser will be told when it asks


def cmd_page(args: argparse.Namespace) -> int:
    from ops.debugger.game import DebugError
    from ops.debugger.page import export_page

    target = Path(args.out)
    if target.is_dir():
        raise _usage(f"--out {args.out} is a folder: name the HTML file to write")
    if not target.parent.is_dir():
        raise _usage(f"--out {args.out}: no folder {target.parent}")
    source = _open(args.log)
    game_id = args.game or source.first_game()
    if game_id is None:
        raise _usage(f"{args.log}: no game to show")
    if args.game is None and source.kind == "tournament":
        raise _usage(f"{args.log} is a tournament folder: name a game with --game ID")
    try:
        game = source.game(game_id)
        text = export_page(game, args.player)
    except DebugError as exc:
        raise _usage(str(exc)) from None
    write_text(target, text)
    view = "omniscient view" if args.player is None else f"player {args.player}'s view"
    print(f"wrote {args.out} ({game.game} game {game.id}, {view}, {len(text) // 1024} KiB)")
    return 0
