"""Export of a logged game to the reference package's saved-game JSON."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ops.plugins.diplomacy.export import export_log


def test_export_of_a_logged_game(tmp_path):
    log = tmp_path / "g.log"
    subprocess.run([sys.executable, "-m", "ops.cli", "play", "diplomacy", "--seed", "3", "--agents", "random",
                    "--log", str(log), "--option", "max_year=1902"], check=True, capture_output=True)
    data = export_log(log)
    assert set(data) == {"id", "map", "rules", "phases"}
    names = [p["name"] for p in data["phases"]]
    assert names[0] == "S1901M" and names[-1] == "COMPLETED" and "W1901A" in names
    first = data["phases"][0]
    assert set(first) == {"name", "state", "orders", "results", "messages"}
    assert first["state"]["units"]["RUSSIA"] == ["A MOS", "F SEV", "F STP/SC", "A WAR"]
    assert all(len(first["orders"][p]) == len(first["state"]["units"][p]) for p in first["orders"])
    json.dumps(data)
    diplomacy = pytest.importorskip("diplomacy")  # the reference's viewer format, test-only
    from diplomacy.utils.export import from_saved_game_format

    game = from_saved_game_format(data)
    assert isinstance(game, diplomacy.Game) and len(game.get_phase_history()) == len(names) - 1


def test_export_carries_the_press_of_an_alphadip_game():
    """Every talk item of the log is a message of the export, from its speaker to each power that
    heard it (GLOBAL when all six others did), in its phase; the package loads them all."""
    from actors.address import seat_of
    from games.diplomacy.board import POWERS
    from ops.plugins.diplomacy.export import export_game
    from replay.walk import walk
    from tests.play import play_log

    game = play_log("diplomacy", 4, "alphadip,alphadip,dumbbot,alphadip:offices=so+fo,dipblue,dumbbot,random",
                    {"max_year": 1902})
    data = export_game(game)
    assert "NO_PRESS" not in data["rules"] and all("NO_PRESS" not in p["state"]["rules"] for p in data["phases"])
    expected: dict[tuple, set] = {}  # (phase, turn, round, speaker, item) -> hearers, read off the log
    phase = None
    for step in walk(game):
        msg = step.msg
        if msg["kind"] == "heard":
            for line in msg["lines"]:
                for i, _ in enumerate(line["says"]):
                    hearers = expected.setdefault((phase, msg["turn"], msg["round"], line["speaker"], i), set())
                    if seat_of(msg["to"]) != line["speaker"]:
                        hearers.add(POWERS[seat_of(msg["to"])])
        phase = step.state.board.phase
    talk = [m for p in data["phases"] for m in p["messages"] if not m["message"].startswith("deal ")]
    from collections import Counter

    heard = Counter((p, POWERS[s], h) for (p, _, _, s, _), hearers in expected.items() for h in hearers)
    sent = Counter((m["phase"], m["sender"], h) for m in talk
                   for h in (set(POWERS) - {m["sender"]} if m["recipient"] == "GLOBAL" else {m["recipient"]}))
    assert len(expected) > 20 and sent == heard  # each item, to each power that heard it, in its phase
    assert all(m["phase"] in {p["name"] for p in data["phases"]} for m in talk)
    times = [m["time_sent"] for p in data["phases"] for m in p["messages"]]
    assert len(times) == len(set(times))
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format

    loaded = from_saved_game_format(data)
    history = loaded.get_phase_history()
    assert sum(len(p.messages) for p in history) + len(loaded.messages) == len(times)
    for p in history:
        for m in p.messages.values():
            assert m.phase == p.name and m.sender in POWERS and (m.recipient == "GLOBAL" or m.recipient in POWERS)
