"""Risk agents on hand-made positions: each test names the rule it checks ("seed": Keppler &
Choi 2000, the td agent's machinery; "ours": the heuristic and the shared tactics, see
actors/risk/params.py), then the network, its TD learning, training, and the offices on the bus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from actors.risk.board import Board
from actors.risk.direct import play, random_policy
from actors.risk.heuristic import suggest as heuristic
from actors.risk.network import (
    HIDDEN,
    INPUTS,
    SCALE,
    SHIPPED,
    Evaluator,
    Learner,
    Net,
    features,
    forward,
    get_net,
    net_from_json,
    random_net,
    shipped_net,
    value,
)
from actors.risk.odds import simulated_probability, win_probability
from actors.risk.offices import SO_KEYS, RiskIntelligenceOffice
from actors.risk.params import HeuristicParams, TDParams
from actors.risk.td import suggest as td
from bus.messages import OfficeRequest
from games.risk.dice import conquest_probability
from games.risk.mapdata import CODES, INDEX, NUM_TERRITORIES
from tests.risk.test_rules import GAME, act, position
from tests.bounds import bounded

H = HeuristicParams()
T = TDParams()


def liking(weights: dict[str, float], each: float = 0.0) -> Net:
    """A net whose value grows with the sum of the liked territories' weights (`each` for the rest)."""
    row = [int(each * SCALE)] * NUM_TERRITORIES + [0] * (INPUTS - NUM_TERRITORIES) + [0]
    for code, w in weights.items():
        row[INDEX[code]] = int(w * SCALE)
    zero = [0] * (INPUTS + 1)
    return Net(tuple([tuple(row)] + [tuple(zero)] * (HIDDEN - 1)), tuple([4 * SCALE] + [0] * (HIDDEN - 1) + [-2 * SCALE]))


COUNTING = liking({}, each=0.1)  # more territory, more value (what training should find)


def choose(state, policy="td", net=COUNTING, params=None):
    seat = state.current_players()[0]
    board, legal = Board(state.observation(seat)), state.legal_actions(seat)
    if policy == "td":
        return td(board, legal, net, params or T)[0]
    return heuristic(board, legal, params or H)[0]


# -- the seed's machinery (td) -------------------------------------------------------------------

def test_td_claims_the_territory_whose_board_scores_highest():
    """Seed: "evaluated the board if it did have the territory in question ... claim the
    territory that resulted in a board which returned the highest utility"."""
    state = GAME.new_initial_state({"players": 3})
    assert choose(state, net=liking({"EAU": 1.0, "BRA": 0.5})) == "claim:EAU"
    assert choose(state, net=liking({"BRA": 0.5})) == "claim:BRA"


def _front(armies: dict[str, int], **kw):
    """Seat 0 holds Alaska; seat 1 the rest (Kamchatka, Alberta and NWT set per test)."""
    return position({"ALA": 0}, armies, phase="attack", **kw)


def test_td_attacks_only_at_sixty_percent():
    """Seed: "We chose 60% as a threshold success percentage to perform an attack": 3 v 2 wins
    0.656 (attack, with the most dice), 2 v 2 only 0.363 (no attack)."""
    assert choose(_front({"ALA": 4, "KAM": 2, "ALB": 9, "NWT": 9})) == "attack:ALA,KAM,3"
    assert choose(_front({"ALA": 3, "KAM": 2, "ALB": 9, "NWT": 9})) == "end"
    exact = TDParams(odds="exact")
    assert choose(_front({"ALA": 4, "KAM": 2, "ALB": 9, "NWT": 9}), params=exact) == "attack:ALA,KAM,3"


def test_td_attacks_for_the_best_board_or_only_for_a_better_one():
    """Seed: it stops "when no more moves are found that meet the criteria for utility gain and
    likelihood of a successful attack". Ours, the default: the best board is taken whatever its
    gain (need_gain=False); need_gain=True attacks only where the board gets better."""
    state = _front({"ALA": 9, "ALB": 9, "NWT": 9})
    assert choose(state, net=liking({"KAM": -1.0})) == "attack:ALA,KAM,3"
    assert choose(state, net=liking({"KAM": -1.0}), params=TDParams(need_gain=True)) == "end"


def test_td_attacks_the_best_board_first_and_re_evaluates():
    """Seed: "The board position with the highest returned utility would thus indicate the
    territory that we would want to attack first. After each successful attack we reevaluate"."""
    state = _front({"ALA": 9})
    assert choose(state, net=liking({"NWT": 0.3, "ALB": 0.6, "KAM": 0.1})) == "attack:ALA,ALB,3"
    act(state, "attack:ALA,ALB,3")
    state.apply_chance([[6, 6, 6], [1]])  # Alberta falls; move in, then the next best
    act(state, "move:5")
    assert choose(state, net=liking({"NWT": 0.3, "ALB": 0.6, "KAM": 0.1})) == "attack:ALB,NWT,3"  # better odds


