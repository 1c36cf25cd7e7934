"""AlphaWolf games give byte-identical logs in every placement (starts a real local Ray)."""

from __future__ import annotations

import pytest

from tests.play import play_bytes

pytestmark = [pytest.mark.ray, pytest.mark.usefixtures("local_ray")]  # local_ray: tests/conftest.py


def _bytes(runtime: str) -> bytes:
    return play_bytes("werewolves", 5, "alphawolf:village=so+fo;wolves=so+fo+io", runtime=runtime)


def test_alphawolf_placements_give_identical_bytes():
    inline = _bytes("inline")
    assert _bytes("ray-players") == inline
    assert _bytes("ray-modules") == inline
