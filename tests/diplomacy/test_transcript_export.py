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
