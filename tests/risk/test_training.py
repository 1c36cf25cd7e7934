"""TD self-play training (actors.risk.train, `detente risk train`): the seed's scheme in batches,
the same weights with 1 or 2 workers, after a kill and a rerun, and the shipped run's start;
every training game logged, its log verified, the same logs however many workers played them.

Issue 14, must show: "a 20-game training run with 2 workers, killed mid-way and rerun, ends with
the same weights as an uninterrupted run and as a 1-worker run; CI reproduces the shipped 50-game
checkpoint hash"; build item 3: "runs self-play games on Ray workers, each game logged like any
other (training games replay), and applies their TD updates in a fixed order, so 1 and 2 workers
give byte-identical weights"."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from actors.risk.network import Net, net_from_json, random_net
from actors.risk.params import LearnParams, TDParams
from actors.risk.train import Processes, games_dir, merge, run, train, train_game
from bus.log import MAGIC, LogWriter, parse_log, read_log
from replay.verify import verify_game

ROOT = Path(__file__).resolve().parents[2]
T = TDParams()
SHORT = LearnParams(batch=5, max_rounds=10)  # 20 games: four batches of short games
SHORT_ARGS = ["--games", "20", "--seed", "7", "--batch", "5", "--max-rounds", "10", "--every", "10"]
# The shipped run (actors/risk/weights/README.md: seed 1, default options) after 50 games.
SHIPPED_50 = "a6bb5be4c7ebcd46f20dac2a7a5ad393a3baffa3bda4b48cfb6e0ea266df1f17"


def quiet(_line: str) -> None:
    pass


def segments(out: Path) -> dict[str, bytes]:
    """The game logs a run writing `out` left, by segment name."""
    return {p.name: p.read_bytes() for p in sorted(games_dir(out).glob("*.dlog"))}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[Net, dict[str, bytes], Path]:
    """The 20-game reference run, every game in this process and logged: its weights, logs, file."""
    out = tmp_path_factory.mktemp("one") / "one.json"
    net = run(out, 20, 7, SHORT, T, 5, False, quiet, log=True)
    return net, segments(out), out


def test_a_batch_adds_every_games_change_exactly():
    """Ours: the next batch starts from the batch's network plus each game's change to it;
    integers, so the sum is exact in any order. Batch 1 is the seed's scheme: "the winner's
    neural network is saved and used as the basis for the next game"."""
    base, a, b = random_net(1), random_net(2), random_net(3)
    both = merge(base, [a, b])
    assert both == merge(base, [b, a])
    assert both.w2 == tuple(x + y - z for x, y, z in zip(a.w2, b.w2, base.w2))
    assert merge(base, [a]) == a
    learn = LearnParams(batch=1, max_rounds=4)
    net = random_net(5)
    for g in range(3):
        net = train_game(net, g, 5, learn, T)[0]
    assert train(3, 5, learn, T) == net
    assert train(2, 5, LearnParams(batch=2, max_rounds=4), T) == merge(
        random_net(5), [train_game(random_net(5), g, 5, learn, T)[0] for g in range(2)])


