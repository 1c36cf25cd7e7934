"""External agents' games are logged, verified without the agent, forked both ways, and their
headers keep no secret: the agent protocol's replay guarantees."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path


from actors.registry import parse_lineup, parse_spec
from bus.codec import pack_record, unpack
from bus.log import LogWriter, parse_log, read_log
from ops.cli import main
from replay.verify import verify_game
from replay.walk import walk
from tests.external.conftest import HERE, exec_spec, misbehaving, play_game

GOOD = misbehaving("good")


def test_specs_keep_json_values_whole():
    spec = parse_spec('exec:cmd=["node","a.js","--x=1;2"];timeout=2.5;env={"A":"b,c"}')
    assert spec.options == {"cmd": ["node", "a.js", "--x=1;2"], "timeout": 2.5, "env": {"A": "b,c"}}
    seats = parse_lineup('exec:cmd=["node","a.js"],random', 2)
    assert [s.name for s in seats] == ["exec", "random"]
    office = parse_spec('alphawolf:fo=exec:cmd=["node","a.js","--fo"];offices=so+fo+io')
    assert office.options["fo"] == {"name": "exec", "options": {"cmd": ["node", "a.js", "--fo"]}}
    assert office.options["offices"] == "so+fo+io"


def test_cli_play_then_verify_without_the_program(tmp_path, capsys, monkeypatch):
    """The log verifies with the agent's program gone from PATH: its answers come from the log."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "agent-python").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    log = tmp_path / "h.log"
    spec = f'exec:cmd=["agent-python","{HERE / "misbehaving.py"}","good"]'
    assert main(["play", "hanabi", "--seed", "5", "--agents", spec, "--log", str(log)]) == 0
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    (bin_dir / "agent-python").unlink()
    capsys.readouterr()
    assert main(["replay", "verify", str(log)]) == 0
    out = capsys.readouterr().out
    assert "answers of external agents taken from the log" in out and "p0 'misbehaving-good'" in out


def test_a_changed_answer_is_caught(tmp_path):
    data, game = play_game("hanabi", f"{GOOD},random", seed=4)
    acts = [i for i, r in enumerate(game.records) if r["msg"]["kind"] == "act" and r["msg"]["sender"] == "p0"]
    for i, action in ((acts[1], "no-such-move"), (acts[1], None)):
        record = game.records[i]
        msg = dict(record["msg"])
        if action is None:  # another legal action of the same request
            request = next(s.msg for s in walk(game) if s.seq == record["cause"])  # format 4: the walk gives its legal
            action = next(a for a in request["legal"] if a != msg["action"])
        assert unpack(game.payloads[i]) == {k: record[k] for k in ("game", "seq", "cause")} | {"msg": record["msg"]}
        msg["action"] = action
        buf = io.BytesIO()
        writer = LogWriter(buf)
        writer.header(game.header)
        for j, payload in enumerate(game.payloads):
            writer.record(pack_record(record["game"], record["seq"], record["cause"], msg) if j == i else payload)
        writer.end_game()
        tampered = parse_log(buf.getvalue()).games[0]
        verdict = verify_game(tampered)
        assert not verdict.ok and verdict.seq is not None and verdict.seq > record["seq"] - 1, verdict.message


def test_fork_hands_an_external_seat_to_a_builtin_agent_and_back(tmp_path, capsys):
    log = tmp_path / "g.log"
    assert main(["play", "hanabi", "--seed", "3", "--agents", f"{GOOD},random", "--log", str(log)]) == 0
    out = tmp_path / "f.log"
    assert main(["replay", "fork", str(log), "--at", "6", "--agents", "random", "--out", str(out)]) == 0
    assert main(["replay", "verify", str(out)]) == 0
    fork = read_log(out).games[0]
    assert fork.header["fork"]["before"][0]["name"] == "exec" and "p0" in fork.header["external"]
    # a built-in seat handed to an external agent
    log2 = tmp_path / "r.log"
    assert main(["play", "hanabi", "--seed", "3", "--agents", "random", "--log", str(log2)]) == 0
    out2 = tmp_path / "f2.log"
    assert main(["replay", "fork", str(log2), "--at", "6", "--agents", f"{GOOD},random", "--out", str(out2)]) == 0
    capsys.readouterr()
    assert main(["replay", "verify", str(out2)]) == 0
    assert "p0 'misbehaving-good'" in capsys.readouterr().out
    forked = read_log(out2).games[0]
    after = [r for r in forked.records if r["msg"]["sender"] == "p0" and r["seq"] > forked.header["fork"]["at"]]
    assert after, "the external agent played after the switch"


