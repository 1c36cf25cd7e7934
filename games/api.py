"""The Game/State API every game implements: pure rules, no I/O, no clock, no global randomness.

A game is a `Game` (metadata, options model, factory) and a `State` (whose turn, legal actions,
apply, chance as explicit outcomes, observation per player, serialisation, digest). Every node is
one of: terminal, chance (the referee samples an outcome with its own seeded generator and logs
it), or a decision for a set of players who act simultaneously (a sequential game has one).

Actions are JSON strings; `legal_actions` returns them sorted and unique. Talk (negotiation) is
not an action: a state names the channels open before its decision (`talk`), and the game's talk
vocabulary is a list of pydantic models (`Game.talk_models`).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from collections.abc import Hashable
from typing import Any, ClassVar, Literal

import msgpack
from pydantic import BaseModel, ConfigDict, Field, field_validator

# Capability flags: conformance checks decide what applies from these, never from game names.
SIMULTANEOUS = "simultaneous"  # more than one player may act at one node
CHANCE = "chance"  # the game has chance nodes (deals, dice, shuffles)
PRIVATE_INFORMATION = "private_information"  # observations differ per player
TALK = "talk"  # some nodes open talk channels
TALK_STATE = "talk_state"  # talk changes the state (e.g. the rules confirm deals): see apply_talk
OBSERVATION_STATE = "observation_state"  # Game.state_from_observation rebuilds a state from one observation
ACTION_ENCODING = "action_encoding"  # Game.action_vocabulary numbers every action (encode_action / decode_action)
VIEWS = "views"  # Game.describe_action, observation_text, observation_shape and observation_tensor are the game's own

ABSTAIN = "abstain"  # conventional default action name where a game has one


class IllegalAction(ValueError):
    """An action or chance outcome that the rules do not allow at this node."""


class Options(BaseModel):
    """Base of every game's options model: frozen, unknown keys rejected."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class TalkItem(BaseModel):
    """Base of every game's talk vocabulary; subclasses set `kind: Literal[...]`."""

    model_config = ConfigDict(frozen=True, extra="forbid")


SAY_BYTES = 1000  # the most UTF-8 bytes one `say` item holds (ours: a few sentences)


class Say(TalkItem):
    """Free text to the whole channel: cheap talk that every game with talk accepts and no rules
    read (it changes no state), so an agent that negotiates in natural language is logged and
    transcribed beside the game's structured deals. The core owns this kind; no game may take it."""

    kind: Literal["say"] = "say"
    text: str = Field(min_length=1, max_length=SAY_BYTES)

    @field_validator("text")
    @classmethod
    def _bounded(cls, text: str) -> str:
        if len(text.encode("utf-8", "surrogatepass")) > SAY_BYTES:
            raise ValueError(f"at most {SAY_BYTES} UTF-8 bytes")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("not valid UTF-8 text (a lone surrogate)") from None
        return text


CHEAP_TALK = frozenset({"say"})  # talk kinds the referee keeps without asking the rules


@dataclass(frozen=True)
class TalkSpec:
    """Channels open before a decision: channel name -> sorted members, and a round limit."""

    channels: dict[str, tuple[int, ...]]
    max_rounds: int


@dataclass(frozen=True)
class Outcome:
    """Per-player returns of a finished game, plus a short public description.

    `ranks` (1 = best, ties share the mean rank), `roles` (one per seat) and `teams` (the sides,
    each a sorted tuple of seats) are typed; None means: ranks from returns, no roles, the game's
    `Game.teams`. `extra` holds other game-specific facts for reports."""

    returns: tuple[float, ...]
    winners: tuple[int, ...]
    summary: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    ranks: tuple[float, ...] | None = None
    roles: tuple[str, ...] | None = None
    teams: tuple[tuple[int, ...], ...] | None = None


