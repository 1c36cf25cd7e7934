"""The header's `env` (bus.environment): where a log was made, as information, and verify's one-line
divergence naming both environments (issue "portable logs")."""

from __future__ import annotations

import platform
from importlib import metadata

import pytest

from bus.codec import pack, unpack
from bus.environment import comparable, describe, divergence_note, environment
from bus.errors import BadHeader
from bus.header import check_header
from bus.log import parse_log
from replay.verify import verify_game
from tests.hostile.logs import payloads_of, plain
from tests.play import play_bytes

OTHER_PYTHON = "CPython 3.12.1" if platform.python_version().startswith("3.13") else "CPython 3.13.0"
ELSEWHERE = {"python": OTHER_PYTHON, "msgpack": "1.1.0", "pydantic": "2.10.0"}


def _with_header(data: bytes, **changes) -> bytes:
    payloads = payloads_of(data)
    header = unpack(payloads[0])
    header.update(changes)
    return plain([pack(header), *payloads[1:]])


def test_a_new_header_names_this_interpreter_and_the_core_libraries():
    header = parse_log(play_bytes("hanabi", 2)).games[0].header
    assert header["env"] == {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "msgpack": metadata.version("msgpack"),
        "pydantic": metadata.version("pydantic"),
    }
    assert list(header)[-1] == "env"


def test_a_plugin_names_the_libraries_that_can_change_its_results():
    assert environment(("no-such-distribution-xyz",))["no-such-distribution-xyz"] == "absent"
    assert "numpy" not in environment()


@pytest.mark.parametrize("env", [{"python": 3.11}, {"": "x"}, {"python": "x" * 65}, {str(i): "1" for i in range(17)}, ["CPython"]])
def test_a_malformed_env_is_a_bad_header(env):
    header = unpack(payloads_of(play_bytes("hanabi", 2))[0])
    header["env"] = env
    with pytest.raises(BadHeader, match="env"):
        check_header(header)


def test_only_env_differs_between_environments():
    """The same seed under another interpreter: comparable() sets env aside, nothing else."""
    here = play_bytes("werewolves", 3)
    there = _with_header(here, env=ELSEWHERE)
    assert here != there and comparable(here) == comparable(there)
    other_seed = play_bytes("werewolves", 4)
    assert comparable(other_seed) != comparable(here)
    assert verify_game(parse_log(there).games[0]).ok  # env is information: nothing is rebuilt from it


def test_a_divergence_is_one_line_naming_the_seq_and_both_environments():
    """The recorded lineup changed under a header that says another interpreter made it: the rules
    still fold (the records are the rules' own), the agents no longer reproduce them."""
    data = play_bytes("hanabi", 5, "random")
    lineup = [{"name": "rational", "options": {}}, {"name": "random", "options": {}}]
    verdict = verify_game(parse_log(_with_header(data, agents=lineup, env=ELSEWHERE)).games[0])
    assert not verdict.ok and "\n" not in verdict.message
    assert verdict.message.startswith(f"diverges at seq {verdict.seq} (")
    assert f"recorded under {OTHER_PYTHON}, msgpack 1.1.0, pydantic 2.10.0" in verdict.message
    assert f"replayed under {describe(environment())}" in verdict.message
    assert "the environments differ (msgpack, pydantic, python)" in verdict.message

    same = verify_game(parse_log(_with_header(data, agents=lineup)).games[0])
    assert same.seq == verdict.seq and "same environment" in same.message and "not the interpreter" in same.message


def test_an_older_log_without_env_says_so():
    assert "does not name" in divergence_note(None, environment())
    data = _with_header(play_bytes("hanabi", 5), agents=[{"name": "rational", "options": {}}] * 2)
    payloads = payloads_of(data)
    header = unpack(payloads[0])
    del header["env"]
    verdict = verify_game(parse_log(plain([pack(header), *payloads[1:]])).games[0])
    assert not verdict.ok and "written before headers recorded one" in verdict.message


def test_comparable_refuses_what_it_cannot_compare():
    with pytest.raises(ValueError, match="not a detente log"):
        comparable(b"hello")
    with pytest.raises(ValueError, match="torn"):
        comparable(play_bytes("hanabi", 2)[:-3])
