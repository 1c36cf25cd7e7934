"""Deep Barca's decisions (McCulloch et al. 2017, section 3) on one observation.

Play: every troop on every open flag is tried and the move with the best chance of winning the
game is played (3.2), unless a rule of 3.5 / 3.6 (or one of ours) decides first, in this order:
1. claim every flag that can be claimed (the rules' proof, 3.1);
2. (ours) a troop that wins the game at once (flags held or provable); (3.6) a tactics card that
   wins the game;
3. (3.6) a tactics card that saves a flag about to be lost, if it lifts the flag above 50% or
   losing the flag would lose the game;
4. (3.5) a flag about to be lost with room on our side: discard there the troop that is most on the
   opponent's wishlists and least on ours;
5. (ours, 3.6's "specific situations") a morale card completing a formation proved at once; a
   tactics card when the opponent can only pass (no troop in hand, a tactics card ahead);
6. the best troop move; with none, (ours) the best tactics card that loses nothing, else pass.
Draw (3.6): a tactics card when the opponent is one card away from a flag only a tactics card could
still beat, a second one when two such flags exist or the one held is "less useful", never more
than two, never when the agent could not play it; (ours) one when few slots of ours are left;
else a troop.

`suggest` returns the ranked suggestions and an analysis (JSON-ready) naming the rule that decided
and, for a play, every flag's numbers after the chosen move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from actors.battleline.model import Chances, FlagChance, Lazy, Side, flag_chance, formations, game_chance, proved, top
from actors.battleline.params import DeepBarcaParams
from actors.battleline.position import FLAGS, LATER, Position
from games.battleline.cards import (
    CARD_OF,
    DESERTER,
    ENVIRONMENT,
    FOG,
    LEADERS,
    MORALE,
    MUD,
    N_TROOPS,
    NAMES,
    REDEPLOY,
    TACTICS,
    TRAITOR,
)
from games.battleline.formations import IMPOSSIBLE, Pool, best, score

Suggestions = list[tuple[str, float]]
RULE_UTILITY = 2.0  # above any chance: the move a rule picked


# -- card chances (3.4) ------------------------------------------------------------------------

def chances(pos: Position, params: DeepBarcaParams, hand: dict[int, float] | None = None) -> tuple[list[float], list[float]]:
    """(ours, theirs) per troop. An unseen troop is the opponent's hand card with chance h (by
    default its share of the unseen troops; else the Intelligence Office's `hand`), and ours with
    (1 - h) * deck_share (3.4: the deck split evenly); the opponent gets it otherwise."""
    me, op = [0.0] * N_TROOPS, [0.0] * N_TROOPS
    unseen = pos.unseen()
    left = pos.deck_troops + pos.opp_troops
    prior = pos.opp_troops / left if left else 1.0
    for c in unseen:
        h = prior if hand is None else hand.get(c, 0.0)
        me[c] = (1.0 - h) * params.deck_share
        op[c] = 1.0 - me[c]
    for c in pos.hand:
        if c < N_TROOPS:
            me[c] = 1.0
    return me, op


def side_of(pos: Position, f: int) -> Side:
    st = pos.stamps[f]
    return Side(pos.sides[f][pos.me], pos.sides[f][pos.op], pos.need(f), pos.fog[f],
                LATER if st[pos.me] is None else st[pos.me], LATER if st[pos.op] is None else st[pos.op])


@dataclass
class Context:
    """One decision's model: the position, the chances, the proof pool, every flag's verdict."""

    pos: Position
    params: DeepBarcaParams
    me: Chances
    op: Chances
    pool: Pool
    flags: list[FlagChance]
    theirs: list[Lazy]  # per flag, the opponent side's formations (the same for every move)

    @classmethod
    def build(cls, pos: Position, params: DeepBarcaParams, hand: dict[int, float] | None = None) -> Context:
        me_p, op_p = chances(pos, params, hand)
        if params.split_conflicts:
            _split_conflicts(pos, params, me_p, op_p)
        me, op = Chances(me_p), Chances(op_p)
        pool = pos.proof_pool()
        theirs = [Lazy(formations(pos.sides[f][pos.op], pos.need(f), pos.fog[f], op)) for f in range(FLAGS)]
        flags = [evaluate(pos, f, side_of(pos, f), me, op, pool, params, theirs[f]) for f in range(FLAGS)]
        return cls(pos, params, me, op, pool, flags, theirs)

    def game(self, flags: list[float]) -> tuple[float, float, float]:
        return game_chance(flags, self.pos.deck_troops, self.params)


def evaluate(pos: Position, f: int, side: Side, me: Chances, op: Chances, pool: Pool,
             params: DeepBarcaParams, theirs: Lazy | None = None) -> FlagChance:
    if pos.claimed[f] >= 0:
        return FlagChance(1.0 if pos.claimed[f] == pos.me else 0.0, "claimed")
    return flag_chance(side, me, op, pool, params, theirs)


def _split_conflicts(pos: Position, params: DeepBarcaParams, me_p: list[float],
                     op_p: list[float]) -> None:
    """3.5: a hand troop in our top formations on n flags counts 1/n on each (ours: 1/n); with
    `split_unseen` (ours) every troop either side hopes for on n of its flags is split alike."""
    for seat, p, only_hand in ((pos.me, me_p, not params.split_unseen), (pos.op, op_p, False)):
        if seat == pos.op and not params.split_unseen:
            continue
        full = Chances(list(p))
        wanted: dict[int, int] = {}
        for f in range(FLAGS):
            side = pos.sides[f][seat]
            if pos.claimed[f] >= 0 or len(side) >= pos.need(f):
                continue
            for c in {c for form in top(side, pos.need(f), pos.fog[f], full, params.top_formations) for c in form.needs}:
                wanted[c] = wanted.get(c, 0) + 1
        cards = [c for c in pos.hand if c < N_TROOPS] if only_hand else sorted(wanted)
        for c in cards:
            if wanted.get(c, 0) > 1:
                p[c] /= wanted[c] ** params.conflict_power


# -- plays -------------------------------------------------------------------------------------

@dataclass
class Tried:
    """A move tried: its action, the game chance after it and the flags' chances."""

    action: str
    game: float
    flags: list[float]


