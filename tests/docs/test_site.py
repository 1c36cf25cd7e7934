"""The documentation site builds strictly (what .ci/run does), a broken link fails that build, and
nothing a user reads (README, changelog, docs pages, the built site, every command's --help) names
an issue number, a session or a build item."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs"))
import _generate  # noqa: E402  (docs/_generate.py: the site's hook)

# A protocol's "session" (a connection's life) is a word of the trade; the process's sessions are
# named with a determiner ("this session", "earlier sessions'")
PROCESS_WORDS = re.compile(r"\bissues? #?\d+|\b(?:this|last|previous|earlier|later|next|other|each)\s+sessions?\b"
                           r"|\bbuild items?\b|\bthe brief\b", re.IGNORECASE)


def _build(config: Path, site: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
                           "--site-dir", str(site)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = _build(ROOT / "mkdocs.yml", out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _copy_site_sources(tmp: Path) -> Path:
    """mkdocs.yml and docs/ copied, so a test can break a page without touching the checkout."""
    shutil.copytree(ROOT / "docs", tmp / "docs", ignore=shutil.ignore_patterns("screenshots"))
    (tmp / "docs" / "screenshots").symlink_to(ROOT / "docs" / "screenshots")
    config = (ROOT / "mkdocs.yml").read_text()
    config = config.replace("  - docs/_generate.py", f"  - {tmp / 'docs' / '_generate.py'}")
    (tmp / "mkdocs.yml").write_text(config + f"\n# copied for a test\n")
    (tmp / "CHANGELOG.md").write_text((ROOT / "CHANGELOG.md").read_text())
    return tmp / "mkdocs.yml"


def test_site_builds_strict_with_generated_reference(site):
    cli = (site / "reference" / "cli" / "index.html").read_text()
    for command in ("detente play", "detente tournament run", "detente replay serve", "detente games"):
        assert command in cli
    assert "--max-year" not in cli or "diplomacy" in cli
    assert "<!-- generated:" not in cli
    log = (site / "reference" / "log" / "index.html").read_text()
    assert "message_bytes" in log and "MAX_FRAME" in log and "chance_seed" in log
    messages = (site / "reference" / "messages" / "index.html").read_text()
    assert "kb_change" in messages and "office_request" in messages
    api = (site / "reference" / "plugin-api" / "index.html").read_text()
    assert "GamePlugin" in api and "legal_actions" in api
    assert (site / "changelog" / "index.html").read_text().count("Keep a Changelog") >= 1


def test_broken_link_or_anchor_fails_the_strict_build(tmp_path):
    """One build with a link to a missing page and a link to a missing section: both are named."""
    config = _copy_site_sources(tmp_path / "src")
    page = tmp_path / "src" / "docs" / "tutorials" / "tournament.md"
    page.write_text(page.read_text() + "\nSee [the missing page](../reference/no-such-page.md) and "
                    "[a missing section](../design.md#no-such-section).\n")
    done = _build(config, tmp_path / "site")
    assert done.returncode != 0
    assert "no-such-page.md" in done.stderr and "no-such-section" in done.stderr
    assert "strict mode" in done.stdout + done.stderr


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _named(text: str) -> list[str]:
    return [text[max(0, m.start() - 60):m.end() + 30].replace("\n", " ") for m in PROCESS_WORDS.finditer(text)]


def test_no_process_words_in_what_users_read(site):
    found = {}
    sources = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for path in sources:
        hits = _named(path.read_text(encoding="utf-8"))
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    for page in sorted(site.rglob("*.html")):
        parser = _Text()
        parser.feed(page.read_text(encoding="utf-8"))
        hits = _named(" ".join(parser.parts))
        if hits:
            found[str(page.relative_to(site))] = hits
    for command, text in _generate.command_helps():
        hits = _named(text)
        if hits:
            found[command + " --help"] = hits
    assert not found, found


def test_the_process_word_check_catches_them():
    assert _named("as issue 18 said") and _named("in this session") and _named("build item 3")
    assert _named("Earlier sessions' runs") and _named("on the previous session's box")
    assert not _named("p0#4 joint vote; seed 18; the sessionless store; a protocol session; four session kinds")


def test_readme_is_short_and_its_links_resolve():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    lines = text.splitlines()
    assert lines[3].startswith("bash ops/quickstart.sh") and lines[4].startswith("bash .ci/run")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text) + re.findall(r'<img src="([^"]+)"', text)
    assert targets
    missing = [t for t in targets if "://" not in t and not (ROOT / t).exists()]
    assert not missing, missing


def test_every_dependency_is_explained_in_the_docs():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    named = list(project["dependencies"]) + [d for extra in project["optional-dependencies"].values() for d in extra]
    names = {re.match(r"[A-Za-z0-9_.-]+", d).group(0).lower() for d in named}
    page = (ROOT / "docs" / "reference" / "dependencies.md").read_text().lower()
    missing = sorted(n for n in names if f"`{n}`" not in page)
    assert not missing, f"pyproject names {missing}, docs/reference/dependencies.md does not say why"
