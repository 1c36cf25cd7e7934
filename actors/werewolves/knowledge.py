"""What every AlphaWolf office computes the same way: role beliefs, threat values (thesis eq.
5.2) and deal utility (thesis algorithm 4). Pure functions of JSON-ready data.

Beliefs are `{seat string: {role: certainty}}` with the certainties of a seat summing to 1.
"""

from __future__ import annotations

import math
from typing import Any

from actors.werewolves.params import ROLES, SEER, VILLAGER, WEREWOLF, WOLF_TEAM, WolfParams

Beliefs = dict[str, dict[str, float]]

MIN_THREAT = 1e-6  # a floor so that 1/T stays finite even for hand-built tables with B_i = 0


def known_roles(observation: dict[str, Any]) -> dict[int, str]:
    """Seat -> role for the roles the player knows (own, fellow wolves, inspections, the dead)."""
    return {int(seat): role for seat, role in observation.get("known_roles", {}).items()}


def roles_in_play(observation: dict[str, Any] | None) -> tuple[str, ...]:
    """The roles beliefs range over: the thesis' four, and any other role the game deals (a game
    beyond the thesis' shows its role counts), sorted."""
    counts = (observation or {}).get("role_counts")
    if not counts:
        return ROLES
    return tuple(sorted(set(ROLES) | {r for r, c in counts.items() if c > 0}))


def role_counts(params: WolfParams, players: int, observation: dict[str, Any] | None = None) -> dict[str, int]:
    """How many of each role the game deals (the game's own counts where it shows them, else the
    parameters'); villagers are the seats left over."""
    roles = roles_in_play(observation)
    shown = (observation or {}).get("role_counts")
    source = shown if shown else params.role_counts
    counts = {role: source.get(role, 0) for role in roles if role != VILLAGER}
    counts[VILLAGER] = max(0, players - sum(counts.values()))
    return {role: counts[role] for role in roles}


def species_known(observation: dict[str, Any]) -> dict[int, str]:
    """Seat -> species ("human" or "werewolf") learnt from a seer's or a medium's result."""
    out = {}
    for e in observation.get("events", ()):
        if "species" in e:
            out[int(e["target"] if e["type"] == "inspect" else e["player"])] = e["species"]
    return out


def prior_beliefs(observation: dict[str, Any], params: WolfParams) -> Beliefs:
    """Certainty 1 for every known role; the roles not yet accounted for spread evenly otherwise
    (a species learnt rules the werewolf in or out)."""
    n = observation["num_players"]
    roles = roles_in_play(observation)
    known = known_roles(observation)
    remaining = role_counts(params, n, observation)
    for role in known.values():
        if role in remaining:
            remaining[role] = max(0, remaining[role] - 1)
    total = sum(remaining.values())
    spread = {r: (remaining[r] / total if total else 1.0 / len(roles)) for r in roles}
    out: Beliefs = {}
    for seat in range(n):
        role = known.get(seat)
        out[str(seat)] = {r: (1.0 if r == role else 0.0) for r in roles} if role else dict(spread)
    for seat, kind in sorted(species_known(observation).items()):
        if seat not in known:
            c = out[str(seat)]
            out[str(seat)] = normalise({r: c[r] * ((r == WEREWOLF) == (kind == WEREWOLF)) for r in roles})
    return out


def current_beliefs(view: dict[str, Any], params: WolfParams) -> Beliefs:
    """The Intelligence Office's beliefs where it has any, with every known role as a hard fact."""
    observation = view["observation"]
    prior = prior_beliefs(observation, params)
    held = view.get("beliefs") or {}
    if not held:
        return prior
    known = known_roles(observation)
    return {seat: (prior[seat] if int(seat) in known or seat not in held else held[seat]) for seat in prior}


def threat(certainty: dict[str, float], base: dict[str, float]) -> float:
    """Thesis eq. 5.2: T_p = sum_i(B_i * C_i) / sum_i(B_i), over the roles in play."""
    roles = sorted(certainty)
    total = math.fsum(base.get(r, 0.0) for r in roles)
    if total <= 0.0:
        return MIN_THREAT
    value = math.fsum(base.get(r, 0.0) * certainty.get(r, 0.0) for r in roles) / total
    return max(value, MIN_THREAT)


def threats(beliefs: Beliefs, role: str, params: WolfParams) -> dict[int, float]:
    """T of every seat, to a player holding `role` (eq. 5.2 for each)."""
    base = params.base_threat(role)
    first = next(iter(beliefs.values()), None)
    weights = [(r, base.get(r, 0.0)) for r in (sorted(first) if first else ROLES)]
    total = math.fsum(b for _, b in weights)
    if total <= 0.0:
        return {int(seat): MIN_THREAT for seat in beliefs}
    out = {}
    for seat, c in beliefs.items():
        out[int(seat)] = max(MIN_THREAT, math.fsum(b * c.get(r, 0.0) for r, b in weights) / total)
    return out


def deal_utility(proposer_threat: float, target_threat: float, positive: bool, trust: float) -> float:
    """Thesis algorithm 4: (1/T(target) if the action helps the target else T(target))
    * 1/T(proposer) * trust(proposer)."""
    target_value = 1.0 / target_threat if positive else target_threat
    return target_value * (1.0 / proposer_threat) * trust


POSITIVE_DEALS = frozenset({"heal"})  # helps its target; joint votes and investigations do not


def initial_trust(traits: dict[str, Any] | None) -> float:
    """Trust before any evidence: the President's `trust` trait in [0, 1] mapped to [0, 2]
    (0.5, the neutral trait, gives the thesis' neutral trust 1)."""
    return 2.0 * float((traits or {}).get("trust", 0.5))


def trust_of(view: dict[str, Any], seat: int) -> float:
    held = view.get("trust") or {}
    value = held.get(str(seat))
    return initial_trust(view.get("traits")) if value is None else float(value)


def is_wolf_side(observation: dict[str, Any]) -> bool:
    return observation.get("role") in WOLF_TEAM


def prospective_legal(observation: dict[str, Any]) -> list[str]:
    """The actions of the decision a talk phase precedes (talk turns carry no legal list)."""
    me, alive, phase = observation["me"], observation["alive"], observation["phase"]
    if phase == "night":
        if observation.get("role") != WEREWOLF:
            return []
        wolves = {s for s, r in known_roles(observation).items() if r == WEREWOLF}
        seats = [q for q in alive if q not in wolves]
        verb = "attack:"
    elif phase == "revote":
        seats, verb = [q for q in observation.get("candidates", []) if q != me], "vote:"
    else:
        seats, verb = [q for q in alive if q != me], "vote:"
    return sorted(verb + str(q) for q in seats)


def target_of(action: str) -> int | None:
    """The seat an action names ("vote:3" -> 3), or None (abstain)."""
    _, colon, rest = action.partition(":")
    return int(rest) if colon and rest.isdigit() else None


def normalise(certainty: dict[str, float]) -> dict[str, float]:
    roles = sorted(certainty)  # the thesis' four sort as ROLES
    total = math.fsum(certainty[r] for r in roles)
    if total <= 0.0 or not math.isfinite(total):
        return {r: 1.0 / len(roles) for r in roles}
    return {r: certainty[r] / total for r in roles}
