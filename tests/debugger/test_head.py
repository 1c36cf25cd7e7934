"""The first board before the whole log: bus.log.read_game_head reads a checked prefix of one game
(plain or packed) and nothing after it; the head the server answers from that prefix is the one
the indexed game gives, for every view, and a seat's holds nothing it did not observe."""

from __future__ import annotations

import shutil

import pytest

from bus.errors import BadFrame, WrongGame
from bus.log import MAGIC, LogError, read_game_at, read_game_head, read_log
from ops.debugger.game import head_of, head_until
from ops.debugger.source import open_source
from tests.debugger.checks import observed_in_log
from tests.debugger.conftest import golden


def test_a_head_is_a_checked_prefix_of_the_game():
    path = golden("diplomacy")
    whole = read_log(path).games[0]
    head, bad = read_game_head(path, len(MAGIC), lambda r: r["seq"] >= 40)
    assert bad is None and head.header == whole.header and head.checked
    assert [r["seq"] for r in head.records] == list(range(41))
    assert head.records == whole.records[:41] and head.payloads == whole.payloads[:41]
    everything, bad = read_game_head(path, len(MAGIC), lambda r: False)  # never true: the whole game
    assert bad is None and everything.records == whole.records


def test_a_head_reads_nothing_after_it_and_reports_what_it_met(tmp_path):
    data = golden("werewolves").read_bytes()
    whole = read_log(golden("werewolves")).games[0]
    late, early = whole.offsets[600], whole.offsets[30]
    broken = bytearray(data)
    broken[late + 12] ^= 0xFF  # a record far after the head: its checksum fails
    path = tmp_path / "late.log"
    path.write_bytes(bytes(broken))
    head, bad = read_game_head(path, len(MAGIC), lambda r: r["seq"] >= 20)
    assert bad is None and len(head.records) == 21
    assert read_game_at(path, len(MAGIC))[1] is not None  # the whole read meets it
    broken = bytearray(data)
    broken[early + 12] ^= 0xFF  # a record inside the head
    path.write_bytes(bytes(broken))
    head, bad = read_game_head(path, len(MAGIC), lambda r: r["seq"] >= 100)
    assert isinstance(bad, BadFrame) and bad.offset == early and len(head.records) == 30
    with pytest.raises(WrongGame):
        read_game_head(golden("werewolves"), len(MAGIC), lambda r: True, game_id="another-game")
    with pytest.raises(LogError):
        read_game_head(golden("werewolves"), whole.offsets[5], lambda r: True)  # not the start of a game


def test_the_head_of_a_packed_game(tournament200):
    import duckdb

    db = duckdb.connect(str(tournament200 / "results.duckdb"), read_only=True)
    gid, segment, offset = db.execute('select game_id, segment, "offset" from games order by idx limit 1 offset 7').fetchone()
    db.close()
    path = tournament200 / "logs" / segment
    whole, _ = read_game_at(path, offset, game_id=gid)
    head, bad = read_game_head(path, offset, lambda r: r["seq"] >= 9, game_id=gid)
    assert bad is None and head.records == whole.records[:10]


@pytest.mark.parametrize("name, seats", [("diplomacy", [None, 0, 6]), ("werewolves", [None, 4, 9]), ("hanabi", [None, 1])])
def test_the_head_from_the_start_is_the_indexed_games_head(name, seats, tmp_path):
    log = read_log(golden(name)).games[0]
    gid = log.header["game_id"]
    shutil.copy(golden(name), tmp_path / "g.log")
    source = open_source(tmp_path / "g.log")
    cold = {(seat, target): source.head(gid, seat, target) for seat in seats
            for target in (None, 0, 17, log.records[len(log.records) // 2]["seq"], 10**9)}
    game = source.game(gid)
    for (seat, target), answer in cold.items():
        assert answer == game.head(seat, target), (seat, target)
        at = game.at(answer["seq"], seat)
        assert (answer["board"], answer["phase"]) == (at["board"], at["phase"])
        if seat is not None:
            mine = observed_in_log(log, seat)
            assert answer["seq"] in mine and "role" not in str(answer["players"])
            if target is not None and target >= min(mine):
                assert answer["seq"] == max(s for s in mine if s <= target)
    prefix, _ = read_game_head(golden(name), len(MAGIC), head_until(seats[-1], None))
    assert head_of(prefix, seats[-1]) == cold[(seats[-1], None)]
    assert len(prefix.records) < len(log.records) // 4  # the start only


def test_the_head_over_http(serve):
    s = serve(golden("hanabi"))
    head = s.get("/api/game/hanabi-6/head?player=1&seq=200")
    assert head["player"] == 1 and head["seq"] <= 200 and head["board"].startswith("<svg")
    assert s.get("/api/source")["first"] == "hanabi-6"
    for path, status in (("/api/game/no-such-game/head", 404), ("/api/game/hanabi-6/head?player=7", 404),
                         ("/api/game/hanabi-6/head?seq=x", 400), ("/api/game/hanabi-6/head?player=x", 400)):
        got, body = s.call("GET", path)
        assert got == status and set(body) == {"error", "status"}, (path, got, body)
