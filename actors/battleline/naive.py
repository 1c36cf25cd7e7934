"""The `naive` baseline ("the kind public bots play"): put the troop that builds the
strongest formation on the flag where it counts most; never a tactics card.

For each troop in hand and each open flag: the strongest formation still reachable there with that
troop, completed from its other troops and the troops it has not seen (formations.best, optimistic:
every unseen troop counts as available). Ties go to the flag where the opponent has shown more
cards (the fight is on), then to the higher troop. It claims whatever it can, draws troops, passes
when no troop can be played, and under Mud keeps its best three cards.
"""

from __future__ import annotations

from typing import Any

from actors.battleline.position import FLAGS, Position
from games.battleline.cards import CARD_OF, N_TROOPS, NAMES
from games.battleline.formations import Pool, best, score

Suggestions = list[tuple[str, float]]


def naive_suggest(obs: dict[str, Any], legal: list[str], width: int = 3) -> Suggestions:
    """Ranked (action, utility) suggestions; the first is the naive move."""
    claims = [a for a in legal if a.startswith("claim:")]
    if claims:
        return [(a, 1.0) for a in claims]
    phase = obs["phase"]
    if phase == "play":
        ranked = _plays(Position.from_observation(obs), set(legal))
        if ranked:
            return ranked[:width]
        return [("pass" if "pass" in legal else legal[0], 1.0)]
    if phase in ("draw", "scout_draw"):
        return [("draw:troops" if "draw:troops" in legal else legal[0], 1.0)]
    if phase == "mud_trim":
        return [(_trim(Position.from_observation(obs), legal), 1.0)]
    return [(next((a for a in legal if a == "done"), legal[0]), 1.0)]


def _plays(pos: Position, legal: set[str]) -> Suggestions:
    troops = [c for c in pos.hand if c < N_TROOPS]
    unseen = pos.unseen()
    scored = []
    for c in troops:
        pool = Pool([x for x in troops if x != c] + unseen)
        for f in pos.open_flags(pos.me):
            action = f"play:{NAMES[c]}:{f}"
            if action not in legal:
                continue
            side = pos.sides[f][pos.me] + [c]
            reach = best(side, pos.need(f), pos.fog[f], pool)
            contested = len(pos.sides[f][pos.op])
            scored.append((reach + 0.01 * contested + 0.0001 * (c % 10), action))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(a, u) for u, a in scored]


def _trim(pos: Position, legal: list[str]) -> str:
    f = next((f for f in range(FLAGS) if len(pos.sides[f][pos.me]) > pos.need(f)), None)
    if f is None:
        return legal[0]
    side = pos.sides[f][pos.me]
    return max(legal, key=lambda a: (score([x for x in side if x != CARD_OF[a.split(":")[1]]], 3, pos.fog[f]), a))
