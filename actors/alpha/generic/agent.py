"""The generic Alpha agent: one agent for every game, built from the Game API alone.

    generic                      all three offices (so+io+fo), the default budget
    generic:offices=so           Strategy Office only (the ablation baseline)
    generic:iterations=400       a larger search
    generic:traits.so_weight=2   the President prefers its Strategy Office's advice
    generic:sampler=referee      determinisations drawn by the referee from the true state (auto:
                                 the game's state_from_observation where it has one, else the referee)

The President weighs each office's advice by a trait (thesis section 7.2: "give greater preference
to some modules over others"): an action's score is so_weight x its search utility + fo_weight x
[it is this seat's side of a confirmed pact] + io_weight x the trust in that pact's partners; with
probability 1 - honesty the pacts are left out of the score (a broken word).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from pydantic import Field

from actors.alpha.builder import AlphaAgent, president_from
from actors.alpha.generic.infoset import InfoSetPolicy
from actors.alpha.generic.offices import GenericForeignOffice, GenericIntelligenceOffice, GenericStrategyOffice
from actors.alpha.generic.search import Policy, uniform_policy
from actors.alpha.options import AgentOptions
from actors.alpha.president import President, Step, heard_lines
from actors.alpha.traits import Traits
from bus.messages import ActRequest, Heard, Suggestion, TalkTurn
from games.registry import get_game

# ours, measured with ops/bench/generic.py (median decision under 50 ms in most games; docs/generic-agent.md):
ITERATIONS = 128  # ISMCTS descents per decision
MAX_STEPS = 20  # moves per descent before it is cut off (scored by the rules' provisional returns)
WORK = 2000  # player-moves simulated per search at most (every seat moving at once: fewer descents)


class GenericTraits(Traits):
    """The President's traits plus a weight per office (default equal)."""

    # the generic agent's own defaults (kept when only some traits are given, e.g. by a tuning search)
    honesty: float = Field(0.9, ge=0.0, le=1.0)
    risk: float = Field(0.0, ge=0.0, le=1.0)
    so_weight: float = Field(1.0, ge=0.0, le=10.0)
    fo_weight: float = Field(1.0, ge=0.0, le=10.0)
    io_weight: float = Field(1.0, ge=0.0, le=10.0)


class GenericOptions(AgentOptions):
    """Offices (default all three), traits, and the search and negotiation parameters."""

    agent = "the generic agent"
    offices: tuple[str, ...] = ("fo", "io", "so")
    traits: GenericTraits = GenericTraits(honesty=0.9, risk=0.0)
    iterations: int = Field(ITERATIONS, ge=1, le=100_000)
    max_steps: int = Field(MAX_STEPS, ge=1, le=100_000)
    work: int = Field(WORK, ge=1, le=10_000_000)
    width: int = Field(5, ge=1, le=64)
    # the game's cheap playout policy where it has one, else uniform; "uniform"; "infoset" (a sure
    # gain over the acting seat's information set, else a move that loses nothing: infoset.py);
    # "module:function" (search.Policy)
    rollout: str = "game"
    # search only the root's sure gains, else its safe moves, over `samples` redraws of the seat's
    # information set (infoset.InfoSetPolicy.classify): never a gamble while a safe move exists
    prune: bool = False
    samples: int = Field(8, ge=1, le=256)
    tree_depth: int = Field(0, ge=0, le=1000)  # tree levels grown below the root at most (0: no limit; 1: flat)
    # the root's moves compared on common worlds: rounds of one descent per move, each round on one
    # determinisation and one playout seed (search.Search._sweep), instead of UCB over the root
    sweep: bool = False
    # where the search's position comes from (offices.SAMPLERS): auto, observation, referee
    sampler: Literal["auto", "observation", "referee"] = "auto"
    deal_candidates: int = Field(4, ge=0, le=32)
    window: int = Field(3, ge=1, le=16)  # decisions a proposed pact may cover (the same actions at each)
    forgetting: float = Field(0.9, gt=0.0, le=1.0)
    aspiration: float = Field(0.02, ge=0.0, le=1.0)  # the gain asked of a pact in the first talk round
    beta: float = Field(1.0, gt=0.0, le=100.0)  # the concession tactic's beta (< 1 Boulware, > 1 Conceder)


