"""A language model as the judge inside an Alpha agent's Intelligence Office (`alphawolf:io=llm:...`).

The agent's own Intelligence Office still does its work (role predictions, its trust rules); after
it, whenever the seat heard something new, the model reads what was said (the game's text views and
the talk since its last judgment) and judges each other seat that spoke: honest, dishonest or
unsure, with a reason in one line. Each verdict moves that seat's trust by a scale-free step (times
1 + step, times 1 - step, or unchanged), bounded by the game's trust scale, and is recorded with its
reason in the knowledge base (`io.judged`), so the change and its cause are a `kb_change` of the
seat's IO. The call is a `model_call` record (purpose `judge`), replayed from the log like a seat's.
"""

from __future__ import annotations

import json
from typing import Any

from actors.alpha.offices import Answer, IntelligenceOffice, Office
from actors.llm import prompts
from actors.llm.agent import LLMOptions
from actors.llm.office import ModelOffice
from bus.messages import KBUpdate, Message, OfficeRequest

VERDICTS = ("honest", "dishonest", "unsure")
STEP = 0.2  # the relative change of trust a verdict makes (ours)
MAX_REASON = 200  # characters of a verdict's reason kept


class LLMIntelligenceOffice(ModelOffice, IntelligenceOffice):
    """The agent's own IO (`inner`), then the model's verdicts on what the others said."""

    def __init__(self, address: str, seed: int, game: str, seat: int, options: LLMOptions, inner: Office | None,
                 part: str = "all"):
        super().__init__(address, seed)
        from games.registry import get_plugin

        self.inner = inner
        self._model_setup(address, game, seat, options, part)
        scale = (get_plugin(game).quantities or {}).get("trust")
        self.top = float(scale[1]) if scale is not None and scale[1] is not None else 1.0
        self.judged: set[str] = set()  # the inbox lines already shown, as text (the inbox may be trimmed)

    def begin_game(self, header: dict[str, Any], seat: int) -> None:
        super().begin_game(header, seat)
        if self.inner is not None and hasattr(self.inner, "begin_game"):
            self.inner.begin_game(header, seat)

    def handle(self, message: Message) -> list[Message]:
        if isinstance(message, OfficeRequest) and message.task != "update" and self.inner is not None:
            return self.inner.handle(message)  # the inner office's other tasks, as they were
        self.pending = []
        out = super().handle(message)
        return self.pending + out

    def update(self, request: OfficeRequest) -> Answer:
        answer = self.inner.update(request) if isinstance(self.inner, IntelligenceOffice) else Answer()
        view = request.view
        new = self._new_lines(view.get("inbox") or ())
        if not new:
            return answer
        trust = dict(view.get("trust") or {})
        for u in answer.updates:  # the inner office's own trust update comes first
            if tuple(u.path) == ("trust",) and isinstance(u.value, dict):
                trust = dict(u.value)
        others = sorted({speaker for speaker, _, _ in new})
        schema = judge_schema(others)
        obs = view.get("observation") or {}
        self.memory.heard = [(channel, speaker, says) for speaker, channel, says in new]
        user = prompts.render(self.model.template, "io", heard=self.memory.take_heard(),
                              memory=self.memory.memory_text(),
                              observation=prompts.observation_text(self.game, self.game_options, self.seat, obs),
                              trust=_trust_lines(trust), seats=", ".join(str(q) for q in others),
                              schema=json.dumps(schema))
        messages = [{"role": "system", "content": self._system(obs)}, {"role": "user", "content": user}]
        record, verdicts = self.model.call("judge", messages, schema, lambda a: read_verdicts(a, others))
        self.pending.append(record)
        if not verdicts:
            return answer
        judged = {}
        for q, (verdict, why) in sorted(verdicts.items()):
            key = _key(trust, q)
            before = float(trust.get(key, self.top / 2))
            factor = 1 + STEP if verdict == "honest" else 1 - STEP if verdict == "dishonest" else 1.0
            trust[key] = round(min(self.top, max(0.0, before * factor)), 6)
            judged[str(q)] = {"verdict": verdict, "why": why, "before": round(before, 6), "after": trust[key]}
        self.memory.note(f"decision {request.turn}: you judged " + json.dumps(
            {q: v["verdict"] for q, v in judged.items()}, sort_keys=True))
        answer.updates = [*answer.updates, KBUpdate(path=("trust",), value=trust),
                          KBUpdate(path=("io", "judged"), value=judged)]
        return answer

    def _new_lines(self, inbox: Any) -> list[tuple[int, str, list[dict[str, Any]]]]:
        """The other seats' lines of the inbox not judged yet: (speaker, channel, items)."""
        out = []
        for entry in inbox:
            if not isinstance(entry, dict) or entry.get("speaker") == self.seat:
                continue
            text = json.dumps(entry, sort_keys=True, default=str)
            if text in self.judged:
                continue
            self.judged.add(text)
            out.append((int(entry.get("speaker", -1)), str(entry.get("channel", "")), list(entry.get("says") or ())))
        return out


def judge_schema(seats: list[int]) -> dict[str, Any]:
    """The answer to a judgment: a verdict and a reason for each seat that spoke."""
    item = {"type": "object", "properties": {"seat": {"type": "integer", "enum": list(seats)},
                                             "verdict": {"type": "string", "enum": list(VERDICTS)},
                                             "why": {"type": "string", "maxLength": MAX_REASON}},
            "required": ["seat", "verdict", "why"], "additionalProperties": False}
    return {"type": "object", "properties": {"judgments": {"type": "array", "items": item}},
            "required": ["judgments"], "additionalProperties": False}


def read_verdicts(answer: str, seats: list[int]) -> dict[int, tuple[str, str]]:
    """Each judged seat's verdict and reason (the first judgment of a seat counts). Raises Unusable."""
    value = prompts.json_object(answer)
    items = value.get("judgments") if isinstance(value, dict) else None
    if not isinstance(items, list):
        raise prompts.Unusable('the answer has no "judgments" list')
    out: dict[int, tuple[str, str]] = {}
    for item in items:
        if not isinstance(item, dict):
            continue
        q, verdict = item.get("seat"), item.get("verdict")
        if isinstance(q, int) and not isinstance(q, bool) and q in seats and verdict in VERDICTS and q not in out:
            why = " ".join(str(item.get("why", "")).split())[:MAX_REASON]
            out[q] = (verdict, why)
    if items and not out:
        raise prompts.Unusable(f"no judgment names a seat among {seats} with a verdict among {list(VERDICTS)}")
    return out


def _key(trust: dict[Any, Any], seat: int) -> Any:
    """The seat's key in the agent's trust map (as the agent keys it: text or number)."""
    if seat in trust:
        return seat
    return str(seat)


def _trust_lines(trust: dict[Any, Any]) -> str:
    if not trust:
        return "(no estimate yet)"
    return "\n".join(f"seat {k}: {v}" for k, v in sorted(trust.items(), key=lambda kv: str(kv[0])))