def test_td_splits_placement_between_defence_and_offence():
    """Seed: "a 'fake player' that consists of all of the enemy players ... assign a certain
    percentage of our armies as 'defense' ... place a certain number of armies on 'offense'".
    North America (8 armies): Kamchatka's 10 threaten Alaska, so half go there; the rest to the
    strongest neighbour of the best target (all equal here: Venezuela, the first; from Central America)."""
    na = {c: 0 for c in CODES[:9]}
    state = position(na, {"KAM": 10})
    assert state.observation(0)["reinforcements"] == 8
    assert choose(state) == "place:ALA:4"
    act(state, "place:ALA:4")
    assert choose(state) == "place:CAM:4"


def test_td_fortifies_the_likely_target_from_a_buddy():
    """Seed: "friendly territories adjacent to the likely attacked territory, called 'buddies' ...
    we move the armies from this 'buddy' to the territory in danger" (all its spare armies when
    it borders no enemy: ours)."""
    mine = {c: 0 for c in ("ALA", "ALB", "NWT", "ONT", "WUS", "GRL", "QUE", "EUS", "CAM")}
    state = position(mine, {"KAM": 10, "ALB": 6}, phase="fortify")
    assert choose(state) == "fortify:ALB,ALA"
    act(state, "fortify:ALB,ALA")
    assert choose(state) == "move:5"


def test_td_setup_places_one_army_by_the_same_plan():
    """Ours (the seed is silent on set-up armies): one at a time, by the placement plan."""
    state = GAME.new_initial_state({"players": 3})
    for _ in bounded(GAME.max_steps):
        if state.observation(0)["phase"] != "claim":
            break
        act(state, state.legal_actions(state.current_players()[0])[0])
    action = choose(state)
    assert action in state.legal_actions(0) and action.endswith(":1")


# -- the heuristic (ours) ---------------------------------------------------------------------

def test_heuristic_claims_in_the_continent_it_leads():
    """Ours: the continent where my count beats the top rival's most, small continents first."""
    state = GAME.new_initial_state({"players": 3})
    for code, seat in (("IDN", 0), ("BRA", 1), ("ICE", 2), ("NGU", 0), ("PER", 1), ("GBR", 2)):
        assert state.current_players() == [seat]
        act(state, f"claim:{code}")
    assert choose(state, "heuristic") == "claim:WAU"  # Australia, next to two of mine


def test_heuristic_prefers_completing_a_continent():
    """Ours: completing a continent is worth twice its bonus more than another conquest; breaking
    a foe's continent its bonus (here Asia's 7, until a third player holds China)."""
    state = position({"IDN": 0, "NGU": 0, "WAU": 0}, {"IDN": 8, "WAU": 8}, phase="attack")
    assert choose(state, "heuristic") == "attack:IDN,SIA,3"
    state = position({"IDN": 0, "NGU": 0, "WAU": 0, "CHN": 2}, {"IDN": 8, "WAU": 8}, phase="attack")
    assert choose(state, "heuristic") == "attack:WAU,EAU,3"


def test_heuristic_attacks_only_at_even_odds_or_better():
    """Ours: exact odds at least `attack_threshold` (0.5): 1 v 1 wins 0.417, 2 v 1 0.754."""
    assert choose(_front({"ALA": 2, "ALB": 9, "NWT": 9}), "heuristic") == "end"
    assert choose(_front({"ALA": 3, "ALB": 9, "NWT": 9}), "heuristic") == "attack:ALA,KAM,2"


def test_heuristic_defends_a_threatened_border_then_attacks_from_its_base():
    """Ours: defence armies (the first 40%) where a foe's stack outnumbers the border."""
    na = {c: 0 for c in CODES[:9]}
    state = position(na, {"KAM": 10})
    assert choose(state, "heuristic") == "place:ALA:2"  # 3 of 8 armies on defence, in chunks
    act(state, "place:ALA:2")
    assert choose(state, "heuristic") == "place:ALA:1"


def test_heuristic_fortifies_interior_armies_towards_the_front():
    """Ours: the largest stack with no enemy next to it moves to a neighbour nearer the front."""
    mine = {c: 0 for c in CODES[:9]}
    state = position(mine, {"ONT": 7}, phase="fortify")
    action = choose(state, "heuristic")
    assert action.startswith("fortify:ONT,")
    act(state, action)
    assert choose(state, "heuristic") == "move:6"


