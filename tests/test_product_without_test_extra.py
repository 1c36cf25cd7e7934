"""The main job needs none of the test-only packages: with the reference engines, pytest and
hypothesis made unimportable, every product module imports and a short game of every registered
game plays, logs and verifies (the benchmarks that compare with a reference engine aside)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
TEST_ONLY = ("diplomacy", "open_spiel", "pyspiel", "dominoes", "pytest", "hypothesis", "selenium", "playwright")

CODE = f"""
import importlib, pkgutil, sys
BLOCKED = {TEST_ONLY!r}
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in BLOCKED:
            raise ImportError(f'{{name}} is test-only')
        return None
sys.meta_path.insert(0, Block())
for mod in list(sys.modules):
    if mod.split('.')[0] in BLOCKED:
        del sys.modules[mod]
imported = 0
for top in ('games', 'bus', 'actors', 'replay', 'ops'):
    package = importlib.import_module(top)
    for info in pkgutil.walk_packages(package.__path__, top + '.'):
        if info.name.startswith('ops.bench.') or info.name == 'ops.examples.quickstart':
            continue
        importlib.import_module(info.name)
        imported += 1
from actors.match import record
from bus.log import parse_log
from games.registry import game_names, get_plugin
from replay.verify import verify_game
from tests.play import lineup
from actors.match import make_header
for name in game_names():
    options = dict(get_plugin(name).short_options)
    game = parse_log(record(make_header(name, 1, lineup(name, 'random', options), options))).games[0]
    assert verify_game(game).ok, name
print(imported, len(game_names()))
"""


def test_every_product_module_imports_and_every_game_plays_without_test_packages():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    imported, games = map(int, done.stdout.split())
    assert imported > 60 and games >= 6
