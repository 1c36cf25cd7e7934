"""The generic Alpha agent: its search, its rebuilt positions, its trust, its pacts, and its play in
a third-party game and the coin_talk test plugin (each brought by a .dist-info on PYTHONPATH)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from actors.alpha.generic import pacts as P
from actors.alpha.generic.offices import GenericIntelligenceOffice, aspiration
from actors.alpha.generic.search import Search
from bus.messages import OfficeRequest
from games.api import OBSERVATION_STATE, Game
from games.registry import get_game, get_plugin

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
HOOKED = ["battleline", "diplomacy", "dominoes", "hanabi", "risk", "werewolves"]


def _positions(name: str, seeds: int = 4, limit: int = 150):
    """(state, player) at every decision of seeded random playthroughs (short options)."""
    game = get_game(name)
    options = game.options(dict(get_plugin(name).short_options))
    for seed in range(seeds):
        rng, state, steps = random.Random(seed), game.new_initial_state(options), 0
        while not state.is_terminal() and steps < limit:
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            for p in state.current_players():
                yield state, p
            state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
            steps += 1


@pytest.mark.parametrize("name", HOOKED)
def test_rebuilt_position_shows_the_same_observation_and_legal_actions(name):
    """Game.state_from_observation: the seat observes exactly what it observed, may do the same, and
    every determinisation drawn from the rebuilt position still shows it that observation."""
    game = get_game(name)
    assert game.has(OBSERVATION_STATE)
    rng, n = random.Random(7), 0
    for state, p in _positions(name, seeds=1 if name == "diplomacy" else 4, limit=40 if name == "diplomacy" else 150):
        obs = state.observation(p)
        rebuilt = game.state_from_observation(p, obs)
        assert rebuilt.observation(p) == obs and rebuilt.legal_actions(p) == state.legal_actions(p)
        assert rebuilt.resample_hidden(p, rng).observation(p) == obs
        n += 1
    assert n > 30


def test_search_is_bounded_by_iterations_and_seeded():
    """Root visits of the searching seat add up to the budget; the same generator seed gives the
    same statistics, another seed other ones (no clock, no global random)."""
    game = get_game("dominoes")
    state, p = next((s, p) for s, p in _positions("dominoes") if len(s.legal_actions(p)) > 2)
    base = game.state_from_observation(p, state.observation(p))
    search = Search(game, p + 1, p, max_steps=30)

    def run(seed):
        return search.run(lambda rng: base.resample_hidden(p, rng), 60, random.Random(seed))

    first, again, other = run(1), run(1), run(2)
    assert sum(v[0] for v in first.root[p].values()) == 60 and first.iterations == 60
    assert first == again and first.root != other.root
    assert set(first.root[p]) == set(state.legal_actions(p))


def test_forced_commitment_is_played_at_the_root():
    game = get_game("dominoes")
    state, p = next((s, p) for s, p in _positions("dominoes") if len(s.legal_actions(p)) > 2)
    base = game.state_from_observation(p, state.observation(p))
    action = state.legal_actions(p)[-1]
    result = Search(game, p + 1, p).run(lambda rng: base.resample_hidden(p, rng), 20, random.Random(3), {p: action})
    assert p not in result.root  # the seat never chose: its commitment was imposed


def test_concession_goes_from_high_to_low_boulware_later():
    linear = [aspiration(r, 5, 0.2, 0.0, 1.0) for r in range(5)]
    assert linear[0] == 0.2 and linear[-1] == 0.0 and linear == sorted(linear, reverse=True)
    assert aspiration(2, 5, 0.2, 0.0, 0.3) > linear[2] > aspiration(2, 5, 0.2, 0.0, 3.0)  # Boulware holds out


class _Duel(Game):
    """A game object for the IO alone: it shows the last joint step as {1: "b"}."""

    name = "duel_for_io"

    def actions_seen(self, player, observation):
        return {int(k): v for k, v in observation["last"].items()}


def _io_request(ledger, trust, played):
    view = {"seat": 0, "observation": {"last": {"1": played}}, "pacts": ledger, "trust": trust,
            "reputation": {"1": [1.0, 0.0]} if trust else {}, "traits": {"trust": 0.5}, "inbox": []}
    return OfficeRequest(sender="p0", to="p0/io", task="update", turn=5, view=view)


def test_beta_reputation_from_kept_and_broken_pacts_with_causes():
    """trust = (r + 1) / (r + s + 2) with forgetting 0.9: one kept then one broken commitment."""
    io = GenericIntelligenceOffice("p0/io", 1, _Duel(), forgetting=0.9)
    pact = {"proposer": 0, "commitments": [[0, 4, "a"], [1, 4, "b"]], "status": "confirmed", "accepted": [1]}
    kept = {u.path: u.value for u in io.update(_io_request({"x": pact}, {}, "b")).updates}
    assert kept[("trust",)] == {"1": round(2 / 3, 4)}
    assert kept[("trust_causes",)][0]["verdict"] == "kept" and kept[("pacts", "x")]["verdicts"] == {"1": "kept"}
    broken = {u.path: u.value for u in io.update(_io_request({"x": pact}, {"1": 0.6667}, "c")).updates}
    r, s = 0.9 * 1.0, 1.0
    assert broken[("trust",)] == {"1": round((r + 1) / (r + s + 2), 4)}
    cause = broken[("trust_causes",)][0]
    assert (cause["subject"], cause["pact"], cause["played"], cause["verdict"]) == ("1", "x", "c", "broken")


def test_pacts_are_marked_from_core_records_alone():
    def heard(turn, rnd, lines):
        return {"seq": 0, "msg": {"kind": "heard", "to": "p0", "turn": turn, "channel": "c", "round": rnd,
                                  "lines": [{"speaker": s, "says": [{"kind": "say", "text": t}]} for s, t in lines]}}
    offer = P.Pact("0-3-0", "propose", ((0, 3, "x"), (1, 3, "y")))
    records = [heard(3, 0, [(0, offer.text()), (1, "just words")]),
               heard(3, 1, [(1, P.Pact("0-3-0", "accept", offer.commitments).text())]),
               {"seq": 1, "msg": {"kind": "step", "turn": 3, "actions": {"0": "x", "1": "z"}}}]
    marked = P.mark(records)
    assert [(c["player"], c["verdict"]) for c in marked[0]["commitments"]] == [(0, "kept"), (1, "broken")]
    assert P.mark(records[:1] + records[2:]) == []  # never accepted: no pact



def test_a_pact_binds_the_parties_that_accept_and_a_retracted_one_nobody():
    """A party's reject takes its commitments out of a pact of three (the rest binds, marked kept or
    broken); the proposer's own reject retracts it; a proposal's claims travel in its text."""
    def heard(turn, rnd, lines):
        return {"seq": 0, "msg": {"kind": "heard", "to": "p0", "turn": turn, "channel": "c", "round": rnd,
                                  "lines": [{"speaker": s, "says": [{"kind": "say", "text": t}]} for s, t in lines]}}
    offer = P.Pact("0-3-0", "propose", ((0, 3, "x"), (1, 3, "x"), (2, 3, "x")), claims=((1, 0.25), (2, 0.5)))
    assert P.parse(offer.text()) == offer and P.parse(P.Pact("a", "accept", offer.commitments).text()).claims == ()
    answers = heard(3, 1, [(1, P.Pact("0-3-0", "accept", offer.commitments).text()),
                           (2, P.Pact("0-3-0", "reject", offer.commitments).text())])
    step = {"seq": 1, "msg": {"kind": "step", "turn": 3, "actions": {"0": "x", "1": "y", "2": "z"}}}
    marked = P.mark([heard(3, 0, [(0, offer.text())]), answers, step])
    assert [(c["player"], c["verdict"]) for c in marked[0]["commitments"]] == [(0, "kept"), (1, "broken")]
    retracted = heard(3, 2, [(0, P.Pact("0-3-0", "reject", offer.commitments).text())])
    assert P.mark([heard(3, 0, [(0, offer.text())]), answers, retracted, step]) == []
    # the same in the proposer's ledger (what its IO judges): the rejecting party drops out
    from actors.alpha.generic.offices import _applied, ledger_updates
    mine = {"0-3-0": {"proposer": 0, "commitments": [list(c) for c in offer.commitments], "status": "proposed",
                      "accepted": []}}
    lines = [{"turn": 3, "round": 1, **line} for line in answers["msg"]["lines"]]
    entry = _applied(mine, ledger_updates(mine, lines, 0))["0-3-0"]
    assert entry["status"] == "confirmed" and [c[0] for c in entry["commitments"]] == [0, 1]


def test_the_foreign_office_takes_the_offer_claimed_best_and_never_binds_itself_twice():
    """Two offers bind seat 0 to different moves at one decision: it accepts the one whose proposer
    claims more for its parties (what every party heard alike), rejects the other, and retracts its
    own open proposal that the accepted one outbids."""
    from actors.alpha.generic.offices import GenericForeignOffice

    turn = 5
    high = P.Pact("1-5-0", "propose", ((0, turn, "a"), (1, turn, "a")), claims=((0, 0.3),))
    low = P.Pact("2-5-0", "propose", ((0, turn, "b"), (2, turn, "b")), claims=((0, 0.05),))
    inbox = [{"turn": turn, "round": 0, "speaker": s, "says": [{"kind": "say", "text": p.text()}]}
             for s, p in ((1, high), (2, low))]
    own = {"0-5-0": {"proposer": 0, "commitments": [[0, turn, "c"], [3, turn, "c"]], "status": "proposed",
                     "accepted": [], "claims": {"3": 0.01}}}
    values = [{"commitments": [list(c) for c in p.commitments], "gain": {"0": 0.1, str(s): 0.1},
               "gain_if_broken": 0.0} for s, p in ((1, high), (2, low))]
    view = {"seat": 0, "inbox": inbox, "pacts": own, "deal_values": values, "trust": {}, "traits": {"trust": 0.5},
            "talk": {"round": 1, "max_rounds": 2}}
    answer = GenericForeignOffice("p0/fo", 1, high=0.0).negotiate(
        OfficeRequest(sender="p0", to="p0/fo", task="negotiate", turn=turn, view=view))
    said = {(p.id, p.stage) for p in (P.parse(s.text) for s in answer.says)}
    assert said == {("1-5-0", "accept"), ("2-5-0", "reject"), ("0-5-0", "reject")}
    final = {u.path[1]: u.value["status"] for u in answer.updates if u.path[0] == "pacts"}
    assert final == {"1-5-0": "confirmed", "2-5-0": "rejected", "0-5-0": "rejected"}


def test_pacts_are_valued_on_common_random_numbers():
    """A search given one seed per descent draws each descent's world and moves from its own seed:
    the generator passed in no longer matters, and a pact's run differs from the run without it only
    where the pact does (seat 0 forced to play what it would have played changes nothing)."""
    game = _pledge()
    state = game.new_initial_state(game.options({"rounds": 1}))
    state.apply_chance([2, 2, 2])
    sample = lambda rng: state.resample_hidden(0, rng)  # noqa: E731
    seeds = [random.Random(9).getrandbits(32) for _ in range(40)]
    a = Search(game, 3, 0).run(sample, 40, random.Random(1), seeds=seeds)
    b = Search(game, 3, 0).run(sample, 40, random.Random(2), seeds=seeds)
    assert a == b and a.iterations == 40
    c = Search(game, 3, 0).run(sample, 40, random.Random(1), seeds=[s + 1 for s in seeds])
    assert c != a
    forced = Search(game, 3, 0).run(sample, 40, random.Random(3), seeds=seeds, forced={1: "give"})
    assert forced != a and forced.value[0] >= a.value[0]

def _run(code: str) -> subprocess.CompletedProcess:
    path = os.pathsep.join([str(HERE / "plugins"), str(ROOT / "tests" / "plugins"), str(ROOT)])
    env = {**os.environ, "PYTHONPATH": path, "RAY_AUTH_MODE": "disabled"}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_third_party_and_coin_talk_conformance_and_pacts(tmp_path):
    """The generic agent passes the agent checks in a game it has never seen (stag_talk, a separate
    package) and in coin_talk, with no edit of detente; in stag_talk it makes pacts, the log marks
    them, its IO logs trust with the pacts that caused it, and the debugger's deal ledger shows them."""
    log = tmp_path / "stag.log"
    code = f"""
from replay import agent_conformance as a
a.run_all('generic', 'stag_talk')
a.run_all('generic', 'coin_talk')
from ops.cli import main
assert main(['play', 'stag_talk', '--seed', '3', '--agents', 'generic', '--log', {str(log)!r}]) == 0
from bus.log import parse_log
from actors.alpha.generic.pacts import mark
game = parse_log(open({str(log)!r}, 'rb').read()).games[0]
marked = [c['verdict'] for d in mark(game.records) for c in d['commitments']]
causes = [u for r in game.records if r['msg']['kind'] == 'kb_change' and r['msg']['source'].endswith('/io')
          for u in r['msg']['updates'] if u['path'] == ['trust_causes']]
suggested = [s for r in game.records if r['msg']['kind'] == 'office_reply' for s in r['msg']['suggestions']]
from ops.debugger.game import DebugGame
ledger = DebugGame(game).ledger(0)
assert set(['proposed', 'accepted', 'kept']) <= set(e['type'] for e in ledger), ledger
print(len(marked), marked.count('kept'), len(causes), len(suggested))
"""
    done = _run(code)
    assert done.returncode == 0, done.stderr[-2000:]
    pacts, kept, causes, suggested = map(int, done.stdout.splitlines()[-1].split())
    assert pacts >= 2 and kept >= 1 and causes >= 1 and suggested >= 4