@pytest.mark.slow  # ~14 s with its fixture; in the default suite (CI), out of the quick subset
def test_two_workers_killed_and_resumed_give_the_one_worker_runs_weights_and_logs(reference, tmp_path):
    """`detente risk train --workers 2` killed (SIGKILL, workers and all) once a batch is
    checkpointed, then rerun with --resume, ends with the weights of an uninterrupted 1-worker
    run, and with its game logs: every game once, byte for byte."""
    one_worker, logs, _ = reference
    from ops.cli import main

    out = tmp_path / "net.json"
    last = tmp_path / "net.json.checkpoints" / "last.json"
    argv = ["risk", "train", *SHORT_ARGS, "--workers", "2", "--out", str(out)]
    proc = subprocess.Popen([sys.executable, "-m", "ops.cli", *argv], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not last.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert not out.exists(), "the run ended before the kill: nothing was tested"
    done = json.loads(last.read_text())["meta"]["games"]
    assert 5 <= done < 20
    assert main([*argv, "--resume"]) == 0
    data = json.loads(out.read_text())
    assert data["meta"]["sha256"] == one_worker.digest() and "--workers 2" in data["meta"]["command"]
    assert sorted(data["meta"]["checkpoints"]) == ["10", "20"]
    assert segments(out) == logs
    ids = [g.header["game_id"] for data in segments(out).values() for g in parse_log(data).games]
    assert ids == [f"risk-train-7-{g:06d}" for g in range(20)]


def test_resume_refuses_another_runs_checkpoints(tmp_path):
    run(tmp_path / "a.json", 2, 7, LearnParams(batch=2, max_rounds=2), T, 2, False, quiet)
    with pytest.raises(ValueError, match="another seed or other options"):
        run(tmp_path / "a.json", 4, 8, LearnParams(batch=2, max_rounds=2), T, 2, True, quiet)
    with pytest.raises(ValueError, match="multiples of the batch"):
        run(tmp_path / "a.json", 3, 7, LearnParams(batch=2, max_rounds=2), T, 2, True, quiet)


@pytest.mark.slow  # ~8 s; in the default suite (CI), out of the quick subset
def test_the_shipped_runs_50_game_checkpoint_reproduces(tmp_path):
    """The shipped net's command (seed 1, defaults; actors/risk/weights/README.md) after 50 games,
    on 2 workers here, has the weights the README records: integer weights, exact sums."""
    learn = LearnParams()
    workers = Processes(2, 1, learn, T)
    try:
        net = run(tmp_path / "n.json", 50, 1, learn, T, 50, False, quiet, workers, count=2)
    finally:
        workers.close()
    assert net.digest() == SHIPPED_50
    assert f"`{SHIPPED_50}`" in (ROOT / "actors/risk/weights/README.md").read_text()


@pytest.mark.ray
def test_ray_workers_give_the_same_weights_and_logs(local_ray, reference, tmp_path):
    from ops.plugins.risk.raytrain import RayWorkers

    _, logs, out = reference
    workers = RayWorkers(2, 7, SHORT, T, log=True)
    try:  # the reference run's first 10 games, on two Ray actors
        on_ray = run(tmp_path / "ray.json", 10, 7, SHORT, T, 10, False, quiet, workers, count=2)
    finally:
        workers.close()
    here = json.loads((out.with_name(out.name + ".checkpoints") / "games-000010.json").read_text())
    assert on_ray == net_from_json(here)
    assert segments(tmp_path / "ray.json") == {k: logs[k] for k in ("games-000000.dlog", "games-000005.dlog")}


# -- the logs of training games ------------------------------------------------------------------

@pytest.mark.slow  # ~5 s; in the default suite (CI), out of the quick subset
def test_training_games_logs_verify_and_are_the_unlogged_games(reference, tmp_path):
    """Every logged training game verifies (`detente replay verify`: the learners re-run on the
    recorded inputs, the dice re-drawn from the header's chance seed); played straight on the
    rules instead, each game ends in the same state, and the first batch's games pass on the
    same network (a 500-game run of the shipped command, logged, gives the shipped run's hashes:
    actors/risk/weights/README.md)."""
    from ops.cli import main

    _, logs, out = reference
    assert sorted(logs) == ["games-000000.dlog", "games-000005.dlog", "games-000010.dlog", "games-000015.dlog"]
    path = tmp_path / "games-000005.dlog"
    path.write_bytes(logs["games-000005.dlog"])
    assert main(["replay", "verify", str(path)]) == 0
    start = train(5, 7, SHORT, T)  # the network games 5..9 start from, unlogged
    after5 = json.loads((out.with_name(out.name + ".checkpoints") / "games-000005.json").read_text())
    assert net_from_json(after5) == start  # the logged run's weights after 5 games: the unlogged run's
    games = read_log(path).games
    assert [int(game.header["game_id"].rsplit("-", 1)[1]) for game in games] == [5, 6, 7, 8, 9]
    for g, game in enumerate(games, 5):
        opts = game.header["agents"][0]["options"]
        assert opts["learn"] is True and opts["weights"]["sha256"] == start.digest()
        assert game.header["chance_seed"] == f"risk-train/7/{g}"
        _, info, _ = train_game(start, g, 7, SHORT, T)  # unlogged: the same game
        end = game.records[-1]["msg"]
        assert (end["digest"], list(end["winners"])) == (info["digest"], [] if info["winner"] is None else [info["winner"]])


def rewritten(game, **options) -> bytes:
    """The game's log with every seat's agent options changed (records as they were)."""
    import io

    buf = io.BytesIO()
    writer = LogWriter(buf)
    header = {k: v for k, v in game.header.items() if k != "format"}
    header["agents"] = [{**a, "options": {**a["options"], **options}} for a in header["agents"]]
    writer.header(header)
    for record in game.payloads:
        writer.record(record)
    return buf.getvalue()


def test_a_training_log_needs_its_learners_and_its_network(reference):
    """The log verifies only with what it carries: learners off, or one weight changed (its
    sha256 no longer matches), and verify fails."""
    game = parse_log(reference[1]["games-000000.dlog"], check=True).games[0]
    assert verify_game(parse_log(rewritten(game), check=True).games[0]).ok  # rewritten as it was: ok
    still = parse_log(rewritten(game, learn=False), check=True).games[0]
    verdict = verify_game(still)
    assert not verdict.ok and "diverges at seq" in verdict.message
    weights = dict(game.header["agents"][0]["options"]["weights"])
    weights["w2"] = [weights["w2"][0] + 1, *weights["w2"][1:]]
    verdict = verify_game(parse_log(rewritten(game, weights=weights), check=True).games[0])
    assert not verdict.ok and "sha256" in verdict.message


def test_the_shipped_net_wins_within_the_cap():
    """Issue 14 (README): td won no game within the 60-round cap when it attacked only for a better
    board; attacking for the best board (TDParams.need_gain=False), the shipped net wins."""
    from actors.risk.direct import play, random_policy
    from actors.risk.network import shipped_net
    from actors.risk.train import evaluate, td_policy

    net, wins = shipped_net("trained"), 0
    for g in range(10):
        policies = [random_policy(f"t{g}")] * 2
        policies[g % 2] = td_policy(net, T)
        wins += play(policies, {"players": 2, "max_rounds": 60}, f"test/{g}")[1].winners == (g % 2,)
    assert wins == 10
    won, decided = evaluate(net, 20, T)  # against two random-weight nets, three players: 13 won
    assert decided == 20 and won >= 11  # chance: 6.7


def test_logged_games_follow_every_training_option():
    """The learners' options travel in the log (the mis-update's sign, the odds, need_gain), so a
    logged game with non-default options is the unlogged one and verifies."""
    learn = LearnParams(update="misupdate", passed_on="winner", max_rounds=5, alpha=0.2, lam=0.5)
    params = TDParams(odds="exact", need_gain=True)
    net = random_net(3)
    for g in range(2):
        unlogged, logged = train_game(net, g, 3, learn, params), train_game(net, g, 3, learn, params, log=True)
        assert unlogged[:2] == logged[:2]
        game = parse_log(MAGIC + logged[2], check=True).games[0]
        assert game.header["agents"][0]["options"]["update"] == "misupdate"
        assert verify_game(game).ok


def test_a_fresh_run_replaces_the_logs_of_the_run_before(tmp_path):
    """Without --resume a run starts over: the segments of the run whose checkpoints it replaces go."""
    learn = LearnParams(batch=2, max_rounds=2)
    run(tmp_path / "a.json", 4, 7, learn, T, 2, False, quiet, log=True)
    assert sorted(segments(tmp_path / "a.json")) == ["games-000000.dlog", "games-000002.dlog"]
    run(tmp_path / "a.json", 2, 7, learn, T, 2, False, quiet, log=True)
    assert sorted(segments(tmp_path / "a.json")) == ["games-000000.dlog"]
