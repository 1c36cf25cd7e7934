"""Every marked block of getting-started and the tutorials runs as shown (tests/docs/snippets.py),
and the runner fails on a broken snippet, an unmarked command and a command failing in a pipe."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.snippets import ROOT, SnippetError, blocks, run_page

PAGES = [ROOT / "docs" / "getting-started.md", *sorted((ROOT / "docs" / "tutorials").glob("*.md"))]
STARTS_RAY = ("tournament run", "ops.examples.quickstart")  # each such page starts a local Ray of its own


def _marks(page: Path) -> list:
    text = page.read_text(encoding="utf-8")
    return [pytest.mark.ray] if any(word in text for word in STARTS_RAY) else []


@pytest.mark.parametrize("page", [pytest.param(p, id=p.stem, marks=_marks(p)) for p in PAGES])
def test_page_runs(page, tmp_path):
    assert run_page(page, tmp_path / "work") >= 1, f"{page.name} has no <!-- run --> block"


def _page(tmp_path: Path, text: str) -> Path:
    page = tmp_path / "page.md"
    page.write_text(text)
    return page


def test_a_broken_snippet_fails(tmp_path):
    page = _page(tmp_path, "ok\n\n<!-- run -->\n```bash\ntrue\n```\n\n<!-- run -->\n```bash\ndetente play nosuchgame "
                           "--seed 1 --agents random --log x.log\n```\n")
    with pytest.raises(SnippetError, match=r"page.md:9: the bash block exited 2(.|\n)*nosuchgame"):
        run_page(page, tmp_path / "work")


def test_a_broken_python_snippet_fails(tmp_path):
    page = _page(tmp_path, "<!-- run -->\n```python\nfrom replay.walk import no_such_name\n```\n")
    with pytest.raises(SnippetError, match="ImportError"):
        run_page(page, tmp_path / "work")


def test_a_command_failing_inside_a_pipe_fails(tmp_path):
    page = _page(tmp_path, "<!-- run -->\n```bash\ndetente replay show missing.log | head -3\n```\n")
    with pytest.raises(SnippetError, match="detente: error"):
        run_page(page, tmp_path / "work")


def test_files_are_written_and_blocks_share_the_folder(tmp_path):
    page = _page(tmp_path, "<!-- file: pkg/data.txt -->\n```text\nhello\n```\n\n<!-- run -->\n```python\n"
                           "import pathlib\nassert pathlib.Path('pkg/data.txt').read_text() == 'hello\\n'\n"
                           "pathlib.Path('made.txt').write_text('x')\n```\n\n<!-- run -->\n```bash\ntest -f made.txt\n"
                           "test -f ops/examples/werewolves.toml\n```\n")
    assert run_page(page, tmp_path / "work") == 2
    assert not (ROOT / "made.txt").exists()


def test_every_command_block_must_be_marked(tmp_path):
    page = _page(tmp_path, "<!-- run -->\n```bash\ntrue\n```\n\n```bash\ndetente games\n```\n")
    with pytest.raises(SnippetError, match=r"page.md:6: a bash block without"):
        run_page(page, tmp_path / "work")
    skipped = _page(tmp_path, "<!-- skip: shown, not run -->\n```bash\nfalse\n```\n")
    assert run_page(skipped, tmp_path / "work2") == 0


def test_blocks_read_marks_and_fences():
    found = blocks("<!-- file: a.py -->\n```python\nx = 1\n```\n\ntext\n\n````text\n```\n````\n")
    assert [(b.lang, b.mark, b.arg, b.text) for b in found] == [("python", "file", "a.py", "x = 1\n"),
                                                              ("text", None, None, "```\n")]
