"""TD self-play training of the seed's network, as the seed describes it, in batches for workers.

"In each game, the neural networks for every player are initialized with the weights carried
over from the previous game. At the conclusion of a game, the winner's neural network is saved
and used as the basis for the next game" (seed). Every player's network learns during the game
by TD(lambda) (network.Learner) from the board at the start of each of its turns, towards 1 when
it wins and 0 when it is eliminated; a game stopped by the turn cap gives each survivor its
share of the territories (LearnParams.draw), and the survivor with the most territories (then
the lowest seat; ours) passes its network on. Ours, the default (LearnParams.passed_on="all"):
the mean of every player's change passes on instead, as the seed's scheme learns a value near 1
for every board (it keeps only the learning of boards that ended in a win).

Batches (ours, so games can be played side by side): games go in batches of `LearnParams.batch`
(game g in batch g // batch); every game of a batch starts from the batch's network, and the next
batch starts from that network plus, for each game of the batch in game order, the change the
game's passed-on network made to it. Weights are integers, so that sum is exact and the same
however the games were shared out among workers: 1, 2 or K workers give the same weights. With
batch 1 this is the seed's scheme, game by game.

Deterministic: game g's dice come from "risk-train/<seed>/<g>", the first network from `seed`.
`run` writes, after every batch, `last.json` (replaced whole) into OUT.checkpoints/, and every
`every` games a kept checkpoint `games-NNNNNN.json` (network JSON with the game count in its
metadata); a run resumed from either ends with the same weights as an uninterrupted run.

Logged (the default): each game is played through the stack (inline placement: referee, bus,
`td` agents with `net=given;learn=true`, the batch's network carried whole in every seat's
options with its sha256) and written as a regular detente log, so `detente replay verify`
re-runs the learners and reproduces every choice and roll; the header's `chance_seed` names the
game's dice, the same stream as unlogged play. A batch's games go, packed as tournaments pack
them and in game order, into one segment OUT.games/games-NNNNNN.dlog (NNNNNN: the batch's first
game), written whole before its checkpoint, so a run killed and resumed neither loses nor
duplicates a game's log, and 1, 2 or K workers write the same bytes. Unlogged (`log=False`):
played straight on the rules (actors.risk.direct), the same decisions and weights, ~2.6x faster
(ops/plugins/risk/trainbench.py). The header's `env` (bus.environment) is the machine's that
played the game: workers on one machine write the same bytes.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import time
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from actors.address import office_address
from actors.lineup import build_actors
from actors.match import make_header
from actors.match import play as play_match
from actors.placement import InlinePlacement
from actors.registry import AgentSpec
from actors.risk.board import Board
from actors.risk.direct import play
from actors.risk.network import Learner, Net, net_from_json, random_net
from actors.risk.params import LearnParams, TDParams
from actors.risk.td import suggest
from bus.codec import pack
from bus.log import MAGIC, MAX_FRAME, PACKED, LogWriter, frame
from bus.messages import REFEREE

# a game's passed-on network, what happened, and its log (frames without the file's magic; None: not logged)
Result = tuple[Net, dict[str, Any], bytes | None]
Progress = Callable[[int, Net, list[Result]], None]  # (games done, network, the batch's results)
LAST = "last.json"  # the checkpoint after the latest batch
PACK_LEVEL = 1  # zlib level of a packed game (as tournaments pack theirs: bus.log.PackedLogWriter)


def chance_seed(seed: int, g: int) -> str:
    """The dice of training game `g` (logged in its header: bus.header's chance_seed)."""
    return f"risk-train/{seed}/{g}"


def players_of(g: int, learn: LearnParams) -> int:
    return learn.players[g % len(learn.players)]


def train_game(net: Net, g: int, seed: int, learn: LearnParams, params: TDParams, log: bool = False) -> Result:
    """Play training game `g` from `net`; the network passed on, what happened, and (`log`) its log."""
    if log:
        return logged_game(net, g, seed, learn, params)
    n = players_of(g, learn)
    learners = [Learner(net, learn.alpha, learn.lam, misupdate=learn.update == "misupdate") for _ in range(n)]
    seen_turn = [-1] * n
    alive = [True] * n

    def policy(seat: int):
        def act(obs: dict[str, Any], legal: list[str]) -> str:
            return suggest(Board(obs), legal, learners[seat], params)[0]
        return act

    def watch(state: Any, seat: int, obs: dict[str, Any]) -> None:
        for s, a in enumerate(obs["alive"]):
            if alive[s] and not a:
                alive[s] = False
                learners[s].end(learn.loss)
        if obs["phase"] == "reinforce" and obs["turn"] != seen_turn[seat] and obs["turn_player"] == seat:
            seen_turn[seat] = obs["turn"]
            learners[seat].see([o == seat for o in obs["owner"]])

    options = {"players": n, "max_rounds": learn.max_rounds}
    state, outcome = play([policy(s) for s in range(n)], options, chance_seed(seed, g), watch)
    return (*_finish(net, g, learners, state.observation(0), outcome, state.digest(), learn), None)


def game_header(net: Net, g: int, seed: int, learn: LearnParams, params: TDParams) -> dict[str, Any]:
    """The log header of training game `g`: every seat `td` learning from `net`, given whole."""
    data = net.to_json()
    options = {"net": "given", "weights": {"w1": data["w1"], "w2": data["w2"], "sha256": net.digest()},
               "learn": True, "alpha": learn.alpha, "lam": learn.lam, "update": learn.update,
               "params": params.model_dump(mode="json")}
    n = players_of(g, learn)
    header = make_header("risk", seed, [AgentSpec(name="td", options=options)] * n,
                         {"players": n, "max_rounds": learn.max_rounds}, game_id=f"risk-train-{seed}-{g:06d}")
    header["chance_seed"] = chance_seed(seed, g)
    return header


def logged_game(net: Net, g: int, seed: int, learn: LearnParams, params: TDParams) -> Result:
    """Training game `g` through the stack (inline), logged; the same network as `train_game`'s."""
    header = game_header(net, g, seed, learn, params)
    actors = build_actors(header)
    buf = io.BytesIO()
    writer = LogWriter(buf, write_magic=False)
    writer.header(header)
    result = play_match(header, writer, placement=InlinePlacement(actors))
    if result.errors:
        raise RuntimeError(f"training game {g}: {result.errors} error events (an agent failed; see its log)")
    n = len(header["agents"])
    learners = [actors[office_address(s, "so")].learner for s in range(n)]
    state = actors[REFEREE].state
    done = _finish(net, g, learners, state.observation(0), state.outcome(), state.digest(), learn)
    return (*done, packed(buf.getvalue()))


def packed(frames: bytes) -> bytes:
    """One game's frames as one packed frame (bus.log.PackedLogWriter's bytes), or as they are if
    that frame would be over what readers take (as ops.tournament.runner's segments do)."""
    out = frame(pack({"packed": PACKED, "data": zlib.compress(frames, PACK_LEVEL)}))
    return out if len(out) <= MAX_FRAME else frames


def _finish(net: Net, g: int, learners: list[Any], final: dict[str, Any], outcome: Any, digest: str,
            learn: LearnParams) -> tuple[Net, dict[str, Any]]:
    """Every learner's last step (a learner ends once: an eliminated one already has), and what passes on."""
    n = len(learners)
    survivors = [s for s in range(n) if final["alive"][s]]
    for s in range(n):
        if s in outcome.winners:
            learners[s].end(1.0)
        elif s in survivors and not outcome.winners:
            share = final["owner"].count(s) / len(final["owner"])
            learners[s].end(share if learn.draw == "share" else 1.0 / len(survivors))
        else:
            learners[s].end(learn.loss)
    if outcome.winners:
        best = outcome.winners[0]
    else:
        best = min(survivors, key=lambda s: (-final["owner"].count(s), s))
    info = {"game": g, "players": n, "winner": outcome.winners[0] if outcome.winners else None,
            "rounds": outcome.extra["rounds"], "passed_on": best, "digest": digest}
    if learn.passed_on == "all":
        return mean_change(net, [learner.net() for learner in learners]), info
    return learners[best].net(), info


def mean_change(base: Net, nets: Sequence[Net]) -> Net:
    """`base` plus the mean of the nets' changes to it, each weight rounded half up (exact integers)."""
    k = len(nets)

    def one(b: int, col: tuple[int, ...]) -> int:
        return b + (2 * (sum(col) - k * b) + k) // (2 * k)

    w1 = tuple(tuple(one(b, col) for b, col in zip(base.w1[j], zip(*(n.w1[j] for n in nets))))
               for j in range(len(base.w1)))
    return Net(w1, tuple(one(b, col) for b, col in zip(base.w2, zip(*(n.w2 for n in nets)))))


def merge(base: Net, passed_on: Sequence[Net]) -> Net:
    """`base` plus each passed-on network's change to it (exact: integers, so in any order)."""
    k = len(passed_on)
    w1 = tuple(tuple(sum(col) - (k - 1) * b for b, col in zip(base.w1[j], zip(*(n.w1[j] for n in passed_on))))
               for j in range(len(base.w1)))
    w2 = tuple(sum(col) - (k - 1) * b for b, col in zip(base.w2, zip(*(n.w2 for n in passed_on))))
    return Net(w1, w2)


# -- who plays a batch's games -----------------------------------------------------------------

class Workers(Protocol):
    """Plays games from one network; results in the order of `games`, wherever they were played
    (with their logs if `log`)."""

    log: bool

    def play(self, net: Net, games: list[int]) -> list[Result]: ...

    def close(self) -> None: ...


class InProcess:
    """Every game here, one after the other (one worker)."""

    def __init__(self, seed: int, learn: LearnParams, params: TDParams, log: bool = False):
        self.seed, self.learn, self.params, self.log = seed, learn, params, log

    def play(self, net: Net, games: list[int]) -> list[Result]:
        return [train_game(net, g, self.seed, self.learn, self.params, self.log) for g in games]

    def close(self) -> None:
        pass


Plain = tuple[dict[str, Any], dict[str, Any], bytes | None]  # a Result with its network as JSON


def play_plain(net: dict[str, Any], g: int, seed: int, learn: dict[str, Any], params: dict[str, Any],
               log: bool = False) -> Plain:
    """`train_game` on plain data (JSON-ready in, bytes for the log): what a worker process or Ray actor runs."""
    out, info, data = train_game(net_from_json(net), g, seed, LearnParams(**learn), TDParams(**params), log)
    return out.to_json(), info, data


def from_plain(result: Plain) -> Result:
    n, info, data = result
    return net_from_json(n), info, data


def _play_task(args: tuple[Any, ...]) -> Plain:
    return play_plain(*args)


class Processes:
    """Games shared out among `workers` local processes (started fresh: the `spawn` method)."""

    def __init__(self, workers: int, seed: int, learn: LearnParams, params: TDParams, log: bool = False):
        self.seed, self.learn, self.params = seed, learn.model_dump(mode="json"), params.model_dump(mode="json")
        self.log = log
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

    def play(self, net: Net, games: list[int]) -> list[Result]:
        data = net.to_json()
        tasks = [(data, g, self.seed, self.learn, self.params, self.log) for g in games]
        return [from_plain(r) for r in self.pool.map(_play_task, tasks)]

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


# -- training ------------------------------------------------------------------------------------

def train(games: int, seed: int, learn: LearnParams, params: TDParams, start: Net | None = None,
          first: int = 0, progress: Progress | None = None, workers: Workers | None = None) -> Net:
    """Games first .. games - 1 from `start` (default: the random network of `seed`), batch by batch."""
    if first % learn.batch:
        raise ValueError(f"a run resumes at a whole batch ({learn.batch} games), not after game {first}")
    net = random_net(seed) if start is None else start
    player = workers or InProcess(seed, learn, params)
    for b in range(first, games, learn.batch):
        results = player.play(net, list(range(b, min(b + learn.batch, games))))
        net = merge(net, [r[0] for r in results])
        if progress is not None:
            progress(b + len(results), net, results)
    return net


def td_policy(net: Net, params: TDParams) -> Callable[[dict[str, Any], list[str]], str]:
    """The td agent's play with `net` (actors.risk.td), as a policy of actors.risk.direct."""
    return lambda obs, legal: suggest(Board(obs), legal, net, params)[0]


def evaluate(net: Net, games: int, params: TDParams, seed: int = 1, max_rounds: int = 60) -> tuple[int, int]:
    """(wins, decided games) of `net` in three-player games against two random-weight nets (the
    seed's second test), seats rotated, a fresh random net per seat and game."""
    wins = decided = 0
    for g in range(games):
        nets = [net, random_net(100_000 + 8 * g + 1), random_net(100_000 + 8 * g + 2)]
        seats = [(i + g) % 3 for i in range(3)]
        policies: list[Any] = [None] * 3
        for i, s in enumerate(seats):
            policies[s] = td_policy(nets[i], params)
        _, outcome = play(policies, {"players": 3, "max_rounds": max_rounds}, f"risk-eval/{seed}/{g}")
        wins += seats[0] in outcome.winners
        decided += bool(outcome.winners)
    return wins, decided


def command(out: Path | str, games: int, seed: int, learn: LearnParams, params: TDParams, every: int,
            workers: int = 1) -> str:
    """The `detente risk train` line that makes this network (defaults left out)."""
    words = ["detente risk train", f"--games {games}", f"--seed {seed}"]
    if learn.update != "td":
        words.append(f"--update {learn.update}")
    if params.odds != TDParams().odds:
        words.append(f"--odds {params.odds}")
    if params.need_gain != TDParams().need_gain:
        words.append("--need-gain" if params.need_gain else "--no-need-gain")
    if learn.max_rounds != LearnParams().max_rounds:
        words.append(f"--max-rounds {learn.max_rounds}")
    if learn.batch != LearnParams().batch:
        words.append(f"--batch {learn.batch}")
    if learn.passed_on != LearnParams().passed_on:
        words.append(f"--passed-on {learn.passed_on}")
    if workers != 1:
        words.append(f"--workers {workers}")
    return " ".join(words + [f"--every {every}", f"--out {out}"])


def meta(seed: int, games: int, learn: LearnParams, params: TDParams) -> dict[str, Any]:
    return {"seed": seed, "games": games, "learn": learn.model_dump(mode="json"),
            "td": params.model_dump(mode="json")}


def hashes(ckdir: Path, games: int) -> dict[str, str]:
    """sha256 of the weights of every kept checkpoint up to `games`, by game count."""
    out = {}
    for path in sorted(ckdir.glob("games-*.json")):
        g = int(path.stem.split("-")[1])
        if g <= games:
            out[str(g)] = net_from_json(json.loads(path.read_text())).digest()
    return out


def write_whole(path: Path, data: dict[str, Any] | bytes) -> None:
    """Write JSON (or bytes) to `path` all or nothing (a temporary file renamed), so a kill leaves no half file."""
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    if isinstance(data, bytes):
        tmp.write_bytes(data)
    else:
        tmp.write_text(json.dumps(data) + "\n")
    os.replace(tmp, path)


def games_dir(out: Path) -> Path:
    """Where a run writing `out` keeps its games' logs."""
    return out.with_name(out.name + ".games")


def segment_name(first: int) -> str:
    """The segment of the batch starting at game `first`."""
    return f"games-{first:06d}.dlog"


def latest(ckdir: Path, games: int, seed: int, learn: LearnParams, params: TDParams) -> tuple[Net, int] | None:
    """The furthest checkpoint in `ckdir` at most `games` games in; an error if it was made with
    another seed or other options (it would not continue this run)."""
    found = []
    for path in sorted(ckdir.glob("games-*.json")) + [ckdir / LAST]:
        if path.exists():
            data = json.loads(path.read_text())
            if int(data["meta"]["games"]) <= games:
                found.append((int(data["meta"]["games"]), path.name, data))
    if not found:
        return None
    done, name, data = max(found, key=lambda f: f[:2])
    want = {k: v for k, v in meta(seed, 0, learn, params).items() if k != "games"}
    if {k: data["meta"].get(k) for k in want} != want:
        raise ValueError(f"{ckdir / name} was made with another seed or other options")
    return net_from_json(data), done


def run(out: Path, games: int, seed: int, learn: LearnParams, params: TDParams, every: int,
        resume: bool, say: Callable[[str], None] = print, workers: Workers | None = None,
        count: int = 1, evaluation: int = 0, log: bool = False) -> Net:
    """`detente risk train`: train, checkpoint into `out`.checkpoints/, write `out`; resumable.

    `workers` plays the games (default: here, logged if `log`), `count` is how many it has (for
    the command line recorded); `evaluation` games against two random nets at every kept
    checkpoint (0: none). Games that come with logs are written, a batch a segment, into
    `out`.games/ before the batch's checkpoint; a fresh run (not `resume`) first removes the
    segments there (those of the run whose checkpoints it replaces)."""
    if games % learn.batch or every % learn.batch:
        raise ValueError(f"--games and --every must be multiples of the batch ({learn.batch} games)")
    ckdir = out.with_name(out.name + ".checkpoints")
    ckdir.mkdir(parents=True, exist_ok=True)
    gdir = games_dir(out)
    player = workers or InProcess(seed, learn, params, log)
    start, first = None, 0
    if resume and (found := latest(ckdir, games, seed, learn, params)) is not None:
        start, first = found
        say(f"resumed from {ckdir} ({first} games)")
        missing = [b for b in range(0, first, learn.batch) if not (gdir / segment_name(b)).exists()]
        if missing and getattr(player, "log", False):
            say(f"note: {len(missing)} batches before game {first} have no logs in {gdir} (played unlogged?)")
    elif gdir.exists():
        for old in sorted(gdir.glob("games-*.dlog")):
            old.unlink()
    t0, stamp, played, decided = time.perf_counter(), [time.perf_counter()], [0], [0]

    def progress(g: int, net: Net, results: list[Result]) -> None:
        infos = [info for _, info, _ in results]
        logs = [data for _, _, data in results if data is not None]
        if logs:  # the batch's games before its checkpoint: a resumed run writes the same file again
            if len(logs) != len(results):
                raise RuntimeError("some games of a batch came back without their logs")
            gdir.mkdir(parents=True, exist_ok=True)
            write_whole(gdir / segment_name(g - len(results)), MAGIC + b"".join(logs))
        played[0] += len(infos)
        decided[0] += sum(info["winner"] is not None for info in infos)
        data = net.to_json(meta(seed, g, learn, params))
        write_whole(ckdir / LAST, data)
        if g % every == 0 or g == games:
            write_whole(ckdir / f"games-{g:06d}.json", data)
            now = time.perf_counter()
            line = (f"{g} games: sha256 {net.digest()}  {played[0] / (now - t0):.2f} games/s  "
                    f"{decided[0]}/{played[0]} decided  ({now - stamp[0]:.0f} s)")
            if evaluation:
                wins, _ = evaluate(net, evaluation, params)
                line += f"  evaluation {wins}/{evaluation} won against two random nets"
            say(line)
            stamp[0] = time.perf_counter()

    net = train(games, seed, learn, params, start, first, progress, player)
    final = {**meta(seed, games, learn, params), "sha256": net.digest(),
             "command": command(out, games, seed, learn, params, every, count), "checkpoints": hashes(ckdir, games)}
    write_whole(out, net.to_json(final))
    say(f"wrote {out} (sha256 {net.digest()})")
    return net
