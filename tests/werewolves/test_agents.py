"""AlphaWolf as a player: registration, office sets by role, whole games that replay and verify,
and proposals it must ignore with a logged reason."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from actors.registry import AgentSpecError, build_player, parse_spec
from bus.log import parse_log
from bus.messages import Heard, KBChange, Line, Talk, TalkTurn
from games.werewolves.talk import WwAccept, WwPropose
from replay.verify import verify_game
from tests.play import play_bytes
from tests.werewolves.helpers import obs
from tests.bounds import bounded


def _addresses(spec: str) -> list[str]:
    return [a.address for a in build_player(parse_spec(spec), "werewolves", 3, 1)]


def test_office_sets_and_role_dependent_lineups_build_the_right_actors():
    assert _addresses("alphawolf") == ["p3", "p3/fo", "p3/io", "p3/so"]
    assert _addresses("alphawolf:offices=so") == ["p3", "p3/so"]
    assert _addresses("alphawolf:offices=pr+so+fo") == ["p3", "p3/fo", "p3/so"]
    assert _addresses("alphawolf:offices=") == ["p3"]
    assert _addresses("alphawolf:village=random;wolves=so+fo+io") == ["p3", "p3/fo", "p3/io", "p3/rso", "p3/so"]
    with pytest.raises(AgentSpecError, match="has no office"):
        _addresses("alphawolf:offices=so+xo")
    with pytest.raises(AgentSpecError):
        _addresses("alphawolf:variant=other")


def _play(spec: str, seed: int, options=None) -> bytes:
    return play_bytes("werewolves", seed, spec, options)


@pytest.mark.parametrize("spec", ["alphawolf", "alphawolf:variant=thesis",
                                  "alphawolf:village=random;wolves=so+fo+io", "alphawolf:village=so;wolves=so+fo"])
def test_games_verify_and_repeat_byte_for_byte(spec):
    data = _play(spec, 5)
    assert data == _play(spec, 5)
    log = parse_log(data)
    assert log.bad is None and log.games[0].complete
    verdict = verify_game(log.games[0])
    assert verdict.ok, verdict.message


def test_a_full_game_negotiates_bids_and_keeps_its_deals():
    records = [r["msg"] for r in parse_log(_play("alphawolf", 5)).games[0].records]
    said = [s["kind"] for m in records if m["kind"] == "talk" for s in m["says"]]
    for kind in ("ww_propose", "ww_accept", "ww_bid"):
        assert kind in said
    commitments = [u for m in records if m["kind"] == "kb_change" for u in m["updates"] if u["path"][0] == "commitments"]
    assert commitments
    tasks = {(m["to"].split("/")[-1], m["task"]) for m in records if m["kind"] == "office_request"}
    assert tasks == {("io", "update"), ("so", "suggest"), ("so", "deal_utility"), ("fo", "negotiate")}
    assert not [m for m in records if m["kind"] in ("error", "fault")]


def test_same_seed_same_log_under_different_hash_seeds(tmp_path):
    logs = []
    for hash_seed in ("0", "977"):
        path = tmp_path / f"{hash_seed}.log"
        subprocess.run([sys.executable, "-m", "ops.cli", "play", "werewolves", "--seed", "5", "--agents", "alphawolf",
                        "--log", str(path)], check=True, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": hash_seed})
        logs.append(path.read_bytes())
    assert logs[0] == logs[1] and len(logs[0]) > 100_000


# -- proposals to ignore ----------------------------------------------------------------------------


def _route(actors: dict, message) -> list:
    """Deliver `message` and everything it causes among `actors`; return what leaves them."""
    queue, out = [message], []
    for _ in bounded(10_000):
        if not queue:
            break
        m = queue.pop(0)
        if m.to in actors:
            queue += actors[m.to].handle(m)
        else:
            out.append(m)
    return out


def _turn(actors, rnd: int, observation) -> list:
    return _route(actors, TalkTurn(sender="referee", to="p0", turn=3, channel="public", round=rnd, max_rounds=4,
                                   members=tuple(range(10)), observation=observation))


def _heard(actors, rnd: int, *lines: Line) -> None:
    assert _route(actors, Heard(sender="referee", to="p0", turn=3, channel="public", round=rnd, lines=lines)) == []


def _reasons(out) -> dict[str, str]:
    return {u.path[-1]: u.value["ignored"] for m in out if isinstance(m, KBChange) for u in m.updates
            if isinstance(u.value, dict) and "ignored" in u.value}


def test_alphawolf_ignores_a_pointless_and_a_conflicting_proposal_with_a_logged_reason():
    actors = {a.address: a for a in build_player(parse_spec("alphawolf"), "werewolves", 0, 1)}
    observation = obs(me=0)
    out = _turn(actors, 0, observation)
    [talk] = [m for m in out if isinstance(m, Talk)]
    [mine] = [s for s in talk.says if s.kind == "ww_propose" and s.deal == "joint_vote"]
    other = next(q for q in range(1, 10) if q != mine.target)
    # round 0: my proposal, and p2 proposes a joint vote against me
    _heard(actors, 0, Line(speaker=0, says=talk.says), Line(speaker=2, says=(WwPropose(proposal_id=12, deal="joint_vote", target=0),)))
    out = _turn(actors, 1, observation)
    assert _reasons(out) == {"2:12": "a joint vote against me"}
    # round 1: p4 accepts my proposal (now locked); p5 proposes a vote against someone else
    _heard(actors, 1, Line(speaker=4, says=(WwAccept(proposal_id=mine.proposal_id, proposer=0),)),
           Line(speaker=5, says=(WwPropose(proposal_id=12, deal="joint_vote", target=other),)))
    out = _turn(actors, 2, observation)
    assert _reasons(out) == {"5:12": f"conflicts with my deal to vote against {mine.target}"}
    [talk] = [m for m in out if isinstance(m, Talk)]
    assert talk.says == ()  # nothing accepted
