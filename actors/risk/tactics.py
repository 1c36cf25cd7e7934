"""Decisions both Risk agents share (all ours: the seed describes none of them): trading cards,
the defender's dice, where a neutral's set-up army goes, how many armies move in after a
conquest, and the phase dispatch every policy uses.

A policy is a table phase -> function (board, legal) -> (action, utility); `decide` runs it and
falls back to the first legal action for a phase the table lacks, so an agent never stalls.
"""

from __future__ import annotations

from collections.abc import Callable

from actors.risk.board import Board, parse_action
from games.risk.mapdata import CONTINENT_OF, INDEX, NEIGHBOURS

Choice = tuple[str, float]
Phase = Callable[[Board, list[str]], Choice]


def decide(table: dict[str, Phase], board: Board, legal: list[str]) -> Choice:
    """The policy's choice for this node; a node with one legal action is not thought about."""
    if len(legal) == 1:
        return legal[0], 0.0
    trades = [a for a in legal if a.startswith("trade:")]
    if trades and board.phase == "reinforce":
        return trades[0], 1.0  # ours: trade as soon as a set is held (armies now beat armies later)
    phase = board.phase
    if phase == "setup" and board.owner[parse_action(legal[0])[1][0]] != board.me:
        phase = "setup_neutral"  # two players: the seat to act also places the neutral's armies
    handler = table.get(phase) or SHARED.get(phase)
    if handler is None:
        return legal[0], 0.0
    return handler(board, legal)


def defend(board: Board, legal: list[str]) -> Choice:
    """Ours: always the most dice (the loss per roll of two dice is never worse on average)."""
    return ("defend:2" if "defend:2" in legal else legal[0]), 1.0


def neutral_setup(board: Board, legal: list[str]) -> Choice:
    """A neutral army where it blocks a foe most: in the continent a foe holds most of, next to
    foes, away from me (ours)."""
    def score(action: str) -> tuple[float, int]:
        t = INDEX[action[6:9]]
        foes = [n for n in NEIGHBOURS[t] if board.is_foe(board.owner[n])]
        mine = [n for n in NEIGHBOURS[t] if board.mine(n)]
        c = CONTINENT_OF[t]
        top = max((board.share(c, s) for s in range(board.players) if s != board.me), default=0.0)
        return (round(top + 0.1 * len(foes) - 0.1 * len(mine), 9), -t)
    best = max(legal, key=score)
    return best, score(best)[0]


def move_in(board: Board, legal: list[str]) -> Choice:
    """After a conquest: keep at the source only what the foes next to it could strike with,
    and move the rest in; all of them when the source borders no one else (ours)."""
    pending = board.obs["pending"]
    f, lo, hi = INDEX[pending["from"]], pending["min"], pending["max"]
    if not board.hostile_neighbours(f):
        n = hi
    else:
        keep = max(1, min(board.threat(f), hi + 1 - lo))
        n = max(lo, hi + 1 - keep)
    return f"move:{n}", 1.0


SHARED: dict[str, Phase] = {"defend": defend, "setup_neutral": neutral_setup, "occupy": move_in}
