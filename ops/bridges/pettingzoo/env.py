"""A detente game as a PettingZoo environment (any game with the ACTION_ENCODING capability): an
AEC environment (`env`) for every such game, a parallel one (`parallel_env`) for games with
simultaneous moves.

    from ops.bridges.pettingzoo import env
    e = env("battleline")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        e.step(None if terminated or truncated else e.action_space(agent).sample(info["action_mask"]))

- Agents are `player_0` ... in seat order. Actions are numbers of the game's action vocabulary
  (`Game.encode_action` / `decode_action`): `Discrete(num_distinct_actions)`.
- An observation is the seat's tensor (`Game.observation_tensor`, the VIEWS capability):
  `Box(float32)` of `observation_shape`, bounded by +-OBSERVATION_BOUND (the built-in tensors are
  scaled to about [0, 1]; an unbounded count, Risk's armies, may pass 1). The action mask is
  `infos[agent]["action_mask"]` (int8, 1 at the numbers of the seat's legal actions; only the
  seat to act has ones; read-only, one array shared by the nodes with the same legal actions), as
  PettingZoo's tests and trainers read it; `observation_dict(agent)` is
  the seat's detente observation itself. A game without VIEWS gives its observation as canonical
  JSON bytes (zero-padded to OBSERVATION_BYTES: `observation_json` reads it back) instead.
- Chance is drawn by the environment from `random.Random(seed)` (`reset(seed=...)`), as detente's
  referee draws it; each seat's action space is seeded with seed + seat when `action_space(agent)`
  is first asked for after that reset. In the AEC environment a simultaneous node is asked of its players one after
  another and applied when the last has chosen (nobody sees the others' choices before). Talk
  channels are not offered: the environment plays the game's actions only.
- The parallel environment asks every seat at every step: a seat with nothing to do this step has
  one legal number, `num_distinct_actions` (wait), so its space is `Discrete(num_distinct_actions
  + 1)`; a number that is not legal for the seat plays the rules' default action, as detente's
  referee does for an agent's illegal answer (`infos[agent]["illegal"]` says so).
- Rewards: the game's returns, at its end. `render()`: the state's text (`render_mode="ansi"`), or
  the plugin's SVG board for the whole game (`render_mode="svg"`).
"""

from __future__ import annotations

import json
import random
from typing import Any

from actors.policy import OBSERVATION_BYTES, encode_observation
from games.api import ACTION_ENCODING, SIMULTANEOUS, VIEWS, Game, Options, State
from games.registry import get_game, get_plugin

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils.env import AECIterable
except ImportError:  # the optional extra is not installed: env() says so
    np, spaces, AECEnv, ParallelEnv, AECIterable = None, None, object, object, object

MISSING = "PettingZoo environments need the optional extra: pip install 'detente[pettingzoo]'"
OBSERVATION_BOUND = 1e6  # the observation Box's bound either side (ours: finite, far above any tensor's value)
MASKS_KEPT = 4096  # distinct legal sets whose masks an environment keeps (ours: a few MB for Battle Line's 2,094)


def observation_json(observation) -> dict[str, Any]:
    """The detente observation an environment's zero-padded JSON bytes hold (games without VIEWS)."""
    return json.loads(bytes(observation).rstrip(b"\0").decode("utf-8"))


