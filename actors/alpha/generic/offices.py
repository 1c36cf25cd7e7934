"""The generic offices: a searching Strategy Office, a trust-keeping Intelligence Office and a
pact-making Foreign Office, none of which knows which game it plays.

How a searching office gets a state without holding hidden information, two ways (`sampler`):

- `referee`: the office asks the referee for a determinisation (a `sample_request`); the referee
  answers with `resample_hidden(seat, rng)` of the true state (a `sample`, logged like every
  message), which the game conformance suite holds to what the seat observed. It needs nothing but
  the required Game API, so it works in every game.
- `observation`: the game's rules rebuild a position from the seat's observation alone through
  the optional hook `Game.state_from_observation(seat, observation)` (capability OBSERVATION_STATE).

`auto` (the default) takes the hook where the game has it, else the referee. Either way every
determinisation the search uses is then `State.resample_hidden(seat, rng)` of that one position,
drawn by the office's own generator.
"""

from __future__ import annotations

import json
import math
from typing import Any

from actors.alpha.generic import pacts as P
from actors.alpha.generic.infoset import InfoSetPolicy
from actors.alpha.generic.search import TYPES, Policy, Search, uniform_policy
from actors.alpha.offices import Answer, ForeignOffice, IntelligenceOffice, StrategyOffice
from bus.messages import REFEREE, KBUpdate, Message, OfficeRequest, Sample, SampleRequest, Suggestion, built
from games.api import OBSERVATION_STATE, Game, Say

_DIGITS = 4  # utilities and trust logged to 4 decimals (ours: enough to read, short to log)


def _r(x: float) -> float:
    return round(float(x), _DIGITS)


SAMPLERS = ("auto", "observation", "referee")


def searchable(game: Game) -> bool:
    """The game can rebuild a position from one observation (the hook the `observation` sampler needs)."""
    return game.has(OBSERVATION_STATE)


def sampler_for(game: Game, sampler: str) -> str:
    """The sampler a search in `game` uses: `auto` is the hook where the game has it, else the referee."""
    if sampler == "auto" and not searchable(game):
        return "referee"
    return sampler