def test_opponent_model_reads_who_played_for_whom():
    """A seat seen playing the action best for this seat (and worst for itself) looks like a partner;
    one playing the action worst for this seat, like a saboteur."""
    io = GenericIntelligenceOffice("p0/io", 1, _Duel(), forgetting=0.9)
    # per action: [visit share, the other seat's own return, this seat's return]
    predicted = {"1": {"b": [0.5, 0.2, 0.9], "c": [0.5, 0.8, 0.1]}}

    def types(played):
        view = {"seat": 0, "observation": {"last": {"1": played}}, "predicted": predicted, "inbox": []}
        answer = io.update(OfficeRequest(sender="p0", to="p0/io", task="update", turn=5, view=view))
        return {u.path: u.value for u in answer.updates}[("opponent_types",)]["1"]

    helped, hurt = types("b"), types("c")
    assert helped["partner"] > 0.5 > helped["saboteur"]
    assert hurt["saboteur"] + hurt["self-interested"] > 0.75 and hurt["partner"] < 0.05
    # a rational type explains either action better than noise
    assert helped["partner"] > helped["random"] and hurt["saboteur"] > hurt["random"]


def _pledge():
    """The Pledge test game's rules, loaded from their file (sys.path and the registry untouched)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pledge_rules", HERE / "plugins" / "pledge" / "rules.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Pledge()


def _pledge_search(**models):
    """Seat 0's root values at Pledge's first decision, seat 1 and 2 modelled as `models` say."""
    game = _pledge()
    state = game.new_initial_state(game.options({"rounds": 1}))
    state.apply_chance([2, 2, 2])
    search = Search(game, 3, 0, models={int(p[1:]): w for p, w in models.items()})
    return search.run(lambda rng: state.resample_hidden(0, rng), 300, random.Random(4))


def test_the_opponent_model_and_trust_steer_the_search():
    """The IO's types reach the tree: partners who give (best for seat 0) make seat 0 expect more than
    saboteurs who keep; a trusted pact partner's side is played at the root as often as it is trusted."""
    partners = _pledge_search(p1={"partner": 1.0}, p2={"partner": 1.0})
    saboteurs = _pledge_search(p1={"saboteur": 1.0}, p2={"saboteur": 1.0})
    assert partners.value[0] > saboteurs.value[0] + 0.1
    assert partners.root[1]["give"][0] > partners.root[1]["keep"][0]
    assert saboteurs.root[1]["keep"][0] > saboteurs.root[1]["give"][0]
    game = _pledge()
    state = game.new_initial_state(game.options({"rounds": 1}))
    state.apply_chance([2, 2, 2])
    search = Search(game, 3, 0)
    sure = search.run(lambda rng: state.resample_hidden(0, rng), 200, random.Random(4), likely={1: ("give", 1.0)})
    never = search.run(lambda rng: state.resample_hidden(0, rng), 200, random.Random(4), likely={1: ("give", 0.0)})
    assert 1 not in sure.root and 1 in never.root  # a sure partner never chose; a distrusted one did
    assert sure.value[0] > never.value[0]