def test_move_in_keeps_what_the_sources_foes_could_strike_with():
    """Ours: after a conquest the source keeps the strongest neighbouring foe stack's strike
    (armies - 1), the rest move in; everything when the source borders no one else."""
    state = _front({"ALA": 9, "KAM": 1, "NWT": 4, "ALB": 9})
    act(state, "attack:ALA,KAM,3")
    state.apply_chance([[6, 6, 6], [1]])
    assert state.observation(0)["phase"] == "occupy"
    pending = state.observation(0)["pending"]
    assert (pending["min"], pending["max"]) == (3, 8)
    assert choose(state, "heuristic") == "move:3"  # Alberta's 9 strike with 8: keep 6, the most allowed
    inner = position({"ALA": 0, "ALB": 0, "NWT": 0}, {"ALA": 9}, phase="attack")
    act(inner, "attack:ALA,KAM,3")
    inner.apply_chance([[6, 6, 6], [1]])
    assert choose(inner, "heuristic") == "move:8"


def test_neutral_set_up_army_blocks_the_foe():
    """Ours: two players place the neutral's armies too; one goes in the continent the foe holds
    most of (Asia, 9 of 12), next to most of its territories (Irkutsk)."""
    state = GAME.new_initial_state({"players": 2})
    state.apply_chance(sorted(["EAU", "WAU", "ARG", "ICE", "GBR", "SCA", "UKR", "NEU", "WEU", "SEU",
                               "MAD", "JPN", "YAK", "IRK"], key=INDEX.__getitem__))
    claims = {0: ["ALA", "NWT", "GRL", "ALB", "ONT", "QUE", "WUS", "EUS", "CAM", "VEN", "BRA", "PER", "NAF", "EGY"],
              1: ["IDN", "NGU", "EAF", "CON", "SAF", "MEA", "AFG", "IND", "SIA", "CHN", "MON", "KAM", "SIB", "URA"]}
    for k in range(14):
        act(state, f"claim:{claims[0][k]}")
        act(state, f"claim:{claims[1][k]}")
    for _ in bounded(GAME.max_steps):
        if not (state.observation(0)["phase"] == "setup" and state.observation(0)["owner"][
                INDEX[state.legal_actions(state.current_players()[0])[0][6:9]]] != 2):
            break
        act(state, choose(state, "heuristic"))
    assert choose(state, "heuristic") == "place:IRK:1"


def test_defender_rolls_two_and_sets_are_traded_at_once():
    """Ours: the most defence dice; a set is traded as soon as one is held."""
    state = position({"ALA": 0}, {"ALA": 5, "KAM": 3}, cur=0, phase="attack", defender_dice="chosen")
    act(state, "attack:ALA,KAM,3")
    assert state.observation(1)["phase"] == "defend" and choose(state, "heuristic") == "defend:2"
    cards = position({"ALA": 0}, hands={0: ["ALA", "ALB", "W1"]}, cards=True)
    assert choose(cards, "heuristic").startswith("trade:") and choose(cards).startswith("trade:")


def test_heuristic_beats_random_in_two_player_games():
    """Ours: the goal is >= 0.80 against random in two-player games (here 30 games, seats alternating)."""
    wins = 0
    for g in range(30):
        mine = g % 2
        policies = [random_policy(f"t{g}")] * 2
        policies[mine] = lambda obs, legal: heuristic(Board(obs), legal, H)[0]
        _, outcome = play(policies, {"players": 2}, f"test/{g}")
        wins += outcome.winners == (mine,)
    assert wins >= 27


# -- odds ----------------------------------------------------------------------------------------

def test_exact_odds_are_the_rules_own_and_simulated_ones_are_close():
    """The exact odds equal games.risk.dice's (Fractions through the resolver); the seed's
    simulated battle is a fixed estimate within sampling error of them."""
    for a, d in [(1, 1), (3, 2), (5, 7), (10, 10)]:
        assert abs(win_probability(a, d) - float(conquest_probability(a, d))) < 1e-12
        assert abs(simulated_probability(a, d, 200) - win_probability(a, d)) < 0.12
    assert simulated_probability(3, 2, 200) == simulated_probability(3, 2, 200)
    assert win_probability(0, 3) == 0.0 and win_probability(3, 0) == 1.0


# -- the network ---------------------------------------------------------------------------------

