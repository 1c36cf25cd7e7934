"""Dominoes agents in duplicate matches to 100: team win rates with Wilson 95% intervals, hands won,
blocked hands and points, side by side with the seed's table 5 (Martinez & Munoz 2005: over 10
matches to 100 the individualists won 7 matches, 75 of 123 hands to 48, 15 hands blocked, 1,081
points to 750).

Every deal seed is played twice through the whole stack (referee, bus, Presidents and offices,
inline): pair A on seats 0 & 2 and B on 1 & 3, then the pairs swapped on the same deals (the
deal of each hand is a function of the match seed and the hand index, so both pairs get the same
tiles). The game logs are not kept. Reruns with the same arguments give the same numbers.

    python -m ops.bench.dominoes_agents --deals 100                       # every pairing
    python -m ops.bench.dominoes_agents --pairings gb-ind gb-ind-signal --deals 1000 --jobs 2
    python -m ops.bench.dominoes_agents --pairings gb-ind gb-ind-signal --why 20    # from transcripts

`--why N` also logs N deals of each pairing and reads their transcripts (ops/plugins/dominoes):
passes a hand by pair, the blocker's decisions by the rule that chose them, hands whose partners
read their roles differently (both glutton, or both blocker: only possible without the signal)
and role swaps.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from actors.match import make_header, play, record
from actors.registry import parse_lineup
from bus.log import parse_log
from ops.plugins.dominoes.transcript import build_transcript
from ops.tournament.report import wilson

# name -> (pair A, pair B, game options)
PAIRINGS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "gb-ind": ("glutton-blocker", "individualist", {}),
    "gb-ind-signal": ("glutton-blocker", "individualist", {"signal": True}),
    "alpha-ind": ("alpha-pair", "individualist", {}),
    "alpha-gb": ("alpha-pair", "glutton-blocker", {}),
    "alpha-gb-signal": ("alpha-pair", "glutton-blocker", {"signal": True}),
    "random-ind": ("random", "individualist", {}),
    "random-gb": ("random", "glutton-blocker", {}),
}
SEED_TABLE5 = {"matches": (7, 10), "hands": (75, 123), "blocked": (15, 123), "points": (1081, 750)}  # individualists


class _Discard:
    def record(self, payload: bytes) -> None:
        pass


def play_deal(a: str, b: str, options: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """Both matches of one deal seed, from pair A's side: its pair index, the outcome's facts."""
    out = []
    for side in (0, 1):
        agents = [a, b, a, b] if side == 0 else [b, a, b, a]
        header = make_header("dominoes", seed, parse_lineup(",".join(agents), 4), options)
        end = play(header, _Discard()).end
        extra = end.extra
        won = None if not end.winners else end.winners[0] % 2
        out.append({"seed": seed, "side": side, "won": None if won is None else won == side,
                    "hands": extra["hands"], "hands_a": extra["hands_won"][side], "hands_b": extra["hands_won"][1 - side],
                    "blocked": extra["blocked"], "points_a": extra["scores"][side], "points_b": extra["scores"][1 - side]})
    return out


def _chunk(args: tuple[str, str, dict[str, Any], list[int]]) -> list[dict[str, Any]]:
    a, b, options, seeds = args
    return [m for seed in seeds for m in play_deal(a, b, options, seed)]


def measure(name: str, deals: int, first_seed: int, target: int, jobs: int) -> dict[str, Any]:
    a, b, extra = PAIRINGS[name]
    options = {"target": target, **extra}
    seeds = list(range(first_seed, first_seed + deals))
    t0 = time.perf_counter()
    if jobs > 1:
        parts = [(a, b, options, seeds[i::jobs]) for i in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            matches = [m for part in pool.map(_chunk, parts) for m in part]
    else:
        matches = _chunk((a, b, options, seeds))
    elapsed = time.perf_counter() - t0
    return summarise(name, a, b, options, matches, elapsed)


def summarise(name: str, a: str, b: str, options: dict[str, Any], matches: list[dict[str, Any]],
              elapsed: float) -> dict[str, Any]:
    n = len(matches)
    wins = sum(1 for m in matches if m["won"] is True)
    draws = sum(1 for m in matches if m["won"] is None)
    hands = sum(m["hands"] for m in matches)
    hands_a, hands_b = sum(m["hands_a"] for m in matches), sum(m["hands_b"] for m in matches)
    points_a, points_b = sum(m["points_a"] for m in matches), sum(m["points_b"] for m in matches)
    by_deal: dict[int, int] = {}
    for m in matches:
        by_deal[m["seed"]] = by_deal.get(m["seed"], 0) + m["points_a"] - m["points_b"]
    deals_won = sum(1 for v in by_deal.values() if v > 0) + 0.5 * sum(1 for v in by_deal.values() if v == 0)
    return {
        "pairing": name, "a": a, "b": b, "options": options, "matches": n, "deals": len(by_deal),
        "wins_a": wins, "draws": draws, "win_rate_a": wilson(wins, n),
        "hands": hands, "hands_a": hands_a, "hands_b": hands_b, "hand_share_a": wilson(hands_a, hands_a + hands_b),
        "blocked": sum(m["blocked"] for m in matches), "points_a": points_a, "points_b": points_b,
        "duplicate_deals_won_a": deals_won, "seconds": elapsed,
    }


BLOCKER_RULES = {"partner may hold": "blocks (C2)", "partner lacks it too": "blocks the partner too (C1)",
                 "no tile blocks": "nothing blocks (C0)"}


def explain(name: str, deals: int, first_seed: int, target: int) -> dict[str, Any]:
    """Counts read off the transcripts of `deals` logged deals (both seatings) of a pairing."""
    a, b, extra = PAIRINGS[name]
    options = {"target": target, **extra}
    hands = passes_a = passes_b = read_by_both = conflicts = swaps = 0
    rules: dict[str, int] = {}
    for seed in range(first_seed, first_seed + deals):
        for side in (0, 1):
            agents = [a, b, a, b] if side == 0 else [b, a, b, a]
            log = parse_log(record(make_header("dominoes", seed, parse_lineup(",".join(agents), 4), options))).games[0]
            for hand in build_transcript(log)["hands"]:
                hands += 1
                for t in hand["turns"]:
                    if t["action"] == "pass":
                        if t["seat"] % 2 == side:
                            passes_a += 1
                        else:
                            passes_b += 1
                    if t.get("role") == "blocker":
                        key = next((v for k, v in BLOCKER_RULES.items() if k in t["rule"]), "other")
                        rules[key] = rules.get(key, 0) + 1
                first_glutton: dict[int, int] = {}  # seat -> the glutton it read at the start of the hand
                for r in hand["roles"]:
                    first_glutton.setdefault(r["seat"], r["blocker"] if r["swapped"] else r["glutton"])
                    swaps += r["swapped"]
                if len(first_glutton) == 2:
                    read_by_both += 1
                    conflicts += len(set(first_glutton.values())) > 1
    return {"pairing": name, "hands": hands, "passes_a": passes_a / hands, "passes_b": passes_b / hands,
            "blocker_rules": dict(sorted(rules.items())), "role_conflicts": conflicts, "read_by_both": read_by_both,
            "swap_reads": swaps}


def why_row(w: dict[str, Any]) -> str:
    total = sum(w["blocker_rules"].values()) or 1
    rules = ", ".join(f"{k} {v / total:.2f}" for k, v in w["blocker_rules"].items()) or "-"
    return (f"| {w['pairing']} | {w['hands']} | {w['passes_a']:.2f} | {w['passes_b']:.2f} | {rules} | "
            f"{w['role_conflicts']}/{w['read_by_both']} | {w['swap_reads']} |")


WHY_HEADER = ("| pairing | hands | passes a hand, pair A | pair B | blocker's decisions by rule | hands with roles "
              "read differently (of those both partners read) | role swaps read |\n|---|---|---|---|---|---|---|")


def row(r: dict[str, Any]) -> str:
    p, lo, hi = r["win_rate_a"]
    h, hlo, hhi = r["hand_share_a"]
    signal = " (signal)" if r["options"].get("signal") else ""
    return (f"| {r['a']} v {r['b']}{signal} | {r['matches']} ({r['deals']} deals x 2) | {p:.3f} [{lo:.3f}, {hi:.3f}] | "
            f"{r['duplicate_deals_won_a'] / r['deals']:.3f} | {r['hands_a']}-{r['hands_b']} = {h:.3f} [{hlo:.3f}, {hhi:.3f}] | "
            f"{r['blocked']}/{r['hands']} = {r['blocked'] / r['hands']:.3f} | {r['points_a']}-{r['points_b']} | "
            f"{r['hands'] / r['matches']:.1f} | {r['matches'] / r['seconds']:.1f} |")


HEADER = ("| A v B | matches | A's match win rate [95% CI] | duplicate deals won by A (net points) | hands won A-B "
          "= A's share [95% CI] | blocked hands | points A-B | hands/match | matches/s |\n"
          "|---|---|---|---|---|---|---|---|---|")


def seed_comparison(r: dict[str, Any]) -> str:
    """The individualists' figures of a glutton-blocker v individualist run next to the seed's table 5."""
    n = r["matches"]
    m_ind = n - r["wins_a"] - r["draws"]
    seed = SEED_TABLE5
    hands = f"{r['hands_b']}/{r['hands']} = {r['hands_b'] / r['hands']:.3f}"
    blocked = f"{r['blocked']}/{r['hands']} = {r['blocked'] / r['hands']:.3f}"
    points = (f"{r['points_b']}/({r['points_b']}+{r['points_a']}) = "
              f"{r['points_b'] / (r['points_a'] + r['points_b']):.3f}")
    lines = ["| individualists' figures | seed, table 5 (10 matches) | ours |", "|---|---|---|",
             f"| matches won | {seed['matches'][0]}/{seed['matches'][1]} = 0.700 | {m_ind}/{n} = {m_ind / n:.3f} |",
             f"| hands won | {seed['hands'][0]}/{seed['hands'][1]} = 0.610 | {hands} |",
             f"| blocked hands | {seed['blocked'][0]}/{seed['blocked'][1]} = 0.122 | {blocked} |",
             f"| share of points | 1081/(1081+750) = 0.590 | {points} |",
             f"| hands a match | 12.3 | {r['hands'] / n:.1f} |"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairings", nargs="+", default=list(PAIRINGS), choices=list(PAIRINGS))
    parser.add_argument("--deals", type=int, default=100, help="deal seeds a pairing (each played twice; 0: none)")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--why", type=int, default=0, help="deals a pairing logged and read from transcripts")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    results = []
    print(HEADER, flush=True)
    for name in args.pairings if args.deals else ():
        r = measure(name, args.deals, args.seed, args.target, args.jobs)
        results.append(r)
        print(row(r), flush=True)
    for r in results:
        if r["a"] == "glutton-blocker" and r["b"] == "individualist":
            print(f"\n{r['pairing']}:\n" + seed_comparison(r))
    why = []
    if args.why:
        print("\n" + WHY_HEADER, flush=True)
        for name in args.pairings:
            why.append(explain(name, args.why, args.seed, args.target))
            print(why_row(why[-1]), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "why": why}, f, indent=1)


if __name__ == "__main__":
    main()
