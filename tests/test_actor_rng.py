"""Each actor's own generator (DESIGN.md section 2): seeded from (game seed, actor address), so
two actors of one game draw different streams, one actor draws the same stream in every process,
and another game's seed gives another stream."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from actors.actor import Actor, actor_rng
from actors.lineup import build_actors
from actors.match import make_header
from tests.play import lineup

ROOT = Path(__file__).parent.parent


def _draws(rng, n: int = 8) -> list[float]:
    return [rng.random() for _ in range(n)]


def test_streams_differ_by_address_and_by_seed_and_repeat():
    addresses = ["referee", "p0", "p1", "p0/so", "p1/so", "p0/io"]
    streams = {a: _draws(actor_rng(7, a)) for a in addresses}
    assert len({tuple(s) for s in streams.values()}) == len(addresses)
    assert _draws(actor_rng(8, "p0")) != streams["p0"]
    assert _draws(actor_rng(7, "p0")) == streams["p0"] == _draws(Actor("p0", 7).rng)


def test_the_actors_of_a_game_draw_different_streams():
    header = make_header("werewolves", 3, lineup("werewolves", "alphawolf"))
    actors = build_actors(header)
    firsts = {address: _draws(actor.rng, 4) for address, actor in actors.items()}
    assert len(actors) > 20 and len({tuple(f) for f in firsts.values()}) == len(actors)


def test_a_stream_is_the_same_in_another_process_and_hash_seed():
    code = "from actors.actor import actor_rng; print(actor_rng(7, 'p3/so').random())"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "123", "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert float(out.stdout) == actor_rng(7, "p3/so").random()