def test_inputs_are_territories_owned_then_continent_shares():
    """Seed: "one cell for each of the 42 territories, as well as one cell for each of the 6
    continents. Each input is ... 1 or 0, except for the continent indicators ... a percentage"."""
    owned = [False] * 42
    for code in ("ALA", "NWT", "EAU"):
        owned[INDEX[code]] = True
    x = features(owned)
    assert len(x) == INPUTS == 48 and sum(x[:42]) == 3
    assert x[42:] == [2 / 9, 0.0, 0.0, 0.0, 0.0, 1 / 4]


def test_values_are_exact_and_incremental():
    """Ours: integer sums, so a value does not depend on the order of summation, and a
    territory added incrementally gives the value of the board computed afresh."""
    net = random_net(5)
    owned = [t % 3 == 0 for t in range(42)]
    ev = Evaluator(net, owned)
    assert ev.value() == value(net, owned)
    for t in range(42):
        more = list(owned)
        more[t] = True
        assert ev.value_with(t) == value(net, more)
    assert 0.0 < ev.value() < 1.0 and len(str(ev.value()).split(".")[1]) <= 9


def test_td_learning_moves_the_value_towards_the_reward():
    """TD(lambda) (network.Learner): after a game won from a board, that board is worth more;
    `misupdate` (the mis-trained net) flips the hidden layer's step."""
    owned = [t < 14 for t in range(42)]
    before = forward(random_net(2), owned)[1]
    good, bad = Learner(random_net(2), 0.5, 0.7), Learner(random_net(2), 0.5, 0.7, misupdate=True)
    for learner in (good, bad):
        learner.see(owned)
        learner.end(1.0)
    assert forward(good.net(), owned)[1] > before
    assert good.net().w2 == bad.net().w2 and good.net().w1 != bad.net().w1


def test_shipped_networks_load_with_their_recorded_digest():
    """The trained and mis-trained nets ship as JSON; each records the command and sha256 that made it."""
    for name in SHIPPED:
        data = json.loads((Path("actors/risk/weights") / f"{name}.json").read_text())
        net = shipped_net(name)
        assert net == net_from_json(data) and data["meta"]["sha256"] == net.digest()
        assert "detente risk train" in data["meta"]["command"]
    assert get_net("random", 3) == random_net(3) != random_net(4)


# -- the offices on the bus ----------------------------------------------------------------------

def test_intelligence_office_models_strength_and_aggression():
    """Ours: strength = share of the armies on the board; aggression = rolls per turn (a mean)."""
    obs = {"alive": [True] * 3, "armies": [3] * 14 + [1] * 28, "me": 0, "owner": [1] * 14 + [2] * 28,
           "players": 3, "turn": 5, "recent": [
               {"turn": 3, "player": 1, "battles": [[4, 1, 2], [0, 0, 0], [1, 0, 1]]},
               {"turn": 4, "player": 2, "battles": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}]}
    office = RiskIntelligenceOffice("p0/io", 1)
    req = OfficeRequest(sender="p0", to="p0/io", task="update", turn=9, view={"observation": obs, "seen": 2})
    updates = {u.path: u.value for u in office.handle(req)[0].updates}
    assert updates[("beliefs",)] == {"1": {"aggression": 5.0, "strength": 0.6}, "2": {"aggression": 0.0, "strength": 0.4}}
    assert updates[("seen",)] == 4
    again = req.model_copy(update={"view": {"observation": obs, "seen": 4}})
    assert office.handle(again)[0].updates == ()


def test_presidents_trim_views_and_td_reports_its_board_value():
    from actors.match import make_header, record
    from actors.registry import parse_lineup
    from bus.log import parse_log

    header = make_header("risk", 3, parse_lineup("td:net=random,heuristic:offices=so+io,random", 3), {"max_rounds": 2})
    records = parse_log(record(header)).games[0].records
    requests = [r["msg"] for r in records if r["msg"]["kind"] == "office_request"]
    so = [m for m in requests if m["to"] in ("p0/so", "p1/so")]
    io = [m for m in requests if m["to"] == "p1/io"]
    assert all(set(m["view"]["observation"]) <= set(SO_KEYS) | {"turn_log"} for m in so)
    assert 0 < len(io) < len([m for m in so if m["to"] == "p1/so"])
    values = [u for r in records if r["msg"]["kind"] == "kb_change" and r["msg"]["source"] == "p0/so"
              for u in r["msg"]["updates"] if u["path"] == ["value"]]
    assert values and all(0.0 < u["value"]["value"] < 1.0 for u in values)


@pytest.mark.parametrize("argv,expect", [(["risk", "odds", "3", "2"], "exact 0.6560")])
def test_risk_commands(argv, expect, capsys):
    from ops.cli import main

    assert main(argv) == 0
    assert expect in capsys.readouterr().out
