"""The `improved` variant's reading of claims and accusations, and of the role counts.

The thesis' AlphaWolf never says what it knows; its future work (7.2) names claims and bluffing
as the missing skills. In the improved variant the seer, once it has found a living werewolf,
claims to be the seer and accuses it; every Intelligence Office reads that talk:

- seer claims: a claimant whom the viewer knows not to be the seer is lying, and in AlphaWolf
  only werewolves lie, so a village-side viewer takes it for a wolf; otherwise each of the k
  credible claimants is the seer with weight `claim_belief / k`:
  C <- w * [seer] + (1 - w) * C;
- accusations: accuser a, target x. If x turns out (revealed) not to be a wolf, a lied (a wolf,
  to the village); otherwise x is a wolf with the weight of a being the seer:
  C_x <- s_a * [werewolf] + (1 - s_a) * C_x, s_a = a's certainty of being the seer;
- role counts: certainties of the players whose role is unknown are fitted, column by column
  and back to rows summing to 1 (iterative proportional fitting), to the number of each role
  still unaccounted for, so that, say, two near-certain wolves clear everyone else.
"""

from __future__ import annotations

import math
from typing import Any

from actors.werewolves.knowledge import Beliefs, known_roles, normalise, role_counts, species_known
from actors.werewolves.params import MEDIUM, POSSESSED, SEER, WEREWOLF, WOLF_TEAM, WolfParams


def _onehot(role: str, roles: Any) -> dict[str, float]:
    return {r: (1.0 if r == role else 0.0) for r in roles}


def _mix(certainty: dict[str, float], role: str, weight: float) -> dict[str, float]:
    return {r: weight * (1.0 if r == role else 0.0) + (1.0 - weight) * certainty[r] for r in sorted(certainty)}


def _liar(obs: dict[str, Any], params: WolfParams, roles: Any) -> dict[str, float]:
    """Who lies about its role: a werewolf (the thesis' roles), or with a possessed in play one of
    the wolf team, by their numbers."""
    counts = role_counts(params, obs["num_players"], obs)
    team = {r: counts.get(r, 0) for r in (POSSESSED, WEREWOLF) if counts.get(r, 0) > 0}
    if POSSESSED not in team:
        return _onehot(WEREWOLF, roles)
    total = sum(team.values())
    return {r: team.get(r, 0) / total for r in roles}


def claims_and_accusations(inbox: Any) -> tuple[list[int], list[tuple[int, int]]]:
    """Seer claimants in the order they first claimed, and unique (accuser, target) pairs."""
    claimants: list[int] = []
    accusations: list[tuple[int, int]] = []
    for line in inbox:
        if line.get("channel") != "public":
            continue
        for s in line["says"]:
            kind = s.get("kind")
            if kind == "ww_claim" and s.get("role") == SEER and line["speaker"] not in claimants:
                claimants.append(line["speaker"])
            elif kind == "ww_accuse" and (line["speaker"], s["target"]) not in accusations:
                accusations.append((line["speaker"], s["target"]))
    return claimants, accusations


def apply_claims(beliefs: Beliefs, obs: dict[str, Any], inbox: Any, params: WolfParams) -> Beliefs:
    """Beliefs after the seer claims and accusations heard so far (see the module docstring)."""
    me, role = obs["me"], obs["role"]
    known = known_roles(obs)
    out = {seat: dict(c) for seat, c in beliefs.items()}
    claimants, accusations = claims_and_accusations(inbox)
    claimants = [q for q in claimants if q != me]
    wolf_view = role == WEREWOLF
    real_seer = next((q for q, r in sorted(known.items()) if r == SEER), None)
    liars = [q for q in claimants if q not in known and real_seer is not None]
    roles = sorted(next(iter(out.values())))
    liar = _liar(obs, params, roles)
    if params.learn_claims and not wolf_view:
        return _learnt(out, obs, inbox, params, me, known, liar)
    if wolf_view:  # the pack knows no wolf lied, so any other claimant is telling the truth
        credible = [q for q in claimants if known.get(q) != WEREWOLF]
        for q in credible:
            if q not in known:
                out[str(q)] = _mix(out[str(q)], SEER, 1.0 / len(credible))
        return fit_counts(out, obs, params)
    for q in liars:
        out[str(q)] = dict(liar)
    credible = [q for q in claimants if q not in known and q not in liars]
    for q in credible:
        out[str(q)] = _mix(out[str(q)], SEER, params.claim_belief / len(credible))
    for accuser, target in accusations:
        if accuser == me or accuser in liars:
            continue
        if target in known:
            if known[target] != WEREWOLF and accuser not in known:
                out[str(accuser)] = dict(liar)  # a wrong accusation: only a wolf lies
            continue
        weight = 1.0 if known.get(accuser) == SEER else out[str(accuser)][SEER]
        out[str(target)] = _mix(out[str(target)], WEREWOLF, weight)
    return fit_counts(out, obs, params)


def fit_counts(beliefs: Beliefs, obs: dict[str, Any], params: WolfParams, sweeps: int = 4) -> Beliefs:
    """Fit the unknown players' certainties to the roles still unaccounted for (rows sum to 1)."""
    known = known_roles(obs)
    remaining = role_counts(params, obs["num_players"], obs)
    for r in known.values():
        if r in remaining:
            remaining[r] = max(0, remaining[r] - 1)
    unknown = [str(q) for q in range(obs["num_players"]) if q not in known]
    rows = {seat: dict(beliefs[seat]) for seat in unknown}
    for _ in range(sweeps):
        for r in remaining:
            total = math.fsum(rows[seat][r] for seat in unknown)
            if total > 0.0:
                for seat in unknown:
                    rows[seat][r] *= remaining[r] / total
        for seat in unknown:
            rows[seat] = normalise(rows[seat])
    return {seat: rows.get(seat, beliefs[seat]) for seat in beliefs}


