"""The referee's determinisations: the generic agent searches a game that has nothing but the
required Game API (tests/generic/plugins/pledge), and its decisions never depend on what its seat
cannot see (a planted hidden value: the same suggestions for every value of it)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from actors.alpha.generic.offices import GenericStrategyOffice
from actors.referee import Referee
from bus.messages import OfficeRequest
from games.registry import get_game, get_plugin

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
SEED = 11


def _decide(game, options, state, seat: int, iterations: int = 48) -> tuple:
    """The generic Strategy Office's suggestions at `state` for `seat`, its position drawn by a real
    referee that holds `state` as the true one (request, sample, reply: the bus's round trip)."""
    referee = Referee(game, options, SEED)
    referee.state = state
    so = GenericStrategyOffice(f"p{seat}/so", 5, game, iterations, 20, 8, sampler="referee")
    view = {"seat": seat, "observation": state.observation(seat)}
    request = OfficeRequest(sender=f"p{seat}", to=f"p{seat}/so", task="suggest", turn=0, view=view,
                            legal=tuple(state.legal_actions(seat)))
    [ask] = so.handle(request)
    assert ask.kind == "sample_request" and ask.to == "referee"
    [sample] = referee.handle(ask)
    assert sample.kind == "sample" and sample.to == f"p{seat}/so"
    [reply] = so.handle(sample)
    return tuple((s.action, s.utility) for s in reply.suggestions), json.dumps(sample.state, sort_keys=True)


def _pledge_positions(game, options):
    """Pledge at its first decision, seat 0 holding a 2, seat 1's hidden card planted as 1, 2, 3."""
    for card in (1, 2, 3):
        state = game.new_initial_state(options)
        state.apply_chance([2, card, 3])
        yield state


def _planted_by_resampling(name: str, seat: int = 0, values: int = 4):
    """A decision point of a seeded random playthrough and other true states that differ only in what
    `seat` cannot see (its hidden part planted by resample_hidden with other generators)."""
    game = get_game(name)
    options = game.options(dict(get_plugin(name).short_options))
    rng, state = random.Random(3), game.new_initial_state(options)
    for _ in range(200):
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        if seat in state.current_players() and len(state.legal_actions(seat)) > 2:
            break
        state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
    planted = [state] + [state.resample_hidden(seat, random.Random(k)) for k in range(values - 1)]
    assert len({s.digest() for s in planted}) > 1, "nothing hidden was planted"
    return game, options, planted


def _run_plugin_code(code: str) -> subprocess.CompletedProcess:
    path = os.pathsep.join([str(HERE / "plugins"), str(ROOT)])
    env = {**os.environ, "PYTHONPATH": path, "RAY_AUTH_MODE": "disabled"}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture()
def plugins_on_path(monkeypatch):
    """The test plugins' folder on sys.path, their entry points found (as an installed package's)."""
    import games.registry as registry

    monkeypatch.syspath_prepend(str(HERE / "plugins"))
    for cached in ("_entry_points", "get_game", "get_plugin", "game_names"):
        clear = getattr(getattr(registry, cached, None), "cache_clear", None)
        if clear is not None:
            clear()
    yield
    for cached in ("_entry_points", "get_game", "get_plugin", "game_names"):
        clear = getattr(getattr(registry, cached, None), "cache_clear", None)
        if clear is not None:
            clear()


@pytest.mark.parametrize("name", ["pledge", "dominoes", "openspiel-liars_dice"])
def test_decisions_are_the_same_for_every_planted_hidden_value(name, plugins_on_path):
    """Information hiding: the opponents' hidden cards (Pledge: seat 1's card planted as 1, 2 and 3;
    Dominoes and Liar's Dice: the others' hands planted by redrawing them) never change the seat's
    sample nor its suggestions; the suggestions are not uniform (it did search)."""
    if name == "openspiel-liars_dice":
        pytest.importorskip("pyspiel")
    if name == "pledge":
        game = get_game(name)
        options = game.options({"rounds": 3})
        planted = list(_pledge_positions(game, options))
    else:
        game, options, planted = _planted_by_resampling(name)
    outs = {_decide(game, options, state, 0) for state in planted}
    assert len(outs) == 1, f"{name}: the seat's decisions changed with what it cannot see"
    suggestions, _ = outs.pop()
    assert len({u for _, u in suggestions}) > 1


def test_a_leaking_sampler_is_caught(plugins_on_path, monkeypatch):
    """The check above can fail: a referee whose sample is the true state itself (resample_hidden
    replaced by a copy) makes Pledge's seat 0 decide differently for some planted card of seat 1."""
    game = get_game("pledge")
    options = game.options({"rounds": 3})
    planted = list(_pledge_positions(game, options))
    cls = type(planted[0])
    monkeypatch.setattr(cls, "resample_hidden", lambda self, player, rng: self.clone())
    outs = {_decide(game, options, state, 0, iterations=200)[1] for state in planted}
    assert len(outs) == 3  # the samples now carry seat 1's card


def test_pledge_has_no_optional_hook_and_the_agent_searches_and_proposes_pacts(tmp_path):
    """Pledge (a separate package, registered by its entry point alone, no state_from_observation):
    the rules pass the conformance suite, the generic agent passes the agent checks, it asks the
    referee for samples, its suggestions are not uniform, it proposes pacts, and the log verifies."""
    log = tmp_path / "pledge.log"
    code = f"""
from games.api import OBSERVATION_STATE, Game
from games.registry import get_game
from games import conformance
game = get_game('pledge')
assert not game.has(OBSERVATION_STATE) and type(game).state_from_observation is Game.state_from_observation
conformance.run_all(game)
from replay import agent_conformance as a
a.run_all('generic', 'pledge')
from ops.cli import main
assert main(['play', 'pledge', '--seed', '4', '--games', '3', '--agents', 'generic', '--log', {str(log)!r}]) == 0
assert main(['replay', 'verify', {str(log)!r}]) == 0
from bus.log import parse_log
samples = proposals = 0
spread = set()
for g in parse_log(open({str(log)!r}, 'rb').read()).games:
    for r in g.records:
        m = r['msg']
        samples += m['kind'] == 'sample'
        if m['kind'] == 'office_reply' and m['task'] == 'suggest' and len(m['suggestions']) > 1:
            spread.add(len({{s['utility'] for s in m['suggestions']}}) > 1)
        if m['kind'] == 'talk':
            proposals += sum('"propose"' in s.get('text', '') for s in m['says'])
print(samples, proposals, int(True in spread))
"""
    done = _run_plugin_code(code)
    assert done.returncode == 0, done.stderr[-2000:]
    samples, proposals, searched = map(int, done.stdout.split()[-3:])
    assert samples >= 12 and proposals >= 1 and searched == 1


@pytest.mark.ray
def test_the_referee_samples_are_the_same_bytes_inline_and_on_ray(tmp_path):
    """Pledge with the generic agent in every seat: the log of ray-modules (every office its own Ray
    actor, the sample requests crossing processes) is the inline log, byte for byte."""
    logs = [tmp_path / "inline.log", tmp_path / "ray.log"]
    code = f"""
from ops.cli import main
assert main(['play', 'pledge', '--seed', '9', '--agents', 'generic', '--log', {str(logs[0])!r}]) == 0
assert main(['play', 'pledge', '--seed', '9', '--agents', 'generic', '--runtime', 'ray-modules',
             '--log', {str(logs[1])!r}]) == 0
"""
    done = _run_plugin_code(code)
    assert done.returncode == 0, done.stderr[-2000:]
    inline, ray = (p.read_bytes() for p in logs)
    assert b"sample_request" in inline and inline == ray