def test_a_later_commitment_the_search_cannot_play_is_left_out():
    """A pact over several decisions: the search counts, per later decision and seat, how often the
    imposed action could be played; one never legal there (or at a decision the game never reaches)
    is what the Strategy Office leaves out of a proposal."""
    from actors.alpha.generic.offices import _playable

    game = _pledge()
    state = game.new_initial_state(game.options({"rounds": 2}))
    state.apply_chance([2, 2, 2])
    search = Search(game, 3, 0)
    search.run(lambda rng: state.resample_hidden(0, rng), 60, random.Random(5), forced={0: "give", 1: "give"},
               later={1: {0: "give", 1: "steal"}, 5: {0: "give"}})
    reached, played = search.plan_hits[(1, 0)]
    assert reached > 0 and played == reached and _playable([reached, played])
    reached, played = search.plan_hits[(1, 1)]
    assert reached > 0 and played == 0 and not _playable([reached, played])
    assert (5, 0) not in search.plan_hits and not _playable(search.plan_hits.get((5, 0)))


def test_a_tuning_spec_types_the_generic_agents_ranges():
    """`detente tune` reads the generic agent's options model: integer options searched as integers,
    a range past an option's bounds or an unknown option refused before anything runs."""
    from ops.tournament.spec import SpecError
    from ops.tune.spec import parse_tune_spec

    data = {"game": "hanabi", "games": 4, "trials": 2, "objective": "hanabi_score",
            "agent": {"name": "generic", "count": 2, "options": {"rollout": "infoset", "prune": True}},
            "search": {"iterations": [16, 128], "traits.so_weight": [0.0, 3.0]}}
    spec = parse_tune_spec(data)
    assert spec.tuned_options({"iterations": 40, "traits.so_weight": 1.5}) == {
        "rollout": "infoset", "prune": True, "iterations": 40, "traits": {"so_weight": 1.5}}
    for change, message in [({"search": {"iterations": [1.5, 9]}}, "is an integer"),
                            ({"search": {"traits.honesty": [0.0, 1.5]}}, "goes beyond the option's bounds"),
                            ({"search": {"depth": [1, 3]}}, "has no option 'depth'")]:
        with pytest.raises(SpecError, match=message):
            parse_tune_spec({**data, **change})