class _Seats:
    """What both environments share: the game, its numbering, the seats' spaces and views."""

    def _setup(self, game: str, options: dict[str, Any] | None, render_mode: str | None, extra_actions: int) -> None:
        if spaces is None:
            raise ImportError(MISSING)
        self.game: Game = get_game(game)
        self.game_options: Options = self.game.options(options)
        if not self.game.has(ACTION_ENCODING, self.game_options):
            raise ValueError(f"{game} declares no action encoding (ACTION_ENCODING) for these options")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']}")
        self.metadata = {**self.metadata, "name": f"detente_{game}"}
        self.render_mode = render_mode
        self.num_actions = self.game.num_distinct_actions(self.game_options)
        self.tensors = self.game.has(VIEWS, self.game_options)
        self._state_tensor = self.game.state_observation_tensor
        n = self.game.num_players(self.game_options)
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._action_spaces = {a: spaces.Discrete(self.num_actions + extra_actions) for a in self.possible_agents}
        if self.tensors:
            shape = tuple(self.game.observation_shape(self.game_options))
            self._observation_spaces = {a: spaces.Box(-OBSERVATION_BOUND, OBSERVATION_BOUND, shape, np.float32)
                                        for a in self.possible_agents}
        else:
            self._observation_spaces = {a: spaces.Box(0, 255, (OBSERVATION_BYTES,), np.uint8) for a in self.possible_agents}
        self._vocabulary = self.game.action_vocabulary(self.game_options)  # number -> action name
        self._encode = {name: number for number, name in enumerate(self._vocabulary)}  # action name -> number
        self._mask_size = self.num_actions + extra_actions
        self._idle = self._frozen(np.zeros(self._mask_size, np.int8))  # the mask of a seat not to act (shared)
        self._masks: dict[tuple[str, ...], Any] = {}  # legal actions -> (their mask, read-only, shared; their numbers)
        self._keyed: dict[Any, Any] = {}  # the game's key for a legal set (or the set) -> the same
        self._legal_numbers: frozenset[int] | tuple = ()  # the numbers the selected seat may play (AEC)
        self._unseeded: dict[str, int] = {}  # action spaces to seed when first asked for after a reset
        self.state: State | None = None

    @staticmethod
    def _frozen(array):
        array.flags.writeable = False
        return array

    def observation_space(self, agent: str):
        return self._observation_spaces[agent]

    def action_space(self, agent: str):
        space = self._action_spaces[agent]
        if agent in self._unseeded:  # seeded here, not in reset: a Generator per seat is costly, most loops never sample
            space.seed(self._unseeded.pop(agent))
        return space

    def _seed_spaces(self, seed: int | None) -> None:
        """reset(seed=...): each seat's action space is seeded with seed + seat (on first use)."""
        if seed is None:
            self._unseeded = {}
            for space in self._action_spaces.values():
                space.seed(None)
        else:
            self._unseeded = {agent: seed + p for agent, p in self._seat.items()}

    def observation_dict(self, agent: str) -> dict[str, Any]:
        """The seat's detente observation (what its tensor encodes)."""
        return self.state.observation(self._seat[agent])

    def _view(self, seat: int):
        if self.tensors:  # the tensor of the seat's observation (a game may read it from the state directly)
            return self.game.state_observation_tensor(self.game_options, self.state, seat)
        return encode_observation(self.state.observation(seat))

    def _mask(self, seat: int):
        """The seat's action mask: 1 at the numbers of its legal actions. Read-only and shared by
        every node with the same legal actions (built once: a hand of cards repeats its moves).
        The set of those numbers is kept as `_legal_numbers` (the AEC step's check)."""
        state = self.state
        key = state.legal_actions_key(seat)  # a game's own key for its legal set, where it has one
        if key is None:
            key = tuple(state.legal_actions(seat))
        found = self._keyed.get(key)
        if found is None:
            if len(self._keyed) >= MASKS_KEPT:
                self._keyed.clear()
                self._masks.clear()
            legal = tuple(state.legal_actions(seat))
            found = self._masks.get(legal)
            if found is None:
                mask = np.zeros(self._mask_size, np.int8)
                encode = self._encode
                numbers = frozenset(encode[name] for name in legal)
                mask[sorted(numbers)] = 1
                found = self._masks[legal] = (self._frozen(mask), numbers)
            self._keyed[key] = found
        self._legal_numbers = found[1]
        return found[0]

    def _chance(self) -> None:
        while self.state.is_chance():
            self.state.apply_chance(self.state.sample_chance(self._rng))

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "svg":
            from games.plugin import resolve

            board = get_plugin(self.game.name).board
            return resolve(board)(self.state, None) if board else self.state.render()
        return self.state.render()

    def close(self) -> None:
        self.state = None


