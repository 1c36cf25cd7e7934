"""A language model as the Foreign Office of an Alpha agent (`alphawolf:fo=llm:...`, `generic:fo=llm:...`).

Cicero's shape: the Strategy Office plans, the model talks. On each talk round the President asks
its Foreign Office to negotiate; this office shows the model the game's rules and the seat's
observation (the game's text views), the Strategy Office's suggestions, the Intelligence Office's
trust in each player, the deals of the turn and what was said since the last round, and answers
with the talk items the model chose (free text and the game's own deals, validated by the game's
talk models). The President keeps or breaks what was agreed like any Foreign Office's deals; when
the decision comes (`talk.closing`) nothing is asked. Each call is a `model_call` record, replayed
from the log like a seat's (actors/llm/agent.py).
"""

from __future__ import annotations

import json
from typing import Any

from actors.address import office_address
from actors.alpha.offices import Answer, ForeignOffice
from actors.llm import prompts
from actors.llm.agent import LLMOptions, Memory, ModelSeat
from actors.llm.record import current
from bus.messages import KBUpdate, OfficeRequest, OfficeReply


class ModelOffice:
    """What an office played by a model holds: the game, its options from the header, the seat's
    model calls and memory, and the system prompt made once (shared by fo=llm and io=llm)."""

    def _model_setup(self, address: str, game: str, seat: int, options: LLMOptions, part: str) -> None:
        from games.registry import get_game

        self.game_name, self.game, self.seat = game, get_game(game), seat
        context = current()
        header = context.header if context is not None else None
        self.players = len((header or {}).get("agents") or ())
        self.game_options = self.game.options((header or {}).get("options"))
        self.model = ModelSeat(address, seat, options, context.source_for(part) if context is not None else None)
        self.memory = Memory(options.memory_turns, options.memory_chars, options.heard_chars)
        self.system: str | None = None
        self.pending: list[Any] = []  # the model_call records of the request being answered

    def begin_game(self, header: dict[str, Any], seat: int) -> None:
        self.players = len(header.get("agents") or ())
        self.game_options = self.game.options(header.get("options"))

    def _system(self, obs: dict[str, Any]) -> str:
        if self.system is None:
            players = self.players or int(obs.get("num_players") or 0) or self.seat + 1
            self.system = prompts.render(self.model.template, "system", game=self.game_name,
                                         rules=prompts.rules_text(self.game_name), seat=self.seat, players=players,
                                         role=prompts.role_line(self.seat, players, obs))
        return self.system


class LLMForeignOffice(ModelOffice, ForeignOffice):
    """Negotiates with a model: talk items chosen under the game's talk schema."""

    def __init__(self, address: str, seed: int, game: str, seat: int, options: LLMOptions, part: str = "all"):
        super().__init__(address, seed)
        self._model_setup(address, game, seat, options, part)
        self.seen = 0  # inbox entries already shown

    def handle(self, message):
        self.pending = []
        out = super().handle(message)
        return self.pending + out

    def negotiate(self, request: OfficeRequest) -> Answer:
        view = request.view
        talk = view.get("talk") or {}
        if talk.get("closing"):
            return Answer()
        obs = view.get("observation") or {}
        inbox = list(view.get("inbox") or ())
        for entry in inbox[self.seen:]:
            if isinstance(entry, dict) and entry.get("speaker") != self.seat:
                self.memory.heard.append((str(entry.get("channel", "")), int(entry.get("speaker", -1)),
                                          list(entry.get("says") or ())))
        self.seen = len(inbox)
        models = tuple(self.game.talk_models)
        schema = prompts.talk_schema(models)
        user = prompts.render(
            self.model.template, "fo", channel=talk.get("channel", ""), round=talk.get("round", 0),
            heard=self.memory.take_heard(), memory=self.memory.memory_text(),
            observation=prompts.observation_text(self.game, self.game_options, self.seat, obs),
            suggestions=self._suggestions(view.get("suggestions")), trust=self._trust(view.get("trust")),
            deals=pacts_text(view, request.turn) if _has_pacts(view) else
            json.dumps(view.get("deals") or {}, sort_keys=True)[:2000], schema=json.dumps(schema))
        messages = [{"role": "system", "content": self._system(obs)}, {"role": "user", "content": user}]
        record, said = self.model.call("talk", messages, schema, lambda a: prompts.read_talk(a, models))
        self.pending.append(record)
        says = list(said[0]) if said is not None else []
        if says:
            self.memory.note(f"decision {request.turn}, {talk.get('channel', '')} round {talk.get('round', 0)}: you "
                             "said " + json.dumps([s.model_dump(mode="json") for s in says], ensure_ascii=False)[:400])
        updates = pact_updates(view, says) if _has_pacts(view) else []
        return Answer(says=says, updates=updates)

    def _suggestions(self, suggestions: Any) -> str:
        lines = []
        for s in suggestions or ():
            action = s.get("action") if isinstance(s, dict) else getattr(s, "action", None)
            utility = s.get("utility") if isinstance(s, dict) else getattr(s, "utility", None)
            if isinstance(action, str):
                said = prompts.actions_text(self.game, self.game_options, (action,))
                lines.append(f"{said} (utility {utility})")
        return "\n".join(lines[:20]) or "(none)"

    @staticmethod
    def _trust(trust: Any) -> str:
        if not isinstance(trust, dict) or not trust:
            return "(no estimate)"
        return "\n".join(f"seat {k}: {v}" for k, v in sorted(trust.items(), key=lambda kv: str(kv[0])))