def try_plays(ctx: Context, cards: list[int]) -> list[Tried]:
    """Every card of `cards` (troops or morale tactics) on every open flag of ours."""
    pos, params = ctx.pos, ctx.params
    base = [fc.p for fc in ctx.flags]
    open_flags = pos.open_flags(pos.me)
    out = []
    for c in cards:
        troop = c < N_TROOPS
        me = ctx.me.without(c) if troop else ctx.me
        pool = Pool([x for x in _pool_cards(pos) if x != c]) if troop else ctx.pool
        elsewhere = list(base)
        if troop:
            for g in range(FLAGS):
                fc = ctx.flags[g]
                if fc.method in ("claimed", "decided", "proved", "lost"):
                    continue
                if c in fc.wish_me:
                    elsewhere[g] = evaluate(pos, g, side_of(pos, g), me, ctx.op, pool, params, ctx.theirs[g]).p
                else:
                    elsewhere[g] = _proof_change(side_of(pos, g), pool, fc.p)
        for f in open_flags:
            side = side_of(pos, f)
            side.mine = side.mine + [c]
            if len(side.mine) == side.need:
                side.stamp_mine = LATER
            flags = list(elsewhere)
            flags[f] = evaluate(pos, f, side, me, ctx.op, pool, params, ctx.theirs[f]).p
            out.append(Tried(f"play:{NAMES[c]}:{f}", ctx.game(flags)[0], flags))
    out.sort(key=lambda t: (-t.game, t.action))
    return out


def _pool_cards(pos: Position) -> list[int]:
    seen = pos.on_board() | pos.gone
    return [c for c in range(N_TROOPS) if c not in seen]


def _proof_change(side: Side, pool: Pool, p: float) -> float:
    """A flag's chance once one more troop is visible: a proof may now hold either way (3.5)."""
    if len(side.mine) == side.need and proved(side, False, pool):
        return 1.0
    if len(side.theirs) == side.need and proved(side, True, pool):
        return 0.0
    return p


