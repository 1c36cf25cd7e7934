"""The reference clients of the agent protocol (ops/examples/agents: JavaScript, Java, standalone
Python) run as real processes.

First spoken to directly, this test standing in for detente: the handshake, real requests made
from real game states (every action the client picks is applied by the game's own rules), the
notices, one line per request and nothing else on stdout, the same game giving the same answers,
exit on `bye` and on the end of stdin. Then end to end through the CLI: each client plays Hanabi,
Dominoes, Battle Line and Werewolves and `replay verify` passes with the client's program gone
from PATH; the JavaScript client serves as the Foreign Office of an AlphaWolf seat.

Node and a JDK are needed: where one is missing the tests that need it are skipped, and fail with
a clear message under CI (`CI` set), where both must be installed.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from actors.external.protocol import GameStart, Hello, encode, encode_message, parse_answer, parse_hello
from bus.log import parse_log
from bus.messages import LOG, REFEREE, ActRequest, GameEnd, Heard, Line, OfficeRequest, TalkTurn
from games.api import Say
from games.registry import get_game
from ops.cli import main
from replay.transcript import transcript
from replay.verify import verify_game
from tests.external.conftest import play_game

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ROOT / "ops" / "examples" / "agents"
JS = AGENTS / "js" / "random.js"
JAVA = AGENTS / "java" / "RandomAgent.java"
PY = AGENTS / "python" / "random_agent.py"
CLIENTS = ("js", "java", "python")
WAIT = 20.0  # seconds for one answer (a cold JVM on a busy 2-core box takes about one)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def need(tool: str) -> str:
    """The path of `tool`; a skip where it is missing, a failure under CI (which installs it)."""
    path = shutil.which(tool)
    if path is None:
        why = (f"'{tool}' is not on PATH: the agent protocol's reference clients need Node.js (node) and a JDK "
               f"(javac, java); Debian: apt-get install nodejs default-jdk-headless")
        if in_ci():
            pytest.fail(f"CI: {why}")
        pytest.skip(why)
    return path


@pytest.fixture(scope="module")
def java_classes(tmp_path_factory) -> Path:
    """RandomAgent.java compiled with javac into a folder of its own (once for the module)."""
    need("javac")
    need("java")
    out = tmp_path_factory.mktemp("java-classes")
    subprocess.run(["javac", "-d", str(out), str(JAVA)], check=True, timeout=120, capture_output=True)
    return out


@pytest.fixture
def command(request) -> list[str]:
    """The argument list that runs the client named by the test's `client` parameter."""
    client = request.getfixturevalue("client")
    if client == "js":
        return [need("node"), str(JS)]
    if client == "java":
        return [need("java"), "-cp", str(request.getfixturevalue("java_classes")), "RandomAgent"]
    return [sys.executable, str(PY)]


# -- speaking the protocol to a client directly -----------------------------------------------------


class Client:
    """A client process spoken to over its stdin and stdout, as the exec transport does."""

    def __init__(self, cmd: list[str], address: str = "p0", role: str = "player"):
        self.address = address
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.buf = b""

    def send(self, line: bytes) -> None:
        self.proc.stdin.write(line)
        self.proc.stdin.flush()

    def line(self, wait: float = WAIT) -> bytes:
        """The next line the client writes (fails after `wait` seconds without one)."""
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + wait
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(0.0, left))
            if not ready:
                pytest.fail(f"no line from {self.proc.args} within {wait:g} s")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                pytest.fail(f"{self.proc.args} closed its stdout; stderr: {self.stderr()}")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line + b"\n"

    def ask(self, message) -> list:
        """Send one delivered message, read its one answer line, parse it as detente does."""
        self.send(encode_message(message))
        return parse_answer(self.line(), self.address, message)

    def stderr(self) -> str:
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "(still running)"
        return self.proc.stderr.read().decode("utf-8", "replace")[-500:]

    def finish(self, wait: float = WAIT) -> tuple[int, bytes]:
        """(exit status, whatever more it wrote to stdout) once it has exited by itself."""
        try:
            self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"{self.proc.args} did not exit within {wait:g} s")
        return self.proc.returncode, self.buf + self.proc.stdout.read()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                pipe.close()
            except OSError:  # stdin's buffer may hold what a dead process never read
                pass


