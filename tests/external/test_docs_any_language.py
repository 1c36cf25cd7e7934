"""The agent protocol's pages run as a reader would follow them.

docs/agents-any-language.md (from nothing to a 100-game tournament of one's own agent) and the
commands of docs/protocol.md: every marked block runs in order in a fresh folder that looks like a
checkout, with the page's own marks (the documentation's convention):

    <!-- run -->           a bash block, run with `bash -eu` (a python block: with Python)
    <!-- file: PATH -->    the block's text is written to PATH
    <!-- skip: WHY -->     not run, for the reason given (an install, a server left running)
    <!-- output -->        on a text block: every line of it is in the output of the last block run

Every bash, python and toml block must carry one of the first three. The tutorial is run whole,
its 100 games included (about 15 s of the page's 25 on two cores). The protocol page's worked
exchanges are checked too: each is valid for the models detente validates with, and the ones
recorded from `random.js` are what it answers today when sent the same requests.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from actors.external.protocol import AgentHello, Bye, GameStart, Hello, parse_answer
from bus.messages import MESSAGE
from tests.external.test_clients import JS, Client, need

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "agents-any-language.md"
PROTOCOL = ROOT / "docs" / "protocol.md"
MARK = re.compile(r"^<!--\s*(run|file|skip|output|example)\s*(?::\s*(.*?))?\s*-->\s*$")
FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)\s*$")
CHECKED = ("bash", "python", "toml")


@dataclass(frozen=True)
class Block:
    line: int
    lang: str
    text: str
    mark: str | None
    arg: str | None


def blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end] != fence.group(1):
            end += 1
        assert end < len(lines), f"{page.name}:{i + 1}: a code block that never closes"
        mark = MARK.match(lines[i - 1].strip()) if i else None
        out.append(Block(i + 1, fence.group(2), "\n".join(lines[i + 1:end]) + "\n",
                         mark and mark.group(1), mark and mark.group(2)))
        i = end + 1
    return out


def run_page(page: Path, where: Path, timeout: float = 240) -> list[tuple[Block, str]]:
    """Run the page's marked blocks in order in `where` (links to the checkout's entries, writes
    stay there); (block, its stdout and stderr) for each block run."""
    found = blocks(page)
    for b in found:
        assert b.lang not in CHECKED or b.mark in ("run", "file", "skip"), \
            f"{page.name}:{b.line}: a {b.lang} block without <!-- run -->, <!-- file: PATH --> or <!-- skip: WHY -->"
        assert b.mark != "skip" or b.arg, f"{page.name}:{b.line}: a skip gives its reason"
    for entry in sorted(ROOT.iterdir()):
        if entry.name not in ("out", ".git", "my-agent"):
            (where / entry.name).symlink_to(entry)
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    env["PATH"] = os.pathsep.join([str(ROOT / ".venv" / "bin"), str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("PYTHONPATH", None)
    ran: list[tuple[Block, str]] = []
    for n, b in enumerate(found):
        if b.mark == "file":
            target = where / b.arg
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(b.text, encoding="utf-8")
        elif b.mark == "run":
            argv = ["bash", "-eu", "-c", b.text] if b.lang == "bash" else [sys.executable, "-c", b.text]
            done = subprocess.run(argv, cwd=where, env=env, capture_output=True, text=True, timeout=timeout)
            said = done.stdout + done.stderr
            assert done.returncode == 0 and "Traceback (most recent call last)" not in said, \
                f"{page.name}:{b.line}: exited {done.returncode}\n--- block\n{b.text}--- output (end)\n{said[-3000:]}"
            ran.append((b, said))
        elif b.mark == "output":
            assert ran, f"{page.name}:{b.line}: an output block before any block was run"
            said = {line.rstrip() for line in ran[-1][1].splitlines()}
            for line in b.text.splitlines():
                assert line.rstrip() in said, \
                    f"{page.name}:{b.line}: the page shows {line!r}; the command said:\n{ran[-1][1]}"
    return ran


@pytest.mark.ray  # its tournament starts a local Ray (in the CLI's own process)
def test_the_tutorial_from_nothing_to_a_100_game_tournament(tmp_path):
    ran = run_page(TUTORIAL, tmp_path)
    assert len(ran) >= 9
    out = tmp_path / "my-agent"
    assert (out / "game.html").is_file()
    report = subprocess.run([str(ROOT / ".venv" / "bin" / "detente"), "tournament", "report", str(out / "tournament"),
                             "--format", "json"], capture_output=True, text=True, check=True, timeout=120)
    assert '"my-agent"' in report.stdout
    assert ran[-2][1].startswith("100 games recorded") and "0 with agent errors" in ran[-2][1]


def test_the_protocol_pages_commands(tmp_path):
    need("node")
    ran = run_page(PROTOCOL, tmp_path)
    assert len(ran) == 2
    assert "answers of external agents taken from the log (p0/fo 'random-js'" in ran[-1][1]


# -- the worked exchanges of docs/protocol.md --------------------------------------------------------


def examples() -> list[tuple[str, str, object, int]]:
    """(direction, group, the JSON, line) of each worked exchange, in page order."""
    out = []
    for b in blocks(PROTOCOL):
        if b.mark == "example":
            direction, group = b.arg.split()
            out.append((direction, group, json.loads(b.text), b.line))
    assert out
    return out


def test_every_worked_exchange_is_valid():
    kinds = set()
    for direction, group, obj, line in examples():
        if direction == "to-agent":
            kind = obj["kind"]
            model = {"hello": Hello, "game_start": GameStart, "bye": Bye}.get(kind)
            if model is not None:
                model.model_validate(obj)
            else:
                MESSAGE.validate_python(obj)  # a bus message, exactly as delivered and logged
        elif isinstance(obj, dict):
            AgentHello.model_validate(obj)
            kind = "hello"
        else:
            assert isinstance(obj, list), f"protocol.md:{line}: an answer is a JSON array"
            kind = "answer"
        kinds.add((direction, kind))
    wanted = {"hello", "game_start", "act_request", "talk_turn", "heard", "office_request", "game_end", "bye"}
    assert {k for d, k in kinds if d == "to-agent"} == wanted


def test_random_js_still_answers_as_the_page_shows():
    """The exchanges recorded from random.js, replayed: a fresh process given the page's requests
    in order answers each with the page's answer (its generator is seeded by game_start)."""
    node = need("node")
    groups: dict[str, list[tuple[str, object, int]]] = {}
    for direction, group, obj, line in examples():
        if group.startswith("random-js"):
            groups.setdefault(group, []).append((direction, obj, line))
    assert sorted(groups) == ["random-js-fo", "random-js-hanabi"]
    for group, exchange in sorted(groups.items()):
        hello = exchange[0][1]
        agent = Client([node, str(JS)], hello["address"])
        try:
            for i, (direction, obj, line) in enumerate(exchange):
                if direction != "to-agent":
                    continue
                agent.send((json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8"))
                if obj["kind"] in ("game_start", "game_end", "bye"):
                    continue
                said = json.loads(agent.line())
                direction_next, expected, _ = exchange[i + 1]
                assert direction_next == "from-agent", f"protocol.md:{line}: no answer shown"
                assert said == expected, f"protocol.md:{line}: random.js now answers {said}"
                if obj["kind"] != "hello":
                    request = MESSAGE.validate_python(obj)
                    parse_answer(json.dumps(said).encode(), hello["address"], request)  # detente accepts it
            if not any(d == "to-agent" and o.get("kind") == "bye" for d, o, _ in exchange):
                agent.send(b'{"kind":"bye"}\n')
            assert agent.finish() == (0, b""), "random.js exits after a bye, having written nothing more"
        finally:
            agent.kill()


def test_the_page_names_only_real_files():
    for page in (TUTORIAL, PROTOCOL):
        for path in sorted(set(re.findall(r"`((?:ops|actors|tests|bus|games)/[\w./-]+)`", page.read_text()))):
            assert (ROOT / path).exists(), f"{page.name} names {path}, which does not exist"
