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

from actors.werewolves.knowledge import Beliefs, known_roles, normalise, role_counts
from actors.werewolves.params import ROLES, SEER, WEREWOLF, WolfParams


def _onehot(role: str) -> dict[str, float]:
    return {r: (1.0 if r == role else 0.0) for r in ROLES}


def _mix(certainty: dict[str, float], role: str, weight: float) -> dict[str, float]:
    return {r: weight * (1.0 if r == role else 0.0) + (1.0 - weight) * certainty[r] for r in ROLES}


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
    if wolf_view:  # the pack knows no wolf lied, so any other claimant is telling the truth
        credible = [q for q in claimants if known.get(q) != WEREWOLF]
        for q in credible:
            if q not in known:
                out[str(q)] = _mix(out[str(q)], SEER, 1.0 / len(credible))
        return fit_counts(out, obs, params)
    for q in liars:
        out[str(q)] = _onehot(WEREWOLF)
    credible = [q for q in claimants if q not in known and q not in liars]
    for q in credible:
        out[str(q)] = _mix(out[str(q)], SEER, params.claim_belief / len(credible))
    for accuser, target in accusations:
        if accuser == me or accuser in liars:
            continue
        if target in known:
            if known[target] != WEREWOLF and accuser not in known:
                out[str(accuser)] = _onehot(WEREWOLF)  # a wrong accusation: only a wolf lies
            continue
        weight = 1.0 if known.get(accuser) == SEER else out[str(accuser)][SEER]
        out[str(target)] = _mix(out[str(target)], WEREWOLF, weight)
    return fit_counts(out, obs, params)


def fit_counts(beliefs: Beliefs, obs: dict[str, Any], params: WolfParams, sweeps: int = 4) -> Beliefs:
    """Fit the unknown players' certainties to the roles still unaccounted for (rows sum to 1)."""
    known = known_roles(obs)
    remaining = role_counts(params, obs["num_players"])
    for r in known.values():
        if r in remaining:
            remaining[r] = max(0, remaining[r] - 1)
    unknown = [str(q) for q in range(obs["num_players"]) if q not in known]
    rows = {seat: dict(beliefs[seat]) for seat in unknown}
    for _ in range(sweeps):
        for r in ROLES:
            total = math.fsum(rows[seat][r] for seat in unknown)
            if total > 0.0:
                for seat in unknown:
                    rows[seat][r] *= remaining[r] / total
        for seat in unknown:
            rows[seat] = normalise(rows[seat])
    return {seat: rows.get(seat, beliefs[seat]) for seat in beliefs}