def greet(client: Client, address: str = "p0", role: str = "player"):
    client.send(encode(Hello(detente="0.1.0", address=address, role=role).model_dump()))
    return parse_hello(client.line())


def start_game(client: Client, game: str, seed: int, seat: int, players: int, options: dict, role: str = "player"):
    notice = GameStart(game=game, game_id=f"{game}-{seed}", seed=seed, seat=seat, address=client.address,
                       role=role, players=players, options=options)
    client.send(encode(notice.model_dump()))


@pytest.mark.parametrize("client", CLIENTS)
def test_a_whole_hanabi_game_spoken_to_directly(client, command):
    """Two processes of the client play a real two-player Hanabi game refereed by this test: the
    handshake, an act_request per decision with the seat's real observation and legal actions
    (the rules apply every answer), a heard, a talk turn and an office request answered in one
    line each, the game_end notice, then `bye`: each process exits with status 0, having written
    nothing else on stdout."""
    game = get_game("hanabi")
    options = game.options({})
    players = game.num_players(options)
    seats = [Client(command, f"p{seat}") for seat in range(players)]
    try:
        for seat, agent in enumerate(seats):
            hello = greet(agent, agent.address)
            assert hello.protocol == 1 and hello.name.startswith("random-") and hello.version
            assert "player" in hello.plays.roles and hello.plays.games == ["*"]
            start_game(agent, "hanabi", 7, seat, players, options.model_dump(mode="json"))
        state = game.new_initial_state(options)
        dice = random.Random(7)
        turn = 0
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(dice))
                continue
            actions = {}
            for p in state.current_players():
                legal = tuple(state.legal_actions(p))
                request = ActRequest(sender=REFEREE, to=f"p{p}", turn=turn, player=p, legal=legal,
                                     observation=state.observation(p))
                answer = seats[p].ask(request)
                assert [m.kind for m in answer] == ["act"] and answer[0].turn == turn
                assert answer[0].sender == f"p{p}" and answer[0].to == REFEREE
                assert answer[0].action in legal
                actions[p] = answer[0].action
            state.apply_actions(actions)  # the rules' own check: raises on an illegal action
            turn += 1
        assert turn >= 3  # random play bombs out early, but only after a few decisions
        agent = seats[0]
        heard = Heard(sender=REFEREE, to="p0", turn=turn, channel="table", round=0,
                      lines=(Line(speaker=1, says=(Say(text="bonjour, ça va ?"),)),))
        assert agent.ask(heard) == []
        talk = agent.ask(TalkTurn(sender=REFEREE, to="p0", turn=turn, channel="table", round=0, max_rounds=2,
                                  members=(0, 1), observation=state.observation(0)))
        assert [(m.kind, m.turn, m.channel, m.round, m.says) for m in talk] == [("talk", turn, "table", 0, ())]
        office = agent.ask(OfficeRequest(sender="p0", to="p0", task="suggest", turn=turn,
                                         view={"observation": state.observation(0)}, legal=("a", "b")))
        assert [(m.kind, m.task, m.turn, m.to) for m in office] == [("office_reply", "suggest", turn, "p0")]
        outcome = state.outcome()
        end = GameEnd(sender=REFEREE, to=LOG, returns=outcome.returns, winners=outcome.winners,
                      summary=outcome.summary, steps=turn, digest=state.digest())
        for agent in seats:
            agent.send(encode(end.model_dump(mode="json")))
            agent.send(encode({"kind": "bye"}))
        for agent in seats:
            status, rest = agent.finish()
            assert status == 0 and rest == b"", f"after bye: status {status}, stdout {rest[:200]!r}"
    finally:
        for agent in seats:
            agent.kill()


def _answers(command: list[str], seed: int, requests: list[ActRequest]) -> list[str]:
    agent = Client(command)
    try:
        greet(agent)
        start_game(agent, "dominoes", seed, 0, 4, {})
        return [agent.ask(r)[0].action for r in requests]
    finally:
        agent.kill()


