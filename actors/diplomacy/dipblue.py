"""DipBlue (Ferreira, Lopes Cardoso & Reis 2015) as an Alpha agent (thesis 5.1.2; reference
/work/shared/references/diplomacy-bots.md 3.2, reimplemented from that description).

- Strategy Office = the advisers, each scoring every candidate order of every unit (hold or move):
  MapTactician (DumbBot's destination value, shifted per unit to be >= 1 so the multiplying
  advisers keep its order), FortuneTeller (x 1 / (1 + competition of the destination): our
  reading of its crude chance of success), TeamBuilder (x3 for a contested move some other unit
  of ours or a peace partner's could support), AgreementExecutor (+1e9 for an order we promised
  in a confirmed deal), WordKeeper (x the effective trust ratio of the power whose unit or centre
  the move enters). The best non-colliding order per unit wins (greedy over all scores); units
  left holding support a contested move of ours next to them. Retreats and adjustments: DumbBot.
  The honest move keeps our deals (promised orders, no attack on peace partners); when we have
  deals the SO also offers the move without them (WordKeeper sees partners as neutral), which
  the President plays when it pays more and its `honesty` draw says so (the betrayer preset).
- Intelligence Office = the trust ("friction") ratio per opponent: starts at 1 (0 no threat,
  > 1 threat); effective ratio = ratio x 0.5 at peace, x 2 at war; each spring ratio x 0.95 at
  peace, x 0.99 otherwise; per order attacking our unit or centre ratio += 0.04 / effective if
  effective < 1, else + 0.01; a broken deal counts as an attack and puts us at war with the
  breaker.
- Foreign Office = peace and alliances: each spring (our peace deals last a year; DipGame's had
  no term) propose peace to every power not at war with us; each round put at war any partner
  whose effective ratio > 1, propose an alliance of our partners against the power with most
  centres not at peace with us, ask partners to support our contested moves. Accept peace if the
  proposer is not at war with us and its ratio < 2; an alliance if every ally is not at war with
  ratio < 2 and every enemy is not at peace with ratio > 0.5; an order for us from a peace
  partner with ratio <= 0.5 or more centres than us. The betrayer accepts everything.
- Archetypes: `no_press` (MapTactician only, no FO, no IO), `naive` (all advisers and the FO,
  no IO: ratios stay 1), `dipblue` (all three offices).
"""

from __future__ import annotations

import json
from typing import Any

from actors.alpha.offices import Answer, ForeignOffice, IntelligenceOffice, StrategyOffice
from actors.diplomacy.alphadip.offices import alive, partners
from actors.diplomacy.alphadip.tactics import attacks, reachers
from actors.diplomacy.dumbbot import evaluate
from actors.diplomacy.view import board_from_observation, nothing_to_plan
from bus.messages import KBUpdate, OfficeRequest, Suggestion
from games.diplomacy.board import POWERS, Board, movement_orders
from games.diplomacy.talk import Alliance, DipAccept, DipPropose, DipReject, OrderCommitment, Peace

PEACE_FACTOR = 0.5  # effective ratio at peace (reference 3.2)
WAR_FACTOR = 2.0  # effective ratio at war
SPRING_PEACE = 0.95  # each spring, at peace
SPRING_OTHER = 0.99  # each spring, otherwise
ATTACK_STEP = 0.04  # per attack, divided by the effective ratio when it is < 1
ATTACK_FLAT = 0.01  # per attack, when the effective ratio is >= 1
TEAM_BONUS = 3.0  # TeamBuilder
PROMISED = 1e9  # AgreementExecutor's "+infinity"


def effective(ratio: dict[str, float], power: str, peace: set[str], war: set[str]) -> float:
    r = ratio.get(power, 1.0)
    return r * (PEACE_FACTOR if power in peace and power not in war else WAR_FACTOR if power in war else 1.0)


def _state(view: dict[str, Any]) -> tuple[dict[str, float], set[str], set[str]]:
    obs = view["observation"]
    ratio = {p: float(v) for p, v in (view.get("trust") or {}).items()}
    war = set(view.get("war") or [])
    peace = partners(obs) - war
    return ratio, peace, war


