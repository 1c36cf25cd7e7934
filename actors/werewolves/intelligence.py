"""AlphaWolf's Intelligence Office (thesis 5.2.4, algorithm 6): role certainties and trust.

Role prediction. Every update starts again from the prior (known roles as facts, the rest spread
by the roles still unaccounted for) and replays every past action of every opponent: a day vote
or a joint-vote proposal against `target` on day `d` has damage

    damage = (T(target) - mean T) * age_decay ** (today - d)

with T the threat values of the last update (thesis: "getThreatValue"), and multiplies the
opponent's certainty of each role r by exp(gain[r] * damage), then renormalises to 100%.
Restarting from the prior (rather than multiplying the stored certainties again, which would
count each old action once per update) is our reading of "a function of the threat values of
the players that that opponent voted against ... and the rounds in which it took those actions".

Trust. Once per finished day: an opponent that broke a joint vote it was bound to, or voted
against this player, loses `trust_penalty`; any other living opponent gains `trust_gain`.
"""

from __future__ import annotations

import math
from typing import Any

from actors.alpha.offices import Answer, IntelligenceOffice
from actors.werewolves.claims import apply_claims, liars_seen
from actors.werewolves.deals import bound_target, read_deals
from actors.werewolves.knowledge import (
    Beliefs,
    current_beliefs,
    initial_trust,
    known_roles,
    normalise,
    prior_beliefs,
    threats,
)
from actors.werewolves.params import WOLF_TEAM, WolfParams
from bus.messages import KBUpdate, OfficeRequest

Action = tuple[int, int, int]  # (actor, target, day)


class WolfIntelligenceOffice(IntelligenceOffice):
    """Predicts each opponent's role from its votes and proposals; keeps trust per opponent."""

    def __init__(self, address: str, seed: int, params: WolfParams | None = None, variant: str = "thesis"):
        super().__init__(address, seed)
        self.params = params or WolfParams()
        self.variant = variant

    def update(self, request: OfficeRequest) -> Answer:
        view = request.view
        updates = [KBUpdate(path=("beliefs",), value=self.predict_roles(view))]
        trust, last_day = self.update_trust(view)
        if last_day is not None:
            updates.append(KBUpdate(path=("trust",), value=trust))
            updates.append(KBUpdate(path=("io", "trust_day"), value=last_day))
        return Answer(updates=updates)

    # -- algorithm 6 ------------------------------------------------------------------------------

    def predict_roles(self, view: dict[str, Any]) -> Beliefs:
        obs, me = view["observation"], view["seat"]
        prior = prior_beliefs(obs, self.params)
        t = threats(current_beliefs(view, self.params), obs["role"], self.params)
        alive = [q for q in obs["alive"] if q != me]
        mean = math.fsum(t[q] for q in alive) / len(alive) if alive else 0.0
        gain = self.params.role_gain(obs["role"])
        known = known_roles(obs)
        by_actor: dict[int, list[Action]] = {}
        for action in past_actions(obs, view.get("inbox", ()), self.variant == "improved"):
            by_actor.setdefault(action[0], []).append(action)
        out: Beliefs = {}
        decay, today = self.params.age_decay, obs["day"]
        for seat in sorted(prior, key=int):
            q = int(seat)
            certainty = prior[seat]
            if q not in known and q != me and q in by_actor:
                # Multiplying by each action's factors and renormalising each time (algorithm 6,
                # lines 11-14) ends where one product of all factors, renormalised once, does.
                total = math.fsum((t[target] - mean) * decay ** max(0, today - day) for _, target, day in by_actor[q])
                certainty = normalise({r: certainty[r] * math.exp(gain.get(r, 0.0) * total) for r in sorted(certainty)})
            out[seat] = certainty
        if self.variant == "improved":
            out = apply_claims(out, obs, view.get("inbox", ()), self.params)
        return {seat: {r: round(c[r], 6) for r in sorted(c)} for seat, c in out.items()}

    # -- trust ------------------------------------------------------------------------------------

    def update_trust(self, view: dict[str, Any]) -> tuple[dict[str, float], int | None]:
        """Trust after every finished day not yet counted; (trust, last day counted or None)."""
        obs, me = view["observation"], view["seat"]
        done = (view.get("io") or {}).get("trust_day", 0)
        days = sorted({e["day"] for e in obs["events"] if e["type"] == "day_votes" and done < e["day"] < obs["day"]})
        if not days:
            return {}, None
        start = initial_trust(view.get("traits"))
        trust = {str(q): float((view.get("trust") or {}).get(str(q), start)) for q in range(obs["num_players"]) if q != me}
        for day in days:
            for q, offended in sorted(offences(obs, view.get("inbox", ()), me, day).items()):
                value = trust[str(q)] - self.params.trust_penalty if offended else trust[str(q)] + self.params.trust_gain
                trust[str(q)] = round(min(self.params.trust_max, max(0.0, value)), 6)
        if self.params.learn_claims and obs["role"] not in WOLF_TEAM:
            for q in liars_seen(obs, view.get("inbox", ()), me):
                trust[str(q)] = 0.0  # a claim proven false: no more trust
        return trust, days[-1]


def past_actions(obs: dict[str, Any], inbox: Any, more: bool = False) -> list[Action]:
    """Every day vote (events) and public joint-vote proposal (talk heard) as (actor, target, day);
    with `more` (improved variant) also every accusation and acceptance of a joint vote."""
    out: list[Action] = []
    for e in obs["events"]:
        if e["type"] == "day_votes":
            out += [(p, t, e["day"]) for p, t in e["votes"] if t is not None]
    proposed: dict[tuple[int, int, int], int] = {}  # (turn, proposer, id) -> target
    for line in inbox:
        if line.get("channel") != "public":
            continue
        day = line.get("day", obs["day"])
        for s in line["says"]:
            kind = s.get("kind")
            if kind == "ww_propose" and s.get("deal") == "joint_vote":
                out.append((line["speaker"], s["target"], day))
                proposed[(line["turn"], line["speaker"], s["proposal_id"])] = s["target"]
            elif more and kind == "ww_accuse":
                out.append((line["speaker"], s["target"], day))
            elif more and kind == "ww_accept":
                target = proposed.get((line["turn"], s["proposer"], s["proposal_id"]))
                if target is not None:
                    out.append((line["speaker"], target, day))
    return out


def offences(obs: dict[str, Any], inbox: Any, me: int, day: int) -> dict[int, bool]:
    """Each player who voted on `day`: True if it voted against `me` or broke a joint vote."""
    voted: dict[int, bool] = {}
    ballots: dict[int, dict[int, int | None]] = {}
    for e in obs["events"]:
        if e["type"] == "day_votes" and e["day"] == day:
            ballots[e["round"]] = {p: t for p, t in e["votes"]}
            for p, t in e["votes"]:
                voted[p] = voted.get(p, False) or t == me
    turns = sorted({(x["turn"], x.get("phase")) for x in inbox if x.get("channel") == "public" and x.get("day") == day})
    for turn, phase in turns:
        ballot = ballots.get(2 if phase == "revote" else 1, {})
        record = read_deals([x for x in inbox if x.get("turn") == turn and x.get("channel") == "public"])
        for p in sorted(ballot):
            target = bound_target(record, p)
            if target is not None and ballot[p] != target:
                voted[p] = True
    voted.pop(me, None)
    return voted
