"""Seeded-bug benchmark: would the tests catch the bugs we would make?

Each mutant is one plausible bug: a file, the exact source it changes (each snippet found exactly
once), its replacement, and the tests of its area. Each is applied to a temporary copy of the repo
(`git archive HEAD`, or the working tree's files with --worktree; never the repo itself), the
area's tests run (-x, a time limit, no cache), and the mutant is *killed* when they fail (or time
out) and *survives* when they pass. Each test selection is first run unmutated: a selection that
fails as it is counts none of its mutants. Prints each mutant's fate and the kill rate per area and
overall. Not part of CI (a few minutes of CPU per area).

    python -m ops.bench.mutants [--area bus] [--only NAME ...] [--tests PATH ...] [--list] [--worktree] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AREAS = ("games", "bus", "actors", "replay", "ops")
TEST_SECONDS = 120  # per test (pytest-timeout): a mutant that makes a test loop is killed by this
RUN_SECONDS = 600  # per mutant run, whatever its tests


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    edits: tuple[tuple[str, str], ...]  # (exact snippet, replacement), each snippet once in the file
    tests: tuple[str, ...]  # pytest paths or node ids, relative to the repo root

    @property
    def area(self) -> str:
        return self.file.split("/", 1)[0]


def m(name: str, file: str, edits: list[tuple[str, str]] | tuple[str, str], tests: str) -> Mutant:
    pairs = (edits,) if isinstance(edits, tuple) else tuple(edits)
    return Mutant(name, file, pairs, tuple(tests.split()))


# -- the mutants ---------------------------------------------------------------------------------
# Test selections per area (targeted, so that the whole list runs in minutes).
T_HANABI = "tests/hanabi/test_rules.py"
T_DIP_RULES = "tests/diplomacy/test_map_invariants.py tests/diplomacy/test_rules_convoy_chains.py tests/diplomacy/test_rules_datc.py tests/diplomacy/test_rules.py"
T_WW_RULES = "tests/werewolves/test_rules.py"
T_RISK_RULES = "tests/risk/test_rules.py"
T_DOM_RULES = "tests/dominoes/test_rules.py"
T_LOG = "tests/test_log.py tests/test_log_index_crc.py tests/test_verify_wrong_game.py tests/test_log_torn_frames.py"
T_BUS = "tests/test_bus_fifo_model.py tests/test_bus.py"
T_LIMITS = "tests/hostile/test_limits_edges.py tests/hostile/test_limits_bus.py"
T_ALPHA = "tests/test_president_honesty.py tests/test_alpha.py"
T_VERIFY = "tests/test_verify_verdicts.py tests/test_log.py tests/test_verify_wrong_game.py tests/test_log_index_crc.py tests/test_fork.py"
T_SPEC = "tests/tournament/test_spec.py tests/tournament/test_store_report.py"
T_CLI = "tests/test_cli.py"

MUTANTS: list[Mutant] = [
    # games/ ------------------------------------------------------------------------------------
    m("hanabi: a hint costs no token", "games/hanabi/rules.py",
      ("        self._hints -= 1\n", "        self._hints -= 0\n"), T_HANABI),
    m("hanabi: a misplay costs no life", "games/hanabi/rules.py",
      ("                self._lives -= 1\n", "                self._lives -= 0\n"), T_HANABI),
    m("hanabi: a discard gains no token", "games/hanabi/rules.py",
      ("        else:\n            self._hints += 1\n", "        else:\n            self._hints += 0\n"), T_HANABI),
    m("diplomacy map: army DEN-SWE missing one way", "games/diplomacy/mapdata.py",
      ("    'DEN': ('KIE', 'SWE'),\n", "    'DEN': ('KIE',),\n"), T_DIP_RULES),
    m("diplomacy map: fleet MAO-NAF missing both ways", "games/diplomacy/mapdata.py",
      [("    'MAO': ('BRE', 'ENG', 'GAS', 'IRI', 'NAF', 'NAO',", "    'MAO': ('BRE', 'ENG', 'GAS', 'IRI', 'NAO',"),
       ("    'NAF': ('MAO', 'TUN', 'WES'),\n", "    'NAF': ('TUN', 'WES'),\n")], T_DIP_RULES),
    m("diplomacy map: fleet GAS reaches SPA/SC instead of SPA/NC", "games/diplomacy/mapdata.py",
      [("    'GAS': ('BRE', 'MAO', 'SPA/NC'),\n", "    'GAS': ('BRE', 'MAO', 'SPA/SC'),\n"),
       ("    'SPA/NC': ('GAS', 'MAO', 'POR'),\n", "    'SPA/NC': ('MAO', 'POR'),\n"),
       ("    'SPA/SC': ('LYO', 'MAO', 'MAR', 'POR', 'WES'),\n", "    'SPA/SC': ('GAS', 'LYO', 'MAO', 'MAR', 'POR', 'WES'),\n")],
      T_DIP_RULES),
    m("diplomacy map: TUN not a supply centre", "games/diplomacy/mapdata.py",
      ("'SWE', 'TRI', 'TUN', 'VEN',", "'SWE', 'TRI', 'VEN',"), T_DIP_RULES),
    m("diplomacy map: Russia's home centres without STP", "games/diplomacy/mapdata.py",
      ("    'RUSSIA': ('MOS', 'SEV', 'STP', 'WAR'),\n", "    'RUSSIA': ('MOS', 'SEV', 'WAR'),\n"), T_DIP_RULES),
    m("diplomacy: a convoy chain may pass an empty sea (one fleet short)", "games/diplomacy/board.py",
      ("                elif (q in fleets and q not in chain and len(chain) < MAX_CONVOY",
       "                elif ((q in fleets or q in WATER) and q not in chain and len(chain) < MAX_CONVOY"),
      T_DIP_RULES),
    m("diplomacy: the adjudicator's chain ends one sea short of the coast", "games/diplomacy/adjudicator.py",
      [("        if f in goal:\n            return True\n", "        if f in goal or any(g in goal for g in FLEET_REACH[f]):\n            return True\n")],
      T_DIP_RULES),
    m("werewolves: the doctor's protection is ignored", "games/werewolves/rules.py",
      ("            savers = [d for d, t in protects if t == victim]\n", "            savers = []\n"), T_WW_RULES),
    m("risk: dice ties go to the attacker", "games/risk/dice.py",
      ("        if x > y:\n            lost_d += 1\n", "        if x >= y:\n            lost_d += 1\n"), T_RISK_RULES),
    m("dominoes: a blocked hand goes to the pair with more pips", "games/dominoes/rules.py",
      ("        return 0 if pair_pips[0] < pair_pips[1] else 1\n", "        return 0 if pair_pips[0] > pair_pips[1] else 1\n"),
      T_DOM_RULES),
    # bus/ --------------------------------------------------------------------------------------
    m("log: the index read skips the plain frames' crc32", "bus/log.py",
      [("def _frames(f: BinaryIO, pos: int) -> Iterator[tuple[int, bytes]]:",
        "def _frames(f: BinaryIO, pos: int, crc_check: bool = True) -> Iterator[tuple[int, bytes]]:"),
       ("        if zlib.crc32(payload) != crc:\n            raise ChecksumMismatch(pos, \"checksum mismatch\")",
        "        if crc_check and zlib.crc32(payload) != crc:\n            raise ChecksumMismatch(pos, \"checksum mismatch\")"),
       ("        for pos, payload in _frames(f, offset):", "        for pos, payload in _frames(f, offset, crc_check=False):")],
      T_LOG),
    m("log: no crc32 check on plain frames at all", "bus/log.py",
      ("        if zlib.crc32(payload) != crc:\n            raise ChecksumMismatch(pos, \"checksum mismatch\")",
       "        if False:\n            raise ChecksumMismatch(pos, \"checksum mismatch\")"), T_LOG),
    m("log: a torn tail one byte short is taken", "bus/log.py",
      ("        if len(payload) < length:\n", "        if len(payload) < length - 1:\n"), T_LOG),
    m("header: a record of another game is not named", "bus/header.py",
      ("    if record[\"game\"] != game_id:\n", "    if False:\n"), T_LOG),
    m("header: a repeated seq is accepted", "bus/header.py",
      ("    if seq <= last:\n", "    if seq < last:\n"), T_LOG + " tests/hostile/test_log_why.py"),
    m("bus: a wave's answers stamped in reverse order", "bus/bus.py",
      ("            for (seq, m), outs in zip(wave, outputs):\n", "            for (seq, m), outs in reversed(list(zip(wave, outputs))):\n"),
      T_BUS),
    m("bus: one answer's messages stamped in reverse order", "bus/bus.py",
      ("                for out in outs:\n                    self._post(out, seq, nxt)\n",
       "                for out in reversed(outs):\n                    self._post(out, seq, nxt)\n"), T_BUS),
    m("bus: a seat's answer stamped in reverse order", "bus/bus.py",
      ("        for out in outs:\n            if out.sender != actor:", "        for out in reversed(outs):\n            if out.sender != actor:"),
      T_BUS),
    m("bus: the next wave delivered in address order", "bus/bus.py",
      ("            wave = nxt\n", "            wave = sorted(nxt, key=lambda x: (x[1].to, x[0]))\n"), T_BUS),
    m("bus: a forged sender is delivered", "bus/bus.py",
      ("            if not isinstance(out, Message) or out.sender != actor.address:\n",
       "            if not isinstance(out, Message):\n"), T_BUS),
    m("bus: message_bytes limit twice as loose", "bus/bus.py",
      ("            if n > message_bytes:\n", "            if n > 2 * message_bytes:\n"), T_LIMITS),
    # actors/ -----------------------------------------------------------------------------------
    m("president: honesty ignored (every deal kept)", "actors/alpha/president.py",
      ("        if committed in legal and self.rng.random() < self.traits.honesty:\n",
       "        if committed in legal:\n"), T_ALPHA),
    m("president: honesty inverted", "actors/alpha/president.py",
      ("        if committed in legal and self.rng.random() < self.traits.honesty:\n",
       "        if committed in legal and self.rng.random() < 1.0 - self.traits.honesty:\n"), T_ALPHA),
    m("president: risk 0 takes the worst suggestion", "actors/alpha/president.py",
      ("        best = [s for s in suggestions if s.utility == top]\n", "        best = [s for s in suggestions if s.utility == floor]\n"),
      T_ALPHA),
    m("president: office answers taken whatever their turn", "actors/alpha/president.py",
      ("        if job is None or job.asked != (role, reply.task) or reply.turn != job.request.turn:\n",
       "        if job is None or job.asked != (role, reply.task):\n"), T_ALPHA),
    m("alphawolf: honesty ignored", "actors/werewolves/president.py",
      ("            if self.rng.random() < self.traits.honesty:\n                return committed\n",
       "            if True:\n                return committed\n"), T_ALPHA),
    m("alphadip: never breaks a paying deal", "actors/diplomacy/alphadip/president.py",
      ("                if self.rng.random() >= self.traits.honesty:\n", "                if self.rng.random() >= 1.0:\n"),
      T_ALPHA),
    m("actors: every actor's generator the same stream", "actors/actor.py",
      ('    return random.Random(f"detente/{seed}/{address}")\n', '    return random.Random(f"detente/{seed}")\n'),
      "tests/test_actor_rng.py tests/test_alpha.py"),
    m("hanabi agents: direct play stops after one step", "actors/hanabi/policies.py",
      ("    for _ in range(game.max_steps + 1):", "    for _ in range(2):"), "tests/hanabi/test_agents.py"),
    m("referee: no step bound", "actors/referee.py",
      ("            if self.step >= self.game.max_steps:\n", "            if False:\n"),
      "tests/test_verify_verdicts.py tests/conformance/test_rules_library.py"),
    # replay/ -----------------------------------------------------------------------------------
    m("verify: a record's last byte not compared", "replay/verify.py",
      ("        if payload != self.recorded[self.n]:\n", "        if payload[:-1] != self.recorded[self.n][:-1]:\n"), T_VERIFY),
    m("verify: a missing seq not named", "replay/verify.py",
      ("        if record[\"seq\"] != expected:\n", "        if record[\"seq\"] < expected:\n"), T_VERIFY),
    m("verify: a rerun past the recorded end reads beyond it", "replay/verify.py",
      ("        if self.n >= len(self.recorded):\n", "        if self.n > len(self.recorded):\n"), T_VERIFY),
    m("fold: the state at a seq leaves that record out", "replay/fold.py",
      ("        if at is not None and seq > at:\n", "        if at is not None and seq >= at:\n"), T_VERIFY),
    m("verify: a fork that changes no seat passes", "replay/verify.py",
      ("    if fork is not None and fork[\"before\"] == log.header[\"agents\"]:\n", "    if False:\n"), T_VERIFY),
    m("fold: digests not checked", "replay/fold.py",
      ("        if check and state.digest() != msg[\"digest\"]:\n", "        if False:\n"), T_VERIFY),
    m("fork: switches at the first batch at or before the seq asked", "replay/fork.py",
      ("            if start > at:\n", "            if start >= at - 5:\n"), "tests/test_fork.py"),
    # ops/ --------------------------------------------------------------------------------------
    m("tournament: game seeds ignore the base seed", "ops/tournament/spec.py",
      ('    digest = hashlib.blake2b(f"detente/{base}/{index}".encode(), digest_size=8).digest()\n',
       '    digest = hashlib.blake2b(f"detente/{index}".encode(), digest_size=8).digest()\n'), T_SPEC),
    m("tournament: permute_deal changes the seed every game", "ops/tournament/spec.py",
      ('        key = index // n if self.seating == "permute_deal" else index\n', "        key = index\n"), T_SPEC),
    m("tournament: seats not rotated", "ops/tournament/spec.py",
      ('        seated = seats if self.seating == "fixed" else rotate_teams(seats, self.teams(), index)\n',
       "        seated = seats\n"), T_SPEC),
    m("tournament: a rerun plays recorded games again", "ops/tournament/runner.py",
      ("        if i not in done:\n", "        if True:\n"), "tests/tournament/test_pending_batches.py tests/tournament/test_store_report.py"),
    m("report: the Wilson interval without its continuity term", "ops/tournament/report.py",
      ("    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)\n",
       "    half = Z95 * math.sqrt(p * (1 - p) / n) / (1 + z2 / n)\n"), T_SPEC + " tests/tournament/test_report_pages.py"),
    m("report: mean rank interval from the population variance", "ops/tournament/report.py",
      ("    var = math.fsum(c * (v - mean) ** 2 for v, c in pairs) / (n - 1)\n",
       "    var = math.fsum(c * (v - mean) ** 2 for v, c in pairs) / n\n"),
      T_SPEC + " tests/tournament/test_report_pages.py"),
    m("cli: verify of a failing game exits 0", "ops/cli.py",
      ("            print(f\"FAIL: {name}{verdict.message}\", file=sys.stderr)\n            return EXIT_FAILED\n",
       "            print(f\"FAIL: {name}{verdict.message}\", file=sys.stderr)\n            return 0\n"), T_CLI),
    m("files: the old file kept after a good write", "ops/files.py",
      ("        os.replace(tmp, target)\n", "        os.unlink(tmp)\n"), "tests/test_files.py tests/test_cli.py"),
]


# -- running -------------------------------------------------------------------------------------

@dataclass
class Fate:
    name: str
    area: str
    status: str  # killed, survived, timeout (killed), stale (snippet not found), baseline-fails
    seconds: float
    detail: str = ""


def _copy_repo(dest: Path, worktree: bool) -> None:
    """The repo's files into `dest`: HEAD's tree, or the working tree's tracked and untracked files."""
    dest.mkdir(parents=True)
    if not worktree:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
        return
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "-co", "--exclude-standard"],
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def _pytest(copy: Path, tests: tuple[str, ...]) -> tuple[int | None, float, str]:
    """Run `tests` in `copy`: (exit status or None on the run's time limit, seconds, output tail)."""
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1", "RAY_AUTH_MODE": "disabled"}
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
               f"--timeout={TEST_SECONDS}", *tests]
    t0 = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=RUN_SECONDS)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0, "run time limit"
    tail = (done.stdout + done.stderr).strip().splitlines()
    return done.returncode, time.perf_counter() - t0, tail[-1] if tail else ""