def test_a_sweep_compares_every_root_move_on_the_same_worlds():
    """With `sweep` every root move of the seat is searched once a round, each round on one world:
    the visits are equal, the run is seeded, and two moves the rules cannot tell apart (a card to
    either of two empty flags at Battle Line's first move, one step deep) get the same value, which
    descents on worlds of their own would not give them."""
    game = get_game("battleline")
    state = game.new_initial_state(game.options({}))
    rng = random.Random(5)
    while state.is_chance():
        state.apply_chance(state.sample_chance(rng))
    p = state.current_players()[0]
    legal = state.legal_actions(p)
    sample = lambda r: state.resample_hidden(p, r)  # noqa: E731
    swept = Search(game, 2, p, max_steps=2).run(sample, 2 * len(legal), random.Random(1), sweep=True)
    assert {v[0] for v in swept.root[p].values()} == {2} and swept.iterations == 2 * len(legal)
    assert swept == Search(game, 2, p, max_steps=2).run(sample, 2 * len(legal), random.Random(1), sweep=True)
    card = legal[0].rsplit(":", 1)[0]
    assert swept.root[p][f"{card}:0"][1] == swept.root[p][f"{card}:1"][1]
    drawn = Search(game, 2, p, max_steps=2).run(sample, 2 * len(legal), random.Random(1))
    assert any(drawn.root[p][f"{c.rsplit(':', 1)[0]}:0"][1:] != drawn.root[p][f"{c.rsplit(':', 1)[0]}:1"][1:]
               for c in legal if c.endswith(":0"))
