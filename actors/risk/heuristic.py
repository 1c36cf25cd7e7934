"""The `heuristic` agent's Strategy Office logic (ours): exact odds, continents and borders.

- Focus: the continent not yet held where my share is highest (ties: the smaller continent).
- Claim: the territory of the continent where I lead most (my count minus the top rival's),
  small continents first, next to my land.
- Placement (set-up and each turn), one army at a time: to a border whose strongest foe
  neighbour outnumbers it, while at most `defence_share` of the armies went to defence; else
  to the base from which the focus (or the weakest neighbouring foe) is attacked.
- Attack: the conquest worth most (odds x value; value: completing or breaking a continent,
  eliminating a player, the focus, less for the neutral), while the exact odds are at least
  `attack_threshold`; always with the most dice.
- Fortify: the largest stack with no enemy next to it moves to the neighbour nearest the front.
"""

from __future__ import annotations

from actors.risk.board import Board, chunk
from actors.risk.odds import win_probability
from actors.risk.params import HeuristicParams
from actors.risk.tactics import Choice, decide
from games.risk.mapdata import CODES, CONTINENT_BONUS, CONTINENT_MEMBERS, CONTINENT_OF, INDEX, NEIGHBOURS
from games.risk.rules import INITIAL_ARMIES

_ROUND = 9


def suggest(board: Board, legal: list[str], params: HeuristicParams) -> Choice:
    """The heuristic's action for this node, and its utility."""
    table = {
        "claim": lambda b, lg: _claim(b, lg),
        "setup": lambda b, lg: _place(b, lg, params, setup=True),
        "reinforce": lambda b, lg: _place(b, lg, params, setup=False),
        "attack": lambda b, lg: _attack(b, lg, params),
        "fortify": lambda b, lg: _fortify(b, lg),
        "transfer": lambda b, lg: (f"move:{b.obs['pending']['max']}", 1.0),
    }
    return decide(table, board, legal)


def focus(board: Board) -> int | None:
    """The continent I work on: not held, my share highest, then the smaller one."""
    open_ = [c for c in range(len(CONTINENT_MEMBERS)) if not board.held_by(c, board.me)]
    if not open_:
        return None
    return max(open_, key=lambda c: (round(board.share(c), _ROUND), -len(CONTINENT_MEMBERS[c]), -c))


def _claim(board: Board, legal: list[str]) -> Choice:
    def score(t: int) -> float:
        c = CONTINENT_OF[t]
        members = CONTINENT_MEMBERS[c]
        mine = sum(1 for u in members if board.owner[u] == board.me)
        rival = max((sum(1 for u in members if board.owner[u] == s) for s in range(board.players + 1)
                     if s != board.me), default=0)
        near = sum(1 for n in NEIGHBOURS[t] if board.mine(n))
        return round((mine + 1 - rival) / len(members) + 1.0 / len(members) + 0.05 * near, _ROUND)
    ts = [INDEX[a[6:]] for a in legal]
    best = max(ts, key=lambda t: (score(t), -t))
    return f"claim:{CODES[best]}", score(best)


def _base(board: Board, target: int | None) -> int | None:
    """Where offence armies go: my territory next to the focus's enemy land with the best
    balance (my armies minus the armies it faces there); else next to the weakest foe stack."""
    own = board.own()
    fronts = [t for t in own if board.hostile_neighbours(t)]
    if not fronts:
        return None
    def facing(t: int) -> list[int]:
        hostile = board.hostile_neighbours(t)
        inside = [n for n in hostile if target is not None and CONTINENT_OF[n] == target]
        return inside or hostile
    scored = []
    for t in fronts:
        near = facing(t)
        in_focus = target is not None and any(CONTINENT_OF[n] == target for n in near)
        weakest = min(board.armies[n] for n in near)
        scored.append(((1 if in_focus else 0), board.armies[t] - weakest, -t))
    return -max(scored)[2]


def is_defence(k: int, total: int, share: float, setup: bool) -> bool:
    """Whether army `k` (from 0) of `total` placed together is a defence army: the first
    floor(share * total) of a turn's armies; in the set-up, one in every 1/share, spread."""
    if setup:
        return int((k + 1) * share) > int(k * share)
    return k < int(share * total)