def _apply(copy: Path, mutant: Mutant) -> str | None:
    """Write the mutant into `copy`; the original text (None when a snippet is not found exactly once)."""
    path = copy / mutant.file
    original = path.read_text()
    text = original
    for old, new in mutant.edits:
        if text.count(old) != 1:
            return None
        text = text.replace(old, new)
    path.write_text(text)
    return original


def run_mutant(copy: Path, mutant: Mutant, baseline_ok: dict[tuple[str, ...], bool]) -> Fate:
    if not baseline_ok.get(mutant.tests, True):
        return Fate(mutant.name, mutant.area, "baseline-fails", 0.0, "its tests fail unmutated")
    original = _apply(copy, mutant)
    if original is None:
        return Fate(mutant.name, mutant.area, "stale", 0.0, "a snippet is not in the file exactly once")
    try:
        code, seconds, tail = _pytest(copy, mutant.tests)
    finally:
        (copy / mutant.file).write_text(original)
    if code is None:
        return Fate(mutant.name, mutant.area, "timeout", seconds, tail)
    if code in (0,):
        return Fate(mutant.name, mutant.area, "survived", seconds, tail)
    if code in (1, 2):  # tests failed, or collection broke (the mutant does not even import)
        return Fate(mutant.name, mutant.area, "killed", seconds, tail)
    return Fate(mutant.name, mutant.area, "error", seconds, f"pytest exit {code}: {tail}")


