"""The `detente` command line.

  detente play GAME --seed N --agents SPEC --log FILE [--runtime inline|ray-players|ray-modules]
  detente replay verify FILE [--game ID]
  detente replay show FILE [--at SEQ] [--game ID]
  detente tournament run SPEC --out DIR | report DIR | compact DIR
  detente games [NAME ...] | detente agents

Nothing is lost: every argument, spec, agent and option is checked before any output is opened;
logs, pages and exports are written to a temporary file in the target's folder and renamed over
the target only when complete, so a failed or interrupted command leaves the old file as it was.
Bad input gives one line on stderr and exit code 2, a failure (a log that does not verify, a full
disk) one line and exit code 1, never a traceback; a closed pipe (`| head`) ends quietly with 141,
as `git log | head` does.
"""

from __future__ import annotations

import argparse
import builtins
import errno
import json
import os
import secrets
import stat
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Iterator, Sequence

EXIT_USAGE = 2
EXIT_FAILED = 1
EXIT_PIPE = 141  # 128 + SIGPIPE: what a shell reports for `git log | head`
MAX_PLAY_GAMES = 1000  # games in one `play` log (a tournament is for more)
MAX_RUNNERS = 4096
# the bounds of ops.tournament.spec, repeated so that building the parser imports no spec code
# (a test checks they agree)
MAX_SEED = 2**63 - 1
MAX_GAMES = 10**9
MAX_SEATS = 64
_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS)  # write failures of the disk


class UsageError(Exception):
    """Bad input from the user: one line, exit 2."""


