"""AlphaWolf games give byte-identical logs in every placement (starts a real local Ray)."""

from __future__ import annotations

import io

import pytest

from actors.match import make_header, play
from actors.registry import parse_lineup
from bus.log import LogWriter

pytestmark = [pytest.mark.ray, pytest.mark.usefixtures("local_ray")]  # local_ray: tests/conftest.py


def _bytes(runtime: str) -> bytes:
    header = make_header("werewolves", 5, parse_lineup("alphawolf:village=so+fo;wolves=so+fo+io", 10))
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    play(header, writer, runtime=runtime)
    return buf.getvalue()


def test_alphawolf_placements_give_identical_bytes():
    inline = _bytes("inline")
    assert _bytes("ray-players") == inline
    assert _bytes("ray-modules") == inline
