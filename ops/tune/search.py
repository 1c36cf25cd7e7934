"""`detente tune`: an evolutionary search over an agent's options, each candidate scored by a
tournament, on Ray Tune.

- The searcher is Optuna's CMA-ES sampler (Hansen's covariance matrix adaptation evolution
  strategy, through the `cmaes` library) behind Ray Tune's OptunaSearch adapter, at most
  `concurrency` trials at once (ConcurrencyLimiter). Choices (true/false, names) are drawn by
  Optuna's independent sampler beside it; `algorithm = "random"` draws everything at random.
- A trial is one step of a class trainable (one call from Tune a trial; Tune keeps its process
  and hands it the next configuration) that plays one tournament with the tournament runner
  (ops/tournament/runner.py) into OUT/trials/<key>/: the same store, logs and resume as
  `detente tournament run`. Every trial plays the same seeds (drawn from the tuning seed: common
  random numbers, so trials differ by their configuration only); `key` is a hash of the
  configuration.
- Resources: a trial plays with `runners` runners (default CPUs // concurrency, so the runners
  of `concurrency` trials fit in the cluster at once and none waits on another's). A trial of one
  runner plays its games in its own process (the tournament runner's `runners=0`) and holds one
  CPU: Tune keeps that process from trial to trial, so a trial starts nothing. A trial of more
  runners holds no CPU itself (its placement group asks for 1 MiB of memory only); its runner
  actors, one CPU each, are placed by the tournament runner with Ray's SPREAD strategy.
- Resume: Tune's experiment state is in OUT/ray/search; rerunning the same command restores it
  (Tuner.restore): finished trials are kept, never run again; a trial cut by the kill starts
  again on its configuration and its tournament resumes from its store (games recorded are not
  replayed). Not exact: the sampler is restored from Tune's last snapshot of it, so
  configurations it suggested after that snapshot are suggested anew, and may differ from those
  of a run that was never killed.
- The check: the best configuration and the hand-set one (the agent's fixed options) each play
  `check_games` games on a seed no trial used (OUT/check/best, OUT/check/defaults).
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any, Callable

from ops.tournament.spec import SpecError
from ops.tune.objective import apart, read_objective, rows_objective
from ops.tune.spec import DEFAULTS, TUNED, TuneSpec, trial_key, typed_space

META = "tune.json"
METRIC = "objective"


def key_of(path: str) -> str:
    """A searched option's name in Tune's config (Tune reads dots and slashes as nesting)."""
    return path.replace(".", "__")


def _values(config: dict[str, Any], space: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The option values of a Tune config: integers as integers, numbers rounded to 4 decimals
    (what the report and the agent spec show is what was played)."""
    values = {}
    for path, s in sorted(space.items()):
        v = config[key_of(path)]
        if s["kind"] == "int":
            v = int(v)
        elif s["kind"] == "float":
            v = round(float(v), 4)
        values[path] = v
    return values


def play_trial(config: dict[str, Any], spec_data: dict[str, Any], out: str, runners: int) -> dict[str, Any]:
    """One trial: the tournament of this configuration; its objective and timings, as Tune's result."""
    from ops.tournament.runner import run_tournament

    spec = TuneSpec.model_validate(spec_data)
    space = typed_space(spec)
    values = _values(config, space)
    key = trial_key(values)
    folder = Path(out) / "trials" / key
    started = time.time()
    tournament = spec.tournament(values, spec.search_seed(), spec.games)
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    summary = run_tournament(tournament, folder, runners=runners, on_rows=rows.extend)
    played = time.perf_counter() - t0
    if summary.recorded_before:  # resumed: games recorded before are in the store only
        result = read_objective(folder, TUNED, spec.objective, spec.roles)
    else:  # every game of the trial went by here: no need to open the store again
        result = rows_objective(rows, TUNED, spec.objective, spec.roles)
    (folder / "trial.json").write_text(json.dumps({"values": values, "result": result}, sort_keys=True) + "\n")
    return {METRIC: result["value"] if not math.isnan(result["value"]) else -math.inf,
            "lo": result["lo"], "hi": result["hi"], "n": result["n"], "key": key,
            "values": json.dumps(values, sort_keys=True), "played_now": summary.recorded_now,
            "tournament_s": played, "started": started, "ended": time.time()}