_VIEWS = {
    ("io", "update"): ("inbox", "observation", "opponent_types", "pacts", "predicted", "reputation", "seat",
                       "traits", "trust"),
    ("so", "suggest"): ("observation", "opponent_types", "pacts", "seat", "traits", "trust"),
    ("so", "deal_utility"): ("inbox", "observation", "opponent_types", "seat", "talk"),
    ("fo", "negotiate"): ("deal_values", "inbox", "observation", "pacts", "seat", "talk", "traits", "trust"),
}


class GenericPresident(President):
    """Asks the IO and SO before a decision, the SO (deal utilities) and FO in talk; weighs advice by traits."""

    def plan_act(self, request: ActRequest) -> list[Step]:
        return [Step("io", "update"), Step("so", "suggest")]

    def plan_talk(self, turn: TalkTurn) -> list[Step]:
        return [Step("so", "deal_utility"), Step("fo", "negotiate")]

    def observe(self, request: ActRequest | TalkTurn) -> None:
        super().observe(request)
        if request.kind == "talk_turn":
            self.kb.set(("talk", "members"), list(request.members))

    def view(self, step: Step, request: ActRequest | TalkTurn) -> dict[str, Any]:
        return self.kb.view(_VIEWS.get((step.role, step.task), self.views[step.role]))

    def on_heard(self, message: Heard) -> None:
        """Keep the lines of the current decision only (older talk lives in the pact ledger)."""
        kept = [line for line in self.kb.get("inbox", default=[]) if line["turn"] == message.turn]
        self.kb.set(("inbox",), kept + heard_lines(message))

    def choose(self, request: ActRequest, suggestions: list[Suggestion]) -> str:
        legal = request.legal
        if not legal:
            return "abstain"
        traits = self.traits
        score = {a: 0.0 for a in legal}
        for s in suggestions:
            if s.action in score:
                score[s.action] += traits.so_weight * s.utility
        if self.rng.random() < traits.honesty:
            trust = self.kb.get("trust", default={}) or {}
            for entry in sorted((self.kb.get("pacts", default={}) or {}).items()):
                pact = entry[1]
                if pact.get("status") != "confirmed":
                    continue
                for p, t, a in pact["commitments"]:
                    if p == request.player and t == request.turn and a in score:
                        partners = [q for q, _, _ in pact["commitments"] if q != p]
                        confidence = min((float(trust.get(str(q), traits.trust)) for q in partners),
                                         default=traits.trust)
                        score[a] += traits.fo_weight + traits.io_weight * confidence
        top = max(score.values())
        if suggestions and top > 0.0:
            best = [a for a in legal if score[a] == top]
            return best[self.rng.randrange(len(best))]
        return legal[self.rng.randrange(len(legal))]


def _policy(reference: str, game: Any, samples: int) -> Policy:
    if reference in ("game", "uniform"):
        return uniform_policy
    if reference == "infoset":
        return InfoSetPolicy(game, samples)
    from games.plugin import resolve

    return resolve(reference)


@lru_cache(maxsize=None)
def _agent(game_name: str) -> AlphaAgent:
    game = get_game(game_name)

    def so(address: str, seed: int, o: GenericOptions) -> GenericStrategyOffice:
        return GenericStrategyOffice(address, seed, game, o.iterations, o.max_steps, o.width,
                                     _policy(o.rollout, game, o.samples), o.deal_candidates, o.work,
                                     o.rollout == "game", o.sampler, o.window, o.prune, o.tree_depth, o.samples,
                                     o.sweep)

    def io(address: str, seed: int, o: GenericOptions) -> GenericIntelligenceOffice:
        return GenericIntelligenceOffice(address, seed, game, o.forgetting)

    def fo(address: str, seed: int, o: GenericOptions) -> GenericForeignOffice:
        return GenericForeignOffice(address, seed, high=o.aspiration, low=0.0, beta=o.beta)

    return AlphaAgent(options=GenericOptions, president=president_from(GenericPresident),
                      offices={"so": so, "io": io, "fo": fo})


def build(game: str, seat: int, seed: int, raw: dict[str, Any]) -> list:
    """The actors of the generic agent in `seat` of `game` (an AgentDef.build)."""
    return _agent(game).build(game, seat, seed, raw)
