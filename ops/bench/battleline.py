"""Battle Line speed: random games of the rules alone and through the whole stack, Deep
Barca's decision time, and the claim proofs checked against brute force.

    python -m ops.bench.battleline                          # all four, default sizes
    python -m ops.bench.battleline --seconds 2 --rounds 8   # more speed rounds
    python -m ops.bench.battleline --proofs 10000           # the full proof check (~1 min)
    python -m ops.bench.battleline --only rules stack       # some of: rules stack decisions proofs
    python -m ops.bench.battleline --only rules --against HEAD~3  # the rules of a revision, side by side

- rules: uniformly random legal actions (claims included) until the game ends, on the rules alone
  (legal_actions and apply_actions; no observations). A claim is proved only on a flag where the
  claimant's side is complete (games.battleline.rules.claimable). Goal: <= 2 ms a game (a public
  pure-Python engine without claim proofs takes ~1.8 ms).
  With `--against REV`, the rules of that revision (its games/battleline/, loaded under another
  package name) play the same games in the same process, rounds alternating which goes first; the
  ratio new / old is of the two bests.
- stack: the same kind of game through the whole stack: the referee, two `random` agents (a
  President each), the bus and the event log in memory (actors.match.record).
- The two are measured in turns (rules, stack, rules, ...), CPU time, the best of each kept (on a
  shared box a round's CPU time varies by half; the best round is the least disturbed); the ratio
  printed is of those two bests.
- decisions: Deep Barca's CPU time per decision against naive, through the whole stack (its
  President and offices; ops/bench/battleline_agents.py's timing) and played straight on the rules.
  Goal: median <= 20 ms, p99 <= 100 ms.
- proofs: positions from random games (tactics on and off), at the claimant's turn, of an unclaimed
  flag where its side is complete, stratified by the cards the other side still misses (0 to 3, 4
  under Mud): the rules' claimable() must agree with an independent brute force (`brute_claimable`)
  over every completion from the unseen troops and every choice of the wild cards. Exits 1 on a
  disagreement. tests/battleline/test_proofs.py runs 1,000 of them.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from games.battleline.cards import CARD_OF, TROOPS
from games.battleline.rules import BattleLine, BattleLineState

GAME = BattleLine()
STRATA = (0, 1, 2, 3, 4)  # cards the other side misses; 4 only under Mud
# positions() plays at most POSITION_GAMES games a position asked for (it takes 0.2 to 1.3) and
# 2 * MUD_WAIT more: after MUD_WAIT games with only Mud positions missing, it takes 3 missing instead.
POSITION_GAMES, MUD_WAIT = 5, 100
_RULES = ("cards", "formations", "rules")  # games/battleline's modules, in import order


# -- speed -----------------------------------------------------------------------------------

def rules_games(seconds: float, tactics: bool, seed: int = 1, game: Any = GAME) -> tuple[float, float]:
    """Random games on the rules alone for `seconds` of CPU: (games/s, decisions a game)."""
    opts = game.options({"tactics": tactics})
    rng = random.Random(seed)
    games = decisions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = game.new_initial_state(opts)
        for _ in range(game.max_steps + 1):  # the rules' own length bound
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            p = state.current_players()[0]
            legal = state.legal_actions(p)
            state.apply_actions({p: legal[rng.randrange(len(legal))]})
            decisions += 1
        else:
            raise RuntimeError(f"a random game did not end within {game.max_steps} steps")
        games += 1
    return games / (time.process_time() - t0), decisions / games


def rules_of(rev: str, into: str) -> Any:
    """The Battle Line rules of git revision `rev` (its games/battleline/ modules, copied under
    `into` as the package `_battleline_old`), for side-by-side timing: its BattleLine()."""
    root = Path(__file__).resolve().parents[2]
    package = Path(into) / "_battleline_old"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in _RULES:
        text = subprocess.run(["git", "show", f"{rev}:games/battleline/{name}.py"], cwd=root,
                              capture_output=True, text=True, check=True).stdout
        (package / f"{name}.py").write_text(text.replace("games.battleline.", "_battleline_old."))
    sys.path.insert(0, into)
    return importlib.import_module("_battleline_old.rules").BattleLine()


def side_by_side(old: Any, seconds: float, rounds: int, tactics: bool) -> tuple[float, float]:
    """Best games/s of the old and the present rules, in alternating rounds (same games)."""
    best = {"old": 0.0, "new": 0.0}
    for r in range(rounds):
        order = (("old", old), ("new", GAME)) if r % 2 == 0 else (("new", GAME), ("old", old))
        for label, game in order:
            best[label] = max(best[label], rules_games(seconds, tactics, game=game)[0])
    return best["old"], best["new"]


def stack_games(seconds: float, tactics: bool) -> float:
    """Random games through the referee, agents, bus and log (in memory): games/s of CPU."""
    from actors.match import make_header, record
    from actors.registry import parse_lineup

    lineup = parse_lineup("random", 2)
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        record(make_header("battleline", n, lineup, {"tactics": tactics}))
        n += 1
    return n / (time.process_time() - t0)


def direct_decisions(games: int, tactics: bool) -> list[float]:
    """Deep Barca's CPU seconds per decision against naive, played straight on the rules."""
    from actors.battleline.direct import make_policy, play_direct

    times: list[float] = []
    for g in range(games):
        barca = make_policy("deep-barca")
        seats = [barca, make_policy("naive")] if g % 2 == 0 else [make_policy("naive"), barca]
        play_direct(seats, 5000 + g, {"tactics": tactics})
        times += barca.times
    return times


