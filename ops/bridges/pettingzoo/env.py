"""A detente game as a PettingZoo AEC environment (any game with the ACTION_ENCODING capability).

    from ops.bridges.pettingzoo import env
    e = env("battleline")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        e.step(None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"]))

- Agents are `player_0` ... in seat order. Actions are numbers of the game's action vocabulary
  (`Game.encode_action` / `decode_action`): `Discrete(num_distinct_actions)`.
- An observation is `{"observation", "action_mask"}`: the seat's detente observation as canonical
  JSON (sorted keys, UTF-8 bytes, zero-padded to `OBSERVATION_BYTES`: `observation_json` reads it
  back), and 1 at the numbers of the seat's legal actions. `infos[agent]["observation"]` holds the
  same observation as a dict.
- Chance is drawn by the environment from `random.Random(seed)` (`reset(seed=...)`), as detente's
  referee draws it; a simultaneous node is asked of its players one after another and applied
  when the last has chosen (nobody sees the others' choices before). Talk channels are not
  offered: the environment plays the game's actions only.
- Rewards: the game's returns, at its end. `render()`: the state's text (`render_mode="ansi"`), or
  the plugin's SVG board for the whole game (`render_mode="svg"`).
"""

from __future__ import annotations

import json
import random
from typing import Any

from actors.policy import OBSERVATION_BYTES, encode_observation
from games.api import ACTION_ENCODING, Game, Options, State
from games.registry import get_game, get_plugin

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError:  # the optional extra is not installed: env() says so
    np, spaces, AECEnv = None, None, object

MISSING = "PettingZoo environments need the optional extra: pip install 'detente[pettingzoo]'"


def observation_json(observation) -> dict[str, Any]:
    """The detente observation an environment's zero-padded JSON bytes hold."""
    return json.loads(bytes(observation).rstrip(b"\0").decode("utf-8"))


class DetenteAEC(AECEnv):
    """One detente game (by registry name, with game options) as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "svg"], "name": "detente", "is_parallelizable": False}

    def __init__(self, game: str, options: dict[str, Any] | None = None, render_mode: str | None = None):
        if spaces is None:
            raise ImportError(MISSING)
        super().__init__()
        self.game: Game = get_game(game)
        self.game_options: Options = self.game.options(options)
        if not self.game.has(ACTION_ENCODING, self.game_options):
            raise ValueError(f"{game} declares no action encoding (ACTION_ENCODING) for these options")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']}")
        self.metadata = {**self.metadata, "name": f"detente_{game}"}
        self.render_mode = render_mode
        self.num_actions = self.game.num_distinct_actions(self.game_options)
        n = self.game.num_players(self.game_options)
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, 255, (OBSERVATION_BYTES,), np.uint8),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        }) for a in self.possible_agents}
        self.state: State | None = None

    def observation_space(self, agent: str):
        return self._observation_spaces[agent]

    def action_space(self, agent: str):
        return self._action_spaces[agent]

    # -- the game's course ---------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._rng = random.Random(seed)
        for agent in self.possible_agents:
            self._action_spaces[agent].seed(None if seed is None else seed + self._seat[agent])
        self.state = self.game.new_initial_state(self.game_options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._pending: dict[int, str] = {}  # a simultaneous node's choices so far
        self._advance()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        name = self.game.decode_action(self.game_options, int(action))
        if name not in self.state.legal_actions(seat):
            raise ValueError(f"{agent}: action {int(action)} ({name!r}) is not legal here")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self._pending[seat] = name
        if len(self._pending) == len(self.state.current_players()):
            self.state.apply_actions(dict(sorted(self._pending.items())))
            self._pending = {}
        self._advance()
        self._accumulate_rewards()

    def _advance(self) -> None:
        """Draw chance, then select the next seat to act, or end the game."""
        state = self.state
        while state.is_chance():
            state.apply_chance(state.sample_chance(self._rng))
        if state.is_terminal():
            returns = state.outcome().returns
            for agent in self.agents:
                self.rewards[agent] = float(returns[self._seat[agent]])
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            waiting = [p for p in state.current_players() if p not in self._pending]
            self.agent_selection = self.possible_agents[waiting[0]]
        self.infos = {a: {"observation": state.observation(self._seat[a])} for a in self.agents}

    # -- what an agent sees ----------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        observation = encode_observation(self.state.observation(seat))
        mask = np.zeros(self.num_actions, np.int8)
        if agent == self.agent_selection and not self.state.is_terminal():
            for name in self.state.legal_actions(seat):
                mask[self.game.encode_action(self.game_options, name)] = 1
        return {"observation": observation, "action_mask": mask}

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


def env(game: str, options: dict[str, Any] | None = None, render_mode: str | None = None) -> DetenteAEC:
    """The AEC environment of `game` (a registry name) with these game options."""
    return DetenteAEC(game, options, render_mode)