class GenericStrategyOffice(StrategyOffice):
    """ISMCTS over the game's rules from the seat's observation; deal utilities by imposed commitments."""

    def __init__(self, address: str, seed: int, game: Game, iterations: int, max_steps: int, width: int,
                 policy: Policy = uniform_policy, deal_candidates: int = 4, work: int = 1 << 30,
                 game_policy: bool = True, sampler: str = "auto", window: int = 1, prune: bool = False,
                 tree_depth: int = 0, samples: int = 8, sweep: bool = False):
        super().__init__(address, seed)
        self.sweep = sweep  # the root's moves compared on common worlds (search.Search._sweep)
        self.prune = prune  # search only the root's sure gains, else its safe moves (infoset.InfoSetPolicy)
        self.tree_depth = tree_depth
        self.samples = samples  # the seat's redraws the root's filter reads
        self.window = window  # decisions a candidate pact may cover
        self.game = game
        self.sampler = sampler_for(game, sampler)
        self._pending: OfficeRequest | None = None  # the request waiting for the referee's sample
        self._drawn: tuple[Any, Any] | None = None  # (turn and observation, the referee's sample) last received
        self.iterations = iterations
        self.max_steps = max_steps
        self.width = width
        self.policy = policy
        self.deal_candidates = deal_candidates
        self.work = work
        self.game_policy = game_policy
        self._turn_cache: tuple[int, Any] | None = None  # (turn, (search, sampler, base result)) of talk

    # -- the position searched: rebuilt from the observation, or the referee's sample ----------

    def handle(self, message: Message) -> list[Message]:
        if isinstance(message, OfficeRequest) and message.task in self.tasks and self.sampler != "observation":
            if (message.task == "suggest" and len(message.legal) <= 1) or self._position(message) is not None:
                return super().handle(message)
            self._pending = message
            return [built(SampleRequest, {"sender": self.address, "to": REFEREE, "kind": "sample_request",
                                          "turn": message.turn})]
        if isinstance(message, Sample):
            pending, self._pending = self._pending, None
            if pending is None or pending.turn != message.turn:
                return []  # stale: the President moved on
            state = None if message.state is None else self.game.state_from_json(message.state)
            self._drawn = (_key(pending), state)
            return super().handle(pending)
        return super().handle(message)

    def _position(self, request: OfficeRequest) -> Any:
        """The position this request's search starts from, or None while there is none: the referee's
        sample for this decision point, else (`auto`, `observation`) the one the game's hook rebuilds
        from the observation; `auto` asks the referee where the hook fails on it (raises, or rebuilds a
        position that does not show the seat its observation)."""
        key = _key(request)
        if self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1]
        if self.sampler == "referee" or not searchable(self.game):
            return None
        view = request.view
        seat, observation = int(view["seat"]), view["observation"]
        try:
            state = self.game.state_from_observation(seat, observation)
        except Exception:  # noqa: BLE001 - a game's rebuild that cannot take this observation
            if self.sampler == "observation":
                raise
            return None
        if self.sampler == "auto" and state.observation(seat) != observation:
            return None  # the hook's contract broken here (options it cannot see, say): the referee's sample
        self._drawn = (key, state)
        return state

    def _can_search(self, request: OfficeRequest) -> bool:
        return self._position(request) is not None

    # -- suggest ----------------------------------------------------------------------------

    def suggest(self, request: OfficeRequest) -> Answer:
        legal = list(request.legal)
        view = request.view
        seat = int(view["seat"])
        if len(legal) <= 1 or not self._can_search(request):
            return Answer(suggestions=[Suggestion(action=a, utility=0.5) for a in legal[: self.width]])
        search, sample = self._searcher(seat, view["observation"], view)
        allowed = None
        if self.prune:
            samples = [sample(self.rng) for _ in range(self.samples)]
            allowed, _ = self._filter.classify(samples, seat, legal, self.rng)
            if len(allowed) == 1:
                return Answer(suggestions=[Suggestion(action=allowed[0], utility=1.0)])
        result = search.run(sample, self.iterations, self.rng, likely=_trusted_pacts(view, seat, request.turn),
                            allowed=allowed, sweep=self.sweep)
        self.last_iterations = result.iterations  # for benchmarks only (never logged)
        mine = result.root.get(seat, {})
        # the most visited first (UCB's choice); after a sweep (every move as often) the best valued first
        order = (lambda a: (-mine[a][1], a)) if self.sweep else (lambda a: (-mine[a][0], a))
        ranked = sorted((a for a in legal if a in mine), key=order)[: self.width]
        suggestions = [Suggestion(action=a, utility=_r(mine[a][1])) for a in ranked]
        return Answer(suggestions=suggestions, updates=[KBUpdate(path=("predicted",), value=_predicted(result, seat))])

    # -- deal utility -----------------------------------------------------------------------

    def deal_utility(self, request: OfficeRequest) -> Answer:
        """Utilities (gain over no pact, per party) of candidate pacts and of pacts proposed to this seat."""
        view = request.view
        seat, turn = int(view["seat"]), request.turn
        if not self._can_search(request):
            return Answer()
        if self._turn_cache is None or self._turn_cache[0] != turn:
            search, sample = self._searcher(seat, view["observation"], view)
            base = search.run(sample, self.iterations, self.rng)
            # every pact is valued against the same descents without it (common random numbers: the
            # same worlds and playouts, so the difference is the pact's and not the draws')
            seeds = [self.rng.getrandbits(32) for _ in range(max(8, self.iterations // 4))]
            paired = search.run(sample, len(seeds), self.rng, seeds=seeds)
            self._turn_cache = (turn, (search, sample, base, {}, seeds, paired))
        search, sample, base, memo, seeds, paired = self._turn_cache[1]
        members = set(int(m) for m in (view.get("talk") or {}).get("members", ()))
        values = []
        offered = self._offered(seat, turn, view)
        for commitments in self._candidates(seat, turn, base, members) + offered:
            key = P.Pact("", "propose", commitments).text()
            if key not in memo:
                memo[key] = self._evaluate(search, sample, base, seat, commitments, commitments in offered, seeds, paired)
            values.append(memo[key])
            if commitments not in offered:
                # a pact of three or more that some parties lose by: the same pact without them (the
                # parties it pays, a coalition; a party that would reject it is not asked)
                value = memo[key]
                losers = {int(q) for q, g in value["gain"].items() if g < 0 and int(q) != seat}
                kept = tuple(tuple(c) for c in value["commitments"] if c[0] not in losers)
                if losers and len({c[0] for c in value["commitments"]}) >= 3 and len({c[0] for c in kept}) >= 2:
                    small = P.Pact("", "propose", kept).text()
                    if small not in memo:
                        memo[small] = self._evaluate(search, sample, base, seat, kept, False, seeds, paired)
                    values.append(memo[small])
        return Answer(updates=[KBUpdate(path=("deal_values",), value=values)])

    def _candidates(self, seat: int, turn: int, base: Any, members: set[int]) -> list[tuple]:
        """Pairs (my action, a partner's action) among each side's most visited root actions."""
        mine = base.root.get(seat, {})
        if not mine:
            return []
        top = sorted(mine, key=lambda a: (-mine[a][0], a))[:2]
        pairs = []
        for other, table in sorted(base.root.items()):
            if other == seat or (members and other not in members) or len(table) < 2:
                continue
            # the partner's action best for me among its two likeliest: what a pact could ask of it
            theirs = sorted(table, key=lambda a: (-table[a][0], a))[:2]
            for b in theirs:
                for a in top:
                    better = table[b][2] - table[theirs[0]][2]
                    pairs.append((tuple(sorted(((seat, turn, a), (other, turn, b)))), better))
        pairs.sort(key=lambda x: (-x[1], x[0]))
        out = [c for c, _ in pairs[: self.deal_candidates]]
        # the whole table: every other member at its action best for this seat (of its two likeliest),
        # this seat at its likeliest; a pact of three or more where a pair's is worth too little
        others = [(other, max(sorted(table, key=lambda a: (-table[a][0], a))[:2], key=lambda a: (table[a][2], a)))
                  for other, table in sorted(base.root.items())
                  if other != seat and (not members or other in members) and len(table) >= 2]
        if len(others) >= 2 and self.deal_candidates > 0:
            for a in top:
                grand = tuple(sorted([(seat, turn, a)] + [(o, turn, b) for o, b in others]))
                if grand not in out:
                    out.append(grand)
        # a focal pact: every other member whose root actions hold this seat's likeliest action plays
        # it too (the same move for all: meeting at one hunt, voting for one seat)
        same = [other for other, table in sorted(base.root.items())
                if other != seat and (not members or other in members) and top[0] in table]
        if same and self.deal_candidates > 0:
            focal = tuple(sorted([(seat, turn, top[0])] + [(o, turn, top[0]) for o in same]))
            if focal not in out:
                out.append(focal)
        # each candidate also over the next `window` decisions, the same actions at each (a pact
        # "until turn T"), where that is more than one decision
        if self.window > 1:
            out += [tuple(sorted((p, turn + k, a) for p, _, a in c for k in range(self.window))) for c in list(out)]
        return out

    def _offered(self, seat: int, turn: int, view: dict[str, Any]) -> list[tuple]:
        out = []
        for t, _, speaker, pact in P.heard_pacts(view.get("inbox", ())):
            if t == turn and pact.stage == "propose" and speaker != seat and seat in pact.parties():
                out.append(pact.commitments)
        return out

    def _evaluate(self, search: Search, sample: Any, base: Any, seat: int, commitments: tuple,
                  alone: bool, seeds: list[int], paired: Any) -> dict[str, Any]:
        """The pact's value: the search with every commitment imposed and, for a pact offered to this
        seat, with only its own (what it gets if the others break their word); a proposal of its own
        takes the gain of its own action alone from the base search's root instead."""
        budget = len(seeds)
        turn = min(t for _, t, _ in commitments)
        plan: dict[int, dict[int, str]] = {}
        for p, t, a in commitments:  # decision depth from now -> imposed actions (a pact over several)
            plan.setdefault(t - turn, {})[p] = a
        forced, later = plan.get(0, {}), {d: x for d, x in plan.items() if d > 0}
        both = search.run(sample, budget, self.rng, forced=forced, later=later, seeds=seeds)
        if later and not alone:
            # a later commitment the search could seldom play (the seat does not act then, or the action
            # is not legal there: a night's attack on the day of a vote) is left out of the proposal
            kept = [c for c in commitments if c[1] == turn or _playable(search.plan_hits.get((c[1] - turn, c[0])))]
            commitments = tuple(kept)
        if alone and seat in forced:
            mine = {d: {seat: x[seat]} for d, x in later.items() if seat in x}
            alone_value = _at(search.run(sample, budget, self.rng, forced={seat: forced[seat]}, later=mine,
                                         seeds=seeds).value, seat)
            broken = alone_value - _at(paired.value, seat)
        else:
            alone_value = base.root.get(seat, {}).get(forced.get(seat), (0, _at(base.value, seat)))[1]
            broken = alone_value - _at(base.value, seat)
        gain = {str(p): _r(_at(both.value, p) - _at(paired.value, p)) for p in sorted({c[0] for c in commitments})}
        return {"commitments": [list(c) for c in commitments], "gain": gain, "gain_if_broken": _r(broken)}

    # -- shared -----------------------------------------------------------------------------

    def _searcher(self, seat: int, observation: dict[str, Any], view: dict[str, Any]) -> tuple[Search, Any]:
        base = self._drawn[1]  # _can_search put it there
        models = {int(p): dict(w) for p, w in sorted((view.get("opponent_types") or {}).items())}

        def sample(rng: Any) -> Any:
            return base.resample_hidden(seat, rng)

        return Search(self.game, seat + 1, seat, self.policy, self.max_steps, max_work=self.work,
                      game_policy=self.game_policy, models=models, tree_depth=self.tree_depth), sample

    @property
    def _filter(self) -> InfoSetPolicy:
        if isinstance(self.policy, InfoSetPolicy):
            return self.policy
        if getattr(self, "_own_filter", None) is None:
            self._own_filter = InfoSetPolicy(self.game, self.samples)
        return self._own_filter


def _playable(hits: list[int] | None) -> bool:
    """A later commitment the search played in at least half the descents that reached it (ours)."""
    return bool(hits) and hits[0] > 0 and 2 * hits[1] >= hits[0]


def _trusted_pacts(view: dict[str, Any], seat: int, turn: int) -> dict[int, tuple[str, float]]:
    """The partners' sides of this seat's confirmed pacts at this decision, each with the trust in
    that partner (the IO's, else the prior trait): what the search expects them to play, and how surely."""
    trust = view.get("trust") or {}
    prior = float((view.get("traits") or {}).get("trust", 0.5))
    out: dict[int, tuple[str, float]] = {}
    for _, entry in sorted((view.get("pacts") or {}).items()):
        if entry.get("status") != "confirmed" or seat not in {c[0] for c in entry["commitments"]}:
            continue
        for p, t, a in entry["commitments"]:
            if p != seat and t == turn and p not in out:
                out[int(p)] = (str(a), float(trust.get(str(p), prior)))
    return out


def _key(request: OfficeRequest) -> tuple[int, str]:
    """What a sample is good for: one decision point, as the seat observed it (talk may change it)."""
    return request.turn, json.dumps(request.view.get("observation"), sort_keys=True, separators=(",", ":"))


def _at(values: tuple[float, ...], seat: int) -> float:
    return values[seat] if seat < len(values) else 0.5


def _predicted(result: Any, seat: int, cap: int = 32) -> dict[str, Any]:
    """The other acting seats' root actions: [visit share, own mean return, my mean return]."""
    out = {}
    for p, table in sorted(result.root.items()):
        if p == seat or not table:
            continue
        total = sum(v[0] for v in table.values()) or 1
        ranked = sorted(table, key=lambda a: (-table[a][0], a))[:cap]
        out[str(p)] = {a: [_r(table[a][0] / total), _r(table[a][1]), _r(table[a][2])] for a in sorted(ranked)}
    return out


# -- Intelligence Office ----------------------------------------------------------------------

TEMPERATURE = 0.1  # ours: softmax temperature over returns in [0, 1] for the opponent types' likelihoods


class GenericIntelligenceOffice(IntelligenceOffice):
    """Beta reputation from kept and broken pacts; an opponent model from observed actions.

    Trust (Josang & Ismail, "The Beta Reputation System", 2002): with r kept and s broken
    commitments, each discounted by `forgetting` per judgement, trust = (r + 2 t0) / (r + s + 2),
    t0 the President's prior trust trait ((r + 1) / (r + s + 2) at the neutral 0.5). Opponent model:
    a posterior over four types (search.TYPES), each a softmax of the root values the Strategy
    Office found for the other seat's actions at the last decision (its own return: self-interested;
    this seat's return: partner; minus it: saboteur) or uniform (random), times the likelihood of
    the action the seat was seen to play. The Strategy Office's search draws each other seat's type
    from this posterior at every node where it acts, and plays a trusted pact partner's side at the
    root as often as it trusts that partner."""

    def __init__(self, address: str, seed: int, game: Game, forgetting: float = 0.9):
        super().__init__(address, seed)
        self.game = game
        self.forgetting = forgetting

    def update(self, request: OfficeRequest) -> Answer:
        view = request.view
        seat, turn = int(view["seat"]), request.turn
        updates = ledger_updates(view.get("pacts") or {}, view.get("inbox", ()), seat)
        ledger = _applied(view.get("pacts") or {}, updates)
        seen = {int(p): a for p, a in self.game.actions_seen(seat, view["observation"]).items()}
        prior = float((view.get("traits") or {}).get("trust", 0.5))
        reputation = dict(view.get("reputation") or {})
        trust = dict(view.get("trust") or {})
        causes = []
        for pid, entry in sorted(ledger.items()):
            final = max(c[1] for c in entry["commitments"])
            if final < turn - 1 or entry.get("status") in ("judged", "rejected"):
                updates.append(KBUpdate(path=("pacts", pid), value=None))  # done with: the log keeps it
                continue
            if entry.get("status") != "confirmed":
                continue
            several = len(entry["commitments"]) > len({c[0] for c in entry["commitments"]})
            before = dict(entry.get("verdicts") or {})
            verdicts = dict(before)
            for p, t, a in entry["commitments"]:
                key = f"{p}@{t}" if several else str(p)  # a pact over several decisions: one verdict each
                if p == seat or t >= turn or key in before:
                    continue
                if t != turn - 1 or p not in seen:
                    verdicts[key] = "unseen"
                    continue
                verdict = "kept" if seen[p] == a else "broken"
                verdicts[key] = verdict
                r, s = reputation.get(str(p), (0.0, 0.0))
                lam = self.forgetting
                r, s = lam * r + (verdict == "kept"), lam * s + (verdict == "broken")
                reputation[str(p)] = (_r(r), _r(s))
                trust[str(p)] = _r((r + 2 * prior) / (r + s + 2))
                causes.append({"subject": str(p), "pact": pid, "turn": t, "action": a, "played": seen[p],
                               "verdict": verdict, "trust": trust[str(p)]})
            if verdicts != before:
                status = "judged" if final < turn else "confirmed"  # judged once its last decision is seen
                updates.append(KBUpdate(path=("pacts", pid), value={**entry, "status": status, "verdicts": verdicts}))
        if causes:
            updates += [KBUpdate(path=("reputation",), value={k: list(v) for k, v in sorted(reputation.items())}),
                        KBUpdate(path=("trust",), value=dict(sorted(trust.items()))),
                        KBUpdate(path=("trust_causes",), value=causes)]
        beliefs = self._types(view, seen, seat)
        if beliefs is not None:
            # not "beliefs": games read that section as role certainties (the types are no role)
            updates.append(KBUpdate(path=("opponent_types",), value=beliefs))
        return Answer(updates=updates)

    def _types(self, view: dict[str, Any], seen: dict[int, str], seat: int) -> dict[str, Any] | None:
        predicted = view.get("predicted") or {}
        old = view.get("opponent_types") or {}
        out = {k: v for k, v in sorted(old.items())}
        changed = False
        for p_text, table in sorted(predicted.items()):
            action = seen.get(int(p_text))
            if action is None or action not in table or len(table) < 2:
                continue
            prior = old.get(p_text) or {t: 1.0 / len(TYPES) for t in TYPES}
            # forgetting: the prior drifts back toward uniform before each observation
            prior = {t: self.forgetting * float(prior.get(t, 0.0)) + (1 - self.forgetting) / len(TYPES) for t in TYPES}
            post = {t: prior[t] * _likelihood(table, action, t) for t in TYPES}
            z = math.fsum(post.values()) or 1.0
            out[p_text] = {t: _r(post[t] / z) for t in TYPES}
            changed = True
        return out if changed else None


def _likelihood(table: dict[str, list[float]], action: str, kind: str) -> float:
    if kind == "random":
        return 1.0 / len(table)

    def score(v: list[float]) -> float:
        return v[1] if kind == "self-interested" else v[2] if kind == "partner" else -v[2]
    top = max(score(v) for v in table.values())
    weights = {a: math.exp((score(v) - top) / TEMPERATURE) for a, v in table.items()}
    return weights[action] / math.fsum(weights.values())


# -- the pact ledger (shared by the IO and the FO) ---------------------------------------------

def ledger_updates(ledger: dict[str, Any], inbox: Any, seat: int) -> list[KBUpdate]:
    """KB updates recording what the inbox says about pacts this seat is a party of: proposals to
    it ("offered"), and acceptances of its own proposals ("confirmed" once every party accepted)."""
    updates: list[KBUpdate] = []
    current = dict(ledger)
    for turn, _, speaker, pact in P.heard_pacts(inbox):
        if seat not in pact.parties():
            continue
        entry = current.get(pact.id)
        if pact.stage == "propose" and entry is None and speaker != seat and speaker in pact.parties():
            entry = {"proposer": speaker, "commitments": [list(c) for c in pact.commitments], "status": "offered",
                     "accepted": []}
            if pact.claims:
                entry["claims"] = {str(p): g for p, g in pact.claims}
        elif pact.stage == "accept" and entry is not None and entry["status"] == "proposed" and speaker != seat:
            accepted = sorted(set(entry["accepted"]) | {speaker})
            parties = {c[0] for c in entry["commitments"]} - {entry["proposer"]}
            entry = {**entry, "accepted": accepted, "status": "confirmed" if parties <= set(accepted) else "proposed"}
        elif (pact.stage == "reject" and entry is not None and speaker != seat and speaker == entry["proposer"]
              and entry["status"] in ("offered", "confirmed")):
            entry = {**entry, "status": "rejected"}  # retracted by its proposer
        elif (pact.stage == "reject" and entry is not None and speaker != seat and speaker != entry["proposer"]
              and (entry["status"] == "proposed" or (entry["status"] == "confirmed" and entry["proposer"] != seat))):
            # a pact binds the parties that accept (pacts.binding): the rejecting party's commitments
            # drop out, and the pact with them where no other party is left
            commitments = [c for c in entry["commitments"] if c[0] != speaker]
            if len(commitments) == len(entry["commitments"]):
                continue
            others = {c[0] for c in commitments} - {entry["proposer"]}
            if not others:
                entry = {**entry, "status": "rejected"}
            elif entry["status"] == "proposed":
                entry = {**entry, "commitments": commitments,
                         "status": "confirmed" if others <= set(entry["accepted"]) else "proposed"}
            else:
                entry = {**entry, "commitments": commitments}
        else:
            continue
        current[pact.id] = entry
        updates.append(KBUpdate(path=("pacts", pact.id), value=entry))
    return updates


def _applied(ledger: dict[str, Any], updates: list[KBUpdate]) -> dict[str, Any]:
    out = dict(ledger)
    for u in updates:
        if len(u.path) == 2 and u.path[0] == "pacts":
            out[u.path[1]] = u.value
    return out


# -- Foreign Office ---------------------------------------------------------------------------


def aspiration(round_: int, max_rounds: int, high: float, low: float, beta: float, kappa: float = 0.0) -> float:
    """The least gain this seat asks of a pact in talk round `round_` (Faratin, Sierra & Jennings,
    "Negotiation decision functions for autonomous agents", 1998: the polynomial time-dependent
    tactic alpha(t) = kappa + (1 - kappa) (t / t_max)^(1 / beta), rounds as time; beta < 1 Boulware,
    beta > 1 Conceder)."""
    t_max = max(1, max_rounds - 1)
    alpha = kappa + (1 - kappa) * (min(round_, t_max) / t_max) ** (1.0 / beta)
    return high - alpha * (high - low)


def _focal(claims: dict[str, Any], trust: float) -> float:
    """What a proposal's claims are worth to its parties on average, as far as its proposer is trusted."""
    return trust * math.fsum(float(g) for g in claims.values()) / len(claims) if claims else 0.0


class GenericForeignOffice(ForeignOffice):
    """Proposes the pact the Strategy Office values most for the partners together among those that
    give this seat its current aspiration, with its claims (each partner's gain by this seat's
    search); accepts an offered pact when its gain, its own estimate weighed by trust against the
    proposer's claim, clears it, taking clashing offers in the order of their trusted claims and
    retracting its own proposal where an accepted offer outbids it."""

    def __init__(self, address: str, seed: int, high: float = 0.1, low: float = 0.0, beta: float = 1.0):
        super().__init__(address, seed)
        self.high, self.low, self.beta = high, low, beta

    def negotiate(self, request: OfficeRequest) -> Answer:
        view = request.view
        seat, turn = int(view["seat"]), request.turn
        talk = view.get("talk") or {}
        round_, rounds = int(talk.get("round", 0)), int(talk.get("max_rounds", 1))
        updates = ledger_updates(view.get("pacts") or {}, view.get("inbox", ()), seat)
        ledger = _applied(view.get("pacts") or {}, updates)
        values = {P.Pact("", "propose", tuple(tuple(c) for c in v["commitments"])).text(): v
                  for v in view.get("deal_values") or ()}
        trust = view.get("trust") or {}
        prior = float((view.get("traits") or {}).get("trust", 0.5))
        need = aspiration(round_, rounds, self.high, self.low, self.beta)
        says = []
        # my commitments already given (confirmed pacts): an answer never contradicts them
        given = {(c[0], c[1]): c[2] for e in ledger.values() if e["status"] == "confirmed"
                 for c in e["commitments"] if c[0] == seat}
        # my open proposals of this turn, each with what its parties heard it is worth to them
        mine_open = {pid: _focal(e.get("claims") or {}, prior) for pid, e in sorted(ledger.items())
                     if e["status"] == "proposed" and e["proposer"] == seat and e["commitments"][0][1] == turn}
        offers = []
        for pid, entry in sorted(ledger.items()):  # answer the offers of this turn
            commitments = tuple(tuple(c) for c in entry["commitments"])
            if entry["status"] != "offered" or commitments[0][1] != turn:
                continue
            value = values.get(P.Pact("", "propose", commitments).text())
            if value is None:
                continue
            t = float(trust.get(str(entry["proposer"]), prior))
            own = value["gain"].get(str(seat), 0.0)
            claim = (entry.get("claims") or {}).get(str(seat))
            # the proposer's estimate of my gain (its search, its information) counts as far as I trust it
            gain = own if claim is None else (1 - t) * own + t * float(claim)
            expected = t * gain + (1 - t) * value["gain_if_broken"]
            # offers that would bind me to two moves at once go to the one whose proposer claims most for
            # its parties, as far as I trust it (what every party heard alike: a focal choice)
            focal = _focal(entry.get("claims") or {}, t) if entry.get("claims") else expected
            offers.append((-focal, -expected, pid, entry, commitments, expected, focal))
        for *_, pid, entry, commitments, expected, focal in sorted(offers, key=lambda x: x[:3]):
            mine = {(c[0], c[1]): c[2] for c in commitments if c[0] == seat}
            clash = any(given.get(k, a) != a for k, a in mine.items())
            crossed = [q for q in mine_open if any(c[0] == seat and mine.get((c[0], c[1]), c[2]) != c[2]
                                                  for c in ledger[q]["commitments"])]
            stage = "accept" if (expected >= need and not clash
                                 and all(focal > mine_open[q] for q in crossed)) else "reject"
            if stage == "accept":
                given.update(mine)
                for q in crossed:  # my own proposal that this one outbids: retracted (a reject by its proposer)
                    del mine_open[q]
                    says.append(Say(text=P.Pact(q, "reject", tuple(tuple(c) for c in ledger[q]["commitments"])).text()))
                    updates.append(KBUpdate(path=("pacts", q), value={**ledger[q], "status": "rejected"}))
                    ledger[q] = {**ledger[q], "status": "rejected"}
            says.append(Say(text=P.Pact(pid, stage, commitments).text()))
            updates.append(KBUpdate(path=("pacts", pid), value={**entry, "status": "confirmed" if stage == "accept"
                                                                  else "rejected", "expected": _r(expected)}))
        open_own = any(e["status"] == "proposed" and e["proposer"] == seat and e["commitments"][0][1] == turn
                       for e in ledger.values())
        if not open_own and round_ < rounds - 1:  # a proposal needs a round left for its answer
            offer = self._offer(seat, values, trust, prior, need, given)
            if offer is not None:
                commitments, claims = offer
                pid = f"{seat}-{turn}-{round_}"
                pact = P.Pact(pid, "propose", commitments, claims)
                says.append(Say(text=pact.text()))
                updates.append(KBUpdate(path=("pacts", pid), value={
                    "proposer": seat, "commitments": [list(c) for c in commitments], "status": "proposed",
                    "accepted": [], "claims": {str(p): g for p, g in claims}}))
        return Answer(says=says, updates=updates)

    def _offer(self, seat: int, values: dict[str, Any], trust: dict[str, Any], prior: float,
               need: float, given: dict[tuple[int, int], str] | None = None) -> tuple | None:
        """(commitments, claims) of the pact to propose, or None: the one that gives its partners the
        most together (by this seat's search) among those that lose none of them anything, give this
        seat its aspiration and contradict none of its commitments already given."""
        best, best_key = None, None
        given = given or {}
        for value in values.values():
            gain = value["gain"]
            partners = [p for p in gain if p != str(seat)]
            if str(seat) not in gain or not partners:
                continue
            commitments = tuple(tuple(c) for c in value["commitments"])
            if any(given.get((p, t), a) != a for p, t, a in commitments if p == seat):
                continue
            t = min(float(trust.get(p, prior)) for p in partners)
            mine = t * gain[str(seat)] + (1 - t) * value["gain_if_broken"]
            theirs = min(gain[p] for p in partners)
            if mine < need or theirs < 0 or mine <= 0:
                continue
            key = (math.fsum(gain[p] for p in partners), mine)  # what it gives all partners together
            if best_key is None or key > best_key:
                claims = tuple(sorted((int(p), float(gain[p])) for p in partners))
                best, best_key = (commitments, claims), key
        return best
