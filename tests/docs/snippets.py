"""Runs the marked code blocks of a documentation page, in order, as a reader would.

A fenced block is marked by an HTML comment on the line before it (invisible on the site):

    <!-- run -->            a bash block runs with `bash -eu`, a python block with Python
    <!-- file: PATH -->     the block's text is written to PATH (relative to the page's folder)
    <!-- skip: WHY -->      not run, for a reason the page's source gives (the full-size run of a
                            command whose small form is run, an output to compare by eye)

Every bash, python and toml block of a page given to `check_marked` must carry one of the three,
so a new command cannot slip in untested. A page runs in a fresh folder that holds a link to every
top-level entry of the checkout (so `ops/examples/...` and `.venv/bin/...` work as in a checkout)
except `out/`, with `.venv/bin` first on PATH (`detente`, `python`, `pip`) and a local Ray without
a token file. The first block that fails raises SnippetError naming the page, its line and the
block's output.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARK = re.compile(r"^<!--\s*(run|file|skip)\s*(?::\s*(.*?))?\s*-->\s*$")
FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)")
CHECKED_LANGS = ("bash", "python", "toml")
NOT_LINKED = {"out", ".git"}
# a command that failed inside a pipeline (`detente ... | head`: bash sees only the last stage's
# status, and pipefail would fail on head closing the pipe early) still says so on stderr
FAILED = re.compile(r"^(Traceback \(most recent call last\)|detente: error:)", re.MULTILINE)


class SnippetError(AssertionError):
    """A marked block failed, or a page breaks the marking rules."""


@dataclass(frozen=True)
class Block:
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    mark: str | None  # "run", "file", "skip" or None
    arg: str | None  # the file's path, or the skip's reason


def blocks(markdown: str) -> list[Block]:
    """Every fenced block of a page with the mark on the line before it (if any)."""
    lines = markdown.splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        ticks, lang = fence.group(1), fence.group(2)
        end = i + 1
        while end < len(lines) and not lines[end].startswith(ticks):
            end += 1
        if end == len(lines):
            raise SnippetError(f"line {i + 1}: a code block that never closes")
        mark = MARK.match(lines[i - 1].strip()) if i > 0 else None
        out.append(Block(i + 1, lang, "\n".join(lines[i + 1:end]) + "\n", mark and mark.group(1),
                         mark and mark.group(2)))
        i = end + 1
    return out


def check_marked(page: str, found: list[Block]) -> None:
    """Every bash, python and toml block carries a mark; every mark is well formed."""
    for b in found:
        if b.lang in CHECKED_LANGS and b.mark is None:
            raise SnippetError(f"{page}:{b.line}: a {b.lang} block without <!-- run -->, <!-- file: PATH --> "
                               "or <!-- skip: WHY -->")
        if b.mark == "run" and b.lang not in ("bash", "python"):
            raise SnippetError(f"{page}:{b.line}: <!-- run --> on a {b.lang or 'plain'} block")
        if b.mark in ("file", "skip") and not b.arg:
            raise SnippetError(f"{page}:{b.line}: <!-- {b.mark}: ... --> needs its {'path' if b.mark == 'file' else 'reason'}")
        if b.mark == "run" and b.arg:
            raise SnippetError(f"{page}:{b.line}: <!-- run --> takes nothing")


def workdir(where: Path) -> Path:
    """A folder that looks like the checkout (links to its entries), but writes stay in it."""
    where.mkdir(parents=True, exist_ok=True)
    for entry in sorted(ROOT.iterdir()):
        if entry.name not in NOT_LINKED and not (where / entry.name).exists():
            (where / entry.name).symlink_to(entry)
    return where


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), str(ROOT / ".venv" / "bin"), env.get("PATH", "")])
    env["RAY_AUTH_MODE"] = "disabled"
    env.pop("PYTHONPATH", None)
    return env


def run_page(page: Path, where: Path, timeout: float = 240) -> int:
    """Run the page's marked blocks in order in a fresh checkout-like folder; the count of run blocks."""
    found = blocks(page.read_text(encoding="utf-8"))
    name = page.name
    check_marked(name, found)
    folder = workdir(where)
    env = environment()
    ran = 0
    for n, b in enumerate(found):
        if b.mark == "file":
            target = folder / b.arg
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(b.text, encoding="utf-8")
        elif b.mark == "run":
            if b.lang == "python":
                script = folder / f"_snippet_{n}.py"
                script.write_text(b.text, encoding="utf-8")
                argv = ["python", script.name]
            else:
                argv = ["bash", "-eu", "-c", b.text]
            try:
                done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                raise SnippetError(f"{name}:{b.line}: the {b.lang} block ran over {timeout:g} s") from None
            if done.returncode != 0 or FAILED.search(done.stderr):
                raise SnippetError(f"{name}:{b.line}: the {b.lang} block exited {done.returncode}\n"
                                   f"--- block\n{b.text}--- stdout (end)\n{done.stdout[-2000:]}"
                                   f"--- stderr (end)\n{done.stderr[-3000:]}")
            ran += 1
    return ran