class DipBlueStrategyOffice(StrategyOffice):
    """The advisers (see the module docstring); `advisers="map"` keeps MapTactician only."""

    def __init__(self, address: str, seed: int, advisers: str = "all"):
        super().__init__(address, seed)
        self.advisers = advisers

    def suggest(self, request: OfficeRequest) -> Answer:
        view = request.view
        obs = view["observation"]
        if nothing_to_plan(obs):
            return Answer(suggestions=[Suggestion(action='{"orders":{}}', utility=0.0)])
        board = board_from_observation(obs)
        me = obs["power"]
        ratio, peace, war = _state(view)
        promised = {c["order"].split()[1][:3]: c["order"] for d in obs["deals"]["confirmed"] for c in d["commitments"]
                    if c["type"] == "order" and c["power"] == me and c["phase"] == obs["phase"]}
        ev = evaluate(board, me)
        honest = self._plan(board, me, ev, ratio, peace, war, promised, keep=True)
        out = [honest]
        if promised or peace:
            free = self._plan(board, me, ev, ratio, set(), war, {}, keep=False)
            if free["orders"] != honest["orders"]:
                out.append(free)
        return Answer(suggestions=[Suggestion(action=json.dumps({k: v for k, v in m.items() if k != "utility"},
                                                                sort_keys=True, separators=(",", ":")),
                                              utility=m["utility"]) for m in out])

    def _plan(self, board: Board, me: str, ev: Any, ratio: dict[str, float], peace: set[str], war: set[str],
              promised: dict[str, str], keep: bool) -> dict[str, Any]:
        full = self.advisers == "all"
        mine = {p: u for p, u in sorted(board.units.items()) if u[0] == me}
        reach = reachers(board)
        owner_of = {p: u[0] for p, u in board.units.items()}
        scored: list[tuple[float, str, str, str, float]] = []  # (score, prov, order, dest, raw value)
        for prov, (_, utype, loc) in mine.items():
            unit = f"{utype} {loc}"
            legal = movement_orders(board, prov)
            cands = [(f"{unit} H", prov, ev.value[unit] + 1)]
            cands += [(o, o.split()[3][:3], ev.value[f"{utype} {o.split()[3]}"]) for o in legal
                      if len(o.split()) == 4 and o.split()[2] == "-"]
            low = min(v for _, _, v in cands)
            for order, dest, raw in cands:
                score = float(raw - low + 1)  # MapTactician, shifted to >= 1
                target = owner_of.get(dest) or board.centres.get(dest)
                if keep:
                    if prov in promised and order != promised[prov]:
                        continue
                    if dest != prov and target in peace:
                        continue
                if full and dest != prov:
                    comp = ev.competition.get(dest, 0)
                    score *= 1.0 / (1.0 + comp)  # FortuneTeller
                    helpers = [q for q in reach.get(dest, ()) if q != prov and (q in mine or owner_of[q] in peace)]
                    if comp >= 1 and helpers:
                        score *= TEAM_BONUS  # TeamBuilder
                    if target is not None and target != me:
                        score *= effective(ratio, target, peace, war)  # WordKeeper
                if full and keep and promised.get(prov) == order:
                    score += PROMISED  # AgreementExecutor
                scored.append((score, prov, order, dest, float(raw)))
        scored.sort(key=lambda s: (-s[0], s[1], s[2]))
        orders: dict[str, str] = {}
        claimed: set[str] = set()
        value = 0.0
        for score, prov, order, dest, raw in scored:
            if prov in orders or dest in claimed:
                continue
            if dest != prov and dest in mine and not (dest in orders and " - " in orders[dest]):
                continue  # into a unit of ours that is not known to leave
            orders[prov] = order
            claimed.add(dest)
            value += raw
        for prov in sorted(mine):  # a unit with nothing left keeps its place
            orders.setdefault(prov, f"{mine[prov][1]} {mine[prov][2]} H")
        asks = []
        for prov, order in sorted(orders.items()):
            if " - " not in order or ev.competition.get(attacks(order), 0) < 1:
                continue
            dest = attacks(order)
            for q in reach.get(dest, ()):
                if q in mine and orders.get(q, "").endswith(" H") and q not in promised:
                    sup = f"{mine[q][1]} {mine[q][2]} S {mine[prov][1]} {mine[prov][2]} - {dest}"
                    if sup in movement_orders(board, q):
                        orders[q] = sup
                        break
            else:
                for q in reach.get(dest, ()):
                    if owner_of[q] in peace:
                        u = board.units[q]
                        sup = f"{u[1]} {u[2]} S {mine[prov][1]} {mine[prov][2]} - {dest}"
                        if sup in movement_orders(board, q):
                            asks.append([u[0], q, sup])
                            break
        return {"orders": orders, "asks": asks, "breaks": not keep, "kind": "honest" if keep else "break",
                "utility": round(value, 3)}


class DipBlueIntelligenceOffice(IntelligenceOffice):
    """The trust ratio (see the module docstring)."""

    def update(self, request: OfficeRequest) -> Answer:
        view = request.view
        obs = view["observation"]
        me = obs["power"]
        ratio = {p: float((view.get("trust") or {}).get(p, 1.0)) for p in POWERS if p != me}
        war = set(view.get("war") or [])
        peace = partners(obs) - war
        io = dict(view.get("io") or {})
        last = obs.get("last")
        if last is not None and last["phase"] != io.get("phase"):
            mine_before = {o.split()[1][:3] for o in last["orders"].get(me, []) if o.split()[0] in ("A", "F")}
            my_centres = set(obs["centres"].get(me, []))
            if last["phase"].endswith("M"):
                for p in sorted(ratio):
                    for o in last["orders"].get(p, []):
                        t = attacks(o)
                        if t and (t in mine_before or t in my_centres):
                            ratio[p] = _attacked(ratio[p], effective(ratio, p, peace, war))
            events = obs["deals"]["events"]
            for e in events[int(io.get("events", 0)):]:
                if e["type"] == "broken" and e["by"] != me:
                    ratio[e["by"]] = _attacked(ratio[e["by"]], effective(ratio, e["by"], peace, war))
                    war.add(e["by"])
            io.update({"events": len(events), "phase": last["phase"]})
        if obs["phase"].startswith("S") and obs["phase"].endswith("M") and io.get("spring") != obs["year"]:
            for p in sorted(ratio):
                ratio[p] *= SPRING_PEACE if p in peace else SPRING_OTHER
            io["spring"] = obs["year"]
        ratio = {p: round(v, 6) for p, v in sorted(ratio.items())}
        return Answer(updates=[KBUpdate(path=("trust",), value=ratio), KBUpdate(path=("war",), value=sorted(war)),
                               KBUpdate(path=("io",), value=io)])


