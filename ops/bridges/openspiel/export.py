"""detente's games as OpenSpiel Python games: `register()` adds `detente_<game>` to pyspiel's
registry for every installed game with the ACTION_ENCODING capability.

    import pyspiel
    from ops.bridges.openspiel.export import register
    register()
    game = pyspiel.load_game("detente_battleline", {"options": "{}"})   # detente options as JSON
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)

- Actions: the game's action vocabulary (`Game.encode_action`); a simultaneous game adds one
  more number, the no-op of a seat that does not act at a simultaneous node (OpenSpiel asks every
  seat there).
- Chance: detente's chance outcomes can be whole shuffles, too many to list, so the deals are
  fixed by the game parameter `seed`: a chance node offers one outcome (probability 1), and
  applying it draws detente's outcome with `random.Random("<seed>/<steps so far>")`, the same draw
  for the same history, so a state is rebuilt from its history (OpenSpiel's serialisation). Other
  deals: load the game with another `seed`. (OpenSpiel's SAMPLED_STOCHASTIC mode would need its
  generator state serialised, which Python games cannot give.)
- Observation string: the seat's detente observation as canonical JSON. Talk is not offered.
- Returns: detente's returns at the end.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np

from games.api import ACTION_ENCODING, PRIVATE_INFORMATION, SIMULTANEOUS, Game, State
from games.registry import game_names, get_game
from ops.bridges.openspiel.rules import pyspiel

PREFIX = "detente_"
_REGISTERED: dict[str, Any] = {}


def _game_type(ps, name: str, game: Game, players: int):
    kind = ps.GameType
    return kind(
        short_name=PREFIX + name, long_name=f"detente {name}",
        dynamics=kind.Dynamics.SIMULTANEOUS if game.has(SIMULTANEOUS) else kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kind.Information.IMPERFECT_INFORMATION if game.has(PRIVATE_INFORMATION)
        else kind.Information.PERFECT_INFORMATION,
        utility=kind.Utility.GENERAL_SUM, reward_model=kind.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification={"options": "{}", "seed": 0})


def register(names: list[str] | None = None) -> list[str]:
    """Register `detente_<game>` in pyspiel for these games (default: all with an action encoding)."""
    ps = pyspiel()
    done = []
    for name in names or game_names():
        game = get_game(name)
        opts = game.options({})
        if not game.has(ACTION_ENCODING, opts):
            continue
        if name not in _REGISTERED:
            players = game.num_players(opts)
            _REGISTERED[name] = _classes(ps, name, game, _game_type(ps, name, game, players))
            ps.register_game(_REGISTERED[name][1], _REGISTERED[name][0])
        done.append(PREFIX + name)
    return done


def _classes(ps, name: str, game: Game, game_type):
    """The pyspiel Game and State classes of one detente game."""
    simultaneous = game.has(SIMULTANEOUS)

    class DetenteSpielGame(ps.Game):
        def __init__(self, params=None):
            params = dict(params or {})
            self.detente = game
            self.options = game.options(json.loads(params.get("options", "{}")))
            self.seed = int(params.get("seed", 0))
            n = game.num_players(self.options)
            if n != game_type.max_num_players:
                raise ValueError(f"{name}: {n} players; this registration has {game_type.max_num_players}")
            size = game.num_distinct_actions(self.options)
            self.noop = size if simultaneous else None
            info = ps.GameInfo(num_distinct_actions=size + (1 if simultaneous else 0), max_chance_outcomes=1,
                               num_players=n, min_utility=float(game.min_return), max_utility=float(game.max_return),
                               utility_sum=None, max_game_length=int(min(game.max_steps, 2**31 - 1)))
            super().__init__(game_type, info, {"options": params.get("options", "{}"), "seed": self.seed})

        def new_initial_state(self):
            return DetenteSpielState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer()

    class DetenteSpielState(ps.State):
        def __init__(self, spiel_game):
            super().__init__(spiel_game)
            params = spiel_game.get_parameters()  # read back: the Python attributes of a copied game are not kept
            self.options = game.options(json.loads(params["options"]))
            self.seed = int(params["seed"])
            self.noop = game.num_distinct_actions(self.options) if simultaneous else None
            self.inner: State = game.new_initial_state(self.options)
            self.steps = 0  # chance draws and decisions so far (the chance generator's stream)

        def current_player(self):
            s = self.inner
            if s.is_terminal():
                return ps.PlayerId.TERMINAL
            if s.is_chance():
                return ps.PlayerId.CHANCE
            players = s.current_players()
            return players[0] if len(players) == 1 else ps.PlayerId.SIMULTANEOUS

        def _legal_actions(self, player):
            s = self.inner
            legal = s.legal_actions(player)
            if not legal and simultaneous and len(s.current_players()) > 1:
                return [self.noop]
            return sorted(game.encode_action(self.options, a) for a in legal)

        def chance_outcomes(self):
            return [(0, 1.0)]

        def _apply_action(self, action):
            s = self.inner
            if s.is_chance():
                s.apply_chance(s.sample_chance(random.Random(f"{self.seed}/{self.steps}")))
            else:
                s.apply_actions({s.current_players()[0]: game.decode_action(self.options, action)})
            self.steps += 1

        def _apply_actions(self, actions):
            s = self.inner
            chosen = {p: game.decode_action(self.options, int(actions[p])) for p in s.current_players()}
            s.apply_actions(chosen)
            self.steps += 1

        def _action_to_string(self, player, action):
            if action == self.noop:
                return "no-op"
            return "draw" if player == ps.PlayerId.CHANCE else game.decode_action(self.options, action)

        def is_terminal(self):
            return self.inner.is_terminal()

        def returns(self):
            if not self.inner.is_terminal():
                return [0.0] * game.num_players(self.options)
            return list(self.inner.outcome().returns)

        def observation_string(self, player):
            return json.dumps(self.inner.observation(player), sort_keys=True, separators=(",", ":"))

        def __str__(self):
            return self.inner.render()

    for cls in (DetenteSpielGame, DetenteSpielState):  # module-level names: pickle (deep copies) finds them
        cls.__name__ = cls.__qualname__ = f"{cls.__name__}_{name}"
        cls.__module__ = __name__
        globals()[cls.__name__] = cls
    return DetenteSpielGame, game_type


class _Observer:
    """The seat's detente observation as JSON text (no tensor)."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return json.dumps(state.inner.observation(player), sort_keys=True, separators=(",", ":"))
