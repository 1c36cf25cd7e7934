"""A cheap policy the agent derives from the rules alone: what an action is sure to bring, over
the acting seat's information set.

Nothing here knows a game. For a seat `q` at a position (the searcher's determinisation, or one of
its playouts), the policy redraws `q`'s information set with the rules' own
`State.resample_hidden(q, rng)` and applies each legal action in each redrawn position, reading the
result with the rules' measure of progress (`State.provisional_returns`, or the returns where the
action ends the game). Over those samples an action is

- a **sure gain** when it raises `q`'s return in every one of them (in a card game with hints: a
  card the hints in `q`'s own observation have pinned down as playable, since the redrawn hands
  keep to the hints);
- **safe** when its result is the same in every one of them and loses nothing (a hint, a discard);
- a **gamble** otherwise: its result depends on what `q` cannot see (a card played blind).

Ending the game counts a hair below the same return with play going on (`END_PENALTY` of the
return span): an action that may end the game early (a third life lost) is a gamble, a terminal
move that wins more is still a sure gain. Chance after an action (a draw, dice) is drawn from the
same seed in every sample, so only the hidden information can make the results differ.

`rollout` is the playout policy (a `search.Policy`): a sure gain where it finds one (checked on
the position itself, then on `ROLLOUT_SAMPLES - 1` redraws), else a uniform draw among the actions
that did not end the game or lose on the position itself. `classify` is the root's filter (the
Strategy Office's `prune`): the sure gains if any, else the safe actions if any, else every legal
action, so the seat never gambles while a safe move exists. Both count the moves they simulate in
`work`, which the search charges to its budget. No clock is read.

Ours, after Osawa's strategies for the cooperative card game of the seed papers (Osawa 2015, seed
paper 002, "Estimating hands by opponent's actions in cooperative game with incomplete
information"): his agents play a card only when their knowledge makes it playable; here "knowledge" is whatever the
rules' own resampling keeps fixed, so the same rule applies to any game with hidden information.
"""

from __future__ import annotations

import random
from typing import Any

from games.api import State

# ours: how much less than the same return a game that ends counts (a share of the return span);
# small enough never to outweigh a real gain, large enough to tell "ends the game" apart
END_PENALTY = 1e-4
# ours: redraws a playout's sure-gain check uses besides the position itself (cheap: only the
# actions that gain on the position are checked there)
ROLLOUT_SAMPLES = 4
# ours: a root sure gain or safe move is checked on this many times `samples` redraws more, since one
# false "sure" play can end a game (a rank hint on a card of a colour already played: 1 chance in 10)
VERIFY = 4


class InfoSetPolicy:
    """Sure gains, safe moves and gambles over a seat's information set, from the Game API alone."""

    def __init__(self, game: Any, samples: int = 8):
        self.samples = samples  # the root's redraws (classify)
        self.span = float(game.max_return - game.min_return) or 1.0
        self.eps = END_PENALTY * self.span
        self.work = 0  # moves simulated so far (the search reads it to charge its budget)

    # -- the one primitive: each action's gain at one position -----------------------------

    def gains(self, state: State, player: int, actions: list[str], seed: float) -> dict[str, float] | None:
        """`player`'s gain from each action at `state` (None where the rules have no measure):
        the return after it (the final one, less `eps`, where it ends the game) less the return now.
        The other seats of a simultaneous move play their default action."""
        now = state.provisional_returns()
        if now is None:
            return None
        base = float(now[player])
        others = {p: state.default_action(p) for p in state.current_players() if p != player}
        out = {}
        for action in actions:
            after = state.clone()
            after.apply_actions({**others, player: action})
            self.work += 1 + len(others)
            if after.is_chance():
                chance = random.Random(seed)  # the same draw in every sample: only hidden information differs
                while after.is_chance():
                    after.apply_chance(after.sample_chance(chance))
            if after.is_terminal():
                out[action] = float(after.outcome().returns[player]) - self.eps - base
                continue
            later = after.provisional_returns()
            out[action] = (float(later[player]) if later is not None else base) - base
        return out

    # -- the playout policy -----------------------------------------------------------------

    def rollout(self, state: State, player: int, legal: list[str], rng: random.Random) -> str:
        """A sure gain where there is one, else a uniform draw among the moves that lose nothing here."""
        seed = rng.random()
        here = self.gains(state, player, legal, seed)
        if here is None:
            return legal[rng.randrange(len(legal))]
        hopeful = sorted((a for a in legal if here[a] > 0), key=lambda a: (-here[a], a))
        if hopeful:
            redrawn = [state.resample_hidden(player, rng) for _ in range(ROLLOUT_SAMPLES - 1)]
            for action in hopeful:
                if all((self.gains(s, player, [action], seed) or {action: 0.0})[action] > 0 for s in redrawn):
                    return action
        calm = [a for a in legal if -self.eps / 2 < here[a] <= 0] or legal
        return calm[rng.randrange(len(calm))]

    __call__ = rollout

    # -- the root's filter ------------------------------------------------------------------

    def classify(self, samples: list[State], player: int, legal: list[str],
                 rng: random.Random) -> tuple[list[str], str]:
        """The root actions worth searching, and why: ("sure") the sure gains with the best worst
        case, ("safe") the moves whose result is the same in every sample and loses nothing, or
        ("all") every legal action where the samples show neither (or the rules have no measure)."""
        seed = rng.random()
        table = [self.gains(s, player, legal, seed) for s in samples]
        if not table or any(t is None for t in table):
            return list(legal), "all"
        low = {a: min(t[a] for t in table) for a in legal}
        high = {a: max(t[a] for t in table) for a in legal}
        hopeful = sorted((a for a in legal if low[a] > 0), key=lambda a: (-low[a], a))
        safe = [a for a in legal if low[a] == high[a] and low[a] >= 0]
        if not hopeful and not safe:
            return list(legal), "all"
        # a rare world (a 1 of a colour already played) can hide from a few samples: the candidates
        # are checked again on more redraws, a sure gain to gain in all of them, a safe move to give
        # the same result in all of them
        more = [samples[k % len(samples)].resample_hidden(player, rng) for k in range(VERIFY * len(samples))]
        again = [self.gains(s, player, hopeful + safe, seed) or {} for s in more]
        sure = [a for a in hopeful if all(t.get(a, 0.0) > 0 for t in again)]
        if sure:
            best = max(low[a] for a in sure)
            return [a for a in sure if low[a] == best], "sure"
        safe = [a for a in safe if all(t.get(a) == low[a] for t in again)]
        if safe:
            return safe, "safe"
        return list(legal), "all"
