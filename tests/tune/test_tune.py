"""`detente tune`: ranges checked against the agent's options model, a search that finds a planted
optimum with two trials at once on 2 CPUs, and a search resumed after its driver is killed.
The game is the test plugin tests/plugins/tune_peak (found through PYTHONPATH, as a pip-installed
game would be): `peaker` wins most often at level 7; its hand-set level is 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
PLUGINS = ROOT / "tests" / "plugins"
PEAK = HERE / "peak.toml"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), str(ROOT)]), "RAY_AUTH_MODE": "disabled"}


def _tune(spec: Path, out: Path, env: dict[str, str] | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ops.cli", "tune", str(spec), "--out", str(out)], cwd=ROOT,
                            env={**_env(), **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kw)


def _spec(tmp_path: Path, name: str = "spec.toml", **changes) -> Path:
    text = PEAK.read_text()
    for key, value in changes.items():
        text = text.replace(f"\n{key} = ", f"\n{key} = {value}\n#{key} = ", 1)
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("line, expected", [
    ('level = [0.0, 12.0]', "search.level: range [0, 12] goes beyond the option's bounds [0, 10] (peaker's options model)"),
    ('height = [0.0, 1.0]', "search.height: peaker has no option 'height' (its options: level, offices, traits)"),
    ('"traits.risk" = [-0.5, 1.0]', "search.traits.risk: range [-0.5, 1] goes beyond the option's bounds [0, 1]"),
    ('offices = [0, 1]', "search.offices: peaker's option is not a number; give choices = [...]"),
])
def test_bad_range_refused_in_one_line(tmp_path, line, expected):
    spec = tmp_path / "bad.toml"
    spec.write_text(PEAK.read_text().replace("level = [0.0, 10.0]", line))
    done = subprocess.run([sys.executable, "-m", "ops.cli", "tune", str(spec), "--out", str(tmp_path / "out")],
                          cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and expected in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()  # refused before anything is written


def test_spec_checks_in_process():
    """The same checks on a game of detente's own: Deep Barca's constants against naive."""
    from ops.tournament.spec import SpecError
    from ops.tune.spec import parse_tune_spec

    data = {"game": "battleline", "games": 10, "trials": 4, "options": {"tactics": False},
            "agent": {"name": "deep-barca"}, "field": [{"agent": "naive"}],
            "search": {"params.mfa_weight": [0.2, 0.8], "params.top_formations": [2, 6]}}
    spec = parse_tune_spec(data)
    assert spec.tuned_options({"params.mfa_weight": 0.3}) == {"params": {"mfa_weight": 0.3}}
    for change, message in [({"objective": "hanabi_score"}, "objective: hanabi_score is Hanabi's"),
                            ({"trials": "8"}, "trials: Input should be a valid integer"),
                            ({"search": {"params.top_formations": [1.5, 6]}}, "is an integer; the range 1.5 .. 6 is not"),
                            ({"search": {"params.five_weight_power": [0.0, 1.0]}}, r"bounds \(0, inf\]"),
                            ({"search": {"params.mfa_weight": [0.8, 0.2]}}, "low must be below high")]:
        with pytest.raises(SpecError, match=message):
            parse_tune_spec({**data, **change})


def _report(out: Path) -> dict:
    return json.loads((out / "report.json").read_text())


@pytest.mark.ray
def test_search_finds_the_planted_optimum_two_trials_at_once(tmp_path):
    out = tmp_path / "out"
    # each trial process's first peaker waits (at most 30 s) until a second process has built one:
    # under load, one trial actor could otherwise finish all eight before the other has started
    meet = tmp_path / "rendezvous"
    meet.mkdir()
    proc = _tune(_spec(tmp_path, trials=8, games=600, check_games=150), out, env={"DETENTE_TEST_RENDEZVOUS": str(meet)})
    stdout, stderr = proc.communicate(timeout=400)
    assert proc.returncode == 0, stderr[-3000:]
    report = _report(out)
    trials = report["trials"]
    assert len(trials) == 8 and len({t["key"] for t in trials}) == 8
    assert round(report["best"]["values"]["level"]) == 7  # the planted optimum
    check = report["check"]
    assert check["better"] and check["best"]["lo"] > check["defaults"]["hi"]
    # two trials at once on 2 CPUs: some pair of trials ran side by side, and every one finished
    assert any(a["started"] < b["ended"] and b["started"] < a["ended"] for a in trials for b in trials if a is not b)
    assert len(list(meet.iterdir())) >= 2  # the rendezvous ran: actors met there (trials, then the check's runners)
    assert report["runners_per_trial"] == 1 and report["cpus"] == 2
    # each trial is a tournament folder in the tournament store format, with every game recorded
    from ops.tournament.store import Store
    with Store(out / trials[0]["folder"], read_only=True) as store:
        assert store.count() == 600
    page = (out / "report.html").read_text()
    assert "<svg" in page and "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert f"peaker:level={report['best']['values']['level']}" in stdout


@pytest.mark.ray
@pytest.mark.slow
def test_resume_after_a_kill_plays_no_finished_trial_again(tmp_path):
    out = tmp_path / "out"
    spec = _spec(tmp_path, trials=6, games=40, check_games=0)
    proc = _tune(spec, out, start_new_session=True)  # its own process group: the driver and the Ray it started
    deadline = time.monotonic() + 300
    while len(list(out.glob("trials/*/trial.json"))) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()[-3000:] if proc.poll() is not None else "slow"
        time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = {p.parent.name: sorted((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in (p.parent / "logs").iterdir())
                for p in out.glob("trials/*/trial.json")}
    again = _tune(spec, out)
    stdout, stderr = again.communicate(timeout=400)
    assert again.returncode == 0, stderr[-3000:]
    assert "resuming the search" in stderr
    report = _report(out)
    assert report["resumed"] and "(this run, which resumed the search)" in (out / "report.txt").read_text()
    assert len(report["trials"]) == 6 and len({t["key"] for t in report["trials"]}) == 6
    for key, logs in finished.items():  # a trial finished before the kill: not one byte written again
        folder = out / "trials" / key
        assert sorted((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in (folder / "logs").iterdir()) == logs
    assert set(finished) <= {t["key"] for t in report["trials"]}
