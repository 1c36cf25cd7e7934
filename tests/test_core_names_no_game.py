"""The core names no game: games come from plugins only (games/plugin.py), so bus/, replay/, the
tournament code, the actor core and the game API stay the same when a game is added or removed."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tokenize
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).parent.parent
CORE = [*(ROOT / "bus").glob("*.py"), *(ROOT / "replay").glob("*.py"), *(ROOT / "ops").glob("*.py"),
        *(ROOT / "ops" / "tournament").glob("*.py"), *(ROOT / "actors").glob("*.py"),
        *(ROOT / "actors" / "alpha").glob("*.py"), *(ROOT / "actors" / "alpha" / "generic").glob("*.py"),
        *(ROOT / "games").glob("*.py")]
# The games detente ships: the entry points of this distribution (values under ops.plugins).
BUILT_IN = sorted(ep.name for ep in entry_points(group="detente.games") if ep.value.startswith("ops.plugins."))
# Game names that are also ordinary English words (a trait is called "risk"): for these only a
# string equal to the name, or a module path, counts as naming the game.
ORDINARY_WORDS = {"risk"}


def _texts(path: Path):
    """(line, text) of every string literal and comment of a Python file."""
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type in (tokenize.STRING, tokenize.COMMENT):
            yield tok.start[0], tok.string


def test_no_core_module_names_a_built_in_game():
    assert {"diplomacy", "hanabi", "werewolves"} <= set(BUILT_IN)
    found = []
    for path in sorted(CORE):
        for line, text in _texts(path):
            for name in BUILT_IN:
                module = re.search(rf"\b(games|actors|plugins)\.{name}\b", text)
                literal = text.strip("\"'rbfu").lower() == name
                word = name not in ORDINARY_WORDS and re.search(rf"\b{name}\b", text, re.IGNORECASE)
                if module or literal or word:
                    found.append(f"{path.relative_to(ROOT)}:{line}: {name}: {text[:60]!r}")
    assert not found, "core code names a game:\n" + "\n".join(found)


def test_importing_the_cli_loads_no_game():
    """`import ops.cli`, building its parser and listing games import no game's rules or agents
    (only the plugin declarations, which are data)."""
    code = ("import sys, io, contextlib\n"
            "import ops.cli\n"
            "ops.cli.build_parser()\n"
            "with contextlib.redirect_stdout(io.StringIO()): ops.cli.main(['games'])\n"
            "print('\\n'.join(sorted(sys.modules)))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    games = [m for m in loaded for name in BUILT_IN if m == f"games.{name}" or m.startswith(f"games.{name}.")
             or m == f"actors.{name}" or m.startswith(f"actors.{name}.")]
    assert not games, f"importing the CLI loaded {sorted(games)}"
    assert "ops.cli" in loaded and "ray" not in loaded  # and no Ray either, until a command needs it
