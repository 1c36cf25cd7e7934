"""detente's games as OpenSpiel Python games: `register()` adds `detente_<game>` to pyspiel's
registry for every installed game with the ACTION_ENCODING capability.

    import pyspiel
    from ops.bridges.openspiel.export import register
    register()
    game = pyspiel.load_game("detente_battleline", {"options": "{}"})   # detente options as JSON
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)

- Actions: the game's action vocabulary (`Game.encode_action`); a simultaneous game adds one
  more number, the no-op of a seat that does not act: every decision of a simultaneous game is a
  simultaneous node (OpenSpiel asks every seat there), one seat's turn included.
- Chance: a detente chance outcome that is a shuffle (a list whose items are always the same
  multiset: checked on a few draws at that node; Hanabi's deck, Battle Line's two decks, the
  dominoes, the Werewolves roles) is one OpenSpiel chance node per card: each node offers the
  distinct cards not yet drawn, with probability count / cards left (a uniform shuffle, as the
  built-in games draw), and the last completes detente's outcome. So every card of the exported
  Hanabi is drawn at a chance node with its outcomes; detente draws a deck before the deal, so the
  cards' nodes come before the first move (the players' information states, not the node order,
  hide the cards not yet seen). Any other outcome (a dice roll, a number) is fixed by the game
  parameter `seed`: a node of one outcome that draws detente's outcome with
  `random.Random("<seed>/<steps so far>")`, the same draw for the same history.
- Observation string and tensor: the game's views where it has VIEWS (`observation_text`,
  `observation_tensor`), else the observation as canonical JSON and no tensor. Information-state
  string: the seat's observations since the start and its own actions (perfect recall).
  Information-state tensor (games with VIEWS): the observation's tensor, then how many times the
  seat has taken each action number, then its last action one-hot (`_Observer`). Talk is not offered.
- Returns: detente's returns at the end.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np

from games.api import ACTION_ENCODING, PRIVATE_INFORMATION, SIMULTANEOUS, VIEWS, Game, State
from games.registry import game_names, get_game
from ops.bridges.openspiel.rules import pyspiel

PREFIX = "detente_"
MAX_PLAYERS = 64  # the registration's bound on players: the options decide (as detente's seats, ours)
PROBES = 4  # draws that must give the same multiset before a chance outcome is taken for a shuffle (ours)
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
        max_num_players=max(players, MAX_PLAYERS), min_num_players=1,
        provides_information_state_string=True, provides_information_state_tensor=game.has(VIEWS),
        provides_observation_string=True, provides_observation_tensor=game.has(VIEWS),
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
            size = game.num_distinct_actions(self.options)
            self.noop = size if simultaneous else None
            outcomes = _most_outcomes(game, self.options, self.seed)
            info = ps.GameInfo(num_distinct_actions=size + (1 if simultaneous else 0), max_chance_outcomes=outcomes,
                               num_players=n, min_utility=float(game.min_return), max_utility=float(game.max_return),
                               utility_sum=None, max_game_length=int(min(game.max_steps_for(self.options), 2**31 - 1)))
            super().__init__(game_type, info, {"options": params.get("options", "{}"), "seed": self.seed})

        def new_initial_state(self):
            return DetenteSpielState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return _Observer(game, self.options, recall)

    class DetenteSpielState(ps.State):
        def __init__(self, spiel_game):
            super().__init__(spiel_game)
            params = spiel_game.get_parameters()  # read back: the Python attributes of a copied game are not kept
            self.options = game.options(json.loads(params["options"]))
            self.seed = int(params["seed"])
            self.noop = game.num_distinct_actions(self.options) if simultaneous else None
            self.inner: State = game.new_initial_state(self.options)
            self.steps = 0  # chance draws and decisions so far (the chance generator's stream)
            self.limit = spiel_game.max_chance_outcomes()
            self.deck: tuple[list[Any], list[int]] | None = None  # a shuffle being drawn: distinct items, counts left
            self.drawn: list[Any] = []  # its items drawn so far
            n = game.num_players(self.options)
            self.seen: list[list[str]] = [[] for _ in range(n)]  # each seat's observations and own actions
            self.acted: list[list[int]] = [[] for _ in range(n)]  # each seat's own action numbers, in order
            self._look()

        def current_player(self):
            s = self.inner
            if s.is_terminal():
                return ps.PlayerId.TERMINAL
            if s.is_chance():
                return ps.PlayerId.CHANCE
            if simultaneous:  # every decision of a simultaneous game is a joint one (the others: no-op)
                return ps.PlayerId.SIMULTANEOUS
            return s.current_players()[0]

        def _legal_actions(self, player):
            s = self.inner
            legal = s.legal_actions(player)
            if not legal and simultaneous:
                return [self.noop]
            return sorted(game.encode_action(self.options, a) for a in legal)

        def _shuffle(self):
            if self.deck is None:
                self.deck = _as_shuffle(self.inner, f"{self.seed}/{self.steps}", self.limit) or ([], [])
            return self.deck

        def chance_outcomes(self):
            items, counts = self._shuffle()
            if not items:
                return [(0, 1.0)]
            left = sum(counts)
            return [(i, c / left) for i, c in enumerate(counts) if c > 0]

        def _apply_action(self, action):
            s = self.inner
            if s.is_chance():
                items, counts = self._shuffle()
                if not items:
                    s.apply_chance(s.sample_chance(random.Random(f"{self.seed}/{self.steps}")))
                else:
                    counts[action] -= 1  # each state its own lists: OpenSpiel clones a Python state by deepcopy
                    self.drawn.append(items[action])
                    if sum(counts):
                        return  # more cards of this shuffle to draw
                    s.apply_chance(self.drawn)
                self.deck, self.drawn = None, []
            else:
                player = s.current_players()[0]
                name = game.decode_action(self.options, action)
                s.apply_actions({player: name})
                self.seen[player].append("act " + name)
                self.acted[player].append(int(action))
            self.steps += 1
            self._look()

        def _look(self):
            """Each seat's observation after a step, kept where it changed (the information state)."""
            for p, seen in enumerate(self.seen):
                text = json.dumps(self.inner.observation(p), sort_keys=True, separators=(",", ":"))
                if not seen or seen[-1] != text:
                    seen.append(text)

        def _apply_actions(self, actions):
            s = self.inner
            chosen = {p: game.decode_action(self.options, int(actions[p])) for p in s.current_players()}
            s.apply_actions(chosen)
            for p, name in sorted(chosen.items()):
                self.seen[p].append("act " + name)
                self.acted[p].append(int(actions[p]))
            self.steps += 1
            self._look()

        def _action_to_string(self, player, action):
            if player == ps.PlayerId.CHANCE:
                items = self._shuffle()[0] if self.inner.is_chance() else []
                return f"draw {json.dumps(items[action])}" if 0 <= action < len(items) else "draw"
            if action == self.noop:
                return "no-op"
            return game.decode_action(self.options, action)

        def is_terminal(self):
            return self.inner.is_terminal()

        def returns(self):
            if not self.inner.is_terminal():
                return [0.0] * game.num_players(self.options)
            return list(self.inner.outcome().returns)

        def __str__(self):
            return self.inner.render()

    for cls in (DetenteSpielGame, DetenteSpielState):  # module-level names: pickle (deep copies) finds them
        cls.__name__ = cls.__qualname__ = f"{cls.__name__}_{name}"
        cls.__module__ = __name__
        globals()[cls.__name__] = cls
    return DetenteSpielGame, game_type