def wishlists(ctx: Context) -> tuple[dict[int, int], dict[int, int]]:
    """How many flags' top formations hope for each troop: (ours, theirs) (3.5). The opponent
    hopes for every troop it has not seen, ours in hand included (a troop we show on the board
    is one it can no longer hope for, which is what a discard can do to its proofs)."""
    pos, params = ctx.pos, ctx.params
    mine: dict[int, int] = {}
    for fc in ctx.flags:
        for c in fc.wish_me:
            mine[c] = mine.get(c, 0) + 1
    hopes = list(ctx.op.p)
    unseen = [q for q in hopes if q > 0.0]
    for c in pos.hand:
        if c < N_TROOPS:
            hopes[c] = unseen[0] if unseen else 0.5
    op = Chances(hopes)
    theirs: dict[int, int] = {}
    for f, fc in enumerate(ctx.flags):
        side = pos.sides[f][pos.op]
        if fc.method in ("claimed", "decided", "proved", "lost") or len(side) >= pos.need(f):
            continue
        for c in {c for form in top(side, pos.need(f), pos.fog[f], op, params.top_formations) for c in form.needs}:
            theirs[c] = theirs.get(c, 0) + 1
    return mine, theirs


def dump_card(ctx: Context) -> int | None:
    """3.5: the hand troop most on the opponent's wishlists and least on ours (ours: the most of
    their count minus ours; then the most of theirs; then the lower value, keeping high troops)."""
    mine, theirs = wishlists(ctx)
    troops = [c for c in ctx.pos.hand if c < N_TROOPS]
    if not troops:
        return None
    return min(troops, key=lambda c: (mine.get(c, 0) - theirs.get(c, 0), -theirs.get(c, 0), c % 10, c))


# -- tactics (3.6) -----------------------------------------------------------------------------

def simulate(pos: Position, action: str) -> tuple[Position, list[int]] | None:
    """The position after a tactics play of ours, and the flags it touched; None for Scout."""
    parts = action.split(":")
    card = CARD_OF[parts[1]]
    new = pos.copy()
    touched: list[int] = []
    if card in MORALE:
        f = int(parts[2])
        new.place(new.me, card, f)
        touched = [f]
    elif card in ENVIRONMENT:
        f = int(parts[2])
        (new.fog if card == FOG else new.mud)[f] = True
        if card == MUD:
            for s in (0, 1):
                new.stamps[f][s] = None if len(new.sides[f][s]) < 4 else new.stamps[f][s]
        touched = [f]
    elif card == DESERTER:
        f, _ = new.lift(CARD_OF[parts[2]])
        new.gone.add(CARD_OF[parts[2]])
        touched = [f]
    elif card == TRAITOR:
        taken = CARD_OF[parts[2]]
        f, _ = new.lift(taken)
        g = int(parts[3])
        new.place(new.me, taken, g)
        touched = [f, g]
    elif card == REDEPLOY:
        moved = CARD_OF[parts[2]]
        f, _ = new.lift(moved)
        touched = [f]
        if parts[3] == "discard":
            new.gone.add(moved)
        elif moved in ENVIRONMENT:
            g = int(parts[3])
            (new.fog if moved == FOG else new.mud)[g] = True
            touched.append(g)
        else:
            g = int(parts[3])
            new.place(new.me, moved, g)
            touched.append(g)
    else:
        return None
    new.use_tactic(new.me, card)
    return new, sorted(set(touched))


def tactic_plays(legal: list[str]) -> list[str]:
    return [a for a in legal if a.startswith("play:") and CARD_OF.get(a.split(":")[1], 0) >= N_TROOPS]


def winning_tactic(pos: Position, legal: list[str], held: list[bool]) -> str | None:
    """3.6: "If playing a Tactic card could win the agent the game, play it"."""
    for action in tactic_plays(legal):
        tried = simulate(pos, action)
        if tried is None:
            continue
        new, touched = tried
        pool = new.proof_pool()
        after = list(held)
        for f in touched:
            after[f] = new.claimed[f] == new.me or new.provable(new.me, f, pool)
        if new.wins_with(after):
            return action
    return None


def try_tactics(ctx: Context, actions: list[str]) -> list[tuple[Tried, list[int]]]:
    """Each tactics play (but Scout) tried: the game chance after it, and the flags it touched."""
    out = []
    for action in actions:
        tried = simulate(ctx.pos, action)
        if tried is None:
            continue
        new, touched = tried
        pool = new.proof_pool()
        flags = [fc.p for fc in ctx.flags]
        for f in touched:
            flags[f] = evaluate(new, f, side_of(new, f), ctx.me, ctx.op, pool, ctx.params).p
        out.append((Tried(action, ctx.game(flags)[0], flags), touched))
    out.sort(key=lambda item: (-item[0].game, item[0].action))
    return out


