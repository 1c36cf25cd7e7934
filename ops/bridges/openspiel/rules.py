"""An OpenSpiel game as a detente game: the Game/State API over a `pyspiel` state.

- Actions: OpenSpiel's action id, zero-padded to the width of `num_distinct_actions`, then its
  text (`"07 Offer: Book: 1, Hat: 0, Basketball: 2"`), so sorting the strings sorts the ids.
- Chance: OpenSpiel declares the outcomes and their probabilities (`chance_outcomes()`); the
  referee draws one with its own seeded generator (`sample_chance`) and logs the outcome id.
- Simultaneous nodes: one action per player who has legal actions, applied as one joint action.
- Observation of a player: OpenSpiel's observation string and tensor for that player, and its
  information-state string (what the player knows with perfect recall), where the game provides
  them; never the state itself.
- Perfect-information games add the history (action ids, chance outcomes included) to every
  player's observation: it is all public, and it rebuilds the state (the OBSERVATION_STATE hook
  searching agents use). Imperfect-information games small enough to search (`REBUILDABLE`)
  rebuild one from a seeded search for a history whose information-state string for that player
  is the observed one.
- Games that draw their own chance (SAMPLED_STOCHASTIC, with an `rng_seed` parameter:
  negotiation, tarok) have one declared outcome; the referee logs a seed instead, and the draw is
  made by the game loaded with that `rng_seed`, so the log fixes it and replay reproduces it.
- Views (VIEWS, where OpenSpiel gives an observation string and tensor): the text is the
  observation string, the tensor OpenSpiel's `observation_tensor` in its `observation_tensor_shape`.
- Serialisation: OpenSpiel's own (`State.serialize`, `Game.deserialize_state`); the digest hashes it.
- Returns: OpenSpiel's returns; bounds from its `min_utility` / `max_utility`.

`pyspiel` is imported when a bridged game is first built, never at import of this module.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Callable

from pydantic import create_model

from games.api import (CHANCE, OBSERVATION_STATE, PRIVATE_INFORMATION, SIMULTANEOUS, VIEWS, Game, IllegalAction, Options,
                       Outcome, State, observation_lines)

MISSING = "OpenSpiel games need the optional extra: pip install 'detente[openspiel]' (the open_spiel package)"
PREFIX = "openspiel-"  # detente name = PREFIX + OpenSpiel's short name (entry-point names allow no ':')
RESAMPLE_BUDGET = 200  # children the generic resampling search may look at before it keeps the state (ours)
REBUILD_BUDGET = 50_000  # nodes the rebuilding search may visit (ours: Leduc poker's tree has ~10^4 histories)
REBUILDABLE = frozenset({"kuhn_poker", "leduc_poker"})  # trees small enough for state_from_observation

# Parameters of games whose OpenSpiel `get_parameters()` lists none by default (the Hanabi Learning
# Environment's, from open_spiel/games/hanabi/hanabi.cc and HLE's hanabi_game.cc defaults).
EXTRA_PARAMETERS: dict[str, dict[str, Any]] = {
    "hanabi": {"players": 2, "colors": 5, "ranks": 5, "hand_size": 5, "max_information_tokens": 8,
               "max_life_tokens": 3, "observation_type": "card_knowledge", "random_start_player": False},
}


def pyspiel():
    """The `pyspiel` module, or ImportError with the one-line install hint."""
    try:
        import pyspiel as module
    except ImportError:
        raise ImportError(MISSING) from None
    return module


@lru_cache(maxsize=64)
def _loaded(short_name: str, frozen: tuple[tuple[str, Any], ...]):
    return pyspiel().load_game(short_name, dict(frozen))


class OpenSpielState(State):
    """A position of an OpenSpiel game; `inner` is the `pyspiel.State`."""

    def __init__(self, game: "OpenSpielGame", options: Options, inner):
        self.game = game
        self.options = options
        self.inner = inner
        self._legal: dict[int, dict[str, int]] = {}

    # -- whose turn -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def is_chance(self) -> bool:
        return self.inner.is_chance_node()

    def current_players(self) -> list[int]:
        s = self.inner
        if s.is_terminal() or s.is_chance_node():
            return []
        if s.is_simultaneous_node():
            return [p for p in range(s.num_players()) if s.legal_actions(p)]
        return [s.current_player()]

    # -- chance ------------------------------------------------------------------------------

    def sample_chance(self, rng: random.Random) -> int:
        if self.game.sampled(self.options):
            return rng.getrandbits(31)  # the seed of OpenSpiel's own draw (apply_chance)
        outcomes = self.inner.chance_outcomes()
        r, total = rng.random(), 0.0
        for action, p in outcomes:
            total += p
            if r < total:
                return int(action)
        return int(outcomes[-1][0])

    def apply_chance(self, outcome: Any) -> None:
        if not self.inner.is_chance_node():
            raise IllegalAction("not a chance node")
        if self.game.sampled(self.options):
            self._apply_sampled(outcome)
            return
        if type(outcome) is not int or dict(self.inner.chance_outcomes()).get(outcome, 0.0) <= 0.0:
            raise IllegalAction(f"chance outcome {outcome!r} is not one OpenSpiel declares here")
        self.inner.apply_action(outcome)
        self._legal.clear()

    def _apply_sampled(self, seed: Any) -> None:
        """A game that draws its own chance (SAMPLED_STOCHASTIC: one declared outcome, the draw from
        the game's generator) draws it from a game loaded with `rng_seed` = the logged seed, so the
        log's outcome fixes the draw; the position is carried over by OpenSpiel's serialisation."""
        if type(seed) is not int or not 0 <= seed < 2**31:
            raise IllegalAction(f"chance outcome {seed!r} is not a seed 0..2**31-1 (this game draws its own chance)")
        params = {**self.inner.get_game().get_parameters(), "rng_seed": seed}
        fresh = pyspiel().load_game(self.game.short_name, params)  # uncached: its generator starts at `seed`
        state = fresh.new_initial_state() if not self.inner.history() else _deserialize(fresh, self.inner.serialize())
        state.apply_action(int(self.inner.chance_outcomes()[0][0]))
        self.inner = state
        self._legal.clear()

    # -- decisions ---------------------------------------------------------------------------

    def _names(self, player: int) -> dict[str, int]:
        found = self._legal.get(player)
        if found is None:
            s = self.inner
            ids = s.legal_actions(player) if player in self.current_players() else []
            found = self._legal[player] = {self.game.action_text(s, player, a): a for a in ids}
        return found

    def legal_actions(self, player: int) -> list[str]:
        return sorted(self._names(player))

    def why_illegal(self, player: int, action: str) -> str | None:
        if player not in self.current_players():
            return f"player {player} is not to act"
        return None if action in self._names(player) else f"{action!r} is not among OpenSpiel's legal actions"

    def default_action(self, player: int) -> str:
        legal = self.legal_actions(player)
        return legal[0] if legal else ""

    def apply_actions(self, actions: dict[int, str]) -> None:
        players = self.current_players()
        if sorted(actions) != players:
            raise IllegalAction(f"actions of {sorted(actions)}; players to act are {players}")
        ids = {}
        for p in players:
            a = self._names(p).get(actions[p]) if isinstance(actions[p], str) else None
            if a is None:
                raise IllegalAction(f"player {p}: {actions[p]!r} is not legal here")
            ids[p] = a
        s = self.inner
        if s.is_simultaneous_node():
            s.apply_actions([ids.get(p, 0) for p in range(s.num_players())])
        else:
            s.apply_action(ids[players[0]])
        self._legal.clear()

    # -- what a player knows -----------------------------------------------------------------

    def observation(self, player: int) -> dict[str, Any]:
        return self.game.observe(self.inner, player)

    def resample_hidden(self, player: int, rng: random.Random) -> "OpenSpielState":
        inner = self.game.resample(self.inner, player, rng)
        return OpenSpielState(self.game, self.options, inner)

    # -- end, serialisation ------------------------------------------------------------------

    def outcome(self) -> Outcome:
        if not self.inner.is_terminal():
            raise ValueError("the game is not over")
        returns = tuple(float(r) for r in self.inner.returns())
        best = max(returns)
        winners = () if min(returns) == best else tuple(p for p, r in enumerate(returns) if r == best)
        return Outcome(returns=returns, winners=winners, summary="returns " + " ".join(f"{r:g}" for r in returns))

    def to_json(self) -> dict[str, Any]:
        return {"options": self.options.model_dump(mode="json"), "serialized": self.inner.serialize()}

    def clone(self) -> "OpenSpielState":
        return OpenSpielState(self.game, self.options, self.inner.clone())

    def render(self) -> str:
        return str(self.inner)


class OpenSpielGame(Game):
    """One OpenSpiel game (subclasses set `short_name`); its parameters are the detente options."""

    short_name: str = ""
    capabilities = frozenset()  # set per instance from OpenSpiel's game type

    def __init__(self) -> None:
        ps = pyspiel()
        self.name = PREFIX + self.short_name
        default = ps.load_game(self.short_name)
        params = {**EXTRA_PARAMETERS.get(self.short_name, {}), **default.get_parameters()}
        fields = {key: (type(value), value) for key, value in sorted(params.items())}
        self.options_model = create_model(f"{self.short_name}_options", __base__=Options, **fields)
        self.min_return, self.max_return = _utility_bounds(default)
        self.max_steps = _length_bound(default)
        self.capabilities = self._capabilities(default)

    # -- the pyspiel game of some options ----------------------------------------------------

    _last: tuple[Options, Any] | None = None  # the options last asked for and their game

    def spiel(self, options: Options):
        """The `pyspiel.Game` of these options (loaded once). The options object last asked for is
        answered without dumping it again: the referee asks for one object all game (options are
        frozen)."""
        last = self._last
        if last is not None and last[0] is options:
            return last[1]
        game = _loaded(self.short_name, tuple(sorted(options.model_dump().items())))
        self._last = (options, game)
        return game

    def _capabilities(self, spiel) -> frozenset[str]:
        ps = pyspiel()
        kind = spiel.get_type()
        caps = set()
        if kind.chance_mode != ps.GameType.ChanceMode.DETERMINISTIC:
            caps.add(CHANCE)
        if kind.dynamics == ps.GameType.Dynamics.SIMULTANEOUS:
            caps.add(SIMULTANEOUS)
        if kind.information != ps.GameType.Information.PERFECT_INFORMATION:
            caps.add(PRIVATE_INFORMATION)
        if self.short_name in REBUILDABLE and kind.provides_information_state_string:
            caps.add(OBSERVATION_STATE)
        if _public_history(spiel):
            caps.add(OBSERVATION_STATE)  # the observation holds the whole history: replayed
        if kind.provides_observation_tensor and kind.provides_observation_string:
            caps.add(VIEWS)  # OpenSpiel's own observation string and tensor
        return frozenset(caps)

    def capabilities_for(self, options: Options) -> frozenset[str]:
        return self._capabilities(self.spiel(options))

    def sampled(self, options: Options) -> bool:
        """The game draws its own chance from a seeded generator (`rng_seed`) instead of declaring outcomes."""
        spiel = self.spiel(options)
        return (spiel.get_type().chance_mode == pyspiel().GameType.ChanceMode.SAMPLED_STOCHASTIC
                and "rng_seed" in spiel.get_parameters())

    # -- views (VIEWS: games that give an observation string and tensor) -----------------------

    def observation_text(self, options: Options, seat: int, observation: dict[str, Any]) -> str:
        """OpenSpiel's observation string for the seat (its information-state string where there is
        none, e.g. at a chance node), else the observation's fields."""
        for key in ("string", "information_state"):
            if observation.get(key):
                return str(observation[key])
        return observation_lines(observation) or "(nothing observed)"

    def observation_shape(self, options: Options) -> tuple[int, ...]:
        """OpenSpiel's `observation_tensor_shape()` of the game loaded with these options."""
        if not self.spiel(options).get_type().provides_observation_tensor:
            raise NotImplementedError(f"{self.name} has no observation tensor in OpenSpiel")
        return tuple(int(d) for d in self.spiel(options).observation_tensor_shape())

    def observation_tensor(self, options: Options, seat: int, observation: dict[str, Any]):
        """OpenSpiel's `observation_tensor(seat)` as float32 in its shape (zeros where OpenSpiel
        gives none: a node it cannot describe)."""
        import numpy as np

        shape = self.observation_shape(options)
        values = observation.get("tensor")
        if values is None:
            return np.zeros(shape, np.float32)
        return np.asarray(values, np.float32).reshape(shape)

    def max_steps_for(self, options: Options) -> int:
        """The loaded game's own bound (its options: Kuhn poker with 3 players is longer than with 2)."""
        return _bound_of(self.spiel(options))

    def return_bounds(self, options: Options) -> tuple[float, float]:
        return _utility_bounds(self.spiel(options))

    def num_players(self, options: Options) -> int:
        return self.spiel(options).num_players()

    def teams(self, options: Options) -> tuple[tuple[int, ...], ...]:
        n = self.num_players(options)
        if self.spiel(options).get_type().utility == pyspiel().GameType.Utility.IDENTICAL:
            return (tuple(range(n)),)  # a cooperative game: one side
        return tuple((p,) for p in range(n))

    def new_initial_state(self, options: Options | dict | None = None) -> OpenSpielState:
        opts = options if isinstance(options, Options) else self.options(options)
        return OpenSpielState(self, opts, self.spiel(opts).new_initial_state())

    def state_from_observation(self, player: int, observation: dict[str, Any]) -> OpenSpielState:
        """A state whose information-state string for `player` is the observed one: a depth-first
        search over the game tree in a fixed order (a search's determinisations then come from
        resample_hidden). Raises ValueError where none is found within REBUILD_BUDGET nodes.
        The game's default options (a searching agent is not told the options)."""
        opts = self.options({})
        if "history" in observation:  # a perfect-information game: every action is public
            state = self.spiel(opts).new_initial_state()
            try:
                for action in observation["history"]:
                    state.apply_action(int(action))
            except Exception as exc:  # noqa: BLE001 - pyspiel.SpielError: not a history of these options
                raise ValueError(f"{self.name}: the observed history does not replay: {exc}") from None
            return OpenSpielState(self, opts, state)
        target = observation.get("information_state")
        if target is None:
            raise ValueError(f"{self.name}: the observation holds no information state")
        budget = [REBUILD_BUDGET]

        def dfs(s):
            budget[0] -= 1
            if budget[0] < 0 or s.is_terminal():
                return None
            if not s.is_chance_node() and s.information_state_string(player) == target:
                return s
            ids = [a for a, p in s.chance_outcomes() if p > 0] if s.is_chance_node() else s.legal_actions()
            for a in ids:
                found = dfs(s.child(a))
                if found is not None:
                    return found
            return None

        found = dfs(self.spiel(opts).new_initial_state())
        if found is None:
            raise ValueError(f"{self.name}: no state found for player {player}'s observation")
        return OpenSpielState(self, opts, found)

    def state_from_json(self, data: dict[str, Any]) -> OpenSpielState:
        opts = self.options(data["options"])
        return OpenSpielState(self, opts, _deserialize(self.spiel(opts), data["serialized"]))

    # -- helpers the state uses ---------------------------------------------------------------

    def action_text(self, inner, player: int, action: int) -> str:
        width = len(str(max(inner.get_game().num_distinct_actions() - 1, 0)))
        return f"{action:0{width}d} {inner.action_to_string(player, action)}"

    def observe(self, inner, player: int) -> dict[str, Any]:
        kind = inner.get_game().get_type()
        seen: dict[str, Any] = {}
        if kind.provides_observation_string:
            seen["string"] = _safe(lambda: inner.observation_string(player))
        if kind.provides_information_state_string:
            seen["information_state"] = _safe(lambda: inner.information_state_string(player))
        if _public_history(inner.get_game()):
            seen["history"] = [int(a) for a in inner.history()]
        if kind.provides_observation_tensor:
            tensor = _safe(lambda: inner.observation_tensor(player))
            if tensor is not None:
                seen["tensor"] = [int(x) if float(x).is_integer() else float(x) for x in tensor]
        return seen

    def resample(self, inner, player: int, rng: random.Random):
        """A pyspiel state `player` cannot tell apart from `inner`: OpenSpiel's own
        ResampleFromInfostate where the game implements it, else a bounded search over histories
        that give `player` the same observation at every step (the state itself when none is found)."""
        if inner.is_terminal() or inner.is_chance_node() or inner.is_simultaneous_node():
            pass
        else:
            try:
                return inner.resample_from_infostate(player, rng.random)
            except Exception:  # noqa: BLE001 - pyspiel.SpielError: not implemented for this game
                pass
        return _search_consistent(self, inner, player, rng)