def _plan(board: Board, armies: int, done: int, params: HeuristicParams, setup: bool) -> list[int]:
    """Where each of the next `armies` armies goes (one entry per army), `done` already placed."""
    target = focus(board)
    base = _base(board, target)
    levels = list(board.armies)
    held = [c for c in range(len(CONTINENT_MEMBERS)) if board.held_by(c, board.me)]
    own = board.own()
    threats = {t: board.threat(t) for t in own}
    out = []
    for i in range(armies):
        pick = None
        if is_defence(done + i, done + armies, params.defence_share, setup):
            worst = None
            for t in own:
                gap = threats[t] - levels[t]
                if threats[t] > 0 and gap >= 0:
                    weight = (2 if CONTINENT_OF[t] in held else 1, gap, -t)
                    if worst is None or weight > worst[0]:
                        worst = (weight, t)
            if worst is not None:
                pick = worst[1]
        if pick is None:
            pick = base if base is not None else own[0]
        levels[pick] += 1
        out.append(pick)
    return out


def _place(board: Board, legal: list[str], params: HeuristicParams, setup: bool) -> Choice:
    obs = board.obs
    if setup:
        left = obs["setup_left"][board.me]
        done = INITIAL_ARMIES[board.players] - left - len(board.own())
        plan = _plan(board, 1, max(done, 0), params, setup=True)
        return f"place:{CODES[plan[0]]}:1", 1.0
    left = obs["reinforcements"]
    log = obs.get("turn_log") or {}
    done = max(0, int(log.get("armies", left)) - left)
    plan = _plan(board, left, done, params, setup=False)
    first = plan[0]
    run = 1
    while run < len(plan) and plan[run] == first:
        run += 1
    action = chunk(legal, first, run)
    return (action if action is not None else legal[0]), float(run)


def conquest_value(board: Board, t: int, params: HeuristicParams, target: int | None) -> float:
    """What taking `t` is worth to me (ours; see the module docstring)."""
    c = CONTINENT_OF[t]
    owner = board.owner[t]
    v = 1.0
    if board.completes(t):
        v += params.complete_bonus * CONTINENT_BONUS[c]
    if owner >= 0 and board.held_by(c, owner):
        v += params.break_bonus * CONTINENT_BONUS[c]
    if board.is_foe(owner) and board.owner.count(owner) == 1:
        v += params.eliminate_bonus
    if c == target:
        v += params.focus_bonus
    if owner == board.neutral and not board.completes(t):
        v -= params.neutral_penalty
    return v


def _attack(board: Board, legal: list[str], params: HeuristicParams) -> Choice:
    target = focus(board)
    best = None
    for action in legal:
        if not action.startswith("attack:"):
            continue
        f, t, d = action[7:10], action[11:14], int(action[15:])
        fi, ti = INDEX[f], INDEX[t]
        if d != min(3, board.armies[fi] - 1):
            continue  # always the most dice
        p = win_probability(board.armies[fi] - 1, board.armies[ti])
        if p < params.attack_threshold:
            continue
        score = round(p * conquest_value(board, ti, params, target), _ROUND)
        if best is None or score > best[0]:
            best = (score, action)
    if best is None:
        return "end", 0.0
    return best[1], best[0]


def _distance_to_front(board: Board) -> list[int]:
    """Steps from each of my territories to the nearest one with a hostile neighbour."""
    far = 10 ** 6
    dist = [far] * len(board.owner)
    frontier = [t for t in board.own() if board.hostile_neighbours(t)]
    for t in frontier:
        dist[t] = 0
    while frontier:
        nxt = []
        for u in frontier:
            for v in NEIGHBOURS[u]:
                if board.mine(v) and dist[v] == far:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    return dist


def _fortify(board: Board, legal: list[str]) -> Choice:
    dist = _distance_to_front(board)
    best = None
    for action in legal:
        if not action.startswith("fortify:"):
            continue
        f, t = INDEX[action[8:11]], INDEX[action[12:15]]
        if board.hostile_neighbours(f) or dist[t] >= dist[f]:
            continue  # only interior armies move, and only towards the front
        score = (board.armies[f], -dist[t], board.threat(t), -f, -t)
        if best is None or score > best[0]:
            best = (score, action)
    if best is None:
        return "end", 0.0
    return best[1], float(best[0][0])
