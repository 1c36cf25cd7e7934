"""Every registered agent passes the agent conformance suite in every registered game it plays,
and deliberately broken agents are caught, each by its check, with the likely cause named."""

from __future__ import annotations

import random
import time

import pytest

from actors.actor import Actor
from actors.alpha.baseline import RandomStrategyOffice
from actors.alpha.offices import Answer, StrategyOffice
from actors.registry import AGENTS, AgentDef
from bus.messages import Suggestion
from replay import agent_conformance as checks

PAIRS = checks.agent_game_pairs()
# ~5-6 s each (generic: 25-80 s, its search in every decision): in the default suite (CI), out of the quick subset
HEAVY = {("alphadip", "diplomacy"), ("dipblue", "diplomacy"), ("generic", "battleline"), ("generic", "diplomacy"),
         ("generic", "risk"), ("generic", "werewolves")}


@pytest.mark.parametrize("agent,game", [pytest.param(a, g, marks=pytest.mark.slow) if (a, g) in HEAVY else (a, g) for a, g in PAIRS],
                         ids=[f"{a}-{g}" for a, g in PAIRS])
def test_agent_conformance(agent, game):
    checks.run_all(agent, game)


def test_every_agent_is_covered():
    assert {a for a, _ in PAIRS} | checks.covered_elsewhere() == set(checks.agent_names())
    # ws: tests/external (its records are exec's); llm: tests/llm (it needs a model server)
    assert checks.covered_elsewhere() == {"llm", "ws"}


# -- broken agents: the random agent with its Strategy Office replaced -----------------------

GAME = "hanabi"


def _one(action):
    return Answer(suggestions=[Suggestion(action=action, utility=1.0)])


class _SetOrder(StrategyOffice):
    """Plays the first legal action in a set's order, which changes with the hash seed."""

    def suggest(self, request):
        return _one(next(iter(set(request.legal))))


class _Clock(StrategyOffice):
    """Picks by the clock."""

    def suggest(self, request):
        return _one(request.legal[time.perf_counter_ns() % len(request.legal)])


class _GlobalRandom(StrategyOffice):
    """Picks with the process-wide generator."""

    def suggest(self, request):
        return _one(random.choice(request.legal))


class _NeedsTheOpening(RandomStrategyOffice):
    """Fails unless it has seen its player's first decision: it cannot take over mid-game."""

    opening = None

    def suggest(self, request):
        if self.opening is None:
            if request.turn > 1:
                raise KeyError("no opening seen")
            self.opening = request.turn
        return super().suggest(request)


class _Misplays(Actor):
    """A player whose President, at its third decision, raises or sends an illegal action."""

    def __init__(self, president, illegal):
        super().__init__(president.address, president.seed)
        self.president, self.illegal, self.decisions = president, illegal, 0

    def handle(self, message):
        if message.kind == "act_request":
            self.decisions += 1
            if self.decisions == 3 and not self.illegal:
                raise RuntimeError("broken on purpose")
        out = self.president.handle(message)
        if self.decisions == 3 and self.illegal:
            out = [m.model_copy(update={"action": "not-an-action"}) if m.kind == "act" else m for m in out]
        return out


def _build(office=None, player=None):
    def build(game, seat, seed, raw):
        actors = AGENTS["random"].build(game, seat, seed, {})
        if office is not None:
            actors = [office(a.address, a.seed) if a.address.endswith("/so") else a for a in actors]
        if player is not None:
            actors = [_Misplays(actors[0], illegal=player == "illegal"), *actors[1:]]
        return actors
    return build


BROKEN = {
    "broken-set-order": _build(_SetOrder),
    "broken-clock": _build(_Clock),
    "broken-global-random": _build(_GlobalRandom),
    "broken-needs-opening": _build(_NeedsTheOpening),
    "broken-raises": _build(player="raise"),
    "broken-illegal": _build(player="illegal"),
}


def _definitions() -> list[AgentDef]:
    return [AgentDef(name, frozenset({GAME}), build, "broken on purpose (tests only)", budget={GAME: {}})
            for name, build in BROKEN.items()]


def register_broken_agents() -> None:
    """Called in the subprocesses of the hash-seed check (its `setup`)."""
    for definition in _definitions():
        AGENTS[definition.name] = definition


SETUP = f"{__name__}:register_broken_agents"


@pytest.fixture
def broken(monkeypatch):
    for definition in _definitions():
        monkeypatch.setitem(AGENTS, definition.name, definition)


def _logs(agent):
    return checks.play_in_process(agent, GAME, range(2))


def test_set_order_is_caught_only_across_hash_seeds(broken):
    checks.check_verifies("broken-set-order", GAME, _logs("broken-set-order"))  # one process: blind to it
    with pytest.raises(AssertionError, match=r"'broken-set-order' in hanabi: .*seed 0 at seq \d+.*a set iterated\?"):
        checks.check_hash_seeds("broken-set-order", GAME, [0, 1], setup=SETUP)


def test_clock_is_caught_across_hash_seeds_and_by_verify(broken):
    with pytest.raises(AssertionError, match=r"'broken-clock' in hanabi: .*same hash seed differ too: "
                                             r"the clock read\?"):
        checks.check_hash_seeds("broken-clock", GAME, [0, 1], setup=SETUP)
    with pytest.raises(AssertionError, match=r"'broken-clock' in hanabi seed 0: verify fails: .*the clock read\?"):
        checks.check_verifies("broken-clock", GAME, _logs("broken-clock"))


def test_global_random_is_caught_by_verify(broken):
    with pytest.raises(AssertionError, match=r"seed 0: verify fails: diverges at seq \d+ "
                                             r".*\(office_reply from p\d/so\).*global random used\?"):
        checks.check_verifies("broken-global-random", GAME, _logs("broken-global-random"))


def test_a_raising_player_is_caught_by_its_fault(broken):
    logs = _logs("broken-raises")
    checks.check_verifies("broken-raises", GAME, logs)  # deterministic, so it verifies
    with pytest.raises(AssertionError, match=r"seed 0: fault at seq \d+: p0 raised .*broken on purpose"):
        checks.check_no_errors("broken-raises", GAME, logs)


def test_an_illegal_action_is_caught_as_an_error_event(broken):
    with pytest.raises(AssertionError, match=r"seed 0: error event at seq \d+: p0 failed \(.*not-an-action.*legally"):
        checks.check_no_errors("broken-illegal", GAME, _logs("broken-illegal"))


def test_an_agent_that_cannot_take_over_is_caught_by_the_fork(broken):
    logs = _logs("broken-needs-opening")
    checks.check_no_errors("broken-needs-opening", GAME, logs)  # from the start it plays cleanly
    checks.check_verifies("broken-needs-opening", GAME, logs)
    with pytest.raises(AssertionError, match=r"seed 0, fork at seq \d+: fault at seq \d+: p0/so raised .*"
                                             r"seen the game from its start\?"):
        checks.check_fork("broken-needs-opening", GAME, 0)
