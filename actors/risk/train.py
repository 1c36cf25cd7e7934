"""TD self-play training of the seed's network, as the seed describes it.

"In each game, the neural networks for every player are initialized with the weights carried
over from the previous game. At the conclusion of a game, the winner's neural network is saved
and used as the basis for the next game" (seed). Every player's network learns during the game
by TD(lambda) (network.Learner) from the board at the start of each of its turns, towards 1 when
it wins and 0 when it is eliminated; a game stopped by the turn cap gives each survivor its
share of the territories (LearnParams.draw), and the survivor with the most territories (then the lowest seat; ours) passes its network on.

Deterministic: game g's dice come from "risk-train/<seed>/<g>", the first network from `seed`,
weights are rounded to WEIGHT_DIGITS after each game. A checkpoint (network JSON with the game
count in its metadata) is written every `every` games; a run resumed from one ends with the same
weights as an uninterrupted run. Games are played straight on the rules (actors.risk.direct),
not through the bus, so they are not logged.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from actors.risk.board import Board
from actors.risk.direct import play
from actors.risk.network import Learner, Net, net_from_json, random_net
from actors.risk.params import LearnParams, TDParams
from actors.risk.td import suggest

Progress = Callable[[int, Net, dict[str, Any]], None]


def train_game(net: Net, g: int, seed: int, learn: LearnParams, params: TDParams) -> tuple[Net, dict[str, Any]]:
    """Play training game `g` from `net`; the network passed on, and what happened."""
    n = learn.players[g % len(learn.players)]
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
    state, outcome = play([policy(s) for s in range(n)], options, f"risk-train/{seed}/{g}", watch)
    final = state.observation(0)
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
            "rounds": outcome.extra["rounds"], "passed_on": best}
    return learners[best].net(), info


def command(out: Path | str, games: int, seed: int, learn: LearnParams, params: TDParams, every: int) -> str:
    """The `detente risk train` line that makes this network (defaults left out)."""
    words = ["detente risk train", f"--games {games}", f"--seed {seed}"]
    if learn.update != "td":
        words.append(f"--update {learn.update}")
    if params.odds != TDParams().odds:
        words.append(f"--odds {params.odds}")
    if learn.max_rounds != LearnParams().max_rounds:
        words.append(f"--max-rounds {learn.max_rounds}")
    return " ".join(words + [f"--every {every}", f"--out {out}"])


def meta(seed: int, games: int, learn: LearnParams, params: TDParams) -> dict[str, Any]:
    return {"seed": seed, "games": games, "learn": learn.model_dump(mode="json"),
            "td": params.model_dump(mode="json")}


def train(games: int, seed: int, learn: LearnParams, params: TDParams, start: Net | None = None,
          first: int = 0, progress: Progress | None = None) -> Net:
    """Games first .. games - 1 from `start` (default: the random network of `seed`)."""
    net = random_net(seed) if start is None else start
    for g in range(first, games):
        net, info = train_game(net, g, seed, learn, params)
        if progress is not None:
            progress(g + 1, net, info)
    return net


def hashes(ckdir: Path, games: int) -> dict[str, str]:
    """sha256 of the weights of every checkpoint up to `games`, by game count."""
    out = {}
    for path in sorted(ckdir.glob("games-*.json")):
        g = int(path.stem.split("-")[1])
        if g <= games:
            out[str(g)] = net_from_json(json.loads(path.read_text())).digest()
    return out


def run(out: Path, games: int, seed: int, learn: LearnParams, params: TDParams, every: int,
        resume: bool, say: Callable[[str], None] = print) -> Net:
    """`detente risk train`: train, checkpoint into `out`.checkpoints/, write `out`; resumable."""
    ckdir = out.with_name(out.name + ".checkpoints")
    ckdir.mkdir(parents=True, exist_ok=True)
    start, first = None, 0
    if resume:
        done = sorted(ckdir.glob("games-*.json"))
        if done:
            data = json.loads(done[-1].read_text())
            if {k: data["meta"].get(k) for k in ("seed", "learn", "td")} != {
                    k: v for k, v in meta(seed, 0, learn, params).items() if k != "games"}:
                raise ValueError(f"{done[-1]} was made with another seed or other options")
            start, first = net_from_json(data), int(data["meta"]["games"])
            say(f"resumed from {done[-1]} ({first} games)")
    t0, wins, stamp = time.perf_counter(), [0, 0], [time.perf_counter()]

    def progress(g: int, net: Net, info: dict[str, Any]) -> None:
        wins[0] += info["winner"] is not None
        wins[1] += 1
        if g % every == 0 or g == games:
            path = ckdir / f"games-{g:06d}.json"
            path.write_text(json.dumps(net.to_json(meta(seed, g, learn, params))) + "\n")
            now = time.perf_counter()
            rate = wins[1] / (now - t0)
            say(f"{g} games: sha256 {net.digest()}  {rate:.2f} games/s  "
                f"{wins[0]}/{wins[1]} decided  ({now - stamp[0]:.0f} s)")
            stamp[0] = now

    net = train(games, seed, learn, params, start, first, progress)
    final = {**meta(seed, games, learn, params), "sha256": net.digest(),
             "command": command(out, games, seed, learn, params, every), "checkpoints": hashes(ckdir, games)}
    out.write_text(json.dumps(net.to_json(final)) + "\n")
    say(f"wrote {out} (sha256 {net.digest()})")
    return net
