"""AlphaWolf's Foreign Office (thesis 5.2.3, algorithm 5): proposals, concession, sealed bids.

Called by the President on every talk turn (`talk` = channel and round) and once more when the
decision comes (`talk.closing`), when it turns the deals it is bound to into the commitment the
President keeps: the joint vote of the day, the winning bid of the night, or a heal or
investigation it accepted the day before.
"""

from __future__ import annotations

from typing import Any

from actors.alpha.offices import Answer, ForeignOffice
from actors.werewolves.bluff import bluff, honest_results
from actors.werewolves.deals import bid_winner, bound_target, lines_of, read_deals
from actors.werewolves.knowledge import (
    current_beliefs,
    deal_utility,
    known_roles,
    prospective_legal,
    species_known,
    target_of,
    threats,
    trust_of,
)
from actors.werewolves.params import DOCTOR, SEER, WEREWOLF, WolfParams
from bus.messages import KBUpdate, OfficeRequest
from games.werewolves.talk import WwAccept, WwAccuse, WwBid, WwClaim, WwPropose, WwRetract

# A proposal id is unique per proposer and game: turn * SLOTS + slot.
SLOTS = 4
JOINT_VOTE, INVESTIGATE, HEAL = 0, 1, 2
_ABLE = {"heal": DOCTOR, "investigate": SEER}  # who can carry out a request
_NIGHT_VERB = {"heal": "protect:", "investigate": "inspect:"}


