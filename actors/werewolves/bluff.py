"""Bluffing AlphaWolf: false seer and medium claims (the thesis' future work, section 7.2: "making
opponents believe one has a different role than its true role ... especially useful for werewolf
players", e.g. a werewolf "claiming to be the seer").

A werewolf or a possessed (the wolf team) with `params.claim_honesty < 1`:

- Strategy Office, `claim_value` (each day, round 0): for each role it could claim (seer, and
  medium where the game deals one) an invented result and its value
      value = claim_gain * gain - caught_cost * P(caught)
  where P(caught) is its belief that a real holder of the role is alive to counter-claim (the sum
  of the living non-wolves' certainty of that role; with roles revealed at death the same holder
  exposes the lie when it dies, and once a holder is known no claim of its role is made), and gain is the threat of the player it
  would accuse (a false "werewolf" result) for a seer claim, a flat 0.5 for a medium's (ours),
  and a second value for defence: when a rival seer claimant accuses it or a fellow wolf, a
  counter-claim accusing the rival gains claim_gain * (1 + 1) against P(caught) = 1.
  The best role goes into the KB (`claims/plan`).
  One wolf per pack bluffs, its lowest-seated living member (two wolves claiming one role would
  prove each other false); a possessed, who does not know the pack, decides alone.
- Foreign Office (timing): a bluffer who has claimed reports a new invented result every day; one
  who has not claims when the plan's value is positive, either at once as a counter-claim when
  someone else claims that role, or unprovoked at the first round of day `claim_day` or later.
  Whether it lies is a draw against the honesty-of-claims trait: it claims when the draw is at
  least `claim_honesty` (one draw per day). Every claim it makes, and every true claim of a
  player with the trait set, is logged in the KB (`claims/log/<turn>`) with the trait, the value,
  P(caught), and whether it is true: the log's omniscient reader (transcript, debugger) sees
  which claims are bluffs; players only hear the claim.
"""

from __future__ import annotations

import math
from typing import Any

from actors.werewolves.deals import lines_of
from actors.werewolves.knowledge import current_beliefs, known_roles, role_counts, species_known, threats
from actors.werewolves.params import MEDIUM, SEER, WEREWOLF, WOLF_TEAM, WolfParams
from bus.messages import KBUpdate
from games.werewolves.talk import WwAccuse, WwClaim, WwResult

MEDIUM_GAIN = 0.5  # ours: a medium's false result shifts one vote's worth of suspicion
_ABILITY = {SEER: "divined", MEDIUM: "identified"}


def claim_plan(view: dict[str, Any], params: WolfParams, turn: int) -> dict[str, Any] | None:
    """The SO's best false claim today (see the module docstring), or None when none is possible."""
    obs, me = view["observation"], view["seat"]
    counts = role_counts(params, obs["num_players"], obs)
    beliefs = current_beliefs(view, params)
    t = threats(beliefs, obs["role"], params)
    known = known_roles(obs)
    mates = {q for q, r in known.items() if r == WEREWOLF and q != me}
    if any(q < me for q in mates if q in obs["alive"]):
        return None  # one voice per pack: its lowest-seated living wolf bluffs
    others = [q for q in obs["alive"] if q != me and q not in mates]
    made = ((view.get("claims") or {}).get("made") or {}).get("role")
    plans = []
    for role in (MEDIUM, SEER):  # sorted; ties go to the first
        if counts.get(role, 0) == 0 or (made and made != role) or not others:
            continue
        if any(r == role and q != me for q, r in known.items()):
            continue  # the real holder is known (revealed at death): the claim is already disproved
        p_caught = min(1.0, math.fsum(beliefs[str(q)].get(role, 0.0) for q in others))
        if role == SEER:
            target = min(others, key=lambda q: (-t[q], q))
            species, gain = WEREWOLF, t[target]
        else:
            gone = [e["player"] for e in obs.get("events", ()) if e["type"] == "eliminated"]
            if not gone:
                continue
            target = gone[-1]
            species, gain = ("human" if known.get(target) == WEREWOLF else WEREWOLF), MEDIUM_GAIN
        value = params.claim_gain * gain - params.caught_cost * p_caught
        # in defence: a rival seer claimant accuses this player or a fellow wolf; the counter-claim
        # accuses the rival (its threat, at most 1, taken as 1) and saves the accused (claim_gain)
        defence = params.claim_gain * 2.0 - params.caught_cost if role == SEER else None
        plans.append({"day": obs["day"], "role": role, "target": target, "species": species,
                      "value": round(value, 6), "p_caught": round(p_caught, 6),
                      "defence_value": None if defence is None else round(defence, 6)})
    if not plans:
        return None
    return max(plans, key=lambda p: p["value"])