def _public_history(spiel) -> bool:
    """Every action and chance outcome is seen by every player, and chance is declared (not drawn by
    the game itself): the history is part of each player's observation and rebuilds the state."""
    ps = pyspiel()
    kind = spiel.get_type()
    return (kind.information == ps.GameType.Information.PERFECT_INFORMATION
            and kind.chance_mode != ps.GameType.ChanceMode.SAMPLED_STOCHASTIC)


_BOUNDS: dict[int, tuple[Any, int]] = {}  # id of a loaded game -> (the game, its bound); games are unhashable


def _bound_of(spiel) -> int:
    """`_length_bound` of a loaded game, worked out once for each game object."""
    found = _BOUNDS.get(id(spiel))
    if found is not None and found[0] is spiel:
        return found[1]
    if len(_BOUNDS) >= 256:
        _BOUNDS.clear()
    bound = _BOUNDS[id(spiel)] = (spiel, _length_bound(spiel))
    return bound[1]


def _length_bound(spiel) -> int:
    """Decisions plus chance nodes a game of this pyspiel game can take, at most (+1). A simultaneous
    game's joint step may be followed by several chance nodes (coop_box_pushing: three, its players'
    moves and their order), which OpenSpiel's `max_chance_nodes_in_history` does not count: there the
    bound allows one per player and one more."""
    chance = int(_safe(spiel.max_chance_nodes_in_history) or 0)
    if spiel.get_type().dynamics == pyspiel().GameType.Dynamics.SIMULTANEOUS:
        chance *= spiel.num_players() + 1
    return int(spiel.max_game_length()) + chance + 1