# -- pacts: the generic agent's deals (actors/alpha/generic/pacts.py), said as free text --------------

MAX_PACT_LINES = 12  # candidate pacts and ledger entries shown (ours)


def _has_pacts(view: dict[str, Any]) -> bool:
    """A President that keeps a pact ledger (the generic agent) shows its office `pacts` or `deal_values`."""
    return "pacts" in view or "deal_values" in view


def pacts_text(view: dict[str, Any], turn: int) -> str:
    """The pact format, the Strategy Office's candidate pacts with their gains, and the ledger."""
    from actors.alpha.generic import pacts as P

    seat = int(view.get("seat", -1))
    lines = [f"Deals here are pacts: seats commit to actions at numbered decisions (this is decision {turn}). A pact "
             "is said as free text (a say item) whose text is `pact ` and a JSON object: {\"commitments\": [[seat, "
             "decision, action], ...], \"id\": ID, \"stage\": \"propose\" | \"accept\" | \"reject\"}. Propose with "
             f"a new id (\"{seat}-{turn}-N\"); accept or reject an offer with its id and commitments."]
    values = [v for v in view.get("deal_values") or () if isinstance(v, dict) and v.get("commitments")]
    if values:
        lines.append("Pacts your strategists value (the text to say; each seat's gain if kept, yours if broken):")
        for k, v in enumerate(values[:MAX_PACT_LINES]):
            commitments = tuple(tuple(c) for c in v["commitments"])
            gains = ", ".join(f"seat {q} {float(g):+.3f}" for q, g in sorted((v.get("gain") or {}).items()))
            text = P.Pact(f"{seat}-{turn}-{k}", "propose", commitments).text()
            lines.append(f"  {text} | {gains} | if broken {float(v.get('gain_if_broken', 0.0)):+.3f}")
    ledger = view.get("pacts") or {}
    if ledger:
        lines.append("Pacts so far:")
        for pid, entry in sorted(ledger.items())[-MAX_PACT_LINES:]:
            lines.append(f"  {pid} by seat {entry.get('proposer')}: {json.dumps(entry.get('commitments'))} "
                         f"({entry.get('status')})")
    return "\n".join(lines)


def pact_updates(view: dict[str, Any], says: list[Any]) -> list[KBUpdate]:
    """The ledger updates of a talk round: what the seat heard (offers to it, answers to its own),
    then what the model said (its proposals, its answers to offers)."""
    from actors.alpha.generic import pacts as P
    from actors.alpha.generic.offices import ledger_updates

    seat = int(view.get("seat", -1))
    updates = ledger_updates(view.get("pacts") or {}, view.get("inbox", ()), seat)
    ledger = dict(view.get("pacts") or {})
    for u in updates:
        ledger[u.path[1]] = u.value
    for item in says:
        pact = P.parse(getattr(item, "text", None)) if getattr(item, "kind", None) == "say" else None
        if pact is None or seat not in pact.parties():
            continue
        entry = ledger.get(pact.id)
        if pact.stage == "propose" and entry is None:
            entry = {"proposer": seat, "commitments": [list(c) for c in pact.commitments], "status": "proposed",
                     "accepted": []}
        elif pact.stage in ("accept", "reject") and entry is not None and entry.get("status") == "offered":
            entry = {**entry, "status": "confirmed" if pact.stage == "accept" else "rejected"}
        else:
            continue
        ledger[pact.id] = entry
        updates.append(KBUpdate(path=("pacts", pact.id), value=entry))
    return updates


def replace_offices(actors: list[Any], game: str, seat: int, seed: int, offices: dict[str, dict[str, Any]],
                    agent: str, part: str = "all") -> list[Any]:
    """An Alpha agent's actors with the offices `offices` names played by a model: the Foreign Office
    (fo=llm: the model negotiates), or the judge in the Intelligence Office (io=llm: the agent's own
    IO runs first, then the model's verdicts on what the others said move its trust)."""
    from actors.llm.intelligence import LLMIntelligenceOffice
    from actors.registry import AgentSpecError

    by_address = {a.address: i for i, a in enumerate(actors)}
    out = list(actors)
    for role, inner in sorted(offices.items()):
        if role not in ("fo", "io"):
            raise AgentSpecError(f"agent {agent!r}: a language model plays the Foreign Office (fo=llm:...) or judges "
                                 f"in the Intelligence Office (io=llm:...), not {role}")
        address = office_address(seat, role)
        if address not in by_address:
            raise AgentSpecError(f"agent {agent!r} has no {role} office switched on to hand to a model (add it to offices=)")
        options = LLMOptions.model_validate(dict(inner.get("options") or {}))
        if role == "fo":
            out[by_address[address]] = LLMForeignOffice(address, seed, game, seat, options, part)
        else:
            out[by_address[address]] = LLMIntelligenceOffice(address, seed, game, seat, options,
                                                             actors[by_address[address]], part)
    return out


__all__ = ["LLMForeignOffice", "OfficeReply", "replace_offices"]
