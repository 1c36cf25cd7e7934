"""Misbehaving agents in small tournaments on a real local Ray (issue 12, part 2, must show): an
agent that hangs, one that sleeps 10 s a move, one that floods talk and one that answers 70 MB,
each in a tournament of 8 games with max_game_seconds = 2. The tournament completes, every game is
recorded (played, or aborted with its reason), every recorded log verifies, and the report shows
the aborts (and errors) against the agent. Also: the Ray placements' per-decision timeout.
Marked `ray`; the agents reach Ray's workers through its worker_process_setup_hook."""

from __future__ import annotations

import io
import os
import time

import pytest

from ops.bench.misbehaving import MISBEHAVING, check_folder, ray_init_args, register, spec_for, unregister
from ops.tournament.report import build_report, format_text
from ops.tournament.html import format_html
from ops.tournament.runner import run_tournament
from ops.tournament.store import Store

pytestmark = pytest.mark.ray
GAMES, BUDGET = 8, 2.0


@pytest.fixture(scope="module", autouse=True)
def _ray():
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    register()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
             _node_ip_address="127.0.0.1", **ray_init_args())
    yield ray
    ray.shutdown()
    unregister()  # the registry as other modules' tests expect it (every agent has a golden game)


def _tournament(tmp_path, agent):
    spec = spec_for(agent, GAMES, BUDGET)
    t0 = time.monotonic()
    summary = run_tournament(spec, tmp_path, runners=2)
    seconds = time.monotonic() - t0
    seen = check_folder(tmp_path)
    assert not summary.failed and seen["games"] == GAMES, "every game recorded"
    assert not seen["failures"], seen["failures"][:3]  # every recorded log verifies
    store = Store(tmp_path, read_only=True)
    try:
        rows = store.db.execute("select seats, aborted, blame, seat_errors from games order by game_id").fetchall()
        report = build_report(store)
    finally:
        store.close()
    for seats, aborted, blame, _ in rows:  # an abort counts against the agent that caused it
        assert aborted is None or seats[blame] == agent
    text, page = format_text(report), format_html(report)
    assert "abort rate" in text and "error rate" in text and "abort rate" in page
    return seen, rows, seen["agents"][agent], seconds


@pytest.mark.parametrize("agent", ["mb-hang", "mb-sleepy"])
def test_agents_that_overrun_are_aborted_against_them(tmp_path, agent):
    seen, rows, line, seconds = _tournament(tmp_path, agent)
    assert seen["aborted"] == GAMES and all("over the game's budget of 2 s" in r for r in seen["reasons"])
    assert line["abort_rate"] == 1.0 and line["win_rate"] == 0.0 and line["mean_rank"] == 10.0
    assert seconds < GAMES * BUDGET + 60  # each game stopped at its budget: 10 s a move never waited out


def test_talk_flood_is_refused_and_the_games_go_on(tmp_path):
    seen, rows, line, _ = _tournament(tmp_path, "mb-flood")
    assert line["error_rate"] == 1.0 and line["games"] == GAMES
    assert seen["aborted"] == sum(1 for r in rows if r[1])
    played = [r for r in rows if r[1] is None]
    assert played and all(errors[seats.index("mb-flood")] > 0 for seats, _, _, errors in played)


def test_huge_answers_are_refused_and_the_games_go_on(tmp_path):
    seen, rows, line, _ = _tournament(tmp_path, "mb-huge")
    # every game that was played through refused the huge answer; a game the 2 s budget aborted
    # before the agent's first answer (a loaded box: building 70 MB takes a while) has no error
    played = [r for r in rows if r[1] is None]
    assert all(errors[seats.index("mb-huge")] > 0 for seats, _, _, errors in played)
    assert line["error_rate"] >= len(played) / GAMES and (played or seen["aborted"] == GAMES)
    assert seen["aborted"] == sum(1 for r in rows if r[1])  # aborted or played: recorded either way
    assert line["abort_rate"] == seen["aborted"] / GAMES


@pytest.mark.parametrize("runtime", ["ray-players", "ray-modules"])
def test_ray_decision_timeout_retires_the_seat(runtime):
    from actors.match import make_header, play
    from actors.registry import AgentSpec
    from bus.log import LogWriter, parse_log
    from replay.verify import verify_game

    agents = [AgentSpec(name="random")] * 6
    agents[3] = AgentSpec(name="mb-hang")
    header = make_header("werewolves", 5, agents, {"players": 6, "discussion_rounds": 1})
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    result = play(header, writer, runtime=runtime, decision_seconds=1.0)
    log = parse_log(buf.getvalue()).games[0]
    assert result.retired == {3: "no answer within 1 s"} and result.end.sender == "referee"
    retire = next(r for r in log.records if r["msg"]["kind"] == "retire")
    assert log.records[retire["cause"]]["msg"]["to"] == "p3"
    t0 = time.monotonic()
    assert verify_game(log).ok  # inline, in lockstep, and the hanging agent never called
    assert time.monotonic() - t0 < 10


def test_misbehaving_agents_are_the_ones_shown():
    assert set(MISBEHAVING) == {"mb-hang", "mb-sleepy", "mb-flood", "mb-huge"}
