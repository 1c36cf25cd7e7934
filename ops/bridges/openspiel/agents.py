"""OpenSpiel's MCTS bot as a detente Strategy Office (agent `openspiel-mcts`), and OpenSpiel's
CFR average policy as an agent (`openspiel-cfr`).

    detente play openspiel-kuhn_poker --seed 1 --log k.log --agents "openspiel-mcts:simulations=200,random"

At each decision the office rebuilds a position from its seat's observation alone
(`Game.state_from_observation`, the OBSERVATION_STATE hook), draws `samples` determinisations of
what the seat cannot see (`State.resample_hidden`), runs OpenSpiel's MCTSBot (UCT with random
rollouts, open_spiel/python/algorithms/mcts.py) on each, and suggests the actions by their summed
visit counts (determinised UCT: Cowling, Powley & Whitehouse 2012 call it PIMC search). Its
generators come from the office's seeded generator, so a game's log is the same bytes for the
same seed. It plays the bridged OpenSpiel games that rebuild a position from an observation
(OBSERVATION_STATE), on their own pyspiel states, and detente's Battle Line, through its action
encoding: rollouts cut at `max_length` plies score the rules' provisional returns.

`openspiel-cfr` solves the game with OpenSpiel's CFR (Zinkevich et al. 2007; `pyspiel.CFRSolver`,
`iterations` of it, once a process) and plays its average policy at the seat's information state
(the observation's `information_state`), drawing from it with the office's seeded generator.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import Field

from actors.alpha.builder import AlphaAgent, president_from
from actors.alpha.offices import Answer, StrategyOffice
from actors.alpha.options import AgentOptions
from actors.registry import AgentDef
from bus.messages import OfficeRequest, Suggestion
from games.registry import get_game

class _Searchable(frozenset):
    """The games MCTS plays: the listed ones, and every bridged OpenSpiel game (`openspiel-<name>`, made
    when named) that is sequential and rebuilds a position from an observation (OBSERVATION_STATE)."""

    def __contains__(self, name) -> bool:
        return frozenset.__contains__(self, name) or (isinstance(name, str) and name.startswith("openspiel-")
                                                      and _searchable(name))


@lru_cache(maxsize=None)
def _searchable(name: str) -> bool:
    from games.api import OBSERVATION_STATE, SIMULTANEOUS
    from games.registry import UnknownGame

    try:
        game = get_game(name)
        opts = game.options({})
        return game.has(OBSERVATION_STATE, opts) and not game.has(SIMULTANEOUS, opts)
    except (UnknownGame, ValueError, ImportError, RuntimeError):
        return False


GAMES = frozenset({"openspiel-kuhn_poker", "openspiel-leduc_poker"})  # the listed bridged games with OBSERVATION_STATE
# detente's own games MCTS plays through the action encoding (OBSERVATION_STATE, ACTION_ENCODING, sequential)
NATIVE = frozenset({"battleline"})


class MCTSOptions(AgentOptions):
    """OpenSpiel MCTS's parameters (its defaults in examples/mcts.py: uct_c 2, 1 rollout) and determinisations."""

    roles = ("so",)
    agent = "the OpenSpiel MCTS agent"
    simulations: int = Field(100, ge=1, le=100_000)
    uct_c: float = Field(2.0, gt=0.0, le=100.0)
    rollouts: int = Field(1, ge=1, le=100)
    samples: int = Field(4, ge=1, le=256)
    max_length: int | None = Field(None, ge=1, le=100_000)  # rollout plies, then the rules' provisional returns


class MCTSStrategyOffice(StrategyOffice):
    """Determinised OpenSpiel MCTS from the seat's observation."""

    def __init__(self, address: str, seed: int, game: str, o: MCTSOptions):
        super().__init__(address, seed)
        self.game = get_game(game)
        self.o = o

    def suggest(self, request: OfficeRequest) -> Answer:
        import numpy as np  # open_spiel's dependency, as its MCTS
        from open_spiel.python.algorithms import mcts

        legal = list(request.legal)
        if len(legal) <= 1:
            return Answer(suggestions=[Suggestion(action=a, utility=1.0) for a in legal])
        seat = int(request.view["seat"])
        base = self.game.state_from_observation(seat, request.view["observation"])
        bridged = hasattr(base, "inner")  # an OpenSpiel game through the bridge: its own pyspiel state
        spiel = base.inner.get_game() if bridged else _registered(self.game.name)
        visits: dict[int, int] = {}
        for _ in range(self.o.samples):
            drawn = base.resample_hidden(seat, self.rng)
            state = drawn.inner if bridged else _SpielView(self.game, drawn, self.rng)
            rs = np.random.RandomState(self.rng.getrandbits(32))
            bot = mcts.MCTSBot(spiel, self.o.uct_c, self.o.simulations,
                               mcts.RandomRolloutEvaluator(self.o.rollouts, rs, self.o.max_length),
                               solve=False, random_state=rs)
            root = bot.mcts_search(state)
            for child in root.children:
                visits[int(child.action)] = visits.get(int(child.action), 0) + int(child.explore_count)
        total = max(1, sum(visits.values()))
        if bridged:
            named = {self.game.action_text(base.inner, seat, a): n for a, n in visits.items()}
        else:
            opts = self.game.options({})
            named = {self.game.decode_action(opts, a): n for a, n in visits.items()}
        ranked = sorted((a for a in legal if a in named), key=lambda a: (-named[a], a))
        return Answer(suggestions=[Suggestion(action=a, utility=round(named[a] / total, 4)) for a in ranked[:1]])


