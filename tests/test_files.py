"""Files written whole or not at all (ops/files.py): the new content replaces the old once the
block ends, a failure leaves the old file as it was, no temporary file is left behind either way."""

from __future__ import annotations

import stat

import pytest

from ops.files import replacing, write_text


def test_a_finished_write_replaces_the_file(tmp_path):
    target = tmp_path / "page.html"
    target.write_text("old")
    write_text(target, "new ünïcode")
    assert target.read_text(encoding="utf-8") == "new ünïcode"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]
    with replacing(tmp_path / "fresh.bin") as f:
        f.write(b"\x00\x01")
    assert (tmp_path / "fresh.bin").read_bytes() == b"\x00\x01"


def test_a_failed_write_leaves_the_old_file(tmp_path):
    target = tmp_path / "page.html"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with replacing(target, "w") as f:
            f.write("half of the new")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]
