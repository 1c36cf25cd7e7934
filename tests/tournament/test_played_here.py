"""A tournament played in the calling process (`runners=0`, as a tuning trial plays): the same
runner code, store and logs as a runner actor's, with no Ray; resumable like any run."""

from __future__ import annotations

from ops.tournament.runner import run_tournament
from ops.tournament.spec import load_spec
from ops.tournament.store import Store
from tests.tournament.test_tournament_ray import EXAMPLE, _verify_all


def test_played_here_records_every_game_once_verifies_and_resumes(tmp_path):
    heard = []
    first = run_tournament(load_spec(EXAMPLE, games=30), tmp_path, runners=0, on_rows=heard.extend)
    assert first.recorded_now == 30 and not first.failed and first.runners == 1
    assert sorted(r["idx"] for r in heard) == list(range(30))  # on_rows hears each recorded game once
    assert _verify_all(tmp_path) == 30
    heard.clear()
    more = run_tournament(load_spec(EXAMPLE, games=45), tmp_path, runners=0, on_rows=heard.extend)
    assert more.recorded_before == 30 and more.recorded_now == 15
    assert sorted(r["idx"] for r in heard) == list(range(30, 45))
    with Store(tmp_path, read_only=True) as store:
        ids = [g for (g,) in store.db.execute("select game_id from games order by idx").fetchall()]
    assert len(ids) == len(set(ids)) == 45
