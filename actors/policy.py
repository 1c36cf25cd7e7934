"""A PettingZoo-style policy as a detente agent: any callable `(observation, action_mask) -> action
number`, given exactly what detente's PettingZoo environment (ops/bridges/pettingzoo) would give that
seat: the seat's observation tensor (`Game.observation_tensor`, games with VIEWS; else the
observation's canonical JSON bytes) and the mask of its legal actions' numbers.

    detente play GAME --seed 1 --log g.log --agents "policy:fn=mypackage.policies:greedy"

The agent is a President with one Strategy Office that asks the policy; the office's suggestion
(one action, utility 1) is logged like every office's, so replay verifies a deterministic policy.
The callable is named `module:function` and imported in the seat's process. In a game without an
action encoding, number i is the i-th of the sorted legal actions (the mask is all ones)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

from pydantic import Field

from actors.alpha.builder import AlphaAgent, president_from
from actors.alpha.offices import Answer, StrategyOffice
from actors.alpha.options import AgentOptions
from bus.messages import OfficeRequest, Suggestion
from games.api import ACTION_ENCODING, VIEWS
from games.registry import get_game

OBSERVATION_BYTES = 1 << 16  # bytes of JSON an observation may take (ours: the built-in games stay under 8 KiB)


class PolicyOptions(AgentOptions):
    """`fn`: the policy, `module:function`; `game_options`: the options of the environment it was
    trained in, where they change the action numbering (e.g. a game's player count)."""

    roles = ("so",)
    agent = "the policy agent"
    fn: str = Field("actors.policy:lowest", min_length=3, max_length=200)  # default: the lowest-numbered legal action
    game_options: dict[str, Any] = Field(default_factory=dict)


def encode_observation(observation: dict[str, Any]):
    """A detente observation as the environment gives it: canonical JSON bytes, zero-padded (a numpy array)."""
    import numpy as np  # the pettingzoo extra's (numpy is no core dependency)

    raw = json.dumps(observation, sort_keys=True, separators=(",", ":")).encode("utf-8")
    if len(raw) > OBSERVATION_BYTES:
        raise ValueError(f"an observation of {len(raw)} bytes (at most {OBSERVATION_BYTES})")
    out = np.zeros(OBSERVATION_BYTES, np.uint8)
    out[: len(raw)] = np.frombuffer(raw, np.uint8)
    return out


def lowest(observation, action_mask) -> int:
    """A deterministic example policy: the legal action of the lowest number."""
    import numpy as np

    return int(np.flatnonzero(action_mask)[0])


def highest(observation, action_mask) -> int:
    """Another: the legal action of the highest number."""
    import numpy as np

    return int(np.flatnonzero(action_mask)[-1])


class PolicyStrategyOffice(StrategyOffice):
    """Suggests the one action the policy picks from the seat's observation and action mask."""

    def __init__(self, address: str, seed: int, game: str, fn: str, game_options: dict[str, Any]):
        super().__init__(address, seed)
        self.game = get_game(game)
        self.options = self.game.options(game_options)
        self.fn: Callable[[Any, Any], int] = _resolve(fn)

    def suggest(self, request: OfficeRequest) -> Answer:
        import numpy as np

        options, legal = self.options, request.legal
        if not legal:
            return Answer()
        encoded = self.game.has(ACTION_ENCODING, options)
        if encoded:
            mask = np.zeros(self.game.num_distinct_actions(options), np.int8)
            for action in legal:
                mask[self.game.encode_action(options, action)] = 1
        else:  # a game without an action encoding: number i is the i-th legal action (sorted)
            mask = np.ones(len(legal), np.int8)
        observation = request.view["observation"]
        if encoded and self.game.has(VIEWS, options):  # the environment's observation: the seat's tensor
            observation = self.game.observation_tensor(options, int(request.view["seat"]), observation)
        else:
            observation = encode_observation(observation)
        number = int(self.fn(observation, mask))
        if not 0 <= number < len(mask) or not mask[number]:
            raise ValueError(f"policy {self.fn!r} chose {number}, not a legal action's number")
        action = self.game.decode_action(options, number) if encoded else legal[number]
        return Answer(suggestions=[Suggestion(action=action, utility=1.0)])


@lru_cache(maxsize=None)
def _resolve(fn: str) -> Callable:
    from games.plugin import resolve

    found = resolve(fn)
    if not callable(found):
        raise ValueError(f"policy {fn!r} is not callable")
    return found


@lru_cache(maxsize=None)
def _agent(game: str) -> AlphaAgent:
    def so(address: str, seed: int, o: PolicyOptions) -> PolicyStrategyOffice:
        return PolicyStrategyOffice(address, seed, game, o.fn, o.game_options)

    return AlphaAgent(options=PolicyOptions, president=president_from(views={"so": ("observation", "seat")}),
                      offices={"so": so})


def build(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list:
    """The actors of the policy agent in `seat` (an AgentDef.build)."""
    return _agent(game).build(game, seat, seed, raw)