def _deserialize(spiel, text: str):
    """OpenSpiel's `deserialize_state`; a text whose trailing newline the game's own reader refuses
    (negotiation in open_spiel 2.0) is read without it."""
    try:
        return spiel.deserialize_state(text)
    except Exception:  # noqa: BLE001 - pyspiel.SpielError
        if not text.endswith("\n"):
            raise
        return spiel.deserialize_state(text.rstrip("\n"))


def _utility_bounds(spiel) -> tuple[float, float]:
    return float(spiel.min_utility()), float(spiel.max_utility())


def _safe(read: Callable[[], Any]) -> Any:
    try:
        return read()
    except Exception:  # noqa: BLE001 - some games cannot describe chance or terminal nodes
        return None


def _search_consistent(game: OpenSpielGame, inner, player: int, rng: random.Random):
    """Depth-first over histories, in random order, keeping only children whose observation for
    `player` equals the one the true history gave at that step; `player`'s own actions are kept."""
    if SIMULTANEOUS in game._capabilities(inner.get_game()):
        return inner.clone()  # joint steps: not searched (the bridged simultaneous games hide nothing)
    steps = _steps(inner)
    root = inner.get_game().new_initial_state()
    seen, s = [game.observe(root, player)], root.clone()
    for _, a in steps:
        s.apply_action(a)
        seen.append(game.observe(s, player))
    budget = [RESAMPLE_BUDGET]

    def dfs(s, k: int):
        if k == len(steps):
            return s
        who, true = steps[k]
        if who == player:
            options = [true]
        elif s.is_chance_node():
            options = [a for a, p in s.chance_outcomes() if p > 0]
            rng.shuffle(options)
        else:
            options = list(s.legal_actions())
            rng.shuffle(options)
        for a in options:
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            child = s.child(a)
            if game.observe(child, player) == seen[k + 1]:
                found = dfs(child, k + 1)
                if found is not None:
                    return found
        return None

    return dfs(root, 0) or inner.clone()