class _Observer:
    """A seat's view for OpenSpiel. Without perfect recall, the observation: the game's tensor and
    text where it has VIEWS, else canonical JSON and no tensor. With perfect recall, the information
    state: its string is the seat's observations and own actions so far; its tensor (games with
    VIEWS) is the observation's tensor, then `actions_taken` (how many times the seat has taken each
    action number so far) and `last_action` (its latest action number, one-hot; zeros before its
    first), so a fixed size, `observation_shape` + 2 x the action vocabulary. The tensor summarises
    the information state for learners (DQN, NFSP); the string is the exact one."""

    def __init__(self, game: Game, options, recall: bool):
        self.game, self.options, self.recall = game, options, recall
        self.views = game.has(VIEWS, options)
        pieces: list[tuple[str, tuple[int, ...]]] = []
        if self.views:
            pieces.append(("observation", tuple(game.observation_shape(options))))
            if recall:
                actions = game.num_distinct_actions(options)
                pieces += [("actions_taken", (actions,)), ("last_action", (actions,))]
        sizes = [int(np.prod(shape)) for _, shape in pieces]
        self.tensor = np.zeros(sum(sizes), np.float32)
        self.dict, at = {}, 0
        for (name, shape), size in zip(pieces, sizes):
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state, player):
        if not self.views:
            return
        seen = self.game.state_observation_tensor(self.options, state.inner, player)
        self.dict["observation"][...] = seen.reshape(self.dict["observation"].shape)
        if self.recall:
            taken, last = self.dict["actions_taken"], self.dict["last_action"]
            acted = state.acted[player]
            taken[:] = np.bincount(acted, minlength=len(taken)) if acted else 0.0
            last[:] = 0.0
            if acted:
                last[acted[-1]] = 1.0

    def string_from(self, state, player):
        if self.recall:
            return "\n".join(state.seen[player])
        seen = state.inner.observation(player)
        if self.views:
            return self.game.observation_text(self.options, player, seen)
        return json.dumps(seen, sort_keys=True, separators=(",", ":"))


def _key(item: Any) -> str:
    return json.dumps(item, sort_keys=True, separators=(",", ":"))


def _as_shuffle(state: State, stream: str, limit: int | None = None) -> tuple[list[Any], list[int]] | None:
    """The distinct items and their counts where this chance node draws a shuffle (a list of at
    least 3 items whose multiset is the same on PROBES draws), else None."""
    multiset = None
    for probe in range(PROBES):
        drawn = state.sample_chance(random.Random(f"{stream}/probe{probe}"))
        if not isinstance(drawn, list) or len(drawn) < 3:
            return None
        counts: dict[str, list] = {}
        for item in drawn:
            counts.setdefault(_key(item), [item, 0])[1] += 1
        found = sorted((k, v[0], v[1]) for k, v in counts.items())
        if multiset is not None and found != multiset:
            return None
        multiset = found
    if limit is not None and len(multiset) > limit:
        return None
    return [item for _, item, _ in multiset], [count for _, _, count in multiset]


def _most_outcomes(game: Game, options, seed: int, nodes: int = 5000) -> int:
    """The most chance outcomes one node offers, over one seeded playthrough (at least 1)."""
    state, rng, most = game.new_initial_state(options), random.Random(f"{seed}/outcomes"), 1
    for _ in range(nodes):
        if state.is_terminal():
            break
        if state.is_chance():
            shuffle = _as_shuffle(state, f"{seed}/outcomes")
            most = max(most, len(shuffle[0]) if shuffle else 1)
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
    return most