def _attacked(ratio: float, eff: float) -> float:
    return ratio + (ATTACK_STEP / eff if eff < 1.0 else ATTACK_FLAT)


class DipBlueForeignOffice(ForeignOffice):
    """Peace and alliance negotiation (see the module docstring)."""

    def __init__(self, address: str, seed: int, accept_all: bool = False):
        super().__init__(address, seed)
        self.accept_all = accept_all

    def negotiate(self, request: OfficeRequest) -> Answer:
        view = request.view
        obs = view["observation"]
        me, year, phase = obs["power"], obs["year"], obs["phase"]
        ratio = {p: float((view.get("trust") or {}).get(p, 1.0)) for p in POWERS if p != me}
        war = set(view.get("war") or [])
        peace = partners(obs) - war
        fo = dict(view.get("fo") or {})
        n = int(fo.get("next_id", 0))
        says: list[Any] = []
        updates: list[KBUpdate] = []
        broke = sorted(p for p in peace if effective(ratio, p, peace, war) > 1.0)
        if broke:
            war |= set(broke)
            peace -= set(broke)
            updates.append(KBUpdate(path=("war",), value=sorted(war)))
        sizes = {p: len(obs["centres"].get(p, [])) for p in POWERS}
        for d in obs["deals"]["open"]:
            if d["proposer"] == me or me in d["accepted"]:
                continue
            ok = self.accept_all or self._acceptable(d, me, phase, ratio, peace, war, sizes)
            if ok:
                says.append(DipAccept(proposer=d["proposer"], deal_id=int(d["key"].split("#")[1])))
            elif len(d["parties"]) == 2:  # a deal of three or more lapses unanswered (see _NO_REJECT)
                says.append(DipReject(proposer=d["proposer"], deal_id=int(d["key"].split("#")[1])))
        if (view.get("talk") or {}).get("round") == 0:
            living = [p for p in alive(obs) if p != me]
            known = view.get("negotiators")
            asked = fo.get("peace_year")
            if phase.startswith("S") and asked != year:
                for p in living:
                    if p not in war and p not in peace and (known is None or p in known or year == 1901):
                        says.append(DipPropose(deal_id=n, commitments=(Peace(powers=tuple(sorted((me, p))), until=year),)))
                        n += 1
                fo["peace_year"] = year
            if peace and fo.get("alliance") != phase:
                others = [p for p in living if p not in peace]
                if others:
                    enemy = min(others, key=lambda p: (-sizes[p], p))
                    says.append(DipPropose(deal_id=n, commitments=(
                        Alliance(allies=tuple(sorted([me, *peace])), enemies=(enemy,), until=year),)))
                    n += 1
                    fo["alliance"] = phase
            for s in view.get("suggestions") or []:
                move = json.loads(s["action"])
                if move.get("kind") != "honest":
                    continue
                for power, _, order in move.get("asks", []):
                    says.append(DipPropose(deal_id=n, commitments=(OrderCommitment(power=power, phase=phase, order=order),)))
                    n += 1
                break
        fo["next_id"] = n
        return Answer(says=says, updates=updates + [KBUpdate(path=("fo",), value=fo)])

    @staticmethod
    def _acceptable(deal: dict[str, Any], me: str, phase: str, ratio: dict[str, float], peace: set[str],
                    war: set[str], sizes: dict[str, int]) -> bool:
        proposer = deal["proposer"]
        for c in deal["commitments"]:
            if c["type"] == "peace":
                if any(p in war or ratio.get(p, 1.0) >= 2.0 for p in c["powers"] if p != me):
                    return False
            elif c["type"] == "alliance":
                if any(p in war or ratio.get(p, 1.0) >= 2.0 for p in c["allies"] if p != me):
                    return False
                if any(p == me or p in peace or ratio.get(p, 1.0) <= 0.5 for p in c["enemies"]):
                    return False
            elif c["type"] == "order" and c["power"] == me:
                if c["phase"] != phase or proposer not in peace:
                    return False
                if not (ratio.get(proposer, 1.0) <= 0.5 or sizes.get(proposer, 0) > sizes.get(me, 0)):
                    return False
            elif c["type"] == "dmz":
                return False
        return True


# _NO_REJECT: the rules validate talk when it arrives and apply a round's talk in speaker order,
# so an accept that follows, in the same round, another party's reject of the same deal fails in
# the ledger (a KeyError in games.diplomacy.deals.Ledger.apply). Until that
# is fixed we never reject a deal with more than one other party: it lapses at adjudication.