def _quantiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return 1000 * statistics.median(ordered), 1000 * ordered[int(0.99 * (len(ordered) - 1))]


# -- claim proofs against brute force ----------------------------------------------------------

_ANY_TROOP = tuple(TROOPS)
# What a wild card may stand for (1.1 "Morale tactics"): a Leader any troop, even one already on
# the table; the Companion Cavalry an 8 of any colour; the Shield Bearers a 1, 2 or 3 of any colour.
_STANDS_FOR = {
    CARD_OF["alexander"]: _ANY_TROOP, CARD_OF["darius"]: _ANY_TROOP,
    CARD_OF["cavalry"]: tuple(col * 10 + 7 for col in range(6)),
    CARD_OF["shield"]: tuple(col * 10 + v for col in range(6) for v in (0, 1, 2)),
}


@lru_cache(maxsize=1 << 18)
def _rank(troops: tuple[int, ...], fog: bool) -> int:
    """Strength of a full side of troop ints, sorted (a wild's stand-in may repeat a troop):
    formation rank, then sum (1.1 "Formations"); under Fog the sum alone."""
    values = sorted(c % 10 + 1 for c in troops)
    total = sum(values)
    if fog:
        return total
    one_colour = len({c // 10 for c in troops}) == 1
    run = all(b == a + 1 for a, b in itertools.pairwise(values))
    if run and one_colour:
        return 400 + total
    if len(set(values)) == 1:
        return 300 + total
    if one_colour:
        return 200 + total
    return (100 if run else 0) + total


def _strongest(cards: list[int], fog: bool) -> int:
    """The best strength of a full side over every choice of its wild cards."""
    troops = [c for c in cards if c < 60]
    choices = [_STANDS_FOR[c] for c in cards if c >= 60]
    return max(_rank(tuple(sorted(troops + list(w))), fog) for w in itertools.product(*choices))


def _beatable(cards: list[int], need: int, fog: bool, unseen: list[int], floor: int) -> bool:
    """Does some completion of `cards` with troops from `unseen` score above `floor`?"""
    troops = [c for c in cards if c < 60]
    choices = [_STANDS_FOR[c] for c in cards if c >= 60]
    for extra in itertools.combinations(unseen, need - len(cards)):
        base = troops + list(extra)
        for w in itertools.product(*choices):
            if _rank(tuple(sorted(base + list(w))), fog) > floor:
                return True
    return False


def brute_claimable(position: dict[str, Any], seat: int, flag: int) -> bool:
    """May `seat` claim `flag` in `position` (BattleLineState.to_json())? Decided from the rules
    text alone (1.1 "Claiming"): its side is complete, and the other side, complete, is weaker (or
    equal and completed later), or, incomplete, has no completion from the unseen troops (both hands
    and the troop deck) that beats it; an equal completion would come later and lose."""
    f = position["flags"][flag]
    if f["claimed"] >= 0:
        return False
    need, fog = 4 if f["mud"] >= 0 else 3, f["fog"] >= 0
    mine = [CARD_OF[name] for name, _ in f["sides"][seat]]
    theirs = [CARD_OF[name] for name, _ in f["sides"][1 - seat]]
    if len(mine) != need or len(theirs) > need:
        return False
    strength = _strongest(mine, fog)
    if len(theirs) == need:
        other = _strongest(theirs, fog)
        completed = [max(placed for _, placed in side) for side in f["sides"]]
        return strength > other or (strength == other and completed[seat] < completed[1 - seat])
    unseen = sorted(CARD_OF[c] for c in position["hands"][0] + position["hands"][1] + position["decks"]["troops"]
                    if CARD_OF[c] < 60)
    return not _beatable(theirs, need, fog, unseen, strength)


def positions(n: int, seed: int = 0) -> Iterator[tuple[BattleLineState, int, int, int]]:
    """`n` positions (state, seat to act, flag, cards missing) from games with tactics (two in
    three) and without, at the start of a turn, on an unclaimed flag where the seat's side is
    complete: 24% for each of 0-3 cards missing on the other side, 4% under Mud with the other side
    empty (made up with 3 missing where Mud gives too few). One position per game, flag and count
    missing. Every third game has a `naive` seat (the others are random), for the strong
    formations that make proofs against incomplete sides succeed. The state is live: use it
    before asking for the next."""
    from actors.battleline.direct import naive_policy

    share = n * 6 // 25
    quota = {0: share, 1: share, 2: share, 3: share, 4: n - 4 * share}
    rng = random.Random(seed)
    done: Counter[int] = Counter()
    late = 0
    limit = POSITION_GAMES * n + 2 * MUD_WAIT
    for game in range(1, limit + 1):
        state = GAME.new_initial_state({"tactics": game % 3 != 0})
        naive = game % 3 == 2
        taken: set[tuple[int, int]] = set()
        for _ in range(GAME.max_steps + 1):  # the rules' own length bound
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            p = state.current_players()[0]
            if state._phase == "play" and state._claiming:
                for f in range(9):
                    side = state._sides[f]
                    need = 4 if state._mud[f] >= 0 else 3
                    if state._claimed[f] >= 0 or len(side[p]) != need or len(side[1 - p]) > need:
                        continue
                    missing = need - len(side[1 - p])
                    if done[missing] >= quota[missing] or (missing, f) in taken:
                        continue
                    taken.add((missing, f))
                    done[missing] += 1
                    yield state, p, f, missing
                    if sum(done.values()) >= n:
                        return
            legal = state.legal_actions(p)
            if naive and p == game % 2:
                action = naive_policy(state.observation(p), legal, rng)
            else:
                action = legal[rng.randrange(len(legal))]
            state.apply_actions({p: action})
        else:
            raise RuntimeError(f"a game did not end within {GAME.max_steps} steps")
        if all(done[m] >= quota[m] for m in range(4)):
            late += 1
            if late == MUD_WAIT:  # Mud on a flag one side never played to is rare
                quota[3] += quota[4] - done[4]
                quota[4] = done[4]
    raise RuntimeError(f"{n} positions not found in {limit} games: {dict(done)} of {quota}")


def check_proofs(n: int, seed: int = 0) -> tuple[dict[int, Counter[str]], list[str]]:
    """Per stratum, positions / claimable by both / not by both; and every disagreement."""
    tally: dict[int, Counter[str]] = {m: Counter() for m in STRATA}
    wrong: list[str] = []
    for state, p, f, missing in positions(n, seed):
        truth = brute_claimable(state.to_json(), p, f)
        ours = f in state.claimable(p)
        tally[missing]["positions"] += 1
        tally[missing]["claimable" if truth else "not claimable"] += 1
        if ours != truth:
            wrong.append(f"seat {p} flag {f} ({missing} missing): rules say {ours}, brute force {truth}\n"
                         + state.render())
    return tally, wrong


# -- main ----------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per speed measurement")
    parser.add_argument("--rounds", type=int, default=5, help="turns of rules / stack measurements")
    parser.add_argument("--timing", type=int, default=6, help="games of deep-barca vs naive for decision time")
    parser.add_argument("--proofs", type=int, default=2000, help="positions for the claim-proof check")
    parser.add_argument("--only", nargs="+", choices=("rules", "stack", "decisions", "proofs"),
                        default=["rules", "stack", "decisions", "proofs"])
    parser.add_argument("--against", metavar="REV", help="time the rules of git revision REV side by side "
                        "(rules only; old and new alternate, best of rounds)")
    args = parser.parse_args()
    failed = False
    if args.against:
        with tempfile.TemporaryDirectory() as tmp:
            old = rules_of(args.against, tmp)
            for tactics in (True, False):
                before, after = side_by_side(old, args.seconds, args.rounds, tactics)
                print(f"tactics {'on' if tactics else 'off'}: rules of {args.against} {1000 / before:.2f} ms a game, "
                      f"now {1000 / after:.2f} ms; now / then {before / after:.3f} (CPU, best of {args.rounds})")
        return
    for tactics in (True, False):
        label = f"tactics {'on' if tactics else 'off'}"
        best_rules = best_stack = 0.0
        length = 0.0
        for _ in range(args.rounds):
            if "rules" in args.only:
                rate, length = rules_games(args.seconds, tactics)
                best_rules = max(best_rules, rate)
            if "stack" in args.only:
                best_stack = max(best_stack, stack_games(args.seconds, tactics))
        if best_rules:
            print(f"{label}: rules alone {best_rules:,.0f} games/s ({1000 / best_rules:.2f} ms a game, "
                  f"{length:.0f} decisions a game; goal <= 2 ms)")
        if best_stack:
            print(f"{label}: whole stack (random agents, log in memory) {best_stack:,.1f} games/s "
                  f"({1000 / best_stack:.1f} ms a game)"
                  + (f"; rules alone / whole stack {best_rules / best_stack:.0f}x" if best_rules else ""))
    if "decisions" in args.only and args.timing:
        from ops.bench.battleline_agents import timing

        for tactics in (True, False):
            label = f"tactics {'on' if tactics else 'off'}"
            t = timing(args.timing, tactics)
            direct = direct_decisions(args.timing, tactics)
            med, p99 = _quantiles(direct)
            print(f"{label}: deep-barca decisions through the whole stack: {t['decisions']} over {args.timing} "
                  f"games, median {t['median_ms']:.1f} ms, p99 {t['p99_ms']:.1f} ms (goal <= 20 / <= 100); "
                  f"straight on the rules: {len(direct)}, median {med:.1f} ms, p99 {p99:.1f} ms")
    if "proofs" in args.only and args.proofs:
        t0 = time.process_time()
        tally, wrong = check_proofs(args.proofs)
        spent = time.process_time() - t0
        total = sum(c["positions"] for c in tally.values())
        print(f"claim proofs against brute force: {total} positions, {len(wrong)} disagreements "
              f"({spent:.0f} s CPU)")
        for m in STRATA:
            c = tally[m]
            print(f"  {m} missing: {c['positions']} positions, {c['claimable']} claimable, "
                  f"{c['not claimable']} not")
        for w in wrong[:5]:
            print(w)
        failed = bool(wrong)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
