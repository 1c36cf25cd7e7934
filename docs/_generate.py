"""MkDocs hook: the reference pages' generated parts, made from the code at build time.

A page asks for a part with an HTML comment on a line of its own, replaced before Markdown runs:

    <!-- generated: cli -->                         every `detente` command's --help (ops.cli.build_parser)
    <!-- generated: model MODULE:CLASS -->           a pydantic model's fields (type, default, bounds, comment)
    <!-- generated: messages -->                     every message kind of the bus's union (bus.messages)
    <!-- generated: constants MODULE NAME ... -->    module constants with their values and comments
    <!-- generated: docstring MODULE -->             a module's docstring, verbatim in a text block

So the CLI, spec, header and log-format reference cannot drift from the code: change a parser or a
model and the next `mkdocs build` shows it. tests/docs/ builds the site strictly in CI.

In the repository each part is also written out below its marker, up to a line `<!-- end
generated -->`, so a page read there is whole: `python docs/_generate.py --write` rewrites them
(every page under docs/), `--check` lists the pages whose written parts differ from the code's
(tests/docs/ runs it). The site's build replaces the written part with a fresh one either way.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import io
import os
import re
import sys
import typing
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MARKER = re.compile(r"^<!-- generated: (?P<what>[a-z]+)(?P<args>[^>]*)-->[ \t]*\n"
                    r"(?:(?P<written>(?:(?!<!-- generated:).*\n)*?)<!-- end generated -->[ \t]*(?:\n|$))?",
                    re.MULTILINE)
END = "<!-- end generated -->"
WIDTH = "100"  # columns argparse wraps the CLI's help to, so the written parts do not depend on a terminal


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace every generated-part marker of a page (and its written part) with what it names."""
    return MARKER.sub(lambda m: generate(m["what"], m["args"].split()).rstrip("\n") + "\n", markdown)


def written(markdown: str) -> str:
    """The page with each generated part written out below its marker, up to an end line."""
    def one(m: re.Match[str]) -> str:
        head = m.group(0)[: m.group(0).index("-->") + 3]
        return f"{head}\n{generate(m['what'], m['args'].split()).rstrip()}\n{END}\n"
    return MARKER.sub(one, markdown)


def pages() -> list[Path]:
    """Every page of the site that asks for a generated part."""
    return [p for p in sorted((ROOT / "docs").rglob("*.md")) if MARKER.search(p.read_text(encoding="utf-8"))]


def stale(write: bool = False) -> list[Path]:
    """The pages whose written parts differ from what the code makes now (rewritten if `write`)."""
    os.environ["COLUMNS"] = WIDTH
    out = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        fresh = written(text)
        if fresh != text:
            out.append(page)
            if write:
                page.write_text(fresh, encoding="utf-8")
    return out


def generate(what: str, args: list[str]) -> str:
    """The Markdown of one generated part (raises on an unknown part: the build fails)."""
    makers = {"cli": lambda: cli_reference(), "model": lambda: model_table(*args),
              "messages": lambda: message_kinds(), "constants": lambda: constants_table(*args),
              "docstring": lambda: module_docstring(*args)}
    if what not in makers:
        raise ValueError(f"unknown generated part {what!r}")
    return makers[what]()


# --- the command line -------------------------------------------------------------------------


def command_helps() -> list[tuple[str, str]]:
    """(command, its --help text) for `detente` and every subcommand, depth first, in parser order."""
    from ops.cli import build_parser

    out: list[tuple[str, str]] = []

    def walk(parser: argparse.ArgumentParser, words: list[str]) -> None:
        text = io.StringIO()
        with redirect_stdout(text):
            parser.print_help()
        out.append((" ".join(words), text.getvalue()))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(child, [*words, name])

    walk(build_parser(), ["detente"])
    return out


def cli_reference() -> str:
    parts = []
    for command, text in command_helps():
        level = "#" * min(2 + command.count(" "), 4)
        parts.append(f"{level} `{command}`\n\n```text\n{text.rstrip()}\n```\n")
    return "\n".join(parts)


# --- models -------------------------------------------------------------------------------------