def saving_tactics(ctx: Context, legal: list[str], lost: list[int]) -> list[Tried]:
    """3.6: tactics plays that stop a flag about to be lost from being lost, kept when the flag's
    chance is then above `save_threshold` or losing it would lose the game; best game chance first."""
    pos, params = ctx.pos, ctx.params
    theirs = pos.flags_held(pos.op, ctx.pool)
    out = []
    for tried, touched in try_tactics(ctx, tactic_plays(legal)):
        for f in touched:
            if f not in lost or tried.flags[f] <= 0.0:
                continue
            fatal = pos.wins_with([h or g == f for g, h in enumerate(theirs)])
            if tried.flags[f] > params.save_threshold or fatal:
                out.append(tried)
                break
    return out


def threats(pos: Position) -> list[int]:
    """Flags where one more troop would give the opponent a formation no troop of ours could beat
    (3.6: "one card away from winning a flag that can only be beaten by a Tactics card")."""
    unseen = pos.unseen()
    ours = [c for c in pos.hand if c < N_TROOPS]
    out = []
    for f in range(FLAGS):
        need, fog = pos.need(f), pos.fog[f]
        mine, theirs = pos.sides[f][pos.me], pos.sides[f][pos.op]
        if pos.claimed[f] >= 0 or len(theirs) != need - 1 or not unseen:
            continue
        strongest = max(unseen, key=lambda x: (score(theirs + [x], need, fog), -x))
        s = score(theirs + [strongest], need, fog)
        if len(mine) == need:
            beaten = score(mine, need, fog) < s
        else:
            pool = Pool([c for c in ours + unseen if c != strongest])
            beaten = best(mine, need, fog, pool, floor=s) == IMPOSSIBLE
        if beaten:
            out.append(f)
    return out


def playable_tactics_left(pos: Position, hand_tactics: list[int]) -> bool:
    """Whether a tactics card drawn now could be played (3.6: never draw one it cannot play)."""
    if not pos.can_play_tactic(pos.me):
        return False
    seen = {c for c in pos.gone if c >= N_TROOPS} | set(hand_tactics)
    seen |= {c for sides in pos.sides for side in sides for c in side if c >= N_TROOPS}
    seen |= {FOG for f in range(FLAGS) if pos.fog[f]} | {MUD for f in range(FLAGS) if pos.mud[f]}
    left = [c for c in TACTICS if c not in seen]
    if pos.leader_played[pos.me]:
        left = [c for c in left if c not in LEADERS]
    return bool(left)


# -- the decision ------------------------------------------------------------------------------

def suggest(obs: dict[str, Any], legal: list[str], params: DeepBarcaParams,
            hand: dict[int, float] | None = None) -> tuple[Suggestions, dict[str, Any]]:
    """Ranked (action, utility) suggestions and the analysis behind them."""
    claims = [a for a in legal if a.startswith("claim:")]
    if claims:
        return [(a, RULE_UTILITY) for a in claims], {"rule": "claim"}
    if len(legal) == 1:
        return [(legal[0], RULE_UTILITY)], {"rule": "only move"}
    phase = obs["phase"]
    pos = Position.from_observation(obs)
    if phase == "play":
        return _play(pos, legal, params, hand)
    if phase in ("draw", "scout_draw"):
        return _draw(pos, legal, params)
    if phase == "scout_return":
        return _scout_return(pos, legal, params)
    if phase == "mud_trim":
        return _mud_trim(pos, legal)
    rest = [a for a in legal if a == "done"] or legal
    return [(rest[0], RULE_UTILITY)], {"rule": "end turn"}


def _play(pos: Position, legal: list[str], params: DeepBarcaParams,
          hand: dict[int, float] | None) -> tuple[Suggestions, dict[str, Any]]:
    ctx = Context.build(pos, params, hand)
    before = ctx.game([fc.p for fc in ctx.flags])[0]
    legal_set = set(legal)
    troops = sorted({CARD_OF[a.split(":")[1]] for a in legal if a.startswith("play:")
                     and CARD_OF[a.split(":")[1]] < N_TROOPS})
    tried = [t for t in try_plays(ctx, troops) if t.action in legal_set]
    rule, chosen = _by_rule(ctx, legal, tried)
    ranked: Suggestions = [(t.action, t.game) for t in tried[:params.suggestions]]
    if chosen is None and not ranked:
        rule, chosen = _no_troop(ctx, legal, before, pos.can_play_tactic(pos.me) and bool(tactic_plays(legal)))
    elif chosen is None:
        rule, chosen = "best", ranked[0][0]
    suggestions = [(chosen, RULE_UTILITY)] if rule != "best" else []
    suggestions += [(a, u) for a, u in ranked if a != chosen or rule == "best"]
    return suggestions, _analysis(ctx, chosen, rule, before, tried)


