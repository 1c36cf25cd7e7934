"""MkDocs hook: the reference pages' generated parts, made from the code at build time.

A page asks for a part with an HTML comment on a line of its own, replaced before Markdown runs:

    <!-- generated: cli -->                         every `detente` command's --help (ops.cli.build_parser)
    <!-- generated: model MODULE:CLASS -->           a pydantic model's fields (type, default, bounds, comment)
    <!-- generated: messages -->                     every message kind of the bus's union (bus.messages)
    <!-- generated: constants MODULE NAME ... -->    module constants with their values and comments
    <!-- generated: docstring MODULE -->             a module's docstring, verbatim in a text block
    <!-- generated: game NAME -->                    a game's reference: rules text, action vocabulary, observation
                                                     fields, tensor layout, talk items (games/registry.py)

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
              "docstring": lambda: module_docstring(*args), "game": lambda: game_reference(*args)}
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


# --- a game's reference page --------------------------------------------------------------------

_SAMPLE_SEED = 0
_SAMPLE_DECISIONS = 12  # decisions played (uniformly at random) before the sample observation


def _action_kind(action: str, known: set[tuple[str, ...]] | None = None) -> tuple[str, ...]:
    """The pattern of an action: numbers become `<n>`, names with a digit or a capital `<name>`;
    with `known` patterns, a lower-case word that stands where a known pattern has `<name>` merges."""
    if ":" not in action and " " in action:  # a spoken order ("A VEN S F TRI"): names are the longer words
        return tuple(" ".join("<name>" if len(t) >= 3 or t.isdigit() else t for t in action.split()).split(":"))
    tokens = action.split(":")
    kind = [tokens[0]] + ["<n>" if t.isdigit() else "<name>" if any(ch.isdigit() or ch.isupper() for ch in t)
                          else t for t in tokens[1:]]
    if re.fullmatch(r"\d+-\d+", tokens[0]) or any(ch.isupper() for ch in tokens[0]):
        kind[0] = "<name>"
    if known:
        for i in range(1, len(kind)):
            if kind[i] not in ("<n>", "<name>"):
                merged = tuple(kind[:i]) + ("<name>",) + tuple(kind[i + 1:])
                if merged in known:
                    return merged
    return tuple(kind)


def _shown_kind(kind: tuple[str, ...], actions: list[str]) -> str:
    """A kind as printed: a placeholder that every action of the kind fills with one word is that word."""
    sep = " " if ":" not in actions[0] and " " in actions[0] else ":"
    parts = ":".join(kind).split(sep)
    tokens = [action.split(sep) for action in actions]
    if all(len(t) == len(parts) for t in tokens):
        parts = [t if p in ("<n>", "<name>") and all(x[i] == t for x in tokens) else p
                 for i, (p, t) in enumerate(zip(parts, tokens[0]))]
    return sep.join(parts)


def _sample_play(game: Any, opts: Any) -> tuple[tuple[Any, int, int], list[str]]:
    """A short uniform-random game: (the state after a few decisions, a seat to act there, the
    decisions before it), and every legal action seen."""
    import random

    rng = random.Random(_SAMPLE_SEED)
    state = game.new_initial_state(opts)
    seen: set[str] = set()
    decisions = 0
    sample = None
    for _ in range(game.max_steps_for(opts)):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        players = state.current_players()
        legal = {p: state.legal_actions(p) for p in players}
        for actions in legal.values():
            seen.update(actions)
        decisions += 1
        if decisions <= _SAMPLE_DECISIONS:  # the last decision node up to there (a game may end sooner)
            sample = (state.clone(), players[0], decisions - 1)
        if decisions >= 4 * _SAMPLE_DECISIONS:
            break
        state.apply_actions({p: rng.choice(actions) for p, actions in legal.items()})
    if sample is None:
        sample = (state, 0, decisions)
    return sample, sorted(seen)


def _cell(text: str, width: int = 160) -> str:
    text = text.replace("|", "/").replace("\n", " ")
    return text if len(text) <= width else text[: width - 3] + "..."


def game_reference(name: str) -> str:
    """A game's reference: its rules text, action vocabulary (kinds with counts, examples and
    descriptions), the fields of a real observation (a short random game of the plugin's short
    options), the text view of it, the tensor layout where the game has VIEWS, and its talk items."""
    import json

    from games.api import ACTION_ENCODING, VIEWS
    from games.plugin import resolve
    from games.registry import get_game, get_plugin

    plugin = get_plugin(name)
    game = get_game(name)
    opts = game.options(dict(plugin.short_options))
    views = game.has(VIEWS, opts)
    out = [f"Game `{name}` (`{plugin.rules}`). Options used on this page: "
           f"`{json.dumps(opts.model_dump(mode='json'), sort_keys=True)}`.\n"]
    out.append("## Rules\n")
    rules = resolve(plugin.rules_text) if plugin.rules_text else (plugin.doc or "")
    out.append(f"```text\n{rules.strip()}\n```\n")
    out.append("## Options\n")
    try:
        out.append(model_table(f"{type(opts).__module__}:{type(opts).__name__}"))
    except (AttributeError, ImportError):  # an options model made at run time (a bridged game's)
        rows = ["| option | default |", "| --- | --- |"]
        rows += [f"| `{k}` | `{json.dumps(v)}` |" for k, v in sorted(opts.model_dump(mode="json").items())]
        out.append("\n".join(rows) + "\n")

    (state, seat, played), seen = _sample_play(game, opts)
    out.append("## Actions\n")
    if game.has(ACTION_ENCODING, opts):
        vocabulary = list(game.action_vocabulary(opts))
        out.append(f"The action vocabulary numbers **{len(vocabulary):,}** distinct actions "
                   f"(`num_distinct_actions`; action number i is the i-th of `action_vocabulary`, "
                   f"sorted). By kind:\n")
    else:
        vocabulary = seen
        out.append(f"This game declares no fixed vocabulary; the kinds below are those of the "
                   f"{len(vocabulary):,} legal actions met in a short random game.\n")
    plain = {_action_kind(a) for a in vocabulary}
    kinds: dict[tuple[str, ...], list[str]] = {}
    for action in vocabulary:
        kinds.setdefault(_action_kind(action, plain), []).append(action)
    rows = ["| kind | count | examples | what the first example does |", "| --- | ---: | --- | --- |"]
    for kind, actions in sorted(kinds.items(), key=lambda item: _shown_kind(*item)):
        picks = sorted({actions[0], actions[len(actions) // 2], actions[-1]}, key=actions.index)
        try:
            what = game.describe_action(opts, picks[0]) if views else ""
        except Exception:  # a vocabulary entry that the describer cannot read out of context
            what = ""
        rows.append(f"| `{_shown_kind(kind, actions)}` | {len(actions):,} | {', '.join(f'`{a}`' for a in picks)} | {_cell(what)} |")
    out.append("\n".join(rows[:2] + rows[2:62]) + "\n")
    if len(rows) > 62:
        out.append(f"({len(rows) - 62} more kinds not shown.)\n")

    observation = state.observation(seat)
    out.append("## Observation\n")
    out.append(f"A seat's observation is a JSON object. Its fields, with the values seat {seat} saw after "
               f"{played} random decisions (seed {_SAMPLE_SEED}):\n")
    rows = ["| field | type | example |", "| --- | --- | --- |"]
    for key in sorted(observation):
        value = observation[key]
        kind = "null" if value is None else type(value).__name__.replace("dict", "object").replace("list", "array")
        shown = json.dumps(value, sort_keys=True, ensure_ascii=False)
        rows.append(f"| `{key}` | {kind} | `{_cell(shown, 80).replace('`', '')}` |")
    out.append("\n".join(rows) + "\n")
    if views:
        text = game.observation_text(opts, seat, observation)
        lines = text.splitlines()
        if len(lines) > 40:
            lines = lines[:40] + [f"... ({len(lines) - 40} more lines)"]
        out.append("As text (`observation_text`, what a language model reads):\n")
        out.append("```text\n" + "\n".join(lines) + "\n```\n")

    out.append("## Tensor\n")
    if views:
        shape = tuple(game.observation_shape(opts))
        out.append(f"`observation_tensor` is a float32 array of shape `{shape}` for these options.\n")
        fields = _tensor_fields(game, opts)
        if fields:
            rows = ["| field | offsets | size | meaning |", "| --- | --- | ---: | --- |"]
            for fname, start, stop, meaning in fields:
                rows.append(f"| `{fname}` | {start}..{stop - 1} | {stop - start} | {_cell(meaning, 200)} |")
            out.append("\n".join(rows) + "\n")
        else:
            out.append("The game publishes no field table (`TENSOR_FIELDS`).\n")
    else:
        out.append("This game has no tensor view yet (no capability `views`).\n")

    out.append("## Talk\n")
    if game.talk_models:
        out.append("Besides the core's free-text `say`, the game's talk items (pydantic models):\n")
        for cls in game.talk_models:
            out.append(model_table(f"{cls.__module__}:{cls.__name__}"))
    else:
        out.append("The game has no talk items of its own.\n")
    return "\n".join(out)


def _tensor_fields(game: Any, opts: Any) -> tuple[tuple[str, int, int, str], ...] | None:
    """The tensor's field table: `tensor_fields(options)` or `TENSOR_FIELDS` of the views module
    beside the game's rules (`<package>.views`), else of the rules module itself."""
    rules_module = type(game).__module__
    for module_name in (rules_module.rpartition(".")[0] + ".views", rules_module):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if callable(getattr(module, "tensor_fields", None)):
            return tuple(module.tensor_fields(opts))
        if getattr(module, "TENSOR_FIELDS", None):
            return tuple(module.TENSOR_FIELDS)
    return None


if __name__ == "__main__":  # python docs/_generate.py --write | --check | PART [ARGS] (print one part)
    if sys.argv[1:] in (["--write"], ["--check"]):
        changed = stale(write=sys.argv[1] == "--write")
        for path in changed:
            print(f"{path.relative_to(ROOT)}: {'rewritten' if sys.argv[1] == '--write' else 'differs from the code'}")
        sys.exit(1 if changed and sys.argv[1] == "--check" else 0)
    os.environ["COLUMNS"] = WIDTH
    print(generate(sys.argv[1], sys.argv[2:]))
