"""Prompts made from the game, not per game: templates, schemas, and reading an answer.

The system prompt is the plugin's rules text (its `doc` where it has none), the seat and its role;
each turn's prompt is the game's text view of the observation (`Game.observation_text`), the legal
actions with `Game.describe_action`, what was said to the seat since its last turn and a bounded
memory of its own turns. Answers are JSON under a schema: for a move, an object whose `action` is
an enum of the legal actions; for talk, a list of items under the union of the game's talk models
and the core's `say`. Everything here is a pure function of its arguments: a replay rebuilds the
same prompt byte for byte.
"""

from __future__ import annotations

import json
import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from games.api import Say, TalkItem

DEFAULT_TEMPLATE = Path(__file__).parent / "templates" / "default.txt"
SECTIONS = ("system", "act", "talk", "fo", "repair")
OPTIONAL = ("io",)  # sections a template may leave out: the default template's are used
MAX_TALK_ITEMS = 4  # items one answer may say in a round (ours; the bus allows more)
MAX_ERROR = 300  # characters of an error quoted back to the model


class TemplateError(ValueError):
    """A template file that cannot be used."""


@lru_cache(maxsize=32)
def load_template(path: str | None) -> dict[str, string.Template]:
    """The sections of a template file (the default one for None)."""
    file = Path(path) if path else DEFAULT_TEMPLATE
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise TemplateError(f"template {path!r}: {exc.strerror or exc}") from None
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        m = re.fullmatch(r"=== (\w+) ===\s*", line)
        if m:
            current = sections.setdefault(m.group(1), [])
        elif current is not None and not line.startswith("#"):
            current.append(line)
    missing = [s for s in SECTIONS if s not in sections]
    if missing:
        raise TemplateError(f"template {path or DEFAULT_TEMPLATE.name!r} has no section {', '.join(missing)}")
    out = {name: string.Template("\n".join(lines).strip("\n")) for name, lines in sections.items()}
    if path:
        default = load_template(None)
        out.update({name: default[name] for name in OPTIONAL if name not in out})
    return out


def render(template: dict[str, string.Template], section: str, **values: Any) -> str:
    try:
        return template[section].substitute({k: str(v) for k, v in values.items()})
    except (KeyError, ValueError) as exc:
        raise TemplateError(f"template section {section!r}: unknown or malformed placeholder {exc}") from None


def rules_text(game_name: str) -> str:
    """The plugin's rules text (mechanics only), its `doc` where it gives none."""
    from games.plugin import resolve
    from games.registry import get_plugin

    plugin = get_plugin(game_name)
    if plugin.rules_text:
        text = resolve(plugin.rules_text) if ":" in plugin.rules_text else plugin.rules_text
        return str(text).strip()
    return (plugin.doc or game_name).strip()


def role_line(seat: int, players: int, observation: dict[str, Any]) -> str:
    role = observation.get("role") if isinstance(observation, dict) else None
    line = f"You play seat {seat} (seats are numbered 0 to {players - 1})."
    if isinstance(role, str):
        line += f" Your role: {role}."
    return line


def action_schema(legal: tuple[str, ...]) -> dict[str, Any]:
    """The answer to a decision: one of the legal actions."""
    return {"type": "object", "properties": {"action": {"type": "string", "enum": list(legal)}},
            "required": ["action"], "additionalProperties": False}


def _clean(schema: Any) -> Any:
    """A pydantic JSON schema without titles and defaults (shorter prompts, the same constraints)."""
    if isinstance(schema, dict):
        return {k: _clean(v) for k, v in schema.items() if k not in ("title", "default")}
    if isinstance(schema, list):
        return [_clean(v) for v in schema]
    return schema


@lru_cache(maxsize=64)
def _talk_schema_text(models: tuple[type[TalkItem], ...]) -> str:
    variants, defs = [], {}
    for model in (*models, Say):
        s = _clean(model.model_json_schema(ref_template="#/$defs/{model}"))
        defs.update(s.pop("$defs", {}))
        s.pop("description", None)
        s["required"] = ["kind", *[r for r in s.get("required", []) if r != "kind"]]
        variants.append(s)
    schema: dict[str, Any] = {"type": "object", "properties": {"talk": {"type": "array", "items": {"anyOf": variants},
                                                                         "maxItems": MAX_TALK_ITEMS}},
                              "required": ["talk"], "additionalProperties": False}
    if defs:
        schema["$defs"] = defs
    return json.dumps(schema, sort_keys=True)


def talk_schema(models: tuple[type[TalkItem], ...]) -> dict[str, Any]:
    """The answer to a talk round: up to MAX_TALK_ITEMS items of the game's talk kinds or `say`."""
    return json.loads(_talk_schema_text(tuple(models)))


_LINES: dict[Any, dict[str, str]] = {}  # (game, options) -> action -> its line: describe_action is pure
MAX_LINES = 100_000  # lines kept per game and options (ours: a game's whole vocabulary for the built-in ones)


