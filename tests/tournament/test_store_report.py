"""Runner logic without Ray: batches into segments, the store and its index, the report."""

from __future__ import annotations

import math

import pytest

from bus.log import read_game_at
from ops.tournament.report import build_report, format_text, mean_ci, wilson
from ops.tournament.runner import BatchPlayer, ranks_of
from ops.tournament.spec import parse_spec
from ops.tournament.store import Store
from replay.verify import verify_game

SPEC = {
    "game": "werewolves",
    "games": 12,
    "seed": 5,
    "segment_mib": 1,
    "lineup": [{"agent": "random", "label": "so", "count": 5}, {"agent": "random", "label": "pr", "count": 5, "options": {"offices": ""}}],
}


def test_ranks_share_ties():
    assert ranks_of([1.0, 0.0, 1.0, 0.0]) == [1.5, 3.5, 1.5, 3.5]
    assert ranks_of([3.0, 2.0, 1.0]) == [1.0, 2.0, 3.0]


def test_intervals():
    mean, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and math.isclose(hi - mean, 1.959963984540054 * math.sqrt((5 / 3) / 4))
    p, lo, hi = wilson(8, 10)
    assert p == 0.8 and 0.49 < lo < 0.5 and 0.94 < hi < 0.95  # Wilson 95%: [0.490, 0.943]


def test_batches_store_index_and_report(tmp_path):
    spec = parse_spec(SPEC)
    player = BatchPlayer(str(tmp_path), spec.model_dump(mode="json"), "t-r001")
    rows = player.play(list(range(6))) + player.play(list(range(6, 12)))
    player.close()
    store = Store(tmp_path)
    assert store.add(rows) == 12
    assert store.add(rows[:3]) == 0  # identity by game id: never counted twice
    assert store.count() == 12 and store.recorded() == set(range(12))
    segment, offset = store.locate("g00000007")
    game, bad = read_game_at(tmp_path / "logs" / segment, offset)
    assert bad is None and game.header["game_id"] == "g00000007"
    assert verify_game(game).ok
    report = build_report(store)
    store.close()
    assert report["games"] == 12
    by = {a["agent"]: a for a in report["agents"]}
    assert set(by) == {"so", "pr"} and by["so"]["games"] == 12 and by["so"]["seats"] == 60
    assert {"agent", "games", "mean_rank", "mean_score", "win_rate"} <= set(by["so"])
    assert sum(by["so"]["rank_histogram"].values()) == 60
    assert set(by["so"]["by_role"]) <= {"werewolf", "villager", "seer", "doctor"}
    assert math.isclose(report["head_to_head"]["so"]["pr"]["score"] + report["head_to_head"]["pr"]["so"]["score"], 1.0)
    assert by["so"]["rating"]["sigma"] < 25 / 3  # rated: the team ratings moved off the prior
    assert {t["team"] for t in report["teams"]} <= {"so", "pr", "pr+so"}  # the dealt sides as teams
    assert "head to head" in format_text(report)


@pytest.mark.parametrize("compress, games", [(False, 120), (True, 500)])
def test_segments_roll(tmp_path, compress, games):
    spec = parse_spec({**SPEC, "games": games, "compress": compress})
    player = BatchPlayer(str(tmp_path), spec.model_dump(mode="json"), "t-r002")
    rows = player.play(list(range(games)))
    player.close()
    segments = sorted({r["segment"] for r in rows})
    assert len(segments) >= 2  # 1 MiB segments: about 14 KB a game plain, under 3 KB packed
    for r in rows[::7]:
        game, bad = read_game_at(tmp_path / "logs" / r["segment"], r["offset"])
        assert bad is None and game.records[-1]["msg"]["kind"] == "game_end"
        assert game.header["game_id"] == r["game_id"]


def test_packed_and_plain_segments_hold_the_same_games(tmp_path):
    rows = {}
    for compress in (False, True):
        spec = parse_spec({**SPEC, "games": 6, "compress": compress})
        player = BatchPlayer(str(tmp_path / str(compress)), spec.model_dump(mode="json"), "t-r004")
        rows[compress] = player.play(list(range(6)))
        player.close()
    for plain, packed in zip(rows[False], rows[True]):
        a, _ = read_game_at(tmp_path / "False" / "logs" / plain["segment"], plain["offset"])
        b, bad = read_game_at(tmp_path / "True" / "logs" / packed["segment"], packed["offset"])
        assert bad is None and a.header == b.header and a.payloads == b.payloads
        assert packed["nbytes"] * 3 < plain["nbytes"]  # random Werewolves packs about 5x
        assert verify_game(b).ok


def test_resume_may_change_storage_knobs_but_not_the_tournament(tmp_path):
    from ops.tournament.runner import _check_meta
    from ops.tournament.spec import SpecError

    store = Store(tmp_path)
    try:
        _check_meta(store, parse_spec({**SPEC, "compress": False}))
        _check_meta(store, parse_spec({**SPEC, "games": 50, "batch": 3, "segment_mib": 2, "fsync": True}))
        with pytest.raises(SpecError, match="spec differs"):
            _check_meta(store, parse_spec({**SPEC, "seed": 6}))
        with pytest.raises(SpecError, match="spec differs"):
            _check_meta(store, parse_spec({**SPEC, "options": {"discussion_rounds": 1}}))
    finally:
        store.close()


def _recorded_folder(out, games: int) -> list[dict]:
    """A tournament folder as a run leaves it: `games` games in segments, their rows in the store."""
    player = BatchPlayer(str(out), parse_spec(SPEC).model_dump(mode="json"), "t-r003")
    rows = player.play(list(range(games)))
    player.close()
    store = Store(out)
    store.add(rows)
    store.close()
    return rows


def test_report_formats_through_the_cli(tmp_path, capsys):
    import json

    from ops.cli import main

    _recorded_folder(tmp_path, 8)
    assert main(["tournament", "report", str(tmp_path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 8 and [a["agent"] for a in data["agents"]] == ["pr", "so"]
    assert main(["tournament", "report", str(tmp_path), "--format", "html"]) == 0
    page = (tmp_path / "report.html").read_text()
    assert page.startswith("<!doctype html>") and page.count("<svg") >= 3 and "<script" not in page
    assert main(["replay", "verify", str(tmp_path), "--game", "g00000003"]) == 0
    capsys.readouterr()
    assert main(["replay", "show", str(tmp_path), "--game", "g00000099"]) == 2
    assert "no recorded game" in capsys.readouterr().err


def test_verify_a_whole_folder_names_each_damaged_game(tmp_path, capsys):
    from ops.cli import main

    rows = _recorded_folder(tmp_path, 12)
    assert main(["replay", "verify", str(tmp_path)]) == 0
    assert "ok: 12 games reproduced" in capsys.readouterr().out
    assert main(["replay", "verify", str(tmp_path), "--sample", "3"]) == 0
    assert "ok: 3 games reproduced (a sample of 3)" in capsys.readouterr().out
    # damage the packed frames of games 4 and 9
    for r in (rows[4], rows[9]):
        path = tmp_path / "logs" / r["segment"]
        data = bytearray(path.read_bytes())
        data[r["offset"] + r["nbytes"] // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    assert main(["replay", "verify", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "FAIL: g00000004" in err and "FAIL: g00000009" in err and "FAIL: g00000005" not in err
    assert "2 of 12 games failed" in err
    assert main(["replay", "verify", str(tmp_path), "--sample", "0"]) == 2