def _steps(inner) -> list[tuple[int, int]]:
    return [(int(item.player), int(item.action)) for item in inner.full_history()]


_CLASSES: dict[str, type] = {}


def game_class(short_name: str) -> type[OpenSpielGame]:
    """The detente Game class of one OpenSpiel game (instantiated by the registry), made once;
    `ops.bridges.openspiel.rules:OpenSpiel_<short_name>` names it (the module's __getattr__)."""
    if short_name not in _CLASSES:
        _CLASSES[short_name] = type(f"OpenSpiel_{short_name}", (OpenSpielGame,),
                                    {"short_name": short_name, "__module__": __name__})
    return _CLASSES[short_name]


def __getattr__(name: str) -> type[OpenSpielGame]:
    if name.startswith("OpenSpiel_") and len(name) > len("OpenSpiel_"):
        return game_class(name[len("OpenSpiel_"):])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The bridged games registered as plugins (ops/bridges/openspiel/plugin.py; pyproject entry points).
COVERED = ("bargaining", "colored_trails", "goofspiel", "hanabi", "kuhn_poker", "leduc_poker", "liars_dice")
KuhnPoker = game_class("kuhn_poker")
LeducPoker = game_class("leduc_poker")
LiarsDice = game_class("liars_dice")
Goofspiel = game_class("goofspiel")
Bargaining = game_class("bargaining")
ColoredTrails = game_class("colored_trails")
Hanabi = game_class("hanabi")