@pytest.mark.parametrize("client", CLIENTS)
def test_the_same_game_gets_the_same_answers(client, command):
    """Answers are drawn from a generator seeded by game_start's seed and seat: two processes
    given the same game answer alike; another seed answers otherwise (40 choices of 1 in 20)."""
    legal = tuple(f"move:{i:02d}" for i in range(20))
    requests = [ActRequest(sender=REFEREE, to="p0", turn=t, player=0, legal=legal, observation={"t": t})
                for t in range(40)]
    first = _answers(command, 11, requests)
    assert _answers(command, 11, requests) == first
    assert _answers(command, 12, requests) != first
    assert len(set(first)) > 5


@pytest.mark.parametrize("client", CLIENTS)
def test_exits_at_the_end_of_stdin(client, command):
    agent = Client(command)
    try:
        greet(agent)
        agent.proc.stdin.close()
        status, rest = agent.finish()
        assert status == 0 and rest == b""
    finally:
        agent.kill()


def test_the_js_foreign_office_answers_other_tasks_empty_and_closes_on_its_deals():
    """As an office (role "fo" from the hello, no --fo needed): a task it does not do gets an
    empty office_reply for that task and turn; at the decision (`talk.closing`) the joint vote its
    heard talk binds it to becomes the President's commitment for the turn."""
    agent = Client([need("node"), str(JS)], "p2/fo")
    try:
        hello = greet(agent, "p2/fo", "fo")
        assert "fo" in hello.plays.roles
        start_game(agent, "werewolves", 3, 2, 5, {}, role="fo")
        obs = {"me": 2, "role": "villager", "phase": "day", "day": 1, "num_players": 5, "alive": [0, 1, 2, 3, 4],
               "candidates": [], "known_roles": {"2": "villager"}, "winner": None}
        other = agent.ask(OfficeRequest(sender="p2", to="p2/fo", task="suggest", turn=4, view={}, legal=()))
        assert [(m.task, m.turn, m.says, m.updates) for m in other] == [("suggest", 4, (), ())]
        inbox = [  # p3 proposed a joint vote against p4 in round 0; p2 accepted it in round 1
            {"turn": 4, "channel": "public", "round": 0, "day": 1, "phase": "day", "speaker": 3,
             "says": [{"kind": "ww_propose", "proposal_id": 16, "deal": "joint_vote", "target": 4}]},
            {"turn": 4, "channel": "public", "round": 1, "day": 1, "phase": "day", "speaker": 2,
             "says": [{"kind": "ww_accept", "proposal_id": 16, "proposer": 3}]},
        ]
        legal = tuple(f"vote:{q}" for q in (0, 1, 3, 4)) + ("abstain",)
        closing = OfficeRequest(sender="p2", to="p2/fo", task="negotiate", turn=4, legal=legal,
                                view={"seat": 2, "observation": obs, "inbox": inbox, "deals": {"current": {"turn": 4}},
                                      "talk": {"closing": True}})
        [reply] = agent.ask(closing)
        assert reply.says == () and [(u.path, u.value) for u in reply.updates] == [(("commitments", "4"), "vote:4")]
        unbound = closing.model_copy(update={"view": {**closing.view, "inbox": inbox[:1]}})
        assert agent.ask(unbound)[0].updates == ()
        agent.send(encode({"kind": "bye"}))
        assert agent.finish() == (0, b"")
    finally:
        agent.kill()


# -- end to end: detente runs the clients ------------------------------------------------------------

E2E = {  # game -> (options, lineup around the client in seat 0, seed)
    "hanabi": ([], "{c},{c}", 5),
    "dominoes": ([], "{c},random,random,random", 5),
    "battleline": ([], "{c},random", 5),
    "werewolves": (["--option", "players=6"], "{c},random,random,random,random,random", 5),
}


