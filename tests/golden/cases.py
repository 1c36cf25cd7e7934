"""The golden games: a handful of seeded games of every agent, recorded under tests/golden/.

`python -m tests.golden.cases [STEM ...]` rewrites the logs (all, or only the named cases) and their
lines of manifest.json; a change of bytes is its own commit that re-baselines the goldens and says
what changed (see issue "one home per game"). The manifest holds each log's sha256 with the
header's `env` (the recording interpreter, bus.environment) set aside: the same seeds must give
those bytes under every supported Python (ops/check_interpreters.sh runs this check under each).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent

# (file stem, game, agents (one spec or one per seat), options, seed)
CASES: list[tuple[str, str, str, dict, int]] = [
    ("werewolves-random-7", "werewolves", "random", {}, 7),
    ("werewolves-random-8p", "werewolves", "random", {"players": 8, "tie_rule": "revote_then_random"}, 3),
    ("werewolves-alphawolf-7", "werewolves", "alphawolf", {}, 7),
    ("werewolves-alphawolf-so-2", "werewolves", "alphawolf:offices=so", {}, 2),
    # the generic agent (any game): search, pacts kept and the trust they earn, in five seats
    ("werewolves-generic-5p-2", "werewolves", "generic", {"players": 5, "discussion_rounds": 2}, 2),
    # bluffing werewolves (false seer claims) against a village that learns from false claims
    ("werewolves-alphawolf-bluff-1", "werewolves", "alphawolf:params.claim_honesty=0;params.learn_claims=true", {}, 1),
    # the AIWolf 5-player set (possessed, species results, quiet first night), bluffing wolf team
    ("werewolves-aiwolf5-bluff-22", "werewolves", "alphawolf:params.claim_honesty=0", {"preset": "aiwolf5"}, 22),
    ("hanabi-random-2", "hanabi", "random", {}, 2),
    ("hanabi-osawa-random-3", "hanabi", "osawa-random", {"players": 3}, 3),
    ("hanabi-rational-1", "hanabi", "rational", {}, 1),
    ("hanabi-self-estimation-4", "hanabi", "self-estimation", {"players": 4}, 4),
    ("hanabi-full-information-5", "hanabi", "full-information", {"reveal_own_cards": True}, 5),
    ("hanabi-alpha-6", "hanabi", "alpha", {"players": 3}, 6),
    ("diplomacy-random-1", "diplomacy", "random", {"max_year": 1902}, 1),
    ("diplomacy-dumbbot-2", "diplomacy", "dumbbot", {"max_year": 1902}, 2),
    ("diplomacy-dipblue-3", "diplomacy", "dipblue", {"max_year": 1901}, 3),
    ("battleline-random-1", "battleline", "random", {}, 1),
    ("battleline-random-notactics-2", "battleline", "random", {"tactics": False}, 2),
    ("battleline-deep-barca-3", "battleline", "deep-barca,naive", {}, 3),
    ("battleline-deep-barca-io-notactics-4", "battleline", "deep-barca:offices=so+io,deep-barca", {"tactics": False}, 4),
    ("risk-random-2", "risk", "random", {"max_rounds": 6, "players": 4}, 2),
    ("risk-random-cards-3", "risk", "random", {"max_rounds": 8, "players": 2, "cards": True}, 3),
    ("risk-heuristic-5", "risk", "heuristic,heuristic:offices=so+io,random", {"max_rounds": 3}, 5),
    ("risk-td-randomnet-4", "risk", "td:net=random;net_seed=4,td:net=random;net_seed=5;params.odds=exact,heuristic",
     {"max_rounds": 3}, 4),
    ("risk-td-2", "risk", "td,heuristic", {"players": 2, "max_rounds": 4}, 2),
    ("dominoes-random-3", "dominoes", "random", {"target": 30}, 3),
    ("dominoes-individualist-1", "dominoes", "individualist", {"target": 30}, 1),
    ("dominoes-glutton-blocker-signal-22", "dominoes", "glutton-blocker,individualist,glutton-blocker,individualist",
     {"target": 30, "signal": True}, 22),
    ("dominoes-alpha-pair-3", "dominoes", "alpha-pair,glutton-blocker:offices=io+so,alpha-pair,glutton-blocker:offices=io+so",
     {"target": 30}, 3),
    # an external agent (the agent protocol): a stdlib-only program over stdin/stdout; `ws` has no
    # golden game of its own (a served agent's URL names a port that changes from run to run):
    # tests/external checks that ws and exec make the same records
    ("hanabi-exec-7", "hanabi", 'exec:cmd=["python3","tests/external/talker.py"]', {}, 7),
    ("diplomacy-alphadip-4", "diplomacy",
     "alphadip,dipblue,dumbbot,alphadip:offices=so,dipblue:archetype=naive,dumbbot,random", {"max_year": 1901}, 4),
    # AlphaDip's deals over several phases and demilitarised zones (table 6.2's field)
    ("diplomacy-alphadip-phases-5", "diplomacy",
     "alphadip:params.dmz=true;params.multi_phase=true,dipblue,dumbbot,alphadip:params.dmz=true;params.multi_phase=true,"
     "dipblue,dumbbot,dumbbot", {"max_year": 1901}, 5),
    # log format 3 (state digests at checkpoints): the logs above are format 2 and are recorded at it
    ("f3-dominoes-random-3", "dominoes", "random", {"target": 30}, 3),
    ("f3-risk-random-2", "risk", "random", {"max_rounds": 6, "players": 4}, 2),
    ("f3-werewolves-alphawolf-7", "werewolves", "alphawolf", {}, 7),
    ("f3-hanabi-alpha-6", "hanabi", "alpha", {"players": 3}, 6),
    ("f3-diplomacy-alphadip-4", "diplomacy",
     "alphadip,dipblue,dumbbot,alphadip:offices=so,dipblue:archetype=naive,dumbbot,random", {"max_year": 1901}, 4),
    # log format 4 (requests logged without their observation; the random agent is sent none)
    ("f4-dominoes-random-3", "dominoes", "random", {"target": 30}, 3),
    ("f4-risk-random-2", "risk", "random", {"max_rounds": 6, "players": 4}, 2),
    ("f4-werewolves-alphawolf-7", "werewolves", "alphawolf", {}, 7),
    ("f4-hanabi-alpha-6", "hanabi", "alpha", {"players": 3}, 6),
    ("f4-diplomacy-alphadip-4", "diplomacy",
     "alphadip,dipblue,dumbbot,alphadip:offices=so,dipblue:archetype=naive,dumbbot,random", {"max_year": 1901}, 4),
]


def format_of(stem: str) -> int:
    """The log format a case is recorded at: the one its committed file was written in."""
    return 4 if stem.startswith("f4-") else 3 if stem.startswith("f3-") else 2


def header_of(game: str, agents: str, options: dict, seed: int) -> dict:
    from actors.match import game_options, make_header
    from actors.registry import parse_lineup
    from games.registry import get_game

    players = get_game(game).num_players(game_options(game, options))
    return make_header(game, seed, parse_lineup(agents, players), options)


def record_case(case: tuple[str, str, str, dict, int]) -> bytes:
    from actors.match import record

    stem, game, agents, options, seed = case
    return record({"format": format_of(stem), **header_of(game, agents, options, seed)})


def comparable(data: bytes) -> bytes:
    """The log with its header's `env` set aside: what every supported interpreter must reproduce."""
    from bus.environment import comparable as without_env

    return without_env(data)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main(names: list[str]) -> None:
    unknown = sorted(set(names) - {case[0] for case in CASES})
    if unknown:
        raise SystemExit(f"no golden case named {', '.join(unknown)}")
    path = HERE / "manifest.json"
    manifest = json.loads(path.read_text()) if path.exists() else {}
    manifest = {stem: sha for stem, sha in manifest.items() if stem in {case[0] for case in CASES}}
    for case in CASES:
        if names and case[0] not in names:
            continue
        data = record_case(case)
        (HERE / f"{case[0]}.log").write_bytes(data)
        manifest[case[0]] = sha256(comparable(data))
        print(f"{case[0]}: {len(data)} bytes", file=sys.stderr)
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