class WolfForeignOffice(ForeignOffice):
    """Negotiates joint votes, heal and investigation requests by day; bids by night."""

    def __init__(self, address: str, seed: int, params: WolfParams | None = None, variant: str = "thesis"):
        super().__init__(address, seed)
        self.params = params or WolfParams()
        self.variant = variant

    def negotiate(self, request: OfficeRequest) -> Answer:
        talk = request.view.get("talk") or {}
        if talk.get("closing"):
            return self.close(request)
        if talk.get("channel") == "wolves":
            return self.bid(request) if talk.get("round") == 0 else Answer()
        return self.discuss(request)

    # -- day: algorithm 5 ----------------------------------------------------------------------

    def discuss(self, request: OfficeRequest) -> Answer:
        view, turn = request.view, request.turn
        current = (view.get("deals") or {}).get("current", {})
        if not current.get("proposed"):  # algorithm 5, lines 1-6
            return self.propose(view, turn)
        rnd = (view.get("talk") or {}).get("round", 1)
        return self.evaluate(view, turn, rnd, current)

    def propose(self, view: dict[str, Any], turn: int) -> Answer:
        obs, me = view["observation"], view["seat"]
        t = threats(current_beliefs(view, self.params), obs["role"], self.params)
        says: list[Any] = []
        updates = [KBUpdate(path=("deals", "current", "proposed"), value=True)]
        target = self.highest_threat(view, t)
        if target is not None:
            pid = turn * SLOTS + JOINT_VOTE
            says.append(WwPropose(proposal_id=pid, deal="joint_vote", target=target))
            utility = deal_utility(t[me], t[target], False, 1.0)  # algorithm 4 with myself as proposer
            entry = {"id": pid, "deal": "joint_vote", "target": target, "utility": round(utility, 6)}
            updates.append(KBUpdate(path=("deals", "current", "mine", "joint_vote"), value=entry))
        for deal, target in self.requests(view, t):
            slot = INVESTIGATE if deal == "investigate" else HEAL
            says.append(WwPropose(proposal_id=turn * SLOTS + slot, deal=deal, target=target))
        if self.variant == "improved":
            says = self.reveal(view, turn) + says
        says, updates = self.claims(view, turn, says, updates)
        return Answer(says=says, updates=updates)

    def claims(self, view: dict[str, Any], turn: int, says: list[Any], updates: list[KBUpdate]) -> tuple[list[Any], list[KBUpdate]]:
        """A bluffer's false claim (bluff.py) and the results a true claim carries, where the game
        or the honesty-of-claims trait asks for them; otherwise `says` and `updates` unchanged."""
        if self.variant != "improved":
            return says, updates
        if self.params.bluffs:
            lie, more = bluff(view, self.params, turn, self.rng)
            says, updates = lie + says, updates + more
        says, more = honest_results(view, self.params, turn, says)
        return says, updates + more

    def reveal(self, view: dict[str, Any], turn: int) -> list[Any]:
        """Improved variant. A seer that knows a living wolf, or hears someone else claim its
        role this phase (a liar, so a wolf), claims the role and accuses them. With
        `params.bluff`, the lowest-seated living wolf claims to be the seer at the start of each
        day and accuses its highest threat (the thesis' future work: bluffing)."""
        obs, me = view["observation"], view["seat"]
        lines = lines_of(view.get("inbox", ()), turn, "public")
        said = {(s["kind"], s.get("target")) for x in lines if x["speaker"] == me for s in x["says"]}
        if obs["role"] == SEER:
            wolves = [q for q, r in sorted(known_roles(obs).items()) if r == WEREWOLF and q in obs["alive"]]
            wolves += [q for q, s in sorted(species_known(obs).items()) if s == WEREWOLF and q in obs["alive"]]
            liars = sorted({x["speaker"] for x in lines for s in x["says"]
                            if s["kind"] == "ww_claim" and s["role"] == SEER and x["speaker"] != me})
            targets = [q for q in wolves + [q for q in liars if q not in wolves] if q in obs["alive"]]
        elif obs["role"] == WEREWOLF and self.params.bluff and not lines:
            pack = [q for q, r in sorted(known_roles(obs).items()) if r == WEREWOLF and q in obs["alive"]]
            target = self.highest_threat(view, threats(current_beliefs(view, self.params), obs["role"], self.params))
            targets = [target] if pack and pack[0] == me and target is not None else []
        else:
            return []
        targets = [q for q in targets if ("ww_accuse", q) not in said]
        if not targets:
            return []
        claim = [] if ("ww_claim", None) in said else [WwClaim(role=SEER)]
        return claim + [WwAccuse(target=q) for q in targets]

    def highest_threat(self, view: dict[str, Any], t: dict[int, float]) -> int | None:
        """The SO's best suggestion this phase; without one, the highest threat among the legal."""
        for s in view.get("suggestions") or ():
            seat = target_of(s["action"])
            if seat is not None:
                return seat
        seats = [target_of(a) for a in prospective_legal(view["observation"])]
        seats = [s for s in seats if s is not None]
        return min(seats, key=lambda s: (-t[s], s)) if seats else None

    def requests(self, view: dict[str, Any], t: dict[int, float]) -> list[tuple[str, int]]:
        """Investigation of the least trusted player and a heal of myself, when trust is low."""
        obs, me = view["observation"], view["seat"]
        others = [q for q in obs["alive"] if q != me]
        if not others:
            return []
        least = min(others, key=lambda q: (trust_of(view, q), q))
        if trust_of(view, least) >= self.params.low_trust:
            return []
        out = []
        if obs["role"] != SEER and least not in known_roles(obs):
            out.append(("investigate", least))
        if obs["role"] != DOCTOR:
            out.append(("heal", me))
        return out

    def evaluate(self, view: dict[str, Any], turn: int, rnd: int, current: dict[str, Any]) -> Answer:
        """Algorithm 5, lines 18-37: accept the best received deal above the concession value."""
        obs, me = view["observation"], view["seat"]
        record = read_deals(lines_of(view.get("inbox", ()), turn, "public"))
        bound = bound_target(record, me)
        mine = (current.get("mine") or {}).get("joint_vote")
        factor = self.params.concession_start * self.params.concession_decay ** max(0, rnd - 1)
        concession = mine["utility"] * factor if mine else 0.0
        says: list[Any] = []
        updates: list[KBUpdate] = []
        votes: list[tuple[float, int, dict[str, Any]]] = []
        night: list[tuple[float, int, dict[str, Any]]] = []
        for key, entry in sorted((current.get("received") or {}).items()):
            deal = record.get(key)
            if "ignored" in entry or deal is None or deal.retracted is not None:
                continue
            if entry["deal"] == "joint_vote":
                if bound is not None and entry["target"] != bound:
                    why = f"conflicts with my deal to vote against {bound}"
                    updates.append(KBUpdate(path=("deals", "current", "received", key), value={**entry, "ignored": why}))
                elif bound is None and entry["utility"] > concession:
                    votes.append((entry["utility"], -entry["proposer"], entry))
            elif _ABLE[entry["deal"]] == obs["role"] and entry["utility"] > concession:
                night.append((entry["utility"], -entry["proposer"], entry))
        if votes:  # lines 28-32: accept the best, confirm it (joint votes only), retract mine
            best = max(votes, key=lambda v: v[:2])[2]
            says.append(WwAccept(proposal_id=best["id"], proposer=best["proposer"]))
            updates.append(KBUpdate(path=("deals", "current", "accepted"), value=best["key"]))
            own = record.get(f"{me}:{mine['id']}") if mine else None
            if own is not None and own.retracted is None and not own.binds():
                says.append(WwRetract(proposal_id=own.proposal_id))
        if self.variant == "improved":
            says = self.reveal(view, turn) + says
        says, updates = self.claims(view, turn, says, updates)
        accepted_night = (view.get("deals") or {}).get("night") or {}
        if night and accepted_night.get("day") != obs["day"]:  # silent: confirming reveals the role
            best = max(night, key=lambda v: v[:2])[2]
            value = {"deal": best["deal"], "target": best["target"], "proposer": best["proposer"], "day": obs["day"]}
            updates.append(KBUpdate(path=("deals", "night"), value=value))
        return Answer(says=says, updates=updates)

    # -- night: sealed bids ---------------------------------------------------------------------

    def bid(self, request: OfficeRequest) -> Answer:
        """Thesis 5.2.3: each wolf names one victim and its preference (the victim's threat)."""
        view = request.view
        obs = view["observation"]
        t = threats(current_beliefs(view, self.params), obs["role"], self.params)
        target = self.highest_threat(view, t)
        if target is None:
            return Answer()
        return Answer(says=[WwBid(target=target, preference=round(t[target], 6))])

    # -- the decision: deals become a commitment ------------------------------------------------

    def close(self, request: OfficeRequest) -> Answer:
        view, turn, legal = request.view, request.turn, request.legal
        obs, me = view["observation"], view["seat"]
        inbox = view.get("inbox", ())
        action = None
        updates: list[KBUpdate] = []
        if obs["phase"] in ("day", "revote"):
            target = bound_target(read_deals(lines_of(inbox, turn, "public")), me)
            action = None if target is None else f"vote:{target}"
        elif obs["role"] == WEREWOLF:
            target = bid_winner(lines_of(inbox, turn, "wolves"))
            action = None if target is None else f"attack:{target}"
        else:
            pending = (view.get("deals") or {}).get("night") or {}
            if pending:
                if pending.get("day") == obs["day"] - 1:  # night d follows day d - 1
                    action = _NIGHT_VERB[pending["deal"]] + str(pending["target"])
                updates.append(KBUpdate(path=("deals", "night"), value=None))
        if action is not None and action in legal:
            updates.append(KBUpdate(path=("commitments", str(turn)), value=action))
        return Answer(updates=updates)
