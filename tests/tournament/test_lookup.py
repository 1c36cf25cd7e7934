"""The lookup slots beside the store (ops/tournament/lookup.py): a recorded game loads by id
without opening the store, and a slot is only ever a hint: missing, stale, torn or left over
from an earlier store, the store's index decides."""

from __future__ import annotations

import pytest

from ops.tournament import lookup
from ops.tournament.runner import BatchPlayer
from ops.tournament.spec import parse_spec
from ops.tournament.store import STORE, Store, compact, load_game

SPEC = {"game": "werewolves", "games": 8, "seed": 4, "segment_mib": 1,
        "options": {"players": 5, "werewolves": 1, "seers": 1, "doctors": 0, "discussion_rounds": 0},
        "lineup": [{"agent": "random", "count": 5}]}


def _folder(out, games=range(8), runner="t-r001", record=None) -> list[dict]:
    """Play `games` into segments and record them (or only those of `record`)."""
    player = BatchPlayer(str(out), parse_spec(SPEC).model_dump(mode="json"), runner)
    rows = player.play(list(games))
    player.close()
    with Store(out) as store:
        store.add([r for r in rows if record is None or r["idx"] in record])
    return rows


def _no_store_open(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the store was opened")

    monkeypatch.setattr(Store, "__init__", refuse)


def test_a_recorded_game_loads_through_its_slot_without_the_store(tmp_path, monkeypatch):
    rows = _folder(tmp_path)
    assert lookup.find(tmp_path, "g00000005") == (rows[5]["segment"], rows[5]["offset"])
    _no_store_open(monkeypatch)
    game, bad = load_game(tmp_path, "g00000005")
    assert bad is None and game.complete and game.header["game_id"] == "g00000005"


def test_only_games_the_store_took_get_slots(tmp_path):
    rows = _folder(tmp_path)
    again = dict(rows[2], segment="elsewhere.dlog", offset=999)  # a second copy of a recorded game
    with Store(tmp_path) as store:
        assert store.add([again]) == 0
    assert lookup.find(tmp_path, "g00000002") == (rows[2]["segment"], rows[2]["offset"])
    assert lookup.find(tmp_path, "g00000099") is None and lookup.find(tmp_path, "not-a-tournament-id") is None


@pytest.mark.parametrize("damage", ["stale offset", "unknown segment", "torn names", "no slots"])
def test_a_bad_slot_falls_back_to_the_index(tmp_path, damage):
    rows = _folder(tmp_path)
    r = rows[3]
    if damage == "stale offset":  # points at another game (the one before it)
        lookup.write_slots(tmp_path, [(3, r["segment"], rows[2]["offset"], r["nbytes"])])
    elif damage == "unknown segment":
        lookup.write_slots(tmp_path, [(3, "gone-0000.dlog", r["offset"], r["nbytes"])])
        (tmp_path / lookup.NAMES).write_text("")  # and the names lost
    elif damage == "torn names":
        (tmp_path / lookup.NAMES).write_text(r["segment"][:5])
    else:
        lookup.clear_slots(tmp_path)
    game, bad = load_game(tmp_path, "g00000003")
    assert bad is None and game.header["game_id"] == "g00000003"
    assert load_game(tmp_path, "g00000042") is None


def test_a_torn_name_is_cut_before_new_names_are_added(tmp_path):
    (tmp_path / lookup.NAMES).write_text("a.dlog\nb.dl")  # a writer stopped in the middle of a name
    lookup.write_slots(tmp_path, [(0, "c.dlog", 12, 100)])
    assert (tmp_path / lookup.NAMES).read_text() == "a.dlog\nc.dlog\n"
    assert lookup.find(tmp_path, "g00000000") == ("c.dlog", 12)


def test_a_new_store_clears_the_slots_of_one_that_is_gone(tmp_path):
    _folder(tmp_path)
    (tmp_path / STORE).unlink()
    with Store(tmp_path):
        pass
    assert lookup.find(tmp_path, "g00000001") is None


def test_compaction_rewrites_the_slots(tmp_path, monkeypatch):
    # a runner played games 0..5 but only 0..2 were recorded; another played 3..5 again
    _folder(tmp_path, range(6), "t-r001", record={0, 1, 2})
    _folder(tmp_path, range(3, 6), "t-r002")
    result = compact(tmp_path)
    assert result.moved == 3  # games 0..2 copied out of the segment with stale bytes
    with Store(tmp_path, read_only=True) as store:
        where = dict(store.db.execute('select game_id, segment || \':\' || "offset" from games').fetchall())
    assert len(where) == 6 and not any(w.startswith("t-r001") for w in where.values())
    for gid, place in where.items():
        segment, offset = lookup.find(tmp_path, gid)
        assert f"{segment}:{offset}" == place
    _no_store_open(monkeypatch)
    assert load_game(tmp_path, "g00000004")[0].header["game_id"] == "g00000004"