def _by_rule(ctx: Context, legal: list[str], tried: list[Tried]) -> tuple[str, str | None]:
    """The rules that decide before the best troop move (the module docstring's 2-5), in order."""
    pos, params = ctx.pos, ctx.params
    for t in tried:  # ours: a troop that wins the game at once (flags held or provable)
        if pos.wins_with([p >= 1.0 for p in t.flags]) and _wins(pos, t.action):
            return "ours: troop wins the game", t.action
    tactics_ok = pos.can_play_tactic(pos.me) and bool(tactic_plays(legal))
    lost = [f for f, fc in enumerate(ctx.flags) if fc.method == "lost" or (fc.method == "decided" and fc.p == 0.0)]
    if tactics_ok:
        chosen = winning_tactic(pos, legal, pos.flags_held(pos.me, ctx.pool))
        if chosen is not None:
            return "3.6 tactic wins the game", chosen
        saves = saving_tactics(ctx, legal, lost) if lost else []
        if saves:
            return "3.6 tactic saves a flag", saves[0].action
    room = [f for f in lost if f in pos.open_flags(pos.me)]
    if params.discard_on_lost and room:
        card = dump_card(ctx)
        if card is not None and f"play:{NAMES[card]}:{room[0]}" in legal:
            return f"3.5 discard on lost flag {room[0]}", f"play:{NAMES[card]}:{room[0]}"
    if tactics_ok and params.morale_proves:
        chosen = _morale_proving(ctx, legal)
        if chosen is not None:
            return "ours: morale card proves a flag", chosen
    if tactics_ok and params.avoid_double_pass and _opponent_stuck(pos):
        chosen = _unlock(ctx, legal)
        if chosen is not None:
            return "ours: a tactics card lets the opponent play again", chosen
    return "best", None


def _no_troop(ctx: Context, legal: list[str], before: float, tactics_ok: bool) -> tuple[str, str]:
    """No troop can be played (ours, a "specific situation" of 3.6): the tactics play with the best
    game chance if it loses none, else Scout with no troop in hand and room to play one; else pass,
    unless the opponent passed last turn and we are ahead (a second pass would draw the game:
    option double_pass), when any tactics card is better than the draw."""
    pos = ctx.pos
    if tactics_ok:
        tried = try_tactics(ctx, tactic_plays(legal))
        if tried and tried[0][0].game >= before:
            return "ours: no troop to play, best tactics card", tried[0][0].action
        if "play:scout" in legal and not any(c < N_TROOPS for c in pos.hand) and pos.open_flags(pos.me):
            return "ours: no troop to play, Scout for troops", "play:scout"
        if ctx.params.avoid_double_pass and pos.opponent_passed and before > 0.5:
            if tried:
                return "ours: no troop to play, a tactics card rather than a drawn game", tried[0][0].action
            if "play:scout" in legal:
                return "ours: no troop to play, Scout rather than a drawn game", "play:scout"
    return ("pass", "pass") if "pass" in legal else ("no troop", legal[0])


def _opponent_stuck(pos: Position) -> bool:
    """The opponent holds no troop and is a tactics card ahead: it can only pass (1.1)."""
    return pos.opp_troops == 0 and pos.opp_tactics > 0 and not pos.can_play_tactic(pos.op)


def _unlock(ctx: Context, legal: list[str]) -> str | None:
    """Ours: a stuck opponent passes until we play a tactics card, and two passes in a row draw
    the game; ahead, we play our best tactics card (Scout if it is the only one)."""
    if ctx.game([fc.p for fc in ctx.flags])[0] <= 0.5:
        return None
    tried = try_tactics(ctx, tactic_plays(legal))
    if tried:
        return tried[0][0].action
    return "play:scout" if "play:scout" in legal else None


def _wins(pos: Position, action: str) -> bool:
    parts = action.split(":")
    new = pos.copy()
    new.place(new.me, CARD_OF[parts[1]], int(parts[2]))
    return new.wins_with(new.flags_held(new.me))


def _morale_proving(ctx: Context, legal: list[str]) -> str | None:
    pos = ctx.pos
    for action in tactic_plays(legal):
        card = CARD_OF[action.split(":")[1]]
        if card not in MORALE:
            continue
        new, touched = simulate(pos, action)  # type: ignore[misc]
        if new.provable(new.me, touched[0], ctx.pool):
            return action
    return None


