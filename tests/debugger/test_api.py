"""The debugger's JSON API over HTTP: answers for one game, the point of view checked against the
log, the tournament list and its filters, bad input (4xx, one line, never a traceback), and the
server's guards (Host header, token, Origin, paths)."""

from __future__ import annotations

import shutil

import pytest

from bus.log import read_log
from ops.debugger.source import SourceError, open_source
from replay.fold import fold
from replay.verify import verify_game
from tests.debugger.checks import assert_only_observed, view_answers
from tests.debugger.conftest import GAMES, golden


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_answers_every_view(serve, name):
    s = serve(golden(name))
    log = read_log(golden(name)).games[0]
    gid = log.header["game_id"]
    meta = s.get(f"/api/game/{gid}")
    assert meta["game"] == name and meta["last"] == log.records[-1]["seq"] and len(meta["seqs"]) == len(log.records)
    assert meta["phases"] and meta["phases"][0]["seq"] == 0 and meta["has_board"]
    assert meta["marks"]["trust"], "every one of these games has an Intelligence Office"
    assert meta["beliefs"]["points"], "each Intelligence Office's estimates are plotted"
    for q in meta["beliefs"]["scales"].values():
        assert {"quantity", "lo", "hi", "higher"} <= set(q)
    mid = meta["seqs"][len(meta["seqs"]) // 2]
    at = s.get(f"/api/game/{gid}/at/{mid}")
    assert at["board"].startswith("<svg") and at["seq"] == mid
    msgs = s.get(f"/api/game/{gid}/messages?around={mid}&before=5&after=5")
    assert [m["seq"] for m in msgs["messages"]] == list(range(mid - 5, mid + 6))
    # filters: by actor (an address and its offices), by kind
    p0 = s.get(f"/api/game/{gid}/messages?around=0&after=400&actor=p0")["messages"]
    assert p0 and all("p0" in (m["sender"].split("/")[0], m["to"].split("/")[0]) for m in p0)
    kinds = s.get(f"/api/game/{gid}/messages?around=0&after=400&kind=kb_change")["messages"]
    assert kinds and {m["kind"] for m in kinds} == {"kb_change"}
    # a trust point's seq is its IO update: the detail there holds its KB diff
    seq, observer = meta["beliefs"]["points"][len(meta["beliefs"]["points"]) // 2][:2]
    detail = s.get(f"/api/game/{gid}/detail/{seq}?kb={observer}")
    assert detail["diff"] and detail["source"] == f"p{observer}/io" and detail["kb"]
    record = s.get(f"/api/game/{gid}/record/{seq}")
    assert record["msg"]["kind"] == "kb_change" and record["msg"]["sender"] == f"p{observer}"


def test_the_board_is_the_fold_at_that_seq(serve):
    s = serve(golden("diplomacy"))
    log = read_log(golden("diplomacy")).games[0]
    meta = s.get("/api/game/diplomacy-4")
    for phase in meta["phases"]:
        svg = s.get(f"/api/game/diplomacy-4/at/{phase['seq']}")["board"]
        units = fold(log, at=phase["seq"], check=False).state.observation(0)["units"]
        for power, us in units.items():
            for unit in us:
                assert f'data-unit="{unit}" data-power="{power}"' in svg
        assert svg.count('class="unit"') == sum(len(u) for u in units.values())


@pytest.mark.parametrize("name, seat", [("werewolves", 4), ("werewolves", 7), ("hanabi", 1), ("diplomacy", 0), ("diplomacy", 3)])
def test_a_point_of_view_holds_only_what_that_seat_observed(serve, name, seat):
    s = serve(golden(name))
    log = read_log(golden(name)).games[0]
    answers = view_answers(s.get, log.header["game_id"], seat)
    assert_only_observed(log, seat, answers)
    # and what the omniscient view would show is refused to the seat
    hidden = next(r["seq"] for r in log.records if r["msg"]["kind"] == "step")
    status, body = s.call("GET", f"/api/game/{log.header['game_id']}/record/{hidden}?player={seat}")
    assert status == 404 and "observed no record" in body["error"]
    # a seq the seat did not observe reads as one that does not exist
    assert s.call("GET", f"/api/game/{log.header['game_id']}/record/999999?player={seat}") == (status, {**body, "error": body["error"].replace(str(hidden), "999999")})


def test_the_tournament_list_loads_and_filters(serve, tournament200):
    s = serve(tournament200)
    everything = s.get("/api/games?limit=500")
    assert everything["kind"] == "tournament" and everything["total"] == 200 and len(everything["games"]) == 200
    rows = everything["games"]
    assert s.get("/api/games?agent=so")["total"] == 200  # both labels play every game
    wolves_so = [r for r in rows if any(role == "werewolf" and r["seats"][i] == "so" for i, role in enumerate(r["roles"]))]
    assert s.get("/api/games?agent=so&seat=werewolf")["total"] == len(wolves_so) > 0
    assert s.get("/api/games?seat=3")["total"] == 200
    won = [r for r in rows if any(r["seats"][w] == "pr" for w in r["winners"])]
    assert s.get("/api/games?winner=pr")["total"] == len(won)
    steps = sorted(r["steps"] for r in rows)
    mid = steps[100]
    assert s.get(f"/api/games?min_steps={mid}")["total"] == sum(1 for x in steps if x >= mid)
    assert s.get(f"/api/games?max_steps={mid}")["total"] == sum(1 for x in steps if x <= mid)
    assert s.get("/api/games?errors=yes")["total"] == sum(1 for r in rows if r["errors"])
    page = s.get("/api/games?offset=150&limit=100")
    assert page["total"] == 200 and len(page["games"]) == 50
    gid = rows[17]["game_id"]
    assert s.get(f"/api/games?q={gid}")["games"][0]["game_id"] == gid
    meta = s.get(f"/api/game/{gid}")  # loaded through the index
    assert meta["game_id"] == gid and meta["complete"]


def test_bad_input_is_a_4xx_with_one_line(serve, tmp_path):
    s = serve(golden("hanabi"))
    cases = {
        "/api/game/no-such-game": 404,
        "/api/game/hanabi-6/at/99999": 404,
        "/api/game/hanabi-6/at/-1": 404,
        "/api/game/hanabi-6/at/abc": 400,
        "/api/game/hanabi-6?player=9": 404,
        "/api/game/hanabi-6/detail/5?kb=x": 400,
        "/api/games?min_steps=many": 400,
        "/api/nothing": 404,
        "/api/game/..%2F..%2F..%2Fetc%2Fpasswd": 404,
        "/api/game/hanabi-6/record/..%2F..%2Fetc": 400,
    }
    for path, status in cases.items():
        got, body = s.call("GET", path)
        assert got == status, (path, got, body)
        assert set(body) == {"error", "status"} and "\n" not in body["error"] and "Traceback" not in body["error"]
    for path in ("/../../etc/passwd", "/static/../../etc/passwd", "/static/app.js/../../x", "/etc/passwd"):
        got, body = s.call("GET", path)
        assert got == 404 and "root:" not in body and "Traceback" not in body
    assert s.call("PUT", "/api/games")[0] == 405


def test_a_damaged_log_shows_its_valid_prefix_and_a_broken_one_an_error(serve, tmp_path):
    data = golden("werewolves").read_bytes()
    torn = tmp_path / "torn.log"
    torn.write_bytes(data[: len(data) * 2 // 3])
    s = serve(torn)
    meta = s.get("/api/game/werewolves-7")
    assert meta["warning"] and not meta["complete"] and meta["last"] < 878
    with pytest.raises(SourceError):
        open_source(tmp_path / "missing.log")
    foreign = tmp_path / "foreign.log"
    foreign.write_bytes(b"not a detente log at all\n" * 10)
    with pytest.raises(SourceError):
        open_source(foreign)


def test_a_corrupt_segment_and_an_index_outside_the_folder_are_refused(serve, tournament200, tmp_path):
    import duckdb

    folder = tmp_path / "t"
    shutil.copytree(tournament200, folder)
    db = duckdb.connect(str(folder / "results.duckdb"))
    first, second = [r[0] for r in db.execute("select game_id from games order by idx limit 2").fetchall()]
    db.execute("update games set segment = '../../outside.dlog' where game_id = ?", [second])
    segment, offset = db.execute('select segment, "offset" from games where game_id = ?', [first]).fetchone()
    db.close()
    path = folder / "logs" / segment
    raw = bytearray(path.read_bytes())
    raw[offset + 40] ^= 0xFF  # inside the first game's packed frame: its checksum fails
    path.write_bytes(bytes(raw))
    s = serve(folder)
    status, body = s.call("GET", f"/api/game/{first}")
    assert status == 422 and "cannot be read" in body["error"] and "checksum" in body["error"], body
    status, body = s.call("GET", f"/api/game/{second}")
    assert status == 422 and "outside" in body["error"]


def test_the_server_checks_host_token_and_origin(serve, tmp_path):
    s = serve(golden("diplomacy"), out=tmp_path / "out")
    assert s.call("GET", "/api/source", headers={"Host": "evil.example:80"})[0] == 421
    assert s.call("GET", "/", headers={"Host": f"attacker.test:{s.port}"})[0] == 421
    assert s.call("GET", "/api/source", headers={"Host": f"localhost:{s.port}"})[0] == 200
    fork = {"at": 100, "seats": {"3": "alphadip"}}
    status, body = s.call("POST", "/api/game/diplomacy-4/fork", fork)
    assert status == 403 and "token" in body["error"]
    status, _ = s.call("POST", "/api/game/diplomacy-4/fork", fork, {"X-Detente-Token": "wrong"})
    assert status == 403
    status, body = s.call("POST", "/api/game/diplomacy-4/fork", fork,
                          {"X-Detente-Token": s.token, "Origin": "http://evil.example"})
    assert status == 403 and "cross-origin" in body["error"]
    status, body = s.fork("diplomacy-4", 100, {"3": "dumbbot"})
    assert status == 200, body
    path = tmp_path / "out" / body["path"]
    assert path.is_file() and path.resolve().is_relative_to((tmp_path / "out").resolve())
    logfile = read_log(path)
    assert verify_game(logfile.games[0], logfile.bad).ok
    assert body["first_difference"] is not None and body["first_difference"] >= body["at"]
    forked = s.get(f"/api/game/{body['game_id']}")  # listed and loadable like the source's games
    assert forked["fork"]["from"] == "diplomacy-4"
    bad = [({"at": "x", "seats": {"3": "dumbbot"}}, 400), ({"at": 100, "seats": {"99": "dumbbot"}}, 400),
           ({"at": 100, "seats": {"3": "no-such-agent"}}, 400), ({"at": 100, "seats": {}}, 400),
           ({"at": 10**9, "seats": {"3": "dumbbot"}}, 404)]
    for payload, status in bad:
        got, body = s.call("POST", "/api/game/diplomacy-4/fork", payload, {"X-Detente-Token": s.token})
        assert got == status, (payload, got, body)
    assert sorted(p.name for p in (tmp_path / "out" / "forks").iterdir()) == [path.name]  # nothing else written


def test_a_folder_of_logs_lists_every_game_inside_it_only(serve, tmp_path):
    folder = tmp_path / "logs"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(golden("hanabi"), folder / "a.log")
    shutil.copy(golden("werewolves"), folder / "sub" / "b.log")
    (folder / "junk.log").write_bytes(b"junk")
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(golden("diplomacy"), outside / "c.log")
    (folder / "link").symlink_to(outside, target_is_directory=True)
    (folder / "d.log").symlink_to(outside / "c.log")
    s = serve(folder)
    listing = s.get("/api/games")
    assert listing["kind"] == "folder" and sorted(g["game_id"] for g in listing["games"]) == ["hanabi-6", "werewolves-7"]
    assert s.get("/api/game/werewolves-7")["complete"]
    assert s.call("GET", "/api/game/diplomacy-4")[0] == 404  # reachable only through links out of the folder