# -- learning from claims proven false (option `learn_claims`) ------------------------------------

ClaimRecord = tuple[int, str, list[tuple[str, int, str]]]  # (claimant, role, [(ability, target, species)])


def claim_records(inbox: Any) -> list[ClaimRecord]:
    """Each public role claim (seer or medium) with the results its claimant reported, in the order
    of first claim; an accusation by a seer claimant counts as a result "werewolf"."""
    order: list[tuple[int, str]] = []
    results: dict[tuple[int, str], list[tuple[str, int, str]]] = {}
    claimed: dict[int, str] = {}
    for line in inbox:
        if line.get("channel") != "public":
            continue
        q = line["speaker"]
        for s in line["says"]:
            kind = s.get("kind")
            if kind == "ww_claim" and s.get("role") in (SEER, MEDIUM) and (q, s["role"]) not in results:
                order.append((q, s["role"]))
                results[(q, s["role"])] = []
                claimed[q] = s["role"]
            elif kind == "ww_result" and q in claimed:
                results[(q, claimed[q])].append((s["ability"], s["target"], s["species"]))
            elif kind == "ww_accuse" and claimed.get(q) == SEER:
                results[(q, SEER)].append(("divined", s["target"], WEREWOLF))
    return [(q, role, results[(q, role)]) for q, role in order]


def proven_false(record: ClaimRecord, obs: dict[str, Any], me: int) -> bool:
    """A claim the viewer knows to be false: the claimant known (dead and revealed, or inspected)
    not to hold the role, a role the viewer holds itself, or a result contradicting a known role
    or species."""
    q, role, results = record
    known, species = known_roles(obs), species_known(obs)
    if q in known:
        return known[q] != role
    if obs.get("role") == role and q != me:
        return True
    for _, target, said in results:
        if target in known and (known[target] == WEREWOLF) != (said == WEREWOLF):
            return True
        if target in species and species[target] != said:
            return True
    return False


def _learnt(out: Beliefs, obs: dict[str, Any], inbox: Any, params: WolfParams, me: int,
            known: dict[int, str], liar: dict[str, float]) -> Beliefs:
    """The village's reading of claims when it learns from false ones (module doc, `learn_claims`):
    proven liars are wolf team and their results void; the weight of every other claim falls by
    `claim_distrust` per proven-false claim seen; rivals for one role share the wolf team's mass."""
    records = [r for r in claim_records(inbox) if r[0] != me]
    false = [r for r in records if proven_false(r, obs, me)]
    liars = {r[0] for r in false}
    weight = params.claim_belief * params.claim_distrust ** len(false)
    for q in sorted(liars):
        if q not in known:
            out[str(q)] = dict(liar)
    by_role: dict[str, list[int]] = {}
    for q, role, _ in records:
        if q not in liars and q not in known:
            by_role.setdefault(role, []).append(q)
    credit: dict[int, float] = {}
    said = {q: results for q, _, results in records}
    for role, rivals in sorted(by_role.items()):
        shares = _liar_shares(rivals, said, params.counter_tell)
        for q in rivals:
            share = shares[q]
            c = _mix(out[str(q)], role, weight * (1.0 - share))
            if share > 0.0:  # at most one is honest: the others lie for the wolves
                c = {r: (1.0 - share) * c[r] + share * liar[r] for r in sorted(c)}
            out[str(q)] = normalise(c)
            credit[q] = weight * (1.0 - share)
    for q, role, results in records:
        if q in liars:
            continue
        s_q = 1.0 if known.get(q) == role else credit.get(q, 0.0)
        for _, target, said in results:
            if target in known or target == me or str(target) not in out:
                continue
            if said == WEREWOLF:
                out[str(target)] = _mix(out[str(target)], WEREWOLF, s_q)
            else:
                c = out[str(target)]
                out[str(target)] = normalise({r: c[r] * (1.0 - s_q if r == WEREWOLF else 1.0) for r in sorted(c)})
    return fit_counts(out, obs, params)


def _liar_shares(rivals: list[int], said: dict[int, list[tuple[str, int, str]]], tell: float) -> dict[int, float]:
    """Each rival claimant's share of the wolf team's certainty: (k - 1) / k each, except that a
    claimant who claimed after an earlier rival had called it a werewolf (a counter-claim in its own
    defence, the bluffer's tell) takes `tell` of one liar's place (ours)."""
    k = len(rivals)
    if k < 2:
        return {q: 0.0 for q in rivals}
    defensive = [q for i, q in enumerate(rivals)
                 if any(t == q and s == WEREWOLF for p in rivals[:i] for _, t, s in said.get(p, ()))]
    if not defensive or len(defensive) == k:
        return {q: (k - 1) / k for q in rivals}
    rest = max(0.0, (k - 1 - tell * len(defensive)) / (k - len(defensive)))
    return {q: (tell if q in defensive else rest) for q in rivals}


def liars_seen(obs: dict[str, Any], inbox: Any, me: int) -> list[int]:
    """The claimants whose claims the viewer has proven false, sorted."""
    return sorted({r[0] for r in claim_records(inbox) if r[0] != me and proven_false(r, obs, me)})