def _comments(cls: type) -> dict[str, str]:
    """Trailing `# comment` of each field line in a class's source (what the code says a field is)."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    found = {}
    for line in source.splitlines():
        m = re.match(r"\s+(\w+)\s*:[^#]*#\s*(.+)$", line)
        if m and not m[2].startswith(("type:", "noqa")):
            found[m[1]] = m[2].strip()
    return found


def _type_name(annotation: Any) -> str:
    text = repr(annotation) if not isinstance(annotation, type) else annotation.__name__
    text = re.sub(r"typing\.|<class '([^']+)'>", lambda m: m[1] or "", text)
    text = re.sub(r"\b(?:[a-z_]+\.)+([A-Za-z_]+)", r"\1", text)
    text = re.sub(r"Annotated\[(\w+), [^\]]*\]\)?\]?", r"\1", text)
    return text.replace("NoneType", "None")


def _bounds(field: Any) -> str:
    names = {"ge": ">=", "gt": ">", "le": "<=", "lt": "<", "min_length": "min length", "max_length": "max length"}
    out = []
    for meta in field.metadata:
        for attr, word in names.items():
            value = getattr(meta, attr, None)
            if value is not None:
                out.append(f"{word} {value:,}" if isinstance(value, int) else f"{word} {value}")
    return ", ".join(out)


def model_table(reference: str) -> str:
    module_name, _, name = reference.partition(":")
    cls = getattr(importlib.import_module(module_name), name)
    comments = _comments(cls)
    doc = cls.__dict__.get("__doc__") or ""
    rows = ["| field | type | default | bounds | what |", "| --- | --- | --- | --- | --- |"]
    for fname, field in cls.model_fields.items():
        if field.is_required():
            default = "required"
        elif field.default_factory is not None:
            default = f"`{field.default_factory()!r}`"
        else:
            default = f"`{field.default!r}`"
        what = field.description or comments.get(fname, "")
        shown = field.alias or fname
        rows.append(f"| `{shown}` | `{_type_name(field.annotation)}` | {default} | {_bounds(field)} | "
                    f"{what.replace('|', '/')} |")
    title = f"**`{name}`** (`{module_name}`)" + (f": {doc.strip().splitlines()[0]}" if doc.strip() else "")
    return title + "\n\n" + "\n".join(rows) + "\n"


def message_kinds() -> str:
    from bus import messages

    union = typing.get_args(typing.get_args(messages.AnyMessage)[0])
    rows = ["| kind | model | what | fields |", "| --- | --- | --- | --- |"]
    for cls in union:
        kind = cls.model_fields["kind"].default
        fields = [f"`{n}`" for n in cls.model_fields if n not in ("kind", "sender", "to")]
        doc = (inspect.getdoc(cls) or "").replace("\n", " ").replace("|", "/")
        rows.append(f"| `{kind}` | `{cls.__name__}` | {doc} | {', '.join(fields)} |")
    return "\n".join(rows) + "\n"


def constants_table(module_name: str, *names: str) -> str:
    module = importlib.import_module(module_name)
    comments: dict[str, str] = {}
    for line in inspect.getsource(module).splitlines():
        m = re.match(r"(\w+)\s*=[^#]*#\s*(.+)$", line)
        if m:
            comments[m[1]] = m[2].strip()
    rows = ["| name | value | note |", "| --- | --- | --- |"]
    for name in names:
        value = getattr(module, name)
        shown = f"{value:,} ({value / 2**20:g} MiB)" if isinstance(value, int) and value >= 2**20 else repr(value)
        rows.append(f"| `{module_name}.{name}` | `{shown}` | {comments.get(name, '').replace('|', '/')} |")
    return "\n".join(rows) + "\n"


def module_docstring(module_name: str) -> str:
    doc = inspect.getdoc(importlib.import_module(module_name)) or ""
    return f"From `{module_name}`:\n\n```text\n{doc}\n```\n"


if __name__ == "__main__":  # python docs/_generate.py --write | --check | PART [ARGS] (print one part)
    if sys.argv[1:] in (["--write"], ["--check"]):
        changed = stale(write=sys.argv[1] == "--write")
        for path in changed:
            print(f"{path.relative_to(ROOT)}: {'rewritten' if sys.argv[1] == '--write' else 'differs from the code'}")
        sys.exit(1 if changed and sys.argv[1] == "--check" else 0)
    os.environ["COLUMNS"] = WIDTH
    print(generate(sys.argv[1], sys.argv[2:]))
