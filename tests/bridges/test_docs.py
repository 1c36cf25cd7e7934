"""The bridges' documentation pages: every marked command runs, in order, as a reader would
(tests/docs/snippets.py), in a checkout-like folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.snippets import run_page

DOCS = Path(__file__).parent.parent.parent / "docs" / "bridges"


@pytest.mark.ray
@pytest.mark.parametrize("page", ["openspiel.md", "pettingzoo.md"])
def test_page_commands_run(page, tmp_path):
    pytest.importorskip("pyspiel" if page == "openspiel.md" else "pettingzoo")
    assert run_page(DOCS / page, tmp_path / "work") >= 3