def bluff(view: dict[str, Any], params: WolfParams, turn: int, rng: Any) -> tuple[list[Any], list[KBUpdate]]:
    """The FO's false claim this round, if it times one (module docstring): (says, KB updates)."""
    obs, me = view["observation"], view["seat"]
    if obs["role"] not in WOLF_TEAM or obs["phase"] != "day":
        return [], []
    claims = view.get("claims") or {}
    plan = claims.get("plan") or {}
    day = obs["day"]
    if plan.get("day") != day or day in (claims.get("said"), claims.get("declined")):
        return [], []
    made = claims.get("made")
    rnd = (view.get("talk") or {}).get("round", 0)
    lines = lines_of(view.get("inbox", ()), turn, "public")
    rivals = [x["speaker"] for x in lines for s in x["says"]
              if s["kind"] == "ww_claim" and s["role"] == plan["role"] and x["speaker"] != me]
    mates = {q for q, r in known_roles(obs).items() if r == WEREWOLF}
    accusers = sorted({x["speaker"] for x in lines for s in x["says"] if x["speaker"] in rivals
                       and s["kind"] == "ww_accuse" and (s["target"] == me or s["target"] in mates)})
    role, target, species, value = plan["role"], plan["target"], plan["species"], plan["value"]
    defend = bool(accusers) and plan.get("defence_value") is not None and plan["defence_value"] > 0.0
    if defend:
        target, species, value = accusers[0], WEREWOLF, plan["defence_value"]
    if not made:
        if not (defend or (value > 0.0 and (rivals or (rnd == 0 and day >= params.claim_day)))):
            return [], []
        draw = rng.random()
        if draw < params.claim_honesty:
            return [], [KBUpdate(path=("claims", "declined"), value=day)]
    else:
        draw = None
    says: list[Any] = [] if made else [WwClaim(role=role)]
    says.append(WwResult(ability=_ABILITY[role], target=target, species=species))
    if species == WEREWOLF and target in obs["alive"]:
        says.append(WwAccuse(target=target))
    entry = {"role": role, "true": False, "honesty": params.claim_honesty, "value": value,
             "p_caught": 1.0 if defend else plan["p_caught"], "target": target, "species": species, "day": day,
             "counter": bool(rivals), "defence": defend, "draw": None if draw is None else round(draw, 6)}
    updates = [KBUpdate(path=("claims", "said"), value=day), KBUpdate(path=("claims", "log", str(turn)), value=entry)]
    if not made:
        updates.append(KBUpdate(path=("claims", "made"), value={"role": role, "day": day}))
    return says, updates


def honest_results(view: dict[str, Any], params: WolfParams, turn: int, says: list[Any]) -> tuple[list[Any], list[KBUpdate]]:
    """In a game showing its role counts, a seer's or medium's true claim carries its results
    (AIWolf's DIVINED and IDENTIFIED); with the honesty trait set, true claims are logged too."""
    obs, me = view["observation"], view["seat"]
    role = obs["role"]
    if role not in (SEER, MEDIUM) or not obs.get("role_counts"):
        return says, []
    species = species_known(obs)
    wolves = [q for q, s in sorted(species.items()) if s == WEREWOLF]
    claims = view.get("claims") or {}
    lines = lines_of(view.get("inbox", ()), turn, "public")
    said = {(s["kind"], s.get("target")) for x in lines if x["speaker"] == me for s in x["says"]}
    claiming = any(isinstance(s, WwClaim) for s in says) or ("ww_claim", None) in said
    if role == MEDIUM and wolves and not claiming and claims.get("said") != obs["day"]:
        says = [WwClaim(role=MEDIUM)] + says
        claiming = True
    if not claiming:
        return says, []
    results = [WwResult(ability=_ABILITY[role], target=q, species=s) for q, s in sorted(species.items())
               if ("ww_result", q) not in said and q != me]
    out = says + results
    updates = []
    if results and params.bluffs:
        entry = {"role": role, "true": True, "honesty": params.claim_honesty, "day": obs["day"],
                 "results": [[r.target, r.species] for r in results]}
        updates.append(KBUpdate(path=("claims", "log", str(turn)), value=entry))
    if role == MEDIUM:
        updates.append(KBUpdate(path=("claims", "said"), value=obs["day"]))
    return out, updates
