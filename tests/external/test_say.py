"""The core's free-text talk item: every game with talk keeps it as cheap talk (no rules read it,
no state changes), the transcript quotes it, a replay folds past it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from games.api import SAY_BYTES, Say
from replay.fold import initial_state
from replay.transcript import transcript
from replay.verify import verify_game
from replay.walk import walk
from tests.external.conftest import exec_spec, play_game

TALKER = exec_spec("tests/external/talker.py")


@pytest.mark.parametrize("game, seats, options, seed", [
    ("werewolves", 10, {}, 1),
    ("diplomacy", 7, {"max_year": 1901}, 2),
])
def test_free_text_is_kept_heard_transcribed_and_changes_no_state(game, seats, options, seed):
    _, log = play_game(game, ",".join([TALKER] + ["random"] * (seats - 1)), seed=seed, options=options)
    said = [r for r in log.records if r["msg"]["kind"] == "talk" and r["msg"]["sender"] == "p0"]
    assert said and all(s["msg"]["says"][0]["kind"] == "say" for s in said)
    assert not [r for r in log.records if r["msg"]["kind"] == "error" and r["msg"]["actor"] == "p0"]
    before, free = initial_state(log.header).digest(), 0
    for step in walk(log):  # a round of free text only: the state folded past it is the one before it
        msg = step.record["msg"]
        now = step.state.digest()
        if msg["kind"] == "talk_round" and all(item["kind"] == "say" for line in msg["lines"] for item in line["says"]):
            assert now == before
            free += 1
        before = now
    assert free or game == "werewolves"  # Werewolves' talk changes no state: it logs no talk_round
    heard = [r for r in log.records if r["msg"]["kind"] == "heard" and r["msg"]["to"] != "p0"]
    assert heard or game == "werewolves"  # random players in Werewolves may all sleep through p0's rounds
    assert verify_game(log).ok
    text, _ = transcript(log)
    assert 'says "round 0 on' in text


def test_say_is_bounded_utf8_text():
    assert Say(text="é" * (SAY_BYTES // 2)).text
    with pytest.raises(ValidationError):
        Say(text="é" * (SAY_BYTES // 2 + 1))  # characters within the bound, bytes over it
    with pytest.raises(ValidationError):
        Say(text="")
    with pytest.raises(ValidationError):
        Say(text="\ud800")
