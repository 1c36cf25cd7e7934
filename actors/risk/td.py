"""The seed agent's machinery around its network (Keppler & Choi 2000, "the seed"): the `td`
agent's Strategy Office logic. Quotes are the seed's; numbers are in actors.risk.params.

- Claim: "evaluated the board if it did have the territory in question ... claim the territory
  that resulted in a board which returned the highest utility".
- Placement: "a 'fake player' that consists of all of the enemy players": the territories it
  is "most likely to attack" are mine that one of its stacks takes with at least the attack
  threshold's odds, ranked by the network's value of the board for the fake player owning
  them. `defence_share` of the armies guard them, one army at a time to the first still in
  danger; the rest ("offense") go to the territory "we are likely to want to attack from": my
  strongest neighbour of the enemy territory whose conquest gives me the best board.
- Attack: every attack winning at least `attack_threshold` of battles ("simulated battle" with
  the most dice, or the exact odds); the one whose conquest gives the best board first (with
  `need_gain`, only if it raises the board's value; off by default, see params); re-evaluated
  after every roll and conquest.
- Fortify: the fake player's most likely target, if it is in danger, gets armies from a
  "buddy": my neighbouring territory with the most armies to spare.
Set-up placement (the seed is silent; ours) places one army at a time by the same plan,
defence armies spread through the set-up; move-ins, neutral armies, dice and cards: tactics.py.
"""

from __future__ import annotations

from collections.abc import Callable

from actors.risk.board import Board, chunk
from actors.risk.heuristic import is_defence
from actors.risk.network import Evaluator, Net
from actors.risk.odds import simulated_probability, win_probability
from actors.risk.params import TDParams
from actors.risk.tactics import Choice, decide
from games.risk.mapdata import CODES, INDEX, NEIGHBOURS
from games.risk.rules import INITIAL_ARMIES


class Seed:
    """The seed's decisions at one node, for `board` seen by its player with network `net`."""

    def __init__(self, board: Board, net: Net, params: TDParams):
        self.b, self.net, self.params = board, net, params
        self._ev: Evaluator | None = None
        self._fake: Evaluator | None = None
        self.odds: Callable[[int, int], float] = (
            win_probability if params.odds == "exact"
            else lambda a, d: simulated_probability(a, d, params.battles))

    # -- values --------------------------------------------------------------------------
    @property
    def ev(self) -> Evaluator:
        if self._ev is None:
            self._ev = Evaluator(self.net, self.b.owned_mask())
        return self._ev

    def now(self) -> float:
        """The network's value of the board as it is, for me."""
        return self.ev.value()

    def with_(self, t: int) -> float:
        """The value for me of the board with `t` mine as well."""
        return self.ev.value_with(t)

    def in_danger(self, levels: list[int]) -> list[int]:
        """My territories the fake player is "most likely to attack", most wanted first."""
        b = self.b
        if self._fake is None:
            self._fake = Evaluator(self.net, b.foes_mask())
        fake = self._fake
        out = []
        for t in b.own():
            strongest = max((b.armies[n] - 1 for n in b.foe_neighbours(t)), default=0)
            if strongest >= 1 and self.odds(strongest, levels[t]) >= self.params.attack_threshold:
                out.append((-fake.value_with(t), t))
        return [t for _, t in sorted(out)]

    # -- phases ------------------------------------------------------------------------------
    def claim(self, legal: list[str]) -> Choice:
        scored = sorted((-self.with_(INDEX[a[6:]]), a) for a in legal)
        return scored[0][1], -scored[0][0]

    def offence_base(self) -> int | None:
        """My strongest neighbour of the enemy territory whose conquest gives the best board."""
        b = self.b
        targets = sorted({n for t in b.own() for n in b.hostile_neighbours(t)})
        if not targets:
            return None
        best = min(targets, key=lambda t: (-self.with_(t), t))
        return min((n for n in NEIGHBOURS[best] if b.mine(n)), key=lambda n: (-b.armies[n], n))

    def plan(self, armies: int, done: int, setup: bool) -> list[int]:
        """Where each of the next `armies` armies goes, `done` of these placed already."""
        b = self.b
        levels = list(b.armies)
        base = self.offence_base()
        danger = self.in_danger(levels)
        out = []
        for i in range(armies):
            pick = None
            if is_defence(done + i, done + armies, self.params.defence_share, setup):
                for t in danger:
                    strongest = max(b.armies[n] - 1 for n in b.foe_neighbours(t))
                    if self.odds(strongest, levels[t]) >= self.params.attack_threshold:
                        pick = t
                        break
            if pick is None:
                pick = base if base is not None else b.own()[0]
            levels[pick] += 1
            out.append(pick)
        return out

    def place(self, legal: list[str], setup: bool) -> Choice:
        b, obs = self.b, self.b.obs
        if setup:
            left = obs["setup_left"][b.me]
            done = max(0, INITIAL_ARMIES[b.players] - left - len(b.own()))
            return f"place:{CODES[self.plan(1, done, True)[0]]}:1", 1.0
        left = obs["reinforcements"]
        done = max(0, int((obs.get("turn_log") or {}).get("armies", left)) - left)
        plan = self.plan(left, done, False)
        run = 1
        while run < len(plan) and plan[run] == plan[0]:
            run += 1
        action = chunk(legal, plan[0], run)
        return (action if action is not None else legal[0]), float(run)

    def attack(self, legal: list[str]) -> Choice:
        b, threshold = self.b, self.params.attack_threshold
        now = self.now()
        best = None
        for action in legal:
            if not action.startswith("attack:"):
                continue
            f, t, d = INDEX[action[7:10]], INDEX[action[11:14]], int(action[15:])
            if d != min(3, b.armies[f] - 1):
                continue  # the most dice (seed)
            p = self.odds(b.armies[f] - 1, b.armies[t])
            if p < threshold:
                continue
            after = self.with_(t)
            if self.params.need_gain and after <= now:
                continue
            key = (after, p, action)
            if best is None or key[:2] > best[:2]:
                best = key
        if best is None:
            return "end", now
        return best[2], best[0]

    def fortify(self, legal: list[str]) -> Choice:
        b = self.b
        for t in self.in_danger(b.armies):
            buddies = [INDEX[a[8:11]] for a in legal
                       if a.startswith("fortify:") and INDEX[a[12:15]] == t and INDEX[a[8:11]] in NEIGHBOURS[t]]
            if buddies:
                f = min(buddies, key=lambda n: (-b.armies[n], n))
                return f"fortify:{CODES[f]},{CODES[t]}", float(b.armies[f])
        return "end", 0.0

    def transfer(self, legal: list[str]) -> Choice:
        """A buddy sends all its spare armies, or `buddy_share` of them if it borders foes (ours)."""
        pending = self.b.obs["pending"]
        f, lo, hi = INDEX[pending["from"]], pending["min"], pending["max"]
        n = hi if not self.b.foe_neighbours(f) else max(lo, int(hi * self.params.buddy_share))
        return f"move:{n}", float(n)


def suggest(board: Board, legal: list[str], net: Net, params: TDParams) -> Choice:
    """The seed agent's action for this node, and its utility."""
    seed = Seed(board, net, params)
    table = {
        "claim": lambda b, lg: seed.claim(lg),
        "setup": lambda b, lg: seed.place(lg, setup=True),
        "reinforce": lambda b, lg: seed.place(lg, setup=False),
        "attack": lambda b, lg: seed.attack(lg),
        "fortify": lambda b, lg: seed.fortify(lg),
        "transfer": lambda b, lg: seed.transfer(lg),
    }
    return decide(table, board, legal)
