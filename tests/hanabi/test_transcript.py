"""Hanabi transcripts: every turn, what it did, and the agent's reasons, checked against the log."""

from __future__ import annotations

import json

import pytest

from ops.cli import main
from replay.transcript import TranscriptError, transcript
from tests.play import play_log


def _game(agent: str, seed: int, players: int = 2):
    return play_log("hanabi", seed, agent, {"players": players})


def test_every_turn_with_its_effect_and_the_table_after_it():
    game = _game("alpha", 3, players=3)
    text, data = transcript(game)
    steps = [r["msg"] for r in game.records if r["msg"]["kind"] == "step"]
    assert [t["action"] for t in data["turns"]] == [next(iter(s["actions"].values())) for s in steps]
    assert [t["player"] for t in data["turns"]] == [int(next(iter(s["actions"]))) for s in steps]
    before = [0] * 5
    for t in data["turns"]:
        kind = t["action"].split(":")[0]
        if kind == "hint":
            target, what, value = t["action"].split(":")[1:]
            assert t["target"] == int(target) and t["touched"]
            for card in t["cards"]:  # every touched card has the hinted colour or rank
                assert card[0] == value if what == "colour" else card[1] == value
        else:
            slot = int(t["action"].split(":")[1])
            assert t["card"] == t["hand"][slot]  # the card revealed is the one the mover held there
            if kind == "play":
                assert sum(t["fireworks"]) - sum(before) == (1 if t["ok"] else 0)
        before = t["fireworks"]
    end = game.records[-1]["msg"]
    assert data["end"]["score"] == end["extra"]["score"] and f"end: {end['summary']}" in text
    json.dumps(data)


def test_the_reasons_of_an_agent_with_offices():
    game = _game("alpha", 5)
    _, data = transcript(game)
    for t in data["turns"]:
        assert t["suggestions"] and t["action"] in [a for a, _ in t["suggestions"]]
        beliefs = t["beliefs"]  # the Alpha IO: candidate cards per own slot (conventions can mislead it)
        assert t["wrong"] == [i for i, card in enumerate(t["hand"]) if card not in beliefs[str(i)]]
    first = data["turns"][0]
    assert first["wrong"] == [] and all(20 <= len(b) <= 25 for b in first["beliefs"].values())  # no hint yet
    assert any(t["wrong"] for t in data["turns"])  # this seed has a belief the hint protocol got wrong
    text, _ = transcript(game)
    assert "suggested: " in text and "believed own cards: " in text and "!" in text


def test_one_players_turns_and_refusals(tmp_path, capsys):
    game = _game("osawa-random", 2)
    _, one = transcript(game, player=1)
    assert one["turns"] and {t["player"] for t in one["turns"]} == {1}
    with pytest.raises(TranscriptError, match="seat"):
        transcript(game, player=2)
    log = tmp_path / "h.log"
    assert main(["play", "hanabi", "--seed", "4", "--agents", "rational", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", "transcript", str(log), "--player", "0"]) == 0
    out = capsys.readouterr().out
    assert "turns of p0 only" in out and "turn 0 (seq" in out and "p1 holds" not in out