def _action_line(game: Any, options: Any, action: str) -> str:
    try:
        said = game.describe_action(options, action)
    except Exception:  # noqa: BLE001 (a game's view must not take the seat down: the action alone)
        said = action
    return json.dumps(action) if said == action else f"{json.dumps(action)}: {said}"


def actions_text(game: Any, options: Any, legal: tuple[str, ...]) -> str:
    """The legal actions, one a line, each with its description. A description is a pure function of
    the game's options and the action, so each line is made once a process and looked up after."""
    try:
        lines = _LINES.setdefault((game, options), {})
    except TypeError:  # options that cannot be hashed: made each time
        return "\n".join(_action_line(game, options, a) for a in legal)
    out = []
    for action in legal:
        line = lines.get(action)
        if line is None:
            line = _action_line(game, options, action)
            if len(lines) < MAX_LINES:
                lines[action] = line
        out.append(line)
    return "\n".join(out)


def moves_text(legal: tuple[str, ...]) -> str:
    """The legal actions as a comma-separated list of JSON strings."""
    return json.dumps(list(legal))[1:-1]


def observation_text(game: Any, options: Any, seat: int, observation: dict[str, Any]) -> str:
    try:
        return game.observation_text(options, seat, observation)
    except Exception:  # noqa: BLE001 (the generic view)
        return json.dumps(observation, sort_keys=True)


def bounded(text: str, limit: int) -> str:
    """`text` cut to its last `limit` characters (the most recent), saying so."""
    return text if len(text) <= limit else "[earlier cut]\n" + text[-limit:]


def quote(text: str, limit: int = 300) -> str:
    """Another seat's free text as the prompt shows it: one line, bounded, in JSON quotes."""
    return json.dumps(" ".join(str(text).split())[:limit], ensure_ascii=False)


def heard_text(lines: list[tuple[str, int, list[dict[str, Any]]]]) -> str:
    """What was said to the seat: (channel, speaker, items) in the order heard."""
    out = []
    for channel, speaker, says in lines:
        for item in says:
            if item.get("kind") == "say":
                out.append(f"[{channel}] seat {speaker} said: {quote(item.get('text', ''))}")
            else:
                out.append(f"[{channel}] seat {speaker}: {json.dumps(item, sort_keys=True, ensure_ascii=False)}")
    return "\n".join(out) or "(nothing)"


# --- reading answers --------------------------------------------------------------------------

class Unusable(ValueError):
    """An answer that cannot be used: the cause, in one line, as the model is told it."""


def json_object(answer: str) -> Any:
    """The JSON object in an answer: the whole text, else its first balanced {...} (models wrap
    JSON in prose or code fences where the server does not enforce the schema)."""
    text = answer.strip()
    try:
        return json.loads(text)
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    for start in [i for i, ch in enumerate(text) if ch == "{"][:64]:
        try:
            value, _ = decoder.raw_decode(text, start)
            return value
        except ValueError:
            continue
    raise Unusable("the answer is not JSON" + (f": {quote(text, 60)}" if text else " (it is empty)"))


def read_action(answer: str, legal: tuple[str, ...]) -> str:
    """The legal action an answer names. Raises Unusable."""
    value = json_object(answer)
    if not isinstance(value, dict) or "action" not in value:
        raise Unusable('the answer has no "action" field')
    action = value["action"]
    if not isinstance(action, str) or action not in legal:
        raise Unusable(f"{quote(str(action), 80)} is not one of the legal moves")
    return action


def read_talk(answer: str, models: tuple[type[TalkItem], ...]) -> tuple[list[TalkItem], list[str]]:
    """The talk items an answer says, and why any was dropped. Raises Unusable (no usable list)."""
    value = json_object(answer)
    if isinstance(value, dict) and isinstance(value.get("talk"), list):
        items = value["talk"]
    elif isinstance(value, list):
        items = value
    else:
        raise Unusable('the answer has no "talk" list')
    by_kind = {m.model_fields["kind"].default: m for m in (*models, Say)}
    kept: list[TalkItem] = []
    dropped: list[str] = []
    for item in items[:MAX_TALK_ITEMS]:
        kind = item.get("kind") if isinstance(item, dict) else None
        model = by_kind.get(kind) if isinstance(kind, str) else None
        if model is None:
            dropped.append(f"unknown talk kind {quote(str(kind), 40)}")
            continue
        if model is Say and isinstance(item.get("text"), str):
            item = {**item, "text": _say_text(item["text"])}
        try:
            kept.append(model.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            dropped.append(f"{kind}: {'.'.join(map(str, first['loc']))}: {first['msg']}"[:120])
    if len(items) > MAX_TALK_ITEMS:
        dropped.append(f"{len(items) - MAX_TALK_ITEMS} items past the {MAX_TALK_ITEMS} an answer may say")
    return kept, dropped


def _say_text(text: str) -> str:
    """Free text as every `say` holds it: control characters out, bounded to SAY_BYTES."""
    from games.api import SAY_BYTES

    clean = "".join(ch if ch.isprintable() or ch == " " else " " for ch in text).strip() or "..."
    data = clean.encode("utf-8", "ignore")[:SAY_BYTES]
    return data.decode("utf-8", "ignore") or "..."
