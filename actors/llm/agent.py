"""The `llm` agent: a model behind an OpenAI-compatible endpoint plays a seat, or one office.

Every call is one `model_call` record (bus.messages.ModelCall) the seat's actor sends to the log
before its move or talk: the prompt exactly as sent, the answer, tokens, latency, each failed try
and its cause. What the seat does is a pure function of that record (`ModelSeat.decide`), so a replay
that takes the record from the log (actors/llm/record.py) re-emits it byte for byte and makes the
same move without a server. An answer that is not usable (not JSON, an action not legal) is asked
again naming the error, at most `retries` times; then the rules' default applies: the seat sends an
action the rules refuse, which says why in one line, and the referee logs an error naming the seat
and applies the default (silence in a talk round).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

from actors.actor import Actor
from actors.address import player_address
from actors.llm import prompts
from actors.llm.client import MAX_ANSWER_CHARS, Client, client_for, safe_endpoint
from actors.llm.record import Recorded, current
from bus.codec import load
from bus.messages import LOG, REFEREE, Act, ActRequest, Heard, Message, ModelCall, Talk, TalkTurn, built

MAX_REPAIR_ECHO = 2000  # characters of an unusable answer shown back to the model with the error


class LLMOptions(BaseModel):
    """Options of the `llm` agent (and of an `llm` office)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    endpoint: str = Field(pattern=r"^https?://[^\s]+$", max_length=512)  # ".../v1"
    model: str = Field("default", max_length=200)
    key_env: str | None = Field(None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")  # the variable holding the key
    temperature: float = Field(0.0, ge=0, le=2)
    top_p: float | None = Field(None, gt=0, le=1)
    max_tokens: int = Field(200, ge=1, le=32_768)
    seed: int | None = None
    # json_schema: response_format {"type": "json_schema", ...} (OpenAI, vLLM); json_object: {"type":
    # "json_object", "schema": ...} (llama-cpp-python's server); none: the schema in the prompt only, parsed
    schema_style: Literal["json_schema", "json_object", "none"] = "json_schema"
    timeout: float = Field(30.0, gt=0, le=3600)  # seconds per HTTP try
    tries: int = Field(4, ge=1, le=20)  # HTTP tries of one ask (429, 5xx, timeout, cut: again with backoff)
    backoff: float = Field(0.5, ge=0, le=60)  # seconds before the second try where no Retry-After is sent (doubling)
    retries: int = Field(2, ge=0, le=10)  # asks again after an unusable answer, naming its error
    game_tokens: int | None = Field(None, ge=1)  # tokens (in + out) a game; then the rules' default, uncalled
    template: str | None = Field(None, max_length=1024)  # a template file (actors/llm/templates/default.txt)
    talk: bool = True  # takes part in talk rounds where the game has them
    memory_turns: int = Field(8, ge=0, le=1000)  # own earlier turns shown
    memory_chars: int = Field(2000, ge=0, le=100_000)
    heard_chars: int = Field(3000, ge=0, le=100_000)
    stream: bool = False  # server-sent events instead of one body


class ModelSeat:
    """The calls of one seat (or office) in one game: prompts, the client, records, the budget."""

    def __init__(self, address: str, seat: int, options: LLMOptions, recorded: Recorded | None):
        self.address = address
        self.seat = seat
        self.opts = options
        self.recorded = recorded
        self.template = prompts.load_template(options.template)
        self.client: Client | None = None
        self.calls = 0
        self.tokens = 0
        self.params = {"temperature": options.temperature, "top_p": options.top_p, "max_tokens": options.max_tokens,
                       "seed": options.seed, "schema_style": options.schema_style}

    def _body(self, schema: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {k: v for k, v in self.params.items() if k != "schema_style" and v is not None}
        style = self.opts.schema_style
        if style == "json_schema":
            body["response_format"] = {"type": "json_schema", "json_schema": {"name": "answer", "strict": True,
                                                                              "schema": schema}}
        elif style == "json_object":
            body["response_format"] = {"type": "json_object", "schema": schema}
        return body

    def call(self, purpose: str, messages: list[dict[str, str]], schema: dict[str, Any],
             parse: Callable[[str], Any]) -> tuple[ModelCall, Any]:
        """One call: its record and what it decided (None: the rules' default)."""
        n = self.calls
        self.calls += 1
        given = self.recorded.get(self.address, n) if self.recorded is not None else None
        if given is not None:
            record = self._given(given, messages, n)
        else:
            if self.recorded is not None and self.recorded.strict:
                raise RuntimeError(f"{self.address}: the log holds no model call {n} of this actor to replay")
            record = self._live(purpose, messages, schema, parse, n)
        self.tokens += record.tokens_in + record.tokens_out
        return record, decide(record, parse)

    def _given(self, given: dict[str, Any], messages: list[dict[str, str]], n: int) -> ModelCall:
        sent = [dict(m) for m in given.get("messages", ())]
        if sent[: len(messages)] != messages:
            raise RuntimeError(f"{self.address}: model call {n} of seat {self.seat}: the prompt built now is not "
                               f"the recorded one (a changed template, game view or agent option?)")
        record = load(given)
        assert isinstance(record, ModelCall)
        return record

    def _live(self, purpose: str, messages: list[dict[str, str]], schema: dict[str, Any],
              parse: Callable[[str], Any], n: int) -> ModelCall:
        opts = self.opts
        convo = [dict(m) for m in messages]
        tries: list[dict[str, Any]] = []
        answer = finish = None
        tin = tout = latency = 0
        outcome = "default"
        body = self._body(schema)
        for ask in range(opts.retries + 1):
            if opts.game_tokens is not None and self.tokens + tin + tout >= opts.game_tokens:
                tries.append({"cause": f"budget: {self.tokens + tin + tout:,} of {opts.game_tokens:,} tokens a game "
                                       "spent", "latency_ms": 0, "status": None})
                break
            if self.client is None:
                self.client = client_for(opts.endpoint, opts.model, opts.key_env, opts.timeout, opts.stream)
            reply = self.client.complete(convo, body, opts.tries, opts.backoff)
            tries += [t.to_json() for t in reply.tries]
            tin, tout, latency = tin + reply.tokens_in, tout + reply.tokens_out, latency + reply.latency_ms
            if reply.answer is None:
                answer = finish = None
                break
            answer, finish = reply.answer, reply.finish_reason
            if len(answer) > MAX_ANSWER_CHARS:
                tries.append({"cause": f"answer of {len(answer):,} characters cut to {MAX_ANSWER_CHARS:,}",
                              "latency_ms": 0, "status": 200})
                answer = answer[:MAX_ANSWER_CHARS]
            try:
                parse(answer)
                outcome = "ok" if ask == 0 else "repaired"
                break
            except prompts.Unusable as exc:
                cause = str(exc)[: prompts.MAX_ERROR]
                if finish == "length":
                    cause = f"the answer was cut at max_tokens={opts.max_tokens} ({cause})"[: prompts.MAX_ERROR]
                tries.append({"cause": f"unusable answer: {cause}", "latency_ms": reply.latency_ms, "status": 200})
                if ask == opts.retries:
                    break
                convo = convo + [{"role": "assistant", "content": answer[:MAX_REPAIR_ECHO]},
                                 {"role": "user", "content": prompts.render(
                                     self.template, "repair", error=cause, schema=json.dumps(schema))}]
        return ModelCall(sender=self.address, to=LOG, seat=self.seat, call=n, purpose=purpose,
                         endpoint=safe_endpoint(opts.endpoint), model=opts.model, params=self.params,
                         messages=tuple(convo), answer=answer, finish_reason=finish, tokens_in=tin, tokens_out=tout,
                         latency_ms=latency, tries=tuple(tries), outcome=outcome)


def decide(record: ModelCall, parse: Callable[[str], Any]) -> Any:
    """What a call decided: its answer parsed, or None where the rules' default applies."""
    if record.outcome == "default" or record.answer is None:
        return None
    try:
        return parse(record.answer)
    except prompts.Unusable:
        return None


def give_up(record: ModelCall) -> str:
    """The refused action that makes the referee log why the seat got the rules' default, in one line."""
    causes = [str(t.get("cause", "")) for t in record.tries] or ["no answer"]
    return f"no usable answer from the model after {len(causes)} failed tries: {causes[-1]}"[:240]


class Memory:
    """A seat's own earlier turns (the last K, bounded in characters) and what it heard since its turn."""

    def __init__(self, turns: int, chars: int, heard_chars: int):
        self.turns, self.chars, self.heard_chars = turns, chars, heard_chars
        self.own: list[str] = []
        self.heard: list[tuple[str, int, list[dict[str, Any]]]] = []

    def note(self, line: str) -> None:
        self.own.append(line)
        del self.own[: max(0, len(self.own) - self.turns)]

    def memory_text(self) -> str:
        return prompts.bounded("\n".join(self.own), self.chars) if self.own and self.turns else "(none yet)"

    def take_heard(self) -> str:
        text = prompts.bounded(prompts.heard_text(self.heard), self.heard_chars)
        self.heard = []
        return text


class LLMActor(Actor):
    """A whole seat played by a model: a move per act request, talk per talk round."""

    def __init__(self, address: str, seed: int, game: str, seat: int, options: LLMOptions, part: str = "all"):
        super().__init__(address, seed)
        from games.registry import get_game

        self.game_name = game
        self.game = get_game(game)
        self.seat = seat
        self.opts = options
        from games.api import TALK

        self.speaks = options.talk and TALK in self.game.capabilities
        context = current()
        self.header = context.header if context is not None else None
        self.model = ModelSeat(address, seat, options, context.source_for(part) if context is not None else None)
        self.memory = Memory(options.memory_turns, options.memory_chars, options.heard_chars)
        self.system: str | None = None
        self.game_options = self.game.options((self.header or {}).get("options"))

    def begin_game(self, header: dict[str, Any], seat: int) -> None:
        self.header = header
        self.game_options = self.game.options(header.get("options"))

    def _system(self, observation: dict[str, Any]) -> str:
        if self.system is None:
            players = len((self.header or {}).get("agents") or ()) or int(observation.get("num_players") or 0) \
                or self.seat + 1
            self.system = prompts.render(self.model.template, "system", game=self.game_name,
                                         rules=prompts.rules_text(self.game_name), seat=self.seat, players=players,
                                         role=prompts.role_line(self.seat, players, observation))
        return self.system

    def handle(self, message: Message) -> list[Message]:
        if isinstance(message, ActRequest):
            return self._act(message)
        if isinstance(message, TalkTurn):
            return self._talk(message)
        if isinstance(message, Heard):
            for line in message.lines:
                if line.speaker != self.seat:
                    self.memory.heard.append((message.channel, line.speaker,
                                              [item.model_dump(mode="json") for item in line.says]))
        return []

    def _act(self, request: ActRequest) -> list[Message]:
        legal = tuple(request.legal)
        schema = prompts.action_schema(legal)
        obs = request.observation
        user = prompts.render(self.model.template, "act", heard=self.memory.take_heard(),
                              memory=self.memory.memory_text(),
                              observation=prompts.observation_text(self.game, self.game_options, self.seat, obs),
                              actions=prompts.actions_text(self.game, self.game_options, legal),
                              moves=prompts.moves_text(legal), schema=json.dumps(schema))
        messages = [{"role": "system", "content": self._system(obs)}, {"role": "user", "content": user}]
        record, action = self.model.call("act", messages, schema, lambda a: prompts.read_action(a, legal))
        if action is None:
            action = give_up(record)
        else:
            self.memory.note(f"decision {request.turn}: you played {json.dumps(action)}")
        return [record, built(Act, {"sender": self.address, "to": REFEREE, "kind": "act", "turn": request.turn,
                                    "action": action})]

    def _talk(self, turn: TalkTurn) -> list[Message]:
        models = tuple(self.game.talk_models)
        schema = prompts.talk_schema(models)
        obs = turn.observation
        user = prompts.render(self.model.template, "talk", channel=turn.channel, round=turn.round,
                              max_rounds=turn.max_rounds, heard=self.memory.take_heard(),
                              memory=self.memory.memory_text(),
                              observation=prompts.observation_text(self.game, self.game_options, self.seat, obs),
                              schema=json.dumps(schema))
        messages = [{"role": "system", "content": self._system(obs)}, {"role": "user", "content": user}]
        record, said = self.model.call("talk", messages, schema, lambda a: prompts.read_talk(a, models))
        says = tuple(said[0]) if said is not None else ()
        if says:
            self.memory.note(f"decision {turn.turn}, {turn.channel} round {turn.round}: you said "
                             + json.dumps([s.model_dump(mode="json") for s in says], ensure_ascii=False)[:400])
        return [record, Talk(sender=self.address, to=REFEREE, turn=turn.turn, channel=turn.channel, round=turn.round,
                             says=says)]


def build(game: str, seat: int, seed: int, options: dict[str, Any], part: str = "all") -> list[Actor]:
    """The one actor of a seat the `llm` agent plays (an AgentDef.build)."""
    return [LLMActor(player_address(seat), seed, game, seat, LLMOptions.model_validate(options), part)]