class DetenteAEC(_Seats, AECEnv):
    """One detente game (by registry name, with game options) as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "svg"], "name": "detente", "is_parallelizable": False}

    def __init__(self, game: str, options: dict[str, Any] | None = None, render_mode: str | None = None):
        AECEnv.__init__(self)
        self._setup(game, options, render_mode, 0)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._rng = random.Random(seed)
        self._seed_spaces(seed)
        self.state = self.game.new_initial_state(self.game_options)
        agents = self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self._pending: dict[int, str] = {}  # a simultaneous node's choices so far
        self._advance()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = int(action)
        if number not in self._legal_numbers:  # the numbers of _advance's mask
            raise ValueError(f"{agent}: action {number} is not legal here (legal: the ones of its action mask)")
        self._cumulative_rewards[agent] = 0.0  # rewards stay 0 until the end (reset set them so)
        seat = self._seat[agent]
        if self._acting == 1:  # one player at this node: its action alone
            self.state.apply_actions({seat: self._vocabulary[number]})
        else:
            pending = self._pending
            pending[seat] = self._vocabulary[number]
            if len(pending) < self._acting:
                self._advance()
                return
            self.state.apply_actions(dict(sorted(pending.items())))
            self._pending = {}
        if self._advance():  # the game ended: its returns
            self._accumulate_rewards()

    def _advance(self) -> bool:
        """Draw chance, then select the next seat to act (its mask in its infos), or end the game
        (True: the rewards are its returns)."""
        state = self.state
        players = state.current_players()  # empty at chance and terminal nodes only
        if not players:
            if state.is_chance():
                self._chance()
            if state.is_terminal():
                returns = state.outcome().returns
                for agent in self.agents:
                    self.rewards[agent] = float(returns[self._seat[agent]])
                    self.terminations[agent] = True
                self.agent_selection = self.agents[0]
                self.infos = {a: {"action_mask": self._idle} for a in self.agents}
                self._legal_numbers = ()
                return True
            players = state.current_players()
        self._acting = len(players)  # how many choose at this node (a simultaneous node: asked one by one)
        seat = players[0] if not self._pending else next(p for p in players if p not in self._pending)
        selected = self.agent_selection = self.possible_agents[seat]
        mask, idle, infos = self._mask(seat), self._idle, {}
        for agent in self.agents:  # a fresh info dict per agent and step
            infos[agent] = {"action_mask": mask if agent == selected else idle}
        self.infos = infos
        return False

    def agent_iter(self, max_iter: int = 2**63) -> _Agents:
        """AECEnv.agent_iter: the selected agent until none is left or after `max_iter` of them."""
        return _Agents(self, max_iter)

    def last(self, observe: bool = True):
        """AECEnv.last: the selected agent's observation, cumulative reward, ends and infos."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def observe(self, agent: str):
        if self.tensors:  # _view's first case, called directly: a learner's loop observes every step
            return self._state_tensor(self.game_options, self.state, self._seat[agent])
        return self._view(self._seat[agent])


class _Agents(AECIterable):
    """PettingZoo's AECIterable, its iterator a generator (a loop's step pays no method call for it)."""

    def __iter__(self):
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class DetenteParallel(_Seats, ParallelEnv):
    """One detente game as a PettingZoo parallel environment: every seat answers every step."""

    metadata = {"render_modes": ["ansi", "svg"], "name": "detente"}

    def __init__(self, game: str, options: dict[str, Any] | None = None, render_mode: str | None = None):
        self._setup(game, options, render_mode, 1)
        self.wait = self.num_actions  # the number of a seat with nothing to do this step
        waiting = np.zeros(self._mask_size, np.int8)
        waiting[self.wait] = 1
        self._waiting = self._frozen(waiting)  # the mask of a seat with nothing to do (shared)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._rng = random.Random(seed)
        self._seed_spaces(seed)
        self.state = self.game.new_initial_state(self.game_options)
        self.agents = list(self.possible_agents)
        self._chance()
        return self._observations(), self._infos({})

    def step(self, actions: dict[str, int]):
        state = self.state
        chosen, illegal = {}, set()
        for seat in state.current_players():
            agent = self.possible_agents[seat]
            number = actions.get(agent)
            legal = state.legal_actions(seat)
            name = self._vocabulary[int(number)] if number is not None and 0 <= int(number) < self.num_actions else None
            if name not in legal:
                illegal.add(agent)
                name = state.default_action(seat)
            chosen[seat] = name
        state.apply_actions(chosen)
        self._chance()
        rewards = {a: 0.0 for a in self.agents}
        done = state.is_terminal()
        if done:
            returns = state.outcome().returns
            rewards = {a: float(returns[self._seat[a]]) for a in self.agents}
        observations, infos = self._observations(), self._infos({a: a in illegal for a in self.agents})
        terminations = {a: done for a in self.agents}
        truncations = {a: False for a in self.agents}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Any]:
        return {a: self._view(self._seat[a]) for a in self.agents}

    def _infos(self, illegal: dict[str, bool]) -> dict[str, dict[str, Any]]:
        acting = set(self.state.current_players()) if not self.state.is_terminal() else set()
        infos = {}
        for agent in self.agents:
            seat = self._seat[agent]
            mask = self._mask(seat) if seat in acting else self._waiting
            infos[agent] = {"action_mask": mask, "illegal": illegal.get(agent, False)}
        return infos


def env(game: str, options: dict[str, Any] | None = None, render_mode: str | None = None) -> DetenteAEC:
    """The AEC environment of `game` (a registry name) with these game options."""
    return DetenteAEC(game, options, render_mode)


def parallel_env(game: str, options: dict[str, Any] | None = None, render_mode: str | None = None) -> DetenteParallel:
    """The parallel environment of `game`, for games with simultaneous moves (SIMULTANEOUS)."""
    found = get_game(game)
    if not found.has(SIMULTANEOUS, found.options(options)):
        raise ValueError(f"{game} has no simultaneous moves: its AEC environment (env) is the one to use")
    return DetenteParallel(game, options, render_mode)