def test_the_header_keeps_no_token_no_outside_path_no_environment_value(tmp_path, monkeypatch):
    sys.path.insert(0, str(Path("ops/examples/agents/python").resolve()))
    import ws_random_agent

    server, url = ws_random_agent.start(token="t0ken-s3cret")
    monkeypatch.setenv("DETENTE_TEST_TOKEN", "t0ken-s3cret")
    try:
        data, game = play_game("hanabi", f"ws:url={url};token_env=DETENTE_TEST_TOKEN,"
                                         + exec_spec(str(HERE / "misbehaving.py"), "good", env={"SECRET": "v4lue"}))
    finally:
        server.shutdown()
    assert b"t0ken-s3cret" not in data and b"v4lue" not in data
    assert str(HERE).encode() not in data or HERE.is_relative_to(Path.cwd())
    assert game.header["external"]["p0"]["name"] == "ws-random" and game.header["agents"][1]["options"]["env"] == {"SECRET": "<set>"}
    assert verify_game(game).ok


def test_ws_and_exec_make_the_same_records(monkeypatch):
    """The transport is not in the records: the same policy over a WebSocket and over a pipe."""
    sys.path.insert(0, str(Path("ops/examples/agents/python").resolve()))
    import ws_random_agent

    server, url = ws_random_agent.start()
    try:
        _, over_ws = play_game("dominoes", f"ws:url={url}", seed=2, options={"target": 10})
    finally:
        server.shutdown()
    wrapper = Path(__file__).with_name("ws_policy_on_stdin.py")
    _, over_pipe = play_game("dominoes", exec_spec(str(wrapper)), seed=2, options={"target": 10})
    assert [r["msg"] for r in over_ws.records] == [r["msg"] for r in over_pipe.records]


def test_the_shipped_schema_is_the_models_schema():
    from actors.external.protocol import schema

    shipped = json.loads(Path("actors/external/schema.json").read_text())
    assert shipped == json.loads(json.dumps(schema())), "regenerate: python -m actors.external.schema"
    kinds = {s["properties"]["kind"]["const"] for s in shipped["to_agent"]["$defs"].values() if "kind" in s.get("properties", {})}
    assert {"hello", "game_start", "act_request", "talk_turn", "heard", "office_request", "game_end", "bye"} <= kinds
    assert "say" in shipped["talk_items"] and "ww_propose" in shipped["talk_items"]


def test_what_the_schema_says_is_always_sent_is_sent(tmp_path):
    """The schema requires `legal` and `observation` in every act request and `observation` in every
    talk turn (the log leaves them out; an agent of the protocol is always sent them): a talking
    Werewolves seat over exec is sent them, every time, as the schema's types."""
    shipped = json.loads(Path("actors/external/schema.json").read_text())["to_agent"]["$defs"]
    required = {"act_request": shipped["ActRequest"]["required"], "talk_turn": shipped["TalkTurn"]["required"]}
    assert {"legal", "observation"} <= set(required["act_request"]) and "observation" in required["talk_turn"]
    heard = tmp_path / "heard.jsonl"
    talker = exec_spec(str(Path(__file__).with_name("talker.py")), str(heard))
    play_game("werewolves", ",".join([talker] + ["random"] * 4), seed=3, options={"players": 5})
    sent = [json.loads(line) for line in heard.read_text().splitlines()]
    counted = {"act_request": 0, "talk_turn": 0}
    for msg in sent:
        if msg["kind"] in required:
            counted[msg["kind"]] += 1
            assert all(field in msg for field in required[msg["kind"]]), msg
            assert isinstance(msg["observation"], dict) and msg["observation"]
            if msg["kind"] == "act_request":
                assert isinstance(msg["legal"], list) and msg["legal"]
    assert counted["act_request"] > 0 and counted["talk_turn"] > 0, counted
