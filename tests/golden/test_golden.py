"""Golden logs: seeded games of every agent give the same bytes as when they were recorded.

Bytes are compared with each header's `env` set aside (`comparable`): it names the interpreter
that made the log, the one part of a log that differs between Pythons. A failure here means a
change altered log bytes. If that was meant (a new record field, new result
words), re-baseline in its own commit with `python -m tests.golden.cases` and list what changed.
"""

from __future__ import annotations

import json

import pytest

from bus.log import parse_log
from replay.verify import verify_game
from tests.golden.cases import CASES, HERE, comparable, record_case, sha256

MANIFEST = json.loads((HERE / "manifest.json").read_text())


def test_every_agent_has_a_golden_game():
    from actors.registry import agent_names

    from actors.registry import split_outside

    covered = {spec.split(":")[0] for _, _, agents, _, _ in CASES for spec in split_outside(agents, ",")}
    # agents of the optional extras (numpy, open_spiel), which the light interpreter venvs lack:
    # tests/bridges and the agent conformance suite check their games' bytes under two hash seeds instead
    extras = {"policy", "openspiel-mcts", "openspiel-cfr"}
    # the language-model agent (the llm extra): its model_call records hold each call's measured
    # latency, so no two recordings are the same bytes; tests/llm verify its logs without the model
    extras.add("llm")
    assert covered | {"ws"} == set(agent_names()) - extras  # ws: see cases.py
    assert sorted(MANIFEST) == sorted(case[0] for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_same_bytes_as_recorded(case):
    data = comparable(record_case(case))
    assert sha256(data) == MANIFEST[case[0]], f"{case[0]}: log bytes changed (re-baseline in its own commit if meant)"
    assert comparable((HERE / f"{case[0]}.log").read_bytes()) == data


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_committed_log_reads_and_verifies(case):
    """A log written in an earlier commit keeps reading and verifying."""
    log = parse_log((HERE / f"{case[0]}.log").read_bytes())
    assert log.bad is None and len(log.games) == 1
    verdict = verify_game(log.games[0])
    assert verdict.ok, verdict.message


OLDER = sorted((HERE / "older").glob("*.log"))


@pytest.mark.parametrize("path", OLDER, ids=[p.stem for p in OLDER])
def test_logs_of_earlier_commits_keep_reading(path):
    """Logs written before a byte change (here: format 2 before typed ranks/roles/teams in
    game_end) still read, fold through the rules with every digest checked, and give a transcript."""
    from replay.fold import fold
    from replay.transcript import transcript

    log = parse_log(path.read_bytes())
    assert log.bad is None and len(log.games) == 1 and log.games[0].complete
    folded = fold(log.games[0])  # raises on any digest the rules no longer reproduce
    assert folded.state.is_terminal()
    text, data = transcript(log.games[0])
    assert text and "points" in data["beliefs"]
