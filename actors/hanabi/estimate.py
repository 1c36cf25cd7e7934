"""Osawa's self-estimation (JSAI 2015, section 4.4): read one's own cards from the partner's hint.

The player rebuilds the previous turn, puts each hand it could hold in front of a simulated
rational partner (`actors.hanabi.osawa.rational`), keeps each hand in proportion to the chance
that the partner would then have given the hint it gave, and believes a card's identity when the
most likely identity outweighs the second by more than `a` (Osawa: a = 2.5, best in his runs).
One level of recursion, the previous turn only.

Osawa enumerates whole hands. Here the partner's choice depends on a hand only through which of
its cards are playable news (step 3 of the rational strategy), so the hands are summed over
exactly by a small dynamic programme over slots, each slot's identity drawn from the unseen
copies independently (copies shared between slots are not discounted: an approximation).
A hand counts once per physical card (a G1 has three copies, so three times a G5's weight).
"""

from __future__ import annotations

import math
from typing import Any

from actors.hanabi.osawa import new_hints, playable_news
from actors.hanabi.view import View, knowledge_history
from games.hanabi.cards import FULL, MATCHING

NO_STEP = 1.0 / 20  # the chance of a hint nothing in the rational strategy explains (fallback)


def hint_likelihoods(view: View) -> tuple[list[float], list[float], float, int] | None:
    """For the last event, a hint to this player: per slot the weight w it adds when the slot is
    playable news, and whether it can be news; the likelihood L4 with no news; the hinter.

    None when the last event is no hint to this player, or no rational hinter could have given it.
    """
    if not view.history:
        return None
    last = view.history[-1]
    action = last["action"]
    if action[0] != "h":
        return None
    _, target, kind, _ = action.split(":")
    me = view.me
    if int(target) != me:
        return None
    q = last["player"]
    before = knowledge_history(view.obs, len(view.history) - 1)
    public = view.public_left()
    # Steps 1-2 of the hinter: with a card it knew to be playable or useless it would not hint.
    for k in before[q]:
        if view.known_playable(k, public):
            return None
        if view.hints + 1 < 8 and view.known_useless(k, public):
            return None
    # Step 3 goes to the first seat after the hinter holding playable news.
    order = [(q + s) % view.n for s in range(1, view.n)]
    mine = order.index(me)
    saved_know = view.know
    view.know = before
    try:
        if any(playable_news(view, s, counting=False) for s in order[:mine]):
            return None
        later_news = any(playable_news(view, s, counting=False) for s in order[mine + 1:])
    finally:
        view.know = saved_know
    touched = set(last["slots"])
    weights, can_news = [], []
    for j, k in enumerate(before[me]):
        news_kinds = new_hints(0, k)
        w = 1.0 / len(news_kinds) if j in touched and kind in news_kinds else 0.0
        weights.append(w)
        can_news.append(not view.known_playable(k, public))
    bare = [(s, j) for s in order for j, k in enumerate(before[s]) if k == FULL]
    bare_mine = sum(1 for s, j in bare if s == me and j in touched)
    if later_news:
        l4 = 0.0
    elif bare:
        l4 = bare_mine / (2.0 * len(bare))
    else:
        l4 = NO_STEP
    return weights, [float(c) for c in can_news], l4, q


def estimate(view: View, a: float = 2.5, copies: bool = True) -> dict[int, int]:
    """Believed identities of this player's cards (slot -> card) after a hint; {} if none."""
    found = hint_likelihoods(view)
    if found is None:
        return {}
    weights, can_news, l4, _ = found
    unseen = view.unseen()
    know = view.know[view.me]
    slots = len(know)
    # Per slot: candidate cards with their copies, and the chance the slot is playable news.
    cands: list[list[tuple[int, int]]] = []
    p_news: list[float] = []
    for j in range(slots):
        cs = [(c, unseen[c] if copies else 1) for c in MATCHING[know[j]] if unseen[c] > 0]
        cands.append(cs)
        total = sum(m for _, m in cs)
        news = sum(m for c, m in cs if view.playable(c)) if can_news[j] else 0
        p_news.append(news / total if total else 0.0)
    beliefs: dict[int, int] = {}
    for i in range(slots):
        dist = _others_news(p_news, weights, i)
        e0 = math.fsum(p * (s / k if k else l4) for (k, s), p in dist.items())
        e1 = math.fsum(p * ((s + weights[i]) / (k + 1)) for (k, s), p in dist.items())
        scored = sorted(((m * (e1 if can_news[i] and view.playable(c) else e0), c)
                         for c, m in cands[i]), reverse=True)
        if not scored or scored[0][0] <= 0.0:
            continue
        second = scored[1][0] if len(scored) > 1 else 0.0
        if scored[0][0] > a * second:
            beliefs[i] = scored[0][1]
    return beliefs


def _others_news(p_news: list[float], weights: list[float], skip: int) -> dict[tuple[int, float], float]:
    """Distribution of (number of playable-news slots, sum of their weights) over slots != skip."""
    dist: dict[tuple[int, float], float] = {(0, 0.0): 1.0}
    for j, p in enumerate(p_news):
        if j == skip or p == 0.0:
            continue
        nxt: dict[tuple[int, float], float] = {}
        for (k, s), q in dist.items():
            nxt[(k, s)] = nxt.get((k, s), 0.0) + q * (1.0 - p)
            key = (k + 1, s + weights[j])
            nxt[key] = nxt.get(key, 0.0) + q * p
        dist = nxt
    return dist


def observation_beliefs(obs: dict[str, Any], a: float = 2.5) -> dict[str, str]:
    """`estimate` on a raw observation, as JSON (slot as string -> card name), for the KB."""
    from games.hanabi.cards import NAMES

    return {str(i): NAMES[c] for i, c in sorted(estimate(View(obs), a).items())}