class State:
    """A game position. Subclasses implement the methods below; all are pure."""

    def current_players(self) -> list[int]:
        """Players who must act at this node, sorted; empty at terminal and chance nodes."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        """The game is over: no player acts and no chance outcome is drawn here."""
        raise NotImplementedError

    def is_chance(self) -> bool:
        """This node draws a chance outcome (`sample_chance`, then `apply_chance`) before anyone acts."""
        raise NotImplementedError

    def sample_chance(self, rng: random.Random) -> Any:
        """Draw a chance outcome (a JSON value) with the caller's generator."""
        raise NotImplementedError

    def apply_chance(self, outcome: Any) -> None:
        """Apply a chance outcome; raises IllegalAction for an outcome the rules cannot produce."""
        raise NotImplementedError

    def legal_actions(self, player: int) -> list[str]:
        """Sorted, unique legal actions of `player` at this node (empty if not to act)."""
        raise NotImplementedError

    def legal_actions_key(self, player: int) -> Hashable | None:
        """A hashable equal at two nodes (of one game and options) only where `legal_actions(player)`
        is equal, for callers that keep something per set of legal actions (the PettingZoo
        environments keep an action mask); None, the default, where the game offers none. A game
        offers one where it is cheaper than the list."""
        return None

    def why_illegal(self, player: int, action: str) -> str | None:
        """A reason `action` is not legal for `player` here (for the error event), if the rules can say."""
        return None

    def default_action(self, player: int) -> str:
        """What the rules apply for a player who failed to act (abstain or its equivalent)."""
        raise NotImplementedError

    def apply_actions(self, actions: dict[int, str]) -> None:
        """Apply one action per current player; raises IllegalAction on a bad or missing one."""
        raise NotImplementedError

    def talk(self) -> TalkSpec | None:
        """Talk channels open before this node's decision, or None."""
        return None

    def validate_talk(self, player: int, channel: str, item: TalkItem) -> str | None:
        """Why `player` may not say `item` on `channel` now (dropped with a logged reason), or None."""
        return None

    def talk_audience(self, player: int, channel: str, item: TalkItem) -> tuple[int, ...] | None:
        """Who hears `item` besides its speaker (private press), or None for the whole channel."""
        return None

    def apply_talk(self, player: int, channel: str, item: TalkItem) -> None:
        """Fold a valid talk item into the state (games with TALK_STATE: e.g. confirm a deal).

        The referee applies the kept items of a closed round in speaker order and logs them with
        the state digest, so replay folds talk like any other event."""

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` knows now, as JSON-ready data with string keys."""
        raise NotImplementedError

    def resample_hidden(self, player: int, rng: random.Random) -> "State":
        """A state `player` cannot tell apart from this one (hidden information redrawn)."""
        return self.clone()

    def outcome(self) -> Outcome:
        """Returns and winners; only at a terminal node."""
        raise NotImplementedError

    def cheap_action(self, player: int, rng: random.Random) -> str | None:
        """A fast action for `player` in a simulated playout (the game's cheap default policy), or None:
        a searching agent then draws a legal action uniformly. It must be one the rules accept here."""
        return None

    def provisional_returns(self) -> tuple[float, ...] | None:
        """The returns the rules' own measure of progress gives if play stopped here (a board game's
        centres, a cooperative game's score so far), within the game's return bounds; None where the
        rules have no such measure. A searching agent scores the positions it cannot play out with it."""
        return None

    def to_json(self) -> dict[str, Any]:
        """Full serialisation (string keys, JSON values); `Game.state_from_json` inverts it."""
        raise NotImplementedError

    def clone(self) -> "State":
        """An independent copy: applying actions to it leaves this state unchanged."""
        raise NotImplementedError

    def render(self) -> str:
        """A human-readable picture of the position."""
        return repr(self.to_json())

    def digest(self) -> str:
        """A short stable hash of the full state, recorded in the log after each step."""
        packed = msgpack.packb(self.to_json())
        return hashlib.blake2b(packed, digest_size=8).hexdigest()


class Game:
    """Metadata and factory of one game. Subclasses set the class attributes."""

    name: ClassVar[str]
    options_model: ClassVar[type[Options]]
    capabilities: ClassVar[frozenset[str]] = frozenset()
    talk_models: ClassVar[tuple[type[TalkItem], ...]] = ()
    min_return: ClassVar[float] = 0.0
    max_return: ClassVar[float] = 1.0
    max_steps: ClassVar[int] = 10_000  # decisions + chance nodes; termination bound for checks

    def options(self, raw: dict[str, Any] | None = None) -> Options:
        """Validate raw options (pydantic errors name the bad key)."""
        return self.options_model.model_validate(raw or {})

    def num_players(self, options: Options) -> int:
        """How many seats a game with these options has."""
        raise NotImplementedError

    def new_initial_state(self, options: Options) -> State:
        """The starting position of a game with these options (a chance node where the deal comes first)."""
        raise NotImplementedError

    def max_steps_for(self, options: Options) -> int:
        """The termination bound of a game with these options (default: `max_steps`); a game whose
        length depends on its options (a bridged game's player count) says so here."""
        return self.max_steps

    def return_bounds(self, options: Options) -> tuple[float, float]:
        """The lowest and highest return of a game with these options (default: `min_return`, `max_return`)."""
        return (self.min_return, self.max_return)

    def teams(self, options: Options) -> tuple[tuple[int, ...], ...]:
        """The sides of a game with these options, each a sorted tuple of seats, sorted by first seat.

        Default: every seat its own team. A partnership game names its pairs (four seats in pairs: (0, 2),
        (1, 3)); a cooperative game puts every seat in one team."""
        return tuple((seat,) for seat in range(self.num_players(options)))

    def state_from_json(self, data: dict[str, Any]) -> State:
        """The state `State.to_json` serialised (its inverse)."""
        raise NotImplementedError

    def state_from_observation(self, player: int, observation: dict[str, Any]) -> State:
        """A state in which `player` observes exactly `observation` (games with OBSERVATION_STATE).

        Built from the observation alone, never from a true state: what `player` cannot see is
        filled in some way the observation allows, so `resample_hidden(player, rng)` of the result
        draws the determinisations a searching agent needs (at a node where `player` acts or talks)."""
        raise NotImplementedError

    def actions_seen(self, player: int, observation: dict[str, Any]) -> dict[int, str]:
        """The actions of the last joint step as `observation` shows them to `player`, by seat (seats
        whose action it does not show are left out; {} where the game does not say)."""
        return {}

    def action_vocabulary(self, options: Options) -> tuple[str, ...]:
        """Every action a game with these options can offer, each once, in a fixed order (games with
        ACTION_ENCODING): action number i is the i-th, for libraries that want a fixed action space."""
        raise NotImplementedError

    def num_distinct_actions(self, options: Options) -> int:
        """How many actions the vocabulary of these options holds (games with ACTION_ENCODING)."""
        return len(_numbering(self, options)[0])

    def encode_action(self, options: Options, action: str) -> int:
        """The number of `action` in the vocabulary; raises IllegalAction for a string outside it."""
        number = _numbering(self, options)[1].get(action)
        if number is None:
            raise IllegalAction(f"{action!r} is not in {self.name}'s action vocabulary")
        return number

    def decode_action(self, options: Options, number: int) -> str:
        """The action numbered `number`; raises IllegalAction outside 0..num_distinct_actions - 1."""
        vocabulary = _numbering(self, options)[0]
        if type(number) is not int or not 0 <= number < len(vocabulary):
            raise IllegalAction(f"action number {number!r} is outside 0..{len(vocabulary) - 1}")
        return vocabulary[number]

    # Views (capability VIEWS): what a person, a language model or a learner reads of one seat's
    # observation. Each is a pure function of (options, seat, observation): it cannot show what the
    # seat does not see. Without VIEWS, the text views fall back to the JSON below and the tensor
    # views are absent (NotImplementedError).

    def describe_action(self, options: Options, action: str) -> str:
        """One line saying what `action` does, for a person or a model (default: the action itself)."""
        return action

    def observation_text(self, options: Options, seat: int, observation: dict[str, Any]) -> str:
        """Exactly what `observation` holds, readable (default: its fields one a line, as JSON)."""
        return observation_lines(observation)

    def observation_shape(self, options: Options) -> tuple[int, ...]:
        """The fixed shape of `observation_tensor` for these options (games with VIEWS)."""
        raise NotImplementedError(f"{self.name} has no observation tensor (capability VIEWS)")

    def observation_tensor(self, options: Options, seat: int, observation: dict[str, Any]) -> Any:
        """`observation` as a float32 numpy array of `observation_shape(options)` (games with VIEWS);
        the layout is the game's own, documented field by field where it is written.

        The field table convention: the module `views` beside the game's rules (games/<game>/views.py
        for games/<game>/rules.py) sets `TENSOR_FIELDS`, a tuple of `(name, start, stop, meaning)`
        covering the tensor in order (offsets start..stop-1), or, where the layout depends on the
        options, a function `tensor_fields(options)` returning that table. The game's generated
        reference page prints it (docs/_generate.py, `<!-- generated: game NAME -->`)."""
        raise NotImplementedError(f"{self.name} has no observation tensor (capability VIEWS)")

    def state_observation_tensor(self, options: Options, state: State, seat: int) -> Any:
        """`observation_tensor(options, seat, state.observation(seat))` (games with VIEWS), which a
        game may compute from its state's fields instead, without building the observation, where a
        learner's loop reads a tensor every step (the PettingZoo environments call this). It must be
        equal, so it shows the seat no more than its observation; the views conformance checks it."""
        return self.observation_tensor(options, seat, state.observation(seat))

    def capabilities_for(self, options: Options) -> frozenset[str]:
        """The capability flags of one variant (default: the game's); e.g. hidden hands only
        where a variant deals cards."""
        return self.capabilities

    def has(self, capability: str, options: Options | None = None) -> bool:
        """The game (or, given options, that variant) declares this capability flag."""
        return capability in (self.capabilities if options is None else self.capabilities_for(options))


_NUMBERINGS: dict[tuple[str, str], tuple[tuple[str, ...], dict[str, int]]] = {}  # (game, options) -> numbering


def _numbering(game: Game, options: Options) -> tuple[tuple[str, ...], dict[str, int]]:
    key = (game.name, options.model_dump_json())
    found = _NUMBERINGS.get(key)
    if found is None:
        vocabulary = tuple(game.action_vocabulary(options))
        index = {action: i for i, action in enumerate(vocabulary)}
        if len(index) != len(vocabulary):
            raise ValueError(f"{game.name}: the action vocabulary repeats an action")
        found = _NUMBERINGS[key] = (vocabulary, index)
    return found


def observation_lines(observation: dict[str, Any]) -> str:
    """The generic text view: each top-level field on its own line as `name: JSON`, in sorted order."""
    import json

    return "\n".join(f"{key}: {json.dumps(observation[key], sort_keys=True, ensure_ascii=False)}"
                     for key in sorted(observation))


def field_table(spec: Any) -> list[tuple[str, int, int, str]]:
    """A tensor's field table from its fields in order, each (name, size, meaning): each field's
    (name, start, stop, meaning), laid end to end from 0 (the TENSOR_FIELDS convention)."""
    out, at = [], 0
    for name, size, meaning in spec:
        out.append((name, at, at + size, meaning))
        at += size
    return out