@pytest.mark.parametrize("game", sorted(E2E))
@pytest.mark.parametrize("client", CLIENTS)
def test_plays_through_the_cli_and_verifies_without_the_program(client, game, command, tmp_path, capsys,
                                                               monkeypatch):
    options, lineup, seed = E2E[game]
    spec = "exec:cmd=" + json.dumps(command) + ';stderr="discard"'
    log = tmp_path / f"{game}.log"
    assert main(["play", game, "--seed", str(seed), "--agents", lineup.format(c=spec), "--log", str(log),
                 *options]) == 0
    capsys.readouterr()
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))  # no node, no java: answers from the log
    assert main(["replay", "verify", str(log)]) == 0
    out = capsys.readouterr().out
    name = {"js": "random-js", "java": "random-java", "python": "random-py"}[client]
    assert f"p0 '{name}'" in out and "answers of external agents taken from the log" in out
    taken = int(out.split("; ", 1)[1].split(" answers", 1)[0])
    assert taken > 0
    [played] = parse_log(log.read_bytes()).games
    assert [r["msg"] for r in played.records if r["msg"]["kind"] == "error"] == []  # every answer was taken


def test_js_foreign_office_of_an_alphawolf_seat():
    """The JavaScript client as the Foreign Office of AlphaWolf seat 0 among six built-in
    AlphaWolf seats: its joint votes are in the deal ledger (proposed every day, some accepted and
    binding), its free text is in the transcript, the commitment it hands the President is the
    vote its deals bind it to, the other seats' trust in it moves, the game verifies, and played
    again it gives the same log bytes."""
    node = need("node")
    fo = "alphawolf:fo=exec:cmd=" + json.dumps([node, str(JS), "--fo"])
    data, log = play_game("werewolves", ",".join([fo] + ["alphawolf"] * 6), seed=3, options={"players": 7})
    again, _ = play_game("werewolves", ",".join([fo] + ["alphawolf"] * 6), seed=3, options={"players": 7})
    assert again == data, "the same game again (the same process, re-seeded by game_start): the same bytes"
    verdict = verify_game(log)
    assert verdict.ok, verdict
    errors = [r["msg"] for r in log.records if r["msg"]["kind"] == "error" and r["msg"]["actor"].startswith("p0")]
    assert errors == []
    text, data = transcript(log)
    days = [p for p in data["phases"] if p["phase"] == "day"]
    mine = [d for p in days for d in p["deals"] if d["proposer"] == 0]
    assert len(mine) == len(days) and all(d["deal"] == "joint_vote" for d in mine)
    accepted = [d for p in days for d in p["deals"] if d["proposer"] != 0 and any(a == 0 for a, _ in d["accepts"])]
    assert accepted, "the Foreign Office accepted someone's joint vote"
    bound = [(p, d) for p in days for d in p["deals"] if 0 in d["bound"]]
    assert bound, "a joint vote bound seat 0"
    for phase, deal in bound:
        assert phase["commitments"].get("0") == f"vote:{deal['target']}"
    said = [t for p in data["phases"] for t in p["talk"] if t["speaker"] == 0 and t["kind"] == "say"]
    assert len(said) >= len(days) and all(t["text"] in text for t in said)
    trust = [pt["value"] for pt in data["beliefs"]["points"] if pt["subject"] == "p0" and pt["quantity"] == "trust"]
    assert trust and any(v != 1.0 for v in trust), "the other seats' trust in seat 0 moved from neutral"


def test_js_foreign_office_of_a_werewolf_bids_with_its_pack():
    """As a werewolf's Foreign Office it bids on the wolves' channel; the pack's sealed-bid winner
    becomes its commitment, as it becomes the built-in wolf's."""
    node = need("node")
    lineup = ["alphawolf"] * 7
    lineup[1] = "alphawolf:fo=exec:cmd=" + json.dumps([node, str(JS), "--fo"])
    _, log = play_game("werewolves", ",".join(lineup), seed=1, options={"players": 7})
    assert verify_game(log).ok
    _, data = transcript(log)
    assert data["roles"][1] == "werewolf"
    nights = [p for p in data["phases"] if p["phase"] == "night" and any(t["kind"] == "ww_bid" for t in p["talk"])]
    assert nights
    for night in nights:
        bids = [t for t in night["talk"] if t["kind"] == "ww_bid"]
        assert any(t["speaker"] == 1 and t["channel"] == "wolves" for t in bids)
        totals: dict[int, float] = {}
        for t in bids:
            totals[t["target"]] = totals.get(t["target"], 0.0) + t["preference"]
        winner = min(totals, key=lambda q: (-totals[q], q))
        assert night["commitments"].get("1") == f"attack:{winner}"