def _trainable() -> type:
    """Tune's trainable: a class whose one step plays the trial and returns its result with
    `done` (one call from Tune a trial, where a function trainable takes two and a thread), and
    which takes the next trial's configuration in place (`reset_config`), so one process serves
    trial after trial."""
    from ray import tune

    class Trial(tune.Trainable):
        def setup(self, config: dict[str, Any], spec_data: dict[str, Any] = None, out: str = "", runners: int = 1):
            self.spec_data, self.out, self.runners = spec_data, out, runners

        def step(self) -> dict[str, Any]:
            return {**play_trial(self.config, self.spec_data, self.out, self.runners), "done": True}

        def reset_config(self, new_config: dict[str, Any]) -> bool:
            return True  # Tune has set self.config to new_config

    return Trial


def _searcher(spec: TuneSpec, space: dict[str, dict[str, Any]]):
    import optuna
    from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution
    from ray.tune.search import ConcurrencyLimiter
    from ray.tune.search.optuna import OptunaSearch

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    dists = {}
    for path, s in sorted(space.items()):
        if s["kind"] == "choice":
            dists[key_of(path)] = CategoricalDistribution(s["choices"])
        elif s["kind"] == "int":
            dists[key_of(path)] = IntDistribution(s["low"], s["high"], log=s["log"])
        else:
            dists[key_of(path)] = FloatDistribution(s["low"], s["high"], log=s["log"])
    seed = spec.sampler_seed()
    if spec.algorithm == "random":
        sampler = optuna.samplers.RandomSampler(seed=seed)
    else:
        import cmaes  # noqa: F401  (about a second to import, with SciPy: paid at the start, not between trials)

        # the first `concurrency` trials drawn at random (CMA-ES needs a start), choices always so
        sampler = optuna.samplers.CmaEsSampler(seed=seed, n_startup_trials=max(1, min(spec.concurrency, spec.trials // 4)),
                                               independent_sampler=optuna.samplers.RandomSampler(seed=seed),
                                               warn_independent_sampling=False)
    searcher = OptunaSearch(space=dists, metric=METRIC, mode="max", sampler=sampler, seed=seed)
    return ConcurrencyLimiter(searcher, max_concurrent=spec.concurrency)


def _check_meta(out: Path, spec: TuneSpec) -> None:
    meta = out / META
    mine = {"identity": spec.identity(), "trials": spec.trials}
    if meta.is_file():
        theirs = json.loads(meta.read_text())
        if theirs.get("identity") != mine["identity"]:
            raise SpecError(f"{out} holds a different search (spec differs); use another --out")
        if theirs.get("trials") != mine["trials"]:
            raise SpecError(f"{out} holds a search of {theirs.get('trials')} trials; a search cannot change its "
                            f"trial count when resumed (use another --out)")
    else:
        meta.write_text(json.dumps(mine, sort_keys=True) + "\n")


def run_search(spec: TuneSpec, out: str | Path, address: str | None = None,
               say: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    """Run (or resume) the search of `spec` into `out`, then the check; returns the report data."""
    import ray
    from ray import tune

    from ops.tournament.runner import _join

    out = Path(out).absolute()
    out.mkdir(parents=True, exist_ok=True)
    _check_meta(out, spec)
    space = typed_space(spec)
    os.environ.setdefault("TUNE_GLOBAL_CHECKPOINT_S", "1")  # Tune's state snapshot: every second (resume loses little)
    os.environ.setdefault("RAY_AIR_NEW_OUTPUT", "0")
    # no CSV/JSON/TensorBoard result files a trial: each trial writes its own trial.json, and the
    # loggers cost a trial of quick games several percent of its time
    os.environ.setdefault("TUNE_DISABLE_AUTO_CALLBACK_LOGGERS", "1")
    _join(address)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    runners = spec.runners or max(1, cpus // spec.concurrency)
    say(f"{spec.trials} trials of {spec.games} games, {spec.concurrency} at once, {runners} runner(s) each on {cpus} CPUs")
    here = runners == 1  # the trial's own process plays its games (see the module's docstring)
    trainable = tune.with_resources(
        tune.with_parameters(_trainable(), spec_data=spec.model_dump(mode="json"), out=str(out), runners=0 if here else runners),
        {"cpu": 1} if here else {"cpu": 0, "memory": 1 << 20})
    storage = out / "ray"
    t0 = time.perf_counter()
    resumed = tune.Tuner.can_restore(str(storage / "search"))
    if resumed:
        say("resuming the search from its last snapshot")
        tuner = tune.Tuner.restore(str(storage / "search"), trainable=trainable, resume_errored=True)
    else:
        tuner = tune.Tuner(
            trainable,
            tune_config=tune.TuneConfig(search_alg=_searcher(spec, space), num_samples=spec.trials,
                                        max_concurrent_trials=spec.concurrency, metric=METRIC, mode="max",
                                        reuse_actors=True),  # a trial's actor serves the next: no process start
            run_config=tune.RunConfig(storage_path=str(storage), name="search", verbose=0,
                                      # a trial's state is its tournament's store: no Tune checkpoint
                                      checkpoint_config=tune.CheckpointConfig(checkpoint_at_end=False),
                                      failure_config=tune.FailureConfig(max_failures=1)),
        )
    grid = tuner.fit()
    search_s = time.perf_counter() - t0
    trials = _trials(grid, out)
    if not trials:
        raise RuntimeError("no trial finished (see the errors under " + str(storage / "search") + ")")
    best = max(trials, key=lambda t: (t["value"], -t["number"]))
    say(f"best of {len(trials)} trials: {best['value']:.4f} [{best['lo']:.4f}, {best['hi']:.4f}] at "
        f"{json.dumps(best['values'], sort_keys=True)}")
    check = None
    if spec.check_games:
        check = run_check(spec, out, best["values"], runners=cpus, say=say)
    return {"spec": spec.model_dump(mode="json"), "space": space, "trials": trials, "best": best, "check": check,
            "search_seconds": search_s, "resumed": resumed, "cpus": cpus, "runners_per_trial": runners,
            "agent_spec": agent_spec(spec, best["values"]), "lineup_entry": lineup_entry(spec, best["values"])}


def _trials(grid: Any, out: Path) -> list[dict[str, Any]]:
    """Every finished trial, numbered by the time it started."""
    rows = []
    for result in grid:
        m = result.metrics or {}
        if result.error is not None or "key" not in m:
            continue
        value = m[METRIC]
        rows.append({"key": m["key"], "values": json.loads(m["values"]), "value": value if math.isfinite(value) else math.nan,
                     "lo": m["lo"], "hi": m["hi"], "n": m["n"], "started": m["started"], "ended": m["ended"],
                     "tournament_s": m["tournament_s"], "played_now": m["played_now"],
                     "folder": str(Path("trials") / m["key"])})
    rows.sort(key=lambda r: (r["started"], r["key"]))
    for i, r in enumerate(rows):
        r["number"] = i + 1
    return rows


def run_check(spec: TuneSpec, out: Path, values: dict[str, Any], runners: int,
              say: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    """The best configuration and the hand-set one, each on the check's fresh seeds."""
    from ops.tournament.runner import run_tournament

    results = {}
    for name, chosen, label in (("best", values, TUNED), ("defaults", None, DEFAULTS)):
        folder = out / "check" / name
        run_tournament(spec.tournament(chosen, spec.check_seed(), spec.check_games, label=label), folder, runners=runners)
        results[name] = read_objective(folder, label, spec.objective, spec.roles)
        r = results[name]
        say(f"check {name}: {r['value']:.4f} [{r['lo']:.4f}, {r['hi']:.4f}] over {r['n']} games")
    results["apart"] = apart(results["best"], results["defaults"])
    results["better"] = results["apart"] and results["best"]["value"] > results["defaults"]["value"]
    results["seed"] = spec.check_seed()
    results["games"] = spec.check_games
    return results


def agent_spec(spec: TuneSpec, values: dict[str, Any]) -> str:
    """The best configuration as a `--agents` spec: name:key=value;... (dotted paths)."""
    flat = _flatten(spec.tuned_options(values))
    return spec.agent.name + ("" if not flat else ":" + ";".join(f"{k}={json.dumps(v)}" for k, v in flat))


def lineup_entry(spec: TuneSpec, values: dict[str, Any]) -> str:
    """The best configuration as a tournament spec's [[lineup]] entry (TOML)."""
    options = spec.tuned_options(values)
    inline = ", ".join(f"{k} = {_toml(v)}" for k, v in _flatten(options))  # TOML dotted keys: nested tables
    return (f'[[lineup]]\nagent = "{spec.agent.name}"\nlabel = "{spec.agent.name}-tuned"\ncount = {spec.agent.count}\n'
            f"options = {{ {inline} }}\n" if inline else
            f'[[lineup]]\nagent = "{spec.agent.name}"\nlabel = "{spec.agent.name}-tuned"\ncount = {spec.agent.count}\n')


def _flatten(options: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    items = []
    for k, v in sorted(options.items()):
        if isinstance(v, dict):
            items += _flatten(v, f"{prefix}{k}.")
        else:
            items.append((f"{prefix}{k}", v))
    return items


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    return "[" + ", ".join(_toml(v) for v in value) + "]"
