"""Information-set Monte Carlo tree search over the Game API, bounded by iterations.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 4(2), 2012, algorithm 2): every iteration draws a determinisation of the searcher's
information set, descends one tree of action edges with UCB1 using availability counts (an
action's parent count is the number of iterations in which it was legal, section IV-B), expands
one node, rolls out and backs up each player's normalised return.

Nodes where several players act at once (simultaneous moves) hold one statistics table per acting
player and pick each player's action independently ("decoupled UCT", as in Lanctot et al.'s
simultaneous-move MCTS); a sequential node is the one-player case of the same code. Every player
at a node maximises its own return (a self-interested model of the others); chance outcomes are
drawn from the determinised state and are not tree edges. Commitments (a deal's actions imposed
on a player at the root) replace that player's choice at the root.

No clock is read: a search costs at most `iterations` descents of at most `max_steps` moves each,
and stops early once `max_work` player-moves were simulated (a game where every seat acts at every
node costs as many moves per step as it has seats), so the same inputs give the same suggestions on
any machine. A descent cut off before the end scores the rules' provisional returns where the game
has them (`State.provisional_returns`); where it has none, the descent plays on (to at most LONG
times `max_steps` moves), and only then scores one half for every seat.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable

from games.api import Game, State

# ours: the UCB1 exploration constant for returns scaled to [0, 1] (Kocsis & Szepesvari's
# sqrt(2) halved, as Cowling et al. use 0.7 in their experiments, section VI)
EXPLORATION = 0.7

# ours: a descent in a game with no measure of progress (no provisional returns) plays on to at most
# this many times max_steps moves, since a cut there would score one half for everyone (no signal)
LONG = 10

# The opponent types the tree knows (the Intelligence Office's posterior over them steers the others'
# choices at every node), and the model of a seat the office has no posterior for (ours: half a
# rational player, half noise, so the searcher neither trusts a stranger's best reply blindly nor
# expects it to read the searcher's moves).
TYPES = ("partner", "random", "saboteur", "self-interested")
DEFAULT_MODEL = {"random": 0.5, "self-interested": 0.5}


def _cumulative(weights: dict[str, float]) -> tuple[tuple[str, float], ...]:
    kinds = [k for k in TYPES if float(weights.get(k, 0.0)) > 0.0]
    total = math.fsum(float(weights[k]) for k in kinds)
    if not kinds or total <= 0.0:
        return (("self-interested", 1.0),)
    out, acc = [], 0.0
    for k in kinds:
        acc += float(weights[k]) / total
        out.append((k, acc))
    return tuple(out)


# A rollout policy: (state, player, legal actions, rng) -> action. Default: uniform.
Policy = Callable[[State, int, list[str], random.Random], str]


def uniform_policy(state: State, player: int, legal: list[str], rng: random.Random) -> str:
    """The default rollout policy: a uniformly random legal action."""
    return legal[rng.randrange(len(legal))]


def _imposed(forced: dict[int, str], likely: list, rng: random.Random) -> dict[int, str]:
    """The root's impositions of a descent: `forced`, and each trusted partner's side of a pact
    (`likely`: sorted (player, (action, probability)) pairs) drawn with its probability."""
    if not likely:
        return forced
    imposed = dict(forced)
    for p, (action, w) in likely:
        if p not in forced and rng.random() < w:
            imposed[p] = action
    return imposed


class _Half:
    """The returns of a cut-off position: 0.5 for every seat (no seat count needed)."""

    def __getitem__(self, seat: int) -> float:
        return 0.5

    def __len__(self) -> int:
        return 0


_HALF = _Half()
_NONE: dict[int, str] = {}  # no action imposed (shared, never written)


@dataclass
class Node:
    """One node: per acting player, per action [visits, total own return, availability, total searcher's return]."""

    stats: dict[int, dict[str, list[float]]] = field(default_factory=dict)
    children: dict[tuple[str, ...], "Node"] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """What a search found: per player, per root action (visits, its own mean return, the searcher's
    mean return); and the mean return per player over all iterations."""

    root: dict[int, dict[str, tuple[int, float, float]]]
    value: tuple[float, ...]
    iterations: int


class Search:
    """ISMCTS from one player's information set. `sample(rng)` returns a fresh determinisation."""

    def __init__(self, game: Game, num_players: int, me: int, policy: Policy = uniform_policy,
                 max_steps: int = 20, exploration: float = EXPLORATION, max_work: int = 1 << 30,
                 game_policy: bool = True, models: dict[int, dict[str, float]] | None = None,
                 tree_depth: int = 0):
        self.game = game
        self.tree_depth = tree_depth  # tree levels below the root grown at most (0: no limit; 1: flat)
        # the other seats' opponent types (TYPES: each seat's weights), drawn per tree node where it acts
        self.models = {p: _cumulative(w) for p, w in sorted((models or {}).items())}
        self.default_model = _cumulative(DEFAULT_MODEL)
        self.n = num_players
        self.me = me
        self.policy = policy
        self.game_policy = game_policy  # the game's own cheap playout policy (State.cheap_action) first
        self.max_steps = max_steps
        self.max_work = max_work  # player-moves simulated per run, at most (checked between iterations)
        self.work = 0
        self.c = exploration
        lo, hi = float(game.min_return), float(game.max_return)
        self.lo, self.span = lo, (hi - lo) or 1.0

    def run(self, sample: Callable[[random.Random], State], iterations: int, rng: random.Random,
            forced: dict[int, str] | None = None, likely: dict[int, tuple[str, float]] | None = None,
            later: dict[int, dict[int, str]] | None = None, allowed: list[str] | None = None,
            seeds: list[int] | None = None, sweep: bool = False) -> Result:
        """`iterations` descents; `forced` maps a player to the action imposed on it at the root;
        `likely` a player to (an action, the probability it plays it at the root: a pact's partner
        as far as it is trusted), drawn afresh in each descent; `later` a decision depth (1: the
        decision after the root's) to actions imposed there (a pact over several decisions), in the
        tree and in the playout alike, where legal; `allowed` the searcher's root actions searched
        (the rest of its legal actions are never tried there); `seeds` one seed per descent (at most
        that many descents): descent k draws its determinisation, the trusted partners' sides and its
        moves from its own generator seeded with seeds[k], so two runs with the same seeds compare
        the same worlds and playouts (common random numbers) and differ only where their impositions
        do. `sweep`: the searcher's root actions are compared on common worlds (`_sweep`)."""
        root = Node()
        every = []
        self.work = 0
        # per (decision depth, seat) of `later`: [descents that reached it with the seat to act, those
        # in which the imposed action was legal there and was played]
        self.plan_hits: dict[tuple[int, int], list[int]] = {}
        self.allowed = frozenset(allowed) if allowed else None
        spent = getattr(self.policy, "work", None)  # a policy that simulates moves charges them to the budget
        self._policy_work = spent
        forced = forced or {}
        likely = sorted((likely or {}).items())
        plan = {d: dict(a) for d, a in sorted((later or {}).items()) if d > 0 and a}
        if seeds is not None:
            iterations = min(iterations, len(seeds))
        if sweep and seeds is None:
            done = self._sweep(root, sample, iterations, rng, forced, likely, plan)
            if done is not None:
                return self._result(root, done)
        while len(every) < iterations and (not every or self._spent() < self.max_work):
            if seeds is not None:
                rng = random.Random(seeds[len(every)])
            imposed = _imposed(forced, likely, rng)
            every.append(self._iterate(root, sample(rng), rng, {0: imposed, **plan} if plan else {0: imposed}))
        return self._result(root, every)

    def _sweep(self, root: Node, sample: Callable[[random.Random], State], iterations: int,
               rng: random.Random, forced: dict[int, str], likely: list, plan: dict) -> list | None:
        """Rounds of descents, one per searcher's root action in each round, every descent of a round
        on one world: its determinisation, the trusted partners' sides and its moves drawn from one
        seed (common random numbers, the variance reduction of simulation studies: Law & Kelton,
        "Simulation Modeling and Analysis", ch. 11; the same worlds for every move, as in perfect
        information Monte Carlo, Long, Sturtevant, Buro & Furtak, AAAI 2010). Two moves are then
        compared on the same hidden cards and chance, so what the rules' measure says about the move
        is not drowned by what it says about the world drawn. Rounds go on while a whole round fits
        in `iterations` and the `work` budget (the first round always runs). None where the root is
        not the searcher's to move or has more actions than `iterations` (the descents by UCB then)."""
        first = random.Random(rng.getrandbits(64))
        state = sample(first)
        if state.is_terminal() or state.is_chance() or self.me not in state.current_players():
            return None
        legal = state.legal_actions(self.me)
        if self.allowed is not None:
            legal = [a for a in legal if a in self.allowed] or legal
        if len(legal) < 2 or len(legal) > iterations or self.me in forced:
            return None
        table = root.stats.setdefault(self.me, {})
        every = []
        while not every or (len(every) + len(legal) <= iterations and self._spent() < self.max_work):
            seed = rng.getrandbits(64)
            for action in legal:
                world = random.Random(seed)
                imposed = {**_imposed(forced, likely, world), self.me: action}
                s = table.setdefault(action, [0, 0.0, 0, 0.0])
                s[2] += 1
                every.append(self._iterate(root, sample(world), world, {**plan, 0: imposed}))
        return every

    def _result(self, root: Node, every: list) -> Result:
        iterations = len(every)
        total = {p: math.fsum(returns[p] for returns in every) for p in range(self.n)}  # n: the seats seen so far
        stats = {p: {a: (int(s[0]), s[1] / s[0] if s[0] else 0.0, s[3] / s[0] if s[0] else 0.0)
                     for a, s in sorted(table.items())}
                 for p, table in sorted(root.stats.items())}
        value = tuple(total[p] / iterations for p in sorted(total))
        return Result(stats, value, iterations)

    def _hit(self, depth: int, player: int, played: bool) -> None:
        hits = self.plan_hits.setdefault((depth, player), [0, 0])
        hits[0] += 1
        hits[1] += played

    def _spent(self) -> int:
        if self._policy_work is None:
            return self.work
        return self.work + self.policy.work - self._policy_work

    def _iterate(self, root: Node, state: State, rng: random.Random, plan: dict[int, dict[int, str]]):
        node: Node | None = root
        path: list[tuple[Node, dict[int, str]]] = []
        steps = 0
        depth = 0  # decisions applied in this descent
        last = max(plan) if len(plan) > 1 or plan.get(0) else -1
        limit = self.max_steps
        cut = None  # the provisional returns where the descent was cut off (read once)
        while not state.is_terminal():
            if steps >= limit:
                if limit > self.max_steps:
                    break
                cut = state.provisional_returns()
                if cut is not None:
                    break
                limit = self.max_steps * LONG  # no measure of progress here: a cut scores nothing, play on
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                steps += 1
                continue
            players = state.current_players()
            self.work += len(players)
            forced = plan.get(depth, _NONE) if depth <= last else _NONE
            depth += 1
            if node is None:  # beyond the tree: the rollout
                joint = {p: self._rollout_action(state, p, rng) for p in players}
                for p, a in forced.items():
                    if p in joint:
                        legal_here = a in state.legal_actions(p)
                        if depth > 1:
                            self._hit(depth - 1, p, legal_here)
                        if legal_here:
                            joint[p] = a
                state.apply_actions(joint)
                steps += 1
                continue
            joint = {}
            expanded = False
            for p in players:
                legal = state.legal_actions(p)
                if node is root and p == self.me and self.allowed is not None:
                    legal = [a for a in legal if a in self.allowed] or legal
                if not legal:
                    joint[p] = state.default_action(p)
                    continue
                if p in forced and depth > 1:
                    self._hit(depth - 1, p, forced[p] in legal)
                if forced.get(p) in legal:
                    joint[p] = forced[p]
                    continue
                choice, new = self._select(node, p, legal, rng, self._type(p, rng))
                joint[p] = choice
                expanded = expanded or new
            path.append((node, joint))
            state.apply_actions(joint)
            steps += 1
            key = tuple(joint[p] for p in players)
            if self.tree_depth and len(path) >= self.tree_depth:
                node = None  # the tree stops here: the rest is playout
                continue
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
                expanded = True
            node = None if expanded else child
        returns = self._returns(state, cut)
        for visited, joint in path:
            for p, action in joint.items():
                s = visited.stats.get(p, {}).get(action)
                if s is not None:
                    s[0] += 1
                    s[1] += returns[p]
                    s[3] += returns[self.me]
        return returns

    def _type(self, player: int, rng: random.Random) -> str:
        """How `player` chooses at this node: the searcher maximises its own return; another seat is
        drawn from its opponent model (TYPES) at each node where it acts."""
        if player == self.me:
            return "self-interested"
        cumulative = self.models.get(player, self.default_model)
        x = rng.random()
        for kind, upto in cumulative:
            if x < upto:
                return kind
        return cumulative[-1][0]

    def _select(self, node: Node, player: int, legal: list[str], rng: random.Random,
                kind: str = "self-interested") -> tuple[str, bool]:
        """UCB1 with availability counts; an untried action first (drawn uniformly). (action, new?)
        `kind`: whose return the player maximises (its own; the searcher's as a partner; the
        searcher's loss as a saboteur), or "random": a uniform draw."""
        table = node.stats.get(player)
        if table is None:
            table = node.stats[player] = {}
        untried = []
        for a in legal:
            s = table.get(a)
            if s is None:
                s = table[a] = [0, 0.0, 0, 0.0]
            s[2] += 1
            if s[0] == 0:
                untried.append(a)
        if untried:
            return untried[rng.randrange(len(untried))], True
        if kind == "random":
            return legal[rng.randrange(len(legal))], False
        best, best_score = legal[0], -math.inf
        c = self.c
        for a in legal:  # legal is sorted: ties go to the first, deterministically
            n, w, avail, mine = table[a]
            if kind == "partner":
                w = mine
            elif kind == "saboteur":
                w = n - mine
            score = w / n + c * math.sqrt(math.log(avail) / n)
            if score > best_score:
                best, best_score = a, score
        return best, False

    def _rollout_action(self, state: State, player: int, rng: random.Random) -> str:
        if self.game_policy:
            action = state.cheap_action(player, rng)
            if action is not None:
                return action
        legal = state.legal_actions(player)
        if not legal:
            return state.default_action(player)
        return self.policy(state, player, legal, rng)

    def _returns(self, state: State, raw=None):
        """Each player's return scaled to [0, 1]. A cut-off position scores the rules' provisional
        returns where the game has them (State.provisional_returns, `raw` where already read), else
        0.5 for every seat."""
        if state.is_terminal():
            raw = state.outcome().returns
        elif raw is None:
            raw = state.provisional_returns()
            if raw is None:
                return _HALF
        self.n = max(self.n, len(raw))
        return [min(1.0, max(0.0, (float(r) - self.lo) / self.span)) for r in raw]