class _Exit(Exception):
    """argparse is done (help printed): return this status instead of raising SystemExit."""

    def __init__(self, status: int):
        self.status = status


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line instead of usage + error
        raise UsageError(f"{self.prog}: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> None:
        if message:
            sys.stderr.write(message)
        raise _Exit(status)

    def _print_message(self, message: str, file: Any = None) -> None:  # argparse drops write errors
        if message:
            (file or sys.stderr).write(message)

    def format_help(self) -> str:
        epilog = getattr(self, "lazy_epilog", None)
        if epilog is not None:  # computed only when help is asked for (it may import games)
            self.epilog, self.lazy_epilog = epilog(), None
        return super().format_help()


def _bounded(lo: int, hi: int):
    """An argparse type: an integer in lo..hi (its name makes argparse say "invalid int value")."""

    def int(text: str) -> Any:  # noqa: A001 - the name argparse prints
        value = builtins.int(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{text} is out of range ({lo}..{hi})")
        return value

    return int


def _text(limit: int = 200):
    """An argparse type: printable text of at most `limit` characters."""

    def text(value: str) -> str:
        if len(value) > limit or not value.isprintable() or _has_surrogates(value):
            raise argparse.ArgumentTypeError(f"expected printable UTF-8 text of at most {limit} characters")
        return value

    return text


def _path(value: str) -> str:
    """An argparse type: a path without NUL."""
    if "\0" in value or not value:
        raise argparse.ArgumentTypeError("not a usable path")
    return value


def _has_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _parse_options(game_name: str, texts: list[str]) -> dict[str, Any]:
    """`--option key=value` pairs: values read as JSON where they parse, except for options that
    take text (a name like `3.0` stays a name)."""
    from games.registry import get_game

    fields = get_game(game_name).options_model.model_fields
    options: dict[str, Any] = {}
    for text in texts:
        key, eq, value = text.partition("=")
        if not eq or not key:
            raise UsageError(f"malformed --option {text!r}: expected key=value")
        if key in options:
            raise UsageError(f"--option {key} is given twice")
        info = fields.get(key)
        options[key] = value if info is not None and _takes_text(info.annotation) else _json_or_text(value)
    return options


def _takes_text(annotation: Any) -> bool:
    import typing

    if annotation is str:
        return True
    args = typing.get_args(annotation)
    return typing.get_origin(annotation) is typing.Literal and all(isinstance(a, str) for a in args)


def _json_or_text(value: str) -> Any:
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        return value


# -- output files: complete or not at all -------------------------------------------------------


def _check_output(path: Path, flag: str) -> bool:
    """Check that `path` can be written before anything is done; True: replace it through a
    temporary file, False: write it in place (an existing device or pipe, such as /dev/null)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise UsageError(f"{flag} {path}: a part of that path is not a folder") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{flag} {path}: {getattr(exc, 'strerror', None) or exc}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise UsageError(f"{flag} {path} is a folder; name a file")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return False
    parent = Path(os.path.realpath(path)).parent
    if not parent.is_dir():
        raise UsageError(f"folder {path.parent} does not exist")
    if st is not None and not os.access(path, os.W_OK):
        raise UsageError(f"{flag} {path} is read-only")
    if not os.access(parent, os.W_OK):
        raise UsageError(f"{flag} {path}: cannot write in {parent} (permission denied)")
    return True


@contextmanager
def _output(path: str | Path, flag: str, fsync: bool = False) -> Iterator[BinaryIO]:
    """A binary file that replaces `path` only once the block has finished without an error."""
    from ops.tournament.store import ByteBudget, FaultyFile, injected_faults

    path = Path(path)
    if not _check_output(path, flag):  # a device or a pipe: written in place
        f = _open_or_usage(path, path, "wb")
        with _named_errors(path), _closing(f):
            yield f
            f.flush()
        return
    target = Path(os.path.realpath(path))  # a link to a log keeps pointing at the new log
    tmp = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
    f = _open_or_usage(tmp, path, "xb")
    faults = injected_faults()
    done = False
    try:
        with _named_errors(path, tmp), _closing(f):
            yield FaultyFile(f, ByteBudget(faults["log"])) if "log" in faults else f
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, target)
        done = True
    finally:
        if not done:
            tmp.unlink(missing_ok=True)


@contextmanager
def _named_errors(path: Path, tmp: Path | None = None) -> Iterator[None]:
    """A full disk (or the like) while writing names the file the user asked for."""
    try:
        yield
    except OSError as exc:
        if exc.errno in _FULL and exc.filename in (None, "", str(tmp)):
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise


@contextmanager
def _closing(f: BinaryIO) -> Iterator[None]:
    """Close `f` after the block; after a failure, quietly (its buffer may not fit on the disk)."""
    try:
        yield
    except BaseException:
        try:
            f.close()
        except OSError:
            pass
        raise
    f.close()


def _open_or_usage(path: Path, named: Path, mode: str) -> BinaryIO:
    try:
        return open(path, mode)
    except OSError as exc:
        raise UsageError(f"cannot write {named}: {exc.strerror}") from None


def _write_page(path: str, flag: str, text: str) -> None:
    with _output(path, flag) as f:
        f.write(text.encode("utf-8"))


# -- play ---------------------------------------------------------------------------------------


def _cmd_play(args: argparse.Namespace) -> int:
    from actors.match import make_header, play
    from bus.log import LogWriter, PackedLogWriter
    from ops.faults import fault_lines

    header_of, agents = _checked_lineup(args.game, args.option, args.agents, args.seed, args.games, args.game_id)
    path = Path(args.log)
    _check_output(path, "--log")  # before Ray is started
    placement = None
    if args.runtime != "inline":
        from actors.ray_placement import RayPlacement, ensure_ray

        print(f"starting Ray for --runtime {args.runtime} ..." if not args.address else f"joining Ray at {args.address} ...", flush=True)
        ensure_ray(address=args.address)
        placement = RayPlacement(args.runtime)  # hosts started once, reset for every game
    records = 0
    try:
        with _output(path, "--log", fsync=args.fsync) as f:
            writer = PackedLogWriter(f, fsync=args.fsync, method=args.pack) if args.pack else LogWriter(f, fsync=args.fsync)
            for i in range(args.games):
                header = header_of(i)
                writer.header(header)
                result = play(header, writer, runtime=args.runtime, placement=placement)
                writer.end_game()
                records += result.records
                end = result.end
                winners = ", ".join(f"p{w}" for w in end.winners) or "nobody"
                prefix = f"{header['game_id']}: " if args.games > 1 else ""
                print(f"{prefix}{end.summary}; winners: {winners}", flush=True)
                for line in fault_lines(result.header, result.seat_faults):  # the author's agent misbehaved
                    print(f"  {line}", flush=True)
    finally:
        if placement is not None:
            placement.close()
    size = path.stat().st_size if path.is_file() else 0
    print(f"log: {path} ({args.games} game{'s' * (args.games > 1)}, {records} records, {size} bytes)")
    return 0


def _checked_lineup(game_name: str, option_texts: list[str], agents_text: str, seed: int, games: int,
                    game_id: str | None):
    """Everything `play` needs, checked before any output: options, lineup, requirements, seeds,
    and that the headers encode. Returns (game index -> header, agent specs)."""
    from actors.match import make_header
    from actors.registry import parse_lineup
    from bus.codec import pack
    from games.registry import get_game
    from ops.tournament.spec import check_agents, check_options

    game = get_game(game_name)
    try:
        options = _parse_options(game_name, option_texts)
        opts = check_options(game_name, options)
        agents = parse_lineup(agents_text, game.num_players(opts))
    except RecursionError:
        raise UsageError("an option or agent spec is nested too deeply") from None
    check_agents(game_name, opts, agents)
    if seed + games - 1 > MAX_SEED:
        raise UsageError(f"--seed {seed} with --games {games} runs past the largest seed ({MAX_SEED})")

    def header_of(i: int) -> dict[str, Any]:
        gid = None if not game_id else game_id if i == 0 else f"{game_id}-{seed + i}"
        return make_header(game_name, seed + i, agents, options, game_id=gid)

    for i in sorted({0, games - 1}):
        try:
            pack(header_of(i))
        except (OverflowError, TypeError, ValueError) as exc:
            raise UsageError(f"the game's header cannot be logged: {exc}") from None
    return header_of, agents


def _load_game(path: str, game_id: str | None, every: bool = False):
    """A game from a log file, or through the index of a tournament folder (needs --game). A game
    id the file (or the game's segment) holds twice is a DuplicateGame naming every copy's offset:
    no copy is picked (`every`: any id held twice in the file, for commands that read them all)."""
    from bus.log import LogFile, duplicate_in, read_log

    if Path(path).is_dir():
        from ops.tournament.store import load_game

        if game_id is None:
            raise UsageError(f"{path} is a tournament folder: name a game with --game ID")
        found = load_game(path, game_id)
        if found is None:
            raise UsageError(f"{path}: no recorded game {game_id!r}")
        game, bad = found
        _no_copy_in_segment(path, game_id)
        return game, LogFile(games=[game], bad=bad)
    logfile = read_log(path)
    if not logfile.games:
        raise UsageError(f"{path}: no game in log" + (f" ({logfile.bad})" if logfile.bad else ""))
    twice = duplicate_in(Path(path).name, logfile.games,
                         None if every else game_id if game_id is not None else logfile.games[0].header.get("game_id"))
    if twice is not None:
        raise twice
    if game_id is None:
        return logfile.games[0], logfile
    for game in logfile.games:
        if game.header.get("game_id") == game_id:
            return game, logfile
    raise UsageError(f"{path}: no game {game_id!r}")


def _held_twice(path: str | Path, game_id: str | None = None) -> int:
    """Print a FAIL line for every game id (or `game_id`) the log or segment holds more than once,
    naming the offsets of its copies; how many there are."""
    from bus.log import DuplicateGame, LogError, duplicates, game_offsets

    try:
        placed, _ = game_offsets(path)
    except LogError:  # not a log at all: the reader proper says why, in one line
        return 0
    twice = duplicates(placed)
    named = [gid for gid in twice if game_id is None or gid == str(game_id)]
    for gid in named:
        print(f"FAIL: {DuplicateGame(Path(path).name, gid, twice[gid])}", file=sys.stderr)
    return len(named)


def _no_copy_in_segment(folder: str, game_id: str) -> None:
    """DuplicateGame if the segment the index names for `game_id` holds that game more than once."""
    from bus.log import DuplicateGame, duplicates, game_offsets
    from ops.tournament.store import Store

    with Store(folder, read_only=True) as store:
        where = store.locate(game_id)
    if where is not None:
        segment = Path(folder) / "logs" / where[0]
        twice = duplicates([p for p in game_offsets(segment)[0] if str(p[0]) == game_id])
        if twice:
            raise DuplicateGame(segment.name, game_id, twice[game_id])


def _cmd_verify(args: argparse.Namespace) -> int:
    from replay.verify import verify_game

    from bus.log import DuplicateGame

    if Path(args.log).is_dir() and args.game is None:
        return _verify_folder(args.log, args.sample)
    if not Path(args.log).is_dir() and _held_twice(args.log, args.game):
        return EXIT_FAILED
    try:
        game, logfile = _load_game(args.log, args.game)
    except DuplicateGame as exc:
        print(f"FAIL: {exc}", file=sys.stderr)
        return EXIT_FAILED
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
    from ops.tournament.store import STORE, Store
    from replay.verify import verify_game

    if sample is not None and sample < 1:
        raise UsageError("--sample must be at least 1")
    segments = sorted(Path(path).glob("*.dlog"))
    if segments and not (Path(path) / STORE).exists():
        return _verify_segments(path, segments, sample)  # e.g. `detente risk train`'s OUT.games/
    store = Store(path, read_only=True)
    try:
        where = store.db.execute('select game_id, segment, "offset" from games order by game_id').fetchall()
    finally:
        store.close()
    if not where:
        raise UsageError(f"{path}: no recorded games")
    where = _spread(where, sample)
    # a segment holding a game twice fails however its indexed copy verifies: the index picks none
    failures = sum(_held_twice(Path(path) / "logs" / s) for s in sorted({s for _, s, _ in where}))
    progress = Progress()
    for done, (gid, segment, offset) in enumerate(where, 1):
        try:
            game, bad = read_game_at(Path(path) / "logs" / segment, offset, game_id=gid)
            verdict = verify_game(game, bad)
            ok, message = verdict.ok, verdict.message
        except LogError as exc:
            ok, message = False, str(exc)
        if not ok:
            failures += 1
            print(f"FAIL: {gid}: {message}", file=sys.stderr)
        progress(done, len(where))
    return _verified(failures, len(where), "", sample)


def _spread(items: list, sample: int | None) -> list:
    """`sample` of `items` spread evenly over them (all of them without a sample)."""
    if sample is None or sample >= len(items):
        return items
    step = len(items) / sample
    return [items[int(i * step)] for i in range(sample)]


def _verified(failures: int, games: int, where: str, sample: int | None) -> int:
    """The closing line of a verified folder (and its exit code)."""
    if failures:
        print(f"{failures} of {games} games failed", file=sys.stderr)
        return EXIT_FAILED
    print(f"ok: {games} games reproduced{where}" + (f" (a sample of {sample})" if sample is not None else ""))
    return 0


def _verify_segments(path: str, segments: list[Path], sample: int | None) -> int:
    """Verify the games of a folder of log segments without a results store (all, or `sample`
    spread evenly over them in file order), with progress; a damaged segment fails its games."""
    from bus.log import read_log
    from ops.tournament.progress import Progress
    from replay.verify import verify_game

    found = []  # (segment, index of the game in it): counted first, each game read again when verified
    for segment in segments:  # (a folder may hold more than memory: no segment is kept meanwhile)
        games = len(read_log(segment).games)
        found += [(segment, i) for i in range(games)] if games else [(segment, -1)]
    found = _spread(found, sample)
    failures = sum(_held_twice(s) for s in sorted({s for s, _ in found}))  # a game held twice: named, failed
    progress, cache = Progress(), (None, None)
    for done, (segment, i) in enumerate(found, 1):
        if cache[0] != segment:
            cache = (segment, read_log(segment))
        logfile = cache[1]
        if i < 0:
            ok, name, message = False, segment.name, f"no game in segment ({logfile.bad})"
        else:
            game = logfile.games[i]
            bad = logfile.bad if i == len(logfile.games) - 1 else None
            verdict = verify_game(game, bad)
            ok, name, message = verdict.ok, f"{segment.name}: {game.header.get('game_id')}", verdict.message
        if not ok:
            failures += 1
            print(f"FAIL: {name}: {message}", file=sys.stderr)
        progress(done, len(found))
    return _verified(failures, len(found), f" in {len(segments)} segments", sample)


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

    spec = load_spec(args.spec, games=args.games)
    if args.answers_from:
        spec = spec.model_copy(update={"answers_from": str(args.answers_from)})
    if args.address:
        from actors.ray_placement import check_reachable

        check_reachable(args.address)  # before anything is written
    out = Path(args.out)
    _make_folder(out)
    try:
        summary = run_tournament(spec, out, runners=args.runners, address=args.address, on_progress=Progress())
    except KeyboardInterrupt:
        print("interrupted: games recorded so far are kept; rerun the same command to finish", file=sys.stderr)
        return 130
    print(
        f"{summary.recorded_before + summary.recorded_now:,}/{summary.total:,} games recorded in {out} "
        f"({summary.recorded_now:,} now, {summary.recorded_before:,} before; "
        f"{summary.runners} runners{f' on {summary.nodes} nodes' if summary.nodes > 1 else ''}, "
        f"{summary.restarts} restarts, {summary.seconds:.1f}s)"
    )
    for row in summary.failed[:10]:
        print(f"game {row['game_id']} crashed: {row['error']}", file=sys.stderr)
    return EXIT_FAILED if summary.failed else 0


def _make_folder(out: Path) -> None:
    """The output folder, made (with its parents) once the spec is known to be good."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot make the folder ({exc.strerror})") from None
    if not os.access(out, os.W_OK):
        raise UsageError(f"--out {out}: cannot write in it (permission denied)")


def _keep_ratings(folder: str) -> None:
    """Rate the games recorded since the last report into the store, a chunk at a time, where
    the folder can be written (otherwise the report rates them, and keeps nothing)."""
    from ops.tournament.ratings import update
    from ops.tournament.store import STORE, StorageError, StoreError

    path = Path(folder) / STORE
    if path.is_file() and os.access(path, os.W_OK) and os.access(folder, os.W_OK):
        try:
            update(folder)
        except (StoreError, StorageError):  # busy past the wait, or not writable after all: the report rates them
            pass


def _cmd_tournament_report(args: argparse.Namespace) -> int:
    from ops.tournament.report import build_report, format_text
    from ops.tournament.store import Store

    if args.output and args.format != "html":
        raise UsageError("--output is for --format html")
    target = Path(args.output or Path(args.dir) / "report.html")
    _keep_ratings(args.dir)
    store = Store(args.dir, read_only=True)
    if args.format == "html":
        _check_output(target, "--output")
    try:
        report = build_report(store)
    finally:
        store.close()
    if args.format == "json":
        print(json.dumps(_no_nan(report), indent=2))
    elif args.format == "html":
        from ops.tournament.html import format_html, write_game_pages

        _write_page(str(target), "--output", format_html(report, title=f"detente tournament: {args.dir}"))
        pages = write_game_pages(args.dir, report, str(target.parent))
        print(f"wrote {target} (and the pages of {pages} games under {target.parent / 'pages'})")
    else:
        print(format_text(report))
    return 0


def _cmd_tournament_compact(args: argparse.Namespace) -> int:
    from ops.tournament.store import compact

    done = compact(args.dir, segment_mib=args.segment_mib)
    saved = done.bytes_before - done.bytes_after
    print(
        f"compacted {args.dir}: {done.games:,} recorded games, {done.moved:,} moved; "
        f"{done.rewritten} segments with stale bytes rewritten into {done.new_segments}, "
        f"{done.removed} without a recorded game removed; {done.bytes_before:,} -> {done.bytes_after:,} bytes "
        f"({saved:,} reclaimed)"
    )
    if args.verify:
        return _verify_folder(args.dir, None)
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
    from actors.registry import parse_lineup
    from bus.log import LogWriter
    from replay.fork import ForkError, fork_header, play_fork

    game, _ = _load_game(args.log, args.game)
    if not game.complete:
        raise UsageError(f"{args.log}: the game is incomplete (no game_end record)")
    try:
        agents = parse_lineup(args.agents, len(game.header["agents"]))
    except RecursionError:
        raise UsageError("an agent spec is nested too deeply") from None
    _check_fork_agents(game.header, agents)
    try:
        header = fork_header(game, args.at, agents)
    except ForkError as exc:
        raise UsageError(str(exc)) from None
    path = Path(args.out)
    with _output(path, "--out") as f:
        writer = LogWriter(f)
        writer.header(header)
        result = play_fork(game, header, writer)
        writer.end_game()
    print(f"forked {header['fork']['from']} at seq {header['fork']['at']}: {result.end.summary}")
    print(f"log: {path} ({result.records} records)")
    return 0


def _cmd_diff(args: argparse.Namespace) -> int:
    from replay.diff import DiffError, diff, diff_text

    a, _ = _load_game(args.a, args.game)
    b, _ = _load_game(args.b, args.game_b if args.game_b is not None else args.game)
    try:
        result = diff(a, b, limit=args.limit)
    except DiffError as exc:
        raise UsageError(str(exc)) from None
    if args.format == "json":
        print(json.dumps(_no_nan(result.to_json()), indent=2, ensure_ascii=False))
    else:
        print(diff_text(result))
    return 0


def _check_fork_agents(header: dict[str, Any], agents: list[Any]) -> None:
    """The fork's agents, checked as `play` checks them, against the logged game's options."""
    from games.registry import get_game
    from ops.tournament.spec import check_agents

    name = header.get("game")
    try:
        options = get_game(name).options(header.get("options") or {})
    except (ValueError, TypeError) as exc:
        raise UsageError(f"the logged game's options do not validate: {str(exc).splitlines()[0]}") from None
    check_agents(name, options, agents)


def _cmd_transcript(args: argparse.Namespace) -> int:
    from replay.transcript import TranscriptError, transcript

    if args.out and args.format != "html":
        raise UsageError("--out is for --format html")
    if args.out:
        _check_output(Path(args.out), "--out")
    game, _ = _load_game(args.log, args.game)
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
            _write_page(args.out, "--out", page)
            print(f"wrote {args.out}")
        else:
            print(page)
    else:
        print(json.dumps(data, indent=2) if args.format == "json" else text)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from games.registry import get_plugin

    if args.out:
        _check_output(Path(args.out), "--out")
    game, _ = _load_game(args.log, args.game)
    exporter = get_plugin(game.header.get("game")).exporters.get(args.export_format)
    if exporter is None:
        raise UsageError(f"{args.export_format} exports {', '.join(args.exporter_games)} games, not {game.header.get('game')!r}")
    from replay.guard import export

    text = export(game, args.export_format)  # the plugin's exporter behind the guard: a fault is one line, exit 2
    if args.out:
        _write_page(args.out, "--out", text)
        print(f"wrote {args.out}")
    else:
        print(text)
    return 0


def _cmd_games(args: argparse.Namespace) -> int:
    from games.registry import game_names, get_plugin

    names = args.names or (game_names() if args.options else [])
    for name in names:
        get_plugin(name)  # an unknown name: one line, exit 2
    if not names:  # the listing imports no game: only the declarations are read
        for name in game_names():
            doc = get_plugin(name).doc.strip()
            print(f"{name}: {doc.splitlines()[0] if doc else ''}")
        print("(each game's options, defaults and bounds: detente games NAME, or detente games --options)")
        return 0
    print(_options_text(names), end="")
    return 0


def _options_text(names: list[str]) -> str:
    """Each game's options with defaults and bounds, as `--option` takes them (imports the rules)."""
    from games.registry import get_plugin
    from ops.tournament.spec import option_lines

    parts = []
    for name in names:
        doc = get_plugin(name).doc.strip()
        lines = [f"{name}: {doc.splitlines()[0] if doc else ''}"]
        lines += [f"  {line}" for line in option_lines(name)] or ["  (no options)"]
        parts.append("\n".join(lines) + "\n")
    return "".join(parts) + f"(every game: at most {MAX_SEATS} seats)\n"


def _cmd_agents(args: argparse.Namespace) -> int:
    from actors.registry import load_all_agents

    for name, agent in sorted(load_all_agents().items()):
        plays = "any game" if agent.games is None else ", ".join(sorted(agent.games))
        needs = "".join(
            f"; in {game} needs " + ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(opts.items()))
            for game, opts in sorted(getattr(agent, "requires", {}).items()))
        print(f"{name}: {agent.doc} ({plays}{needs})")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="detente", description="Agents that negotiate, cooperate and betray.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _play_parser(sub)
    rsub = _replay_parsers(sub)
    _tournament_parsers(sub)
    from ops.tune import cli as tune_cli  # `detente tune`: options searched by tournaments on Ray Tune
    tune_cli.add_parser(sub)
    _replay_more_parsers(rsub)
    _plugin_parsers(sub)
    games = sub.add_parser("games", help="list games; with names (or --options): their options, defaults and bounds")
    games.add_argument("names", nargs="*", metavar="GAME", help="show these games' options")
    games.add_argument("--options", action="store_true", help="show every game's options")
    games.set_defaults(func=_cmd_games)
    sub.add_parser("agents", help="list agents").set_defaults(func=_cmd_agents)
    return parser


def _play_parser(sub: Any) -> None:
    from actors.placement import RUNTIMES
    play = sub.add_parser(
        "play", help="play one game and write its log", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=f"Play games into one log. Seeds 0..2**63-1, at most {MAX_PLAY_GAMES} games, at most "
                    f"{MAX_SEATS} seats; every option and agent is checked before the log is opened, and the "
                    "log replaces FILE only once complete.")
    play.lazy_epilog = lambda: "options of each game (--option KEY=VALUE; default, kind and bounds):\n" + _options_text(_all_games())
    play.add_argument("game")
    play.add_argument("--seed", type=_bounded(0, MAX_SEED), required=True, help="0..2**63-1")
    play.add_argument("--agents", required=True, help="one spec for all seats or one per seat, comma-separated")
    play.add_argument("--log", type=_path, required=True, help="log file to write (replaced only when complete)")
    play.add_argument("--runtime", choices=RUNTIMES, default="inline")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option (repeatable; listed below)")
    play.add_argument("--games", type=_bounded(1, MAX_PLAY_GAMES), default=1,
                      help=f"play N games (1..{MAX_PLAY_GAMES}), seeds SEED..SEED+N-1, into one log")
    play.add_argument("--game-id", type=_text(), default=None)
    play.add_argument("--address", type=_text(), default=None, help="join this Ray cluster instead of starting one")
    play.add_argument("--fsync", action="store_true", help="fsync the log at game end")
    play.add_argument("--pack", nargs="?", const="zstd", default=None, choices=("zstd", "zlib", "columns"),
                      help="write each game as one packed frame, as tournaments do (readers unpack it): "
                           "zstd (the default), zlib, or columns (smaller, more CPU; see the docs' event log page)")
    play.set_defaults(func=_cmd_play)


def _all_games() -> list[str]:
    from games.registry import game_names

    return game_names()


def _replay_parsers(sub: Any) -> Any:
    replay = sub.add_parser("replay", help="verify or show a logged game")
    rsub = replay.add_subparsers(dest="replay_command", required=True, parser_class=_Parser)
    verify = rsub.add_parser("verify", help="check frames, actor outputs and state digests")
    verify.add_argument("log", type=_path, help="a log file, or a tournament folder (every recorded game, or --game ID)")
    verify.add_argument("--game", type=_text(), default=None, help="game id inside a multi-game log or a tournament folder")
    verify.add_argument("--sample", type=int, default=None, metavar="N",
                        help="in a tournament folder: verify N games spread evenly over the game ids")
    verify.set_defaults(func=_cmd_verify)
    show = rsub.add_parser("show", help="print the game at a seq")
    show.add_argument("log", type=_path, help="a log file, or a tournament folder with --game")
    show.add_argument("--at", type=_bounded(0, 2**63 - 1), default=None, help="seq to show (default: the end)")
    show.add_argument("--game", type=_text(), default=None)
    show.set_defaults(func=_cmd_show)
    return rsub


def _tournament_parsers(sub: Any) -> None:
    tour = sub.add_parser("tournament", help="run, report and compact tournaments")
    tsub = tour.add_subparsers(dest="tournament_command", required=True, parser_class=_Parser)
    trun = tsub.add_parser("run", help="play every game of a spec not yet recorded in --out",
                           description="A spec is at most 1 MiB of UTF-8 TOML with seed 0..2**63-1, games "
                                       f"1..{MAX_GAMES:,}, at most {MAX_SEATS} seats, batch 1..10,000 and "
                                       "segment_mib 1..4,096 (numbers as numbers); it is checked in full before "
                                       "--out is made. One driver per folder: a second one on the same --out "
                                       "exits 2 at once, naming the first (DIR/driver.lock). A full disk stops "
                                       "the run with one line; rerun the same command to finish.")
    trun.add_argument("spec", type=_path, help="tournament spec (TOML, at most 1 MiB; bounds in its docs)")
    trun.add_argument("--out", type=_path, required=True, help="output folder (logs, results.duckdb)")
    trun.add_argument("--games", type=_bounded(1, MAX_GAMES), default=None, help=f"override the spec's number of games (1..{MAX_GAMES:,})")
    trun.add_argument("--address", type=_text(), default=None, help="join this Ray cluster instead of starting one")
    trun.add_argument("--runners", type=_bounded(1, MAX_RUNNERS), default=None, help=f"runner actors (1..{MAX_RUNNERS}; default: one per CPU)")
    trun.add_argument("--answers-from", type=_path, default=None, metavar="DIR",
                      help="an earlier run's folder of this spec: its games' recorded model answers are taken instead of calling")
    trun.set_defaults(func=_cmd_tournament_run)
    trep = tsub.add_parser("report", help="statistics, head-to-head and ratings of a tournament folder")
    trep.add_argument("dir", type=_path)
    trep.add_argument("--format", choices=("text", "json", "html"), default="text")
    trep.add_argument("--output", type=_path, default=None, help="HTML file (default DIR/report.html)")
    trep.set_defaults(func=_cmd_tournament_report)
    tcom = tsub.add_parser("compact", help="reclaim segment bytes no recorded game uses (killed runners' leftovers)",
                           description="Copies the recorded games of segments with stale bytes into new segments "
                                       "byte for byte, points the index at them in one transaction, then removes the "
                                       "old segments. Takes the folder lock: not while a driver runs.")
    tcom.add_argument("dir", type=_path)
    tcom.add_argument("--segment-mib", type=_bounded(1, 4096), default=None, help="size of the new segments (default: the spec's)")
    tcom.add_argument("--verify", action="store_true", help="then verify every recorded game")
    tcom.set_defaults(func=_cmd_tournament_compact)


def _replay_more_parsers(rsub: Any) -> None:
    fork = rsub.add_parser("fork", help="replay a game to a point, then continue with other agents")
    fork.add_argument("log", type=_path, help="a log file, or a tournament folder with --game")
    fork.add_argument("--at", type=_bounded(0, 2**63 - 1), required=True, help="fork after this seq (at the next decision)")
    fork.add_argument("--agents", required=True, help="the new lineup (one spec for all seats, or one per seat)")
    fork.add_argument("--out", type=_path, required=True, help="log file for the forked game (replaced only when complete)")
    fork.add_argument("--game", type=_text(), default=None)
    fork.set_defaults(func=_cmd_fork)
    dif = rsub.add_parser("diff", help="where two logs of one game part: the first differing seq, each seat's moves and words after it, both outcomes")
    dif.add_argument("a", type=_path, help="a log file, or a tournament folder with --game")
    dif.add_argument("b", type=_path, help="another log of the same game (a fork, say)")
    dif.add_argument("--game", type=_text(), default=None, help="game id in A (and in B, unless --game-b)")
    dif.add_argument("--game-b", type=_text(), default=None, help="game id in B")
    dif.add_argument("--limit", type=_bounded(1, 10**6), default=20, help="lines per seat and log (default 20)")
    dif.add_argument("--format", choices=("text", "json"), default="text")
    dif.set_defaults(func=_cmd_diff)
    trans = rsub.add_parser("transcript", help="the game's transcript: talk, deals kept or broken, trust and beliefs (JSON, text or a page with plots)")
    trans.add_argument("log", type=_path, help="a log file, or a tournament folder with --game")
    trans.add_argument("--player", type=_bounded(0, 10**6), default=None, help="show this seat's trust and role certainties")
    trans.add_argument("--format", choices=("text", "json", "html"), default="text",
                       help="html: one self-contained page with plots of the game and of trust")
    trans.add_argument("--out", type=_path, default=None, help="with --format html: write the page to this file")
    trans.add_argument("--game", type=_text(), default=None)
    trans.set_defaults(func=_cmd_transcript)
    from ops.debugger import cli as debugger  # serve and page: the replay debugger
    debugger.add_parsers(rsub)


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
        ep.add_argument("log", type=_path, help="a log file, or a tournament folder with --game")
        ep.add_argument("--game", type=_text(), default=None)
        ep.add_argument("--out", type=_path, default=None, help="write to this file (replaced only when complete) instead of stdout")
        ep.set_defaults(func=_cmd_export, exporter_games=games)
    for plugin in plugins:
        if plugin.commands is not None:
            gp = sub.add_parser(plugin.name, help=f"{plugin.name}'s own commands")
            resolve(plugin.commands)(gp.add_subparsers(dest=f"{plugin.name}_command", required=True, parser_class=_Parser))


# Errors that are bad input (exit 2), by module and class name: looked up only in modules already
# imported (an exception of a module never imported cannot have been raised), so that a quick
# command imports nothing it does not need.
_USAGE_ERRORS = (("actors.match", "OptionsError"), ("actors.registry", "AgentSpecError"), ("bus.log", "LogError"),
                 ("games.plugin", "PluginError"), ("games.registry", "UnknownGame"), ("ops.tournament.spec", "SpecError"),
                 ("ops.tournament.store", "StoreError"))


def _is(exc: BaseException, names: tuple[tuple[str, str], ...]) -> bool:
    return any(isinstance(exc, getattr(sys.modules[m], n)) for m, n in names if m in sys.modules and hasattr(sys.modules[m], n))


def main(argv: Sequence[str] | None = None) -> int:
    from ops.logging import configure

    configure()
    _tolerant(sys.stdout)
    try:
        try:
            args = build_parser().parse_args(argv)
            code = args.func(args)
        except _Exit as exc:  # --help
            code = exc.status
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return code
    except BrokenPipeError:  # output piped into `head` and the like: quiet, as git is
        return _closed_pipe()
    except KeyboardInterrupt:
        return _fail("interrupted", 130, prefix="detente: ")
    except Exception as exc:
        if isinstance(exc, (UsageError, ConnectionError)) or _is(exc, _USAGE_ERRORS):
            return _fail(str(exc), EXIT_USAGE)
        if _is(exc, (("ops.tournament.store", "StorageError"),)):
            return _fail(f"{exc}; what was recorded is kept: free space and rerun the same command", EXIT_FAILED)
        if isinstance(exc, OSError):  # a full disk, a vanished file: one line
            where = f"{exc.filename}: " if exc.filename else ""
            return _fail(f"{where}{exc.strerror or exc}", EXIT_FAILED)
        raise


def _fail(message: str, code: int, prefix: str = "detente: error: ") -> int:
    try:
        print(prefix + " ".join(message.split("\n")), file=sys.stderr)
    except (OSError, ValueError):  # stderr closed too
        pass
    return code


def _tolerant(stream: Any) -> None:
    """Text that is not UTF-8 (a path given as raw bytes) is printed escaped, not raised."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="backslashreplace")
        except (ValueError, OSError):
            pass


def _closed_pipe() -> int:
    """Point stdout at /dev/null so that the interpreter's last flush cannot complain either."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # not a real file (captured in tests)
        pass
    return EXIT_PIPE


if __name__ == "__main__":
    sys.exit(main())