KILLED = ("killed", "timeout")
COUNTED = ("killed", "timeout", "survived")


def summary(fates: list[Fate]) -> list[str]:
    """Kill rate per area and overall, as table lines."""
    lines = [f"{'area':8} {'mutants':>7} {'killed':>6} {'rate':>6}"]
    for area in (*AREAS, "overall"):
        mine = [f for f in fates if (area == "overall" or f.area == area) and f.status in COUNTED]
        if not mine:
            continue
        killed = sum(f.status in KILLED for f in mine)
        lines.append(f"{area:8} {len(mine):7d} {killed:6d} {killed / len(mine):6.1%}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--area", choices=AREAS, action="append", help="only the mutants of this area (repeatable)")
    parser.add_argument("--only", action="append", help="only mutants whose name contains this (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the mutants and check their snippets; run nothing")
    parser.add_argument("--worktree", action="store_true", help="copy the working tree (uncommitted files too), not HEAD")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy")
    parser.add_argument("--json", help="write every mutant's fate here")
    parser.add_argument("--tests", nargs="+", help="run these tests for every chosen mutant instead of its area's "
                        "(does one test alone catch a bug?)")
    args = parser.parse_args(argv)
    chosen = [x for x in MUTANTS if (not args.area or x.area in args.area)
              and (not args.only or any(o in x.name for o in args.only))]
    if args.tests:
        chosen = [Mutant(x.name, x.file, x.edits, tuple(args.tests)) for x in chosen]
    base = Path(tempfile.mkdtemp(prefix="detente-mutants-"))
    copy = base / "repo"
    try:
        _copy_repo(copy, args.worktree)
        if args.list:
            for x in chosen:
                text = (copy / x.file).read_text()
                ok = all(text.count(old) == 1 for old, _ in x.edits)
                print(f"{x.area:7} {'ok   ' if ok else 'STALE'} {x.name}  [{' '.join(x.tests)}]")
            print(f"{len(chosen)} mutants; per area: " + ", ".join(f"{a} {sum(x.area == a for x in chosen)}" for a in AREAS))
            return 0
        baseline_ok: dict[tuple[str, ...], bool] = {}
        for tests in sorted({x.tests for x in chosen}):
            code, seconds, tail = _pytest(copy, tests)
            baseline_ok[tests] = code == 0
            print(f"baseline {'ok  ' if code == 0 else 'FAIL'} {seconds:6.1f}s {' '.join(tests)}"
                  + ("" if code == 0 else f": {tail}"), flush=True)
        fates = []
        for x in chosen:
            fate = run_mutant(copy, x, baseline_ok)
            fates.append(fate)
            print(f"{fate.status:14} {fate.seconds:6.1f}s {x.area:7} {x.name}"
                  + (f"  ({fate.detail})" if fate.status not in KILLED else ""), flush=True)
        print()
        print("\n".join(summary(fates)))
        left = [f for f in fates if f.status not in COUNTED]
        if left:
            print(f"not counted: {len(left)} ({', '.join(f'{f.name}: {f.status}' for f in left)})")
        if args.json:
            Path(args.json).write_text(json.dumps([asdict(f) for f in fates], indent=1))
    finally:
        if args.keep:
            print(f"copy kept in {copy}")
        else:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