def _analysis(ctx: Context, chosen: str, rule: str, before: float, tried: list[Tried]) -> dict[str, Any]:
    """Every flag's numbers after the chosen move (for a troop or morale play), and the game's."""
    pos, params = ctx.pos, ctx.params
    flags = ctx.flags
    parts = chosen.split(":")
    if parts[0] == "play" and len(parts) == 3 and parts[1] in CARD_OF and CARD_OF[parts[1]] in _PLACED:
        card, f = CARD_OF[parts[1]], int(parts[2])
        new = pos.copy()
        new.place(new.me, card, f)
        me = ctx.me.without(card) if card < N_TROOPS else ctx.me
        pool = new.proof_pool()
        flags = [evaluate(new, g, side_of(new, g), me, ctx.op, pool, params, ctx.theirs[g]) for g in range(FLAGS)]
    game, five, three = ctx.game([fc.p for fc in flags])
    return {"rule": rule, "move": chosen, "before": round(before, 4), "game": round(game, 4),
            "five": round(five, 4), "three": round(three, 4), "flags": [fc.report() for fc in flags]}


_PLACED = frozenset(range(N_TROOPS)) | MORALE


# -- draws, Scout, Mud ---------------------------------------------------------------------------

def _draw(pos: Position, legal: list[str], params: DeepBarcaParams) -> tuple[Suggestions, dict[str, Any]]:
    if "draw:tactics" not in legal or "draw:troops" not in legal:
        return [(legal[0], RULE_UTILITY)], {"rule": "only deck"}
    held = [c for c in pos.hand if c >= N_TROOPS]
    danger = threats(pos)
    want = False
    if danger and len(held) < params.max_tactics_held and playable_tactics_left(pos, held):
        if not held:
            want = True
        elif len(held) == 1:
            weak = NAMES[held[0]] in params.less_useful or (held[0] in LEADERS and pos.leader_played[pos.me])
            want = len(danger) >= 2 or weak
    rule = "3.6 defensive tactics draw" if want else "draw a troop"
    if (not want and not held and params.endgame_slots and pos.free_slots(pos.me) <= params.endgame_slots
            and playable_tactics_left(pos, held)):
        want, rule = True, "ours: a tactics card for when no troop can be played"
    action = "draw:tactics" if want else "draw:troops"
    return [(action, RULE_UTILITY)], {"rule": rule, "threats": danger, "tactics_held": len(held)}


def _scout_return(pos: Position, legal: list[str], params: DeepBarcaParams) -> tuple[Suggestions, dict[str, Any]]:
    """Ours: put back the card worth least: a tactics card it cannot use, then the troop that the
    fewest of our top formations hope for, the lowest first."""
    me_p, _ = chances(pos, params)
    ch = Chances(me_p)
    wanted: dict[int, int] = {}
    for f in pos.open_flags(pos.me):
        for form in top(pos.sides[f][pos.me], pos.need(f), pos.fog[f], ch, params.top_formations):
            for c in form.needs:
                wanted[c] = wanted.get(c, 0) + 1

    def worth(action: str) -> tuple:
        c = CARD_OF[action.split(":")[1]]
        if c >= N_TROOPS:
            dead = c in LEADERS and pos.leader_played[pos.me]
            return (0 if dead else 1 if NAMES[c] in params.less_useful else 3, c)
        return (2, wanted.get(c, 0), c % 10, c)

    ranked = sorted(legal, key=worth)
    return [(ranked[0], RULE_UTILITY)], {"rule": "ours: return the least useful card"}


def _mud_trim(pos: Position, legal: list[str]) -> tuple[Suggestions, dict[str, Any]]:
    """Ours: give up the card whose loss leaves the best three-card formation."""
    f = next((f for f in range(FLAGS) if len(pos.sides[f][pos.me]) > pos.need(f)), None)
    if f is None:
        return [(legal[0], RULE_UTILITY)], {"rule": "mud trim"}
    side = pos.sides[f][pos.me]

    def left(action: str) -> int:
        c = CARD_OF[action.split(":")[1]]
        return score([x for x in side if x != c], 3, pos.fog[f])

    ranked = sorted(legal, key=lambda a: (-left(a), a))
    return [(ranked[0], RULE_UTILITY)], {"rule": "mud trim: keep the best formation"}