@lru_cache(maxsize=None)
def _registered(game: str):
    """The pyspiel game of detente's `game` (ops/bridges/openspiel/export.py), default options."""
    from ops.bridges.openspiel.export import register
    from ops.bridges.openspiel.rules import pyspiel

    register([game])
    return pyspiel().load_game(f"detente_{game}", {"options": "{}"})


class _SpielView:
    """A detente state seen through the pyspiel.State methods OpenSpiel's Python MCTS calls, actions
    numbered by the game's encoding. Chance is drawn from `rng` (the office's generator), one
    outcome of probability 1 to the search; unfinished rollouts score the rules' provisional returns
    (else the middle of the return bounds)."""

    def __init__(self, game, state, rng):
        self.game, self.state, self.rng = game, state, rng
        self.opts = game.options({})

    def clone(self) -> "_SpielView":
        return _SpielView(self.game, self.state.clone(), self.rng)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def is_chance_node(self) -> bool:
        return self.state.is_chance()

    def chance_outcomes(self):
        return [(0, 1.0)]

    def current_player(self) -> int:
        if self.state.is_terminal():
            return -4  # pyspiel.PlayerId.TERMINAL
        return -1 if self.state.is_chance() else self.state.current_players()[0]

    def legal_actions(self, player=None) -> list[int]:
        if self.state.is_chance() or self.state.is_terminal():
            return [0] if self.state.is_chance() else []
        p = self.state.current_players()[0] if player is None else player
        return sorted(self.game.encode_action(self.opts, a) for a in self.state.legal_actions(p))

    def apply_action(self, action) -> None:
        if self.state.is_chance():
            self.state.apply_chance(self.state.sample_chance(self.rng))
        else:
            p = self.state.current_players()[0]
            self.state.apply_actions({p: self.game.decode_action(self.opts, int(action))})

    def returns(self) -> list[float]:
        if self.state.is_terminal():
            return list(self.state.outcome().returns)
        provisional = self.state.provisional_returns()
        if provisional is not None:
            return list(provisional)
        middle = (self.game.min_return + self.game.max_return) / 2
        return [middle] * self.game.num_players(self.opts)


@lru_cache(maxsize=None)
def _agent(game: str) -> AlphaAgent:
    def so(address: str, seed: int, o: MCTSOptions) -> MCTSStrategyOffice:
        return MCTSStrategyOffice(address, seed, game, o)

    return AlphaAgent(options=MCTSOptions, president=president_from(views={"so": ("observation", "seat")}),
                      offices={"so": so})


def _build(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list:
    return _agent(game).build(game, seat, seed, raw)


AGENTS = [AgentDef("openspiel-mcts", _Searchable(GAMES | NATIVE), _build,
                   "OpenSpiel's MCTS bot, determinised from the seat's observation (games that rebuild a position: "
                   "every sequential perfect-information openspiel-* game too)",
                   games_in_budget=1, conformance="openspiel-mcts:simulations=2;samples=1;max_length=4")]


class CFROptions(AgentOptions):
    """CFR iterations before play (the average policy's exploitability falls about as 1/sqrt(iterations))."""

    roles = ("so",)
    agent = "the OpenSpiel CFR agent"
    iterations: int = Field(500, ge=1, le=100_000)


@lru_cache(maxsize=8)
def _average_policy(game: str, iterations: int):
    from ops.bridges.openspiel.rules import pyspiel

    detente = get_game(game)
    solver = pyspiel().CFRSolver(detente.spiel(detente.options({})))
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return solver, solver.average_policy()  # the policy reads the solver's tables: both kept


class CFRStrategyOffice(StrategyOffice):
    """Suggests one action drawn from CFR's average policy at the seat's information state."""

    def __init__(self, address: str, seed: int, game: str, o: CFROptions):
        super().__init__(address, seed)
        self.game, self.o = game, o

    def suggest(self, request: OfficeRequest) -> Answer:
        legal = list(request.legal)
        if len(legal) <= 1:
            return Answer(suggestions=[Suggestion(action=a, utility=1.0) for a in legal])
        by_id = {int(a.split(" ", 1)[0]): a for a in legal}
        info = request.view["observation"]["information_state"]
        probs = [(int(a), float(p)) for a, p in _average_policy(self.game, self.o.iterations)[1].get_state_policy(info)]
        r, total, pick = self.rng.random(), 0.0, None
        for action, p in sorted(probs):
            total += p
            if pick is None and r < total and action in by_id:
                pick = by_id[action]
        pick = pick or by_id[max(a for a, _ in probs if a in by_id)]
        return Answer(suggestions=[Suggestion(action=pick, utility=1.0)])


@lru_cache(maxsize=None)
def _cfr_agent(game: str) -> AlphaAgent:
    def so(address: str, seed: int, o: CFROptions) -> CFRStrategyOffice:
        return CFRStrategyOffice(address, seed, game, o)

    return AlphaAgent(options=CFROptions, president=president_from(views={"so": ("observation",)}), offices={"so": so})


def _build_cfr(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list:
    return _cfr_agent(game).build(game, seat, seed, raw)


AGENTS.append(AgentDef("openspiel-cfr", GAMES, _build_cfr,
                       "OpenSpiel's CFR average policy, played at the seat's information state (small bridged games)",
                       games_in_budget=1, conformance="openspiel-cfr:iterations=50"))
