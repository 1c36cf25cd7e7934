"""Partnership Dominoes rules: each test quotes the rule it checks.

Sources: the seed (Martinez Carranza & Munoz Melendez 2005, sections 3 and 3.5) for the default
game; the `dominoes` package (abw333, 6.1.0) for the variants named after it; "ours" otherwise.
"""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from games import conformance
from games.api import IllegalAction
from games.dominoes.rules import Dominoes, DominoesState, sample_hands
from games.dominoes.tiles import INDEX, NAMES, NUM, mask_of, tiles_of
from tests.bounds import bounded

GAME = Dominoes()

# Seat 0 holds [6|6]; the four hands together are the 28 tiles.
DEAL = [
    ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "6-6"],
    ["0-6", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6"],
    ["2-2", "2-3", "2-4", "2-5", "2-6", "3-3", "3-4"],
    ["3-5", "3-6", "4-4", "4-5", "4-6", "5-5", "5-6"],
]


def deck(hands: list[list[str]]) -> list[str]:
    """The chance outcome that deals `hands` (seat s gets positions 7s..7s+6, no rotation)."""
    return [name for hand in hands for name in hand]


def at_hand(hand: int, seat: int, scores=(0, 0), **options) -> DominoesState:
    """The chance node before hand `hand` (0-based), whose opener (or chooser) is `seat`."""
    data = GAME.new_initial_state(options).to_json()
    data.update(hand=hand, opener=seat, scores=list(scores))
    return GAME.state_from_json(data)


def position(hands: dict[int, list[str]], line: list[tuple[int, int]], cur: int, opens: int = 0,
             scores=(0, 0), hand: int = 1, **options) -> DominoesState:
    """A hand in play: seat -> tiles, the line left to right as (left, right) numbers, seat to act."""
    data = GAME.new_initial_state(options).to_json()
    seats = [sorted(hands.get(s, []), key=INDEX.get) for s in range(4)]
    data.update(phase="play", hand=hand, hands=seats, dealt=seats, line=[list(x) for x in line],
                ends=[line[0][0], line[-1][1]], current=cur, opener=opens, last=(cur - 1) % 4,
                scores=list(scores))
    return GAME.state_from_json(data)


def act(state: DominoesState, action: str) -> None:
    state.apply_actions({state.current_players()[0]: action})


def last_hand(state: DominoesState) -> dict:
    return state.to_json()["past"][-1]


# -- options, teams, conformance ---------------------------------------------------------------

def test_options_defaults_and_bounds():
    """The seed's game by default: a match to 100, the winner opens, opponents' pips, void ties."""
    opts = GAME.options()
    assert opts.model_dump() == {"target": 100, "opener": "winner", "scoring": "opponents",
                                 "blocked_scoring": "opponents", "blocked_tie": "void",
                                 "deal_rotation": 0, "max_hands": 200}
    for bad in ({"target": 0}, {"opener": "random"}, {"max_hands": 1001}, {"deal_rotation": 4},
                {"scoring": "both"}, {"colour": "red"}):
        with pytest.raises(ValidationError):
            GAME.options(bad)


def test_teams_are_the_pairs():
    """Seed 3.2: partners sit opposite; seats 0 & 2 play against 1 & 3."""
    assert GAME.teams(GAME.options()) == ((0, 2), (1, 3))
    assert GAME.num_players(GAME.options()) == 4


@pytest.mark.slow  # ~9 s; the variants' conformance stays quick; in the default suite (CI), out of the quick subset
def test_conformance_default():
    conformance.run_all(GAME)


@pytest.mark.parametrize("options", [
    {"opener": "pair_choice", "scoring": "all", "blocked_scoring": "both", "blocked_tie": "lowest_hand"},
    {"opener": "last_tile", "deal_rotation": 1},
    {"max_hands": 2},
])
def test_conformance_variants(options):
    """Fewer seeds than run_all for each variant (the test-time budget)."""
    seeds = range(4)
    conformance.check_random_playthroughs(GAME, options, seeds)
    conformance.check_serialisation(GAME, options, range(2))
    conformance.check_information_hiding(GAME, options, seeds)
    conformance.check_talk(GAME, options, range(2))


# -- opening -------------------------------------------------------------------------------

def test_first_hand_opens_with_double_six_by_its_holder():
    """Seed 3: "En el primer juego abre el jugador al que le haya tocado la mula de 6"."""
    state = GAME.new_initial_state()
    assert state.is_chance() and state.current_players() == []
    state.apply_chance(deck(DEAL))
    assert state.current_players() == [0]
    assert state.legal_actions(0) == ["6-6"]
    assert [state.legal_actions(p) for p in (1, 2, 3)] == [[], [], []]
    assert "6-6" in state.why_illegal(0, "0-0")
    act(state, "6-6")
    assert state.ends() == (6, 6) and state.current_players() == [1]


def test_deal_rotation_moves_every_hand_one_seat_on():
    """Ours: deal_rotation=1 gives seat s the hand dealt to seat s-1, so [6|6] and its holder's
    tiles go to the other pair (the duplicate deal)."""
    state = GAME.new_initial_state({"deal_rotation": 1})
    state.apply_chance(deck(DEAL))
    hands = state.to_json()["hands"]
    assert hands == [DEAL[3], DEAL[0], DEAL[1], DEAL[2]]
    assert state.current_players() == [1] and state.legal_actions(1) == ["6-6"]


def test_later_hands_open_with_any_tile():
    """Seed 3.5: later hands are opened by the winning pair, with any tile; [a|b] lies a left."""
    state = at_hand(1, 2)
    state.apply_chance(deck(DEAL))
    assert state.current_players() == [2]
    assert state.legal_actions(2) == sorted(DEAL[2])
    act(state, "2-5")
    assert state.ends() == (2, 5) and state.to_json()["line"] == [[2, 5]]


def test_pair_choice_lets_the_winner_name_the_opener():
    """Seed 3.5: the winning pair opens, "teniendo la libertad de elegir al jugador, miembro de la
    pareja, que tirara la ficha inicial"; the chooser sees its new hand first."""
    state = at_hand(1, 3, opener="pair_choice")
    state.apply_chance(deck(DEAL))
    assert state.current_players() == [3]
    assert state.legal_actions(3) == ["open:1", "open:3"]
    assert state.default_action(3) == "open:3"
    assert state.observation(3)["hand"] == DEAL[3]
    with pytest.raises(IllegalAction):
        act(state, "open:0")
    act(state, "open:1")
    assert state.current_players() == [1] and state.legal_actions(1) == DEAL[1]


def test_pair_choice_does_not_apply_to_the_first_hand():
    """Seed 3.5: "El primer juego es abierto por aquella pareja que tenga la mula de 6"."""
    state = GAME.new_initial_state({"opener": "pair_choice"})
    state.apply_chance(deck(DEAL))
    assert state.legal_actions(0) == ["6-6"]


# -- playing and passing ---------------------------------------------------------------------

def test_play_on_either_end_and_pass_only_when_nothing_fits():
    """Seed 3.3 (the players look at both ends); a pass only when no tile fits (the package)."""
    state = GAME.new_initial_state()
    state.apply_chance(deck(DEAL))
    act(state, "6-6")
    # Both ends show 6: a tile goes on one of them (the two placements mirror each other).
    assert state.legal_actions(1) == ["0-6:left", "1-6:left"]
    assert state.why_illegal(1, "pass") == "a tile fits: a player passes only when none does"
    with pytest.raises(IllegalAction):
        act(state, "pass")
    act(state, "1-6:left")
    assert state.to_json()["line"] == [[1, 6], [6, 6]] and state.ends() == (1, 6)
    assert state.legal_actions(2) == ["2-6:right"]
    with pytest.raises(IllegalAction):
        act(state, "2-6:left")
    act(state, "2-6:right")
    assert state.ends() == (1, 2)
    assert state.legal_actions(3) == ["pass"]
    act(state, "pass")
    assert state.observation(0)["lacks"] == [[], [], [], [1, 2]]
    assert state.observation(0)["events"] == [[0, "6-6"], [1, "1-6:left"], [2, "2-6:right"], [3, "pass"]]
    assert state.legal_actions(0) == ["0-1:left", "0-2:right"]


def test_a_tile_that_fits_both_ends_may_go_on_either():
    """A tile [a|b] on a line with ends a and b goes on either end, with different new ends."""
    left = position({0: ["3-5", "0-0"], 1: ["3-3"], 2: ["5-6"], 3: ["1-1"]}, line=[(3, 4), (4, 5)], cur=0)
    assert left.legal_actions(0) == ["3-5:left", "3-5:right"]
    right = left.clone()
    act(left, "3-5:left")
    act(right, "3-5:right")
    assert left.ends() == (5, 5) and left.to_json()["line"][0] == [5, 3]
    assert right.ends() == (3, 3) and right.to_json()["line"][-1] == [5, 3]


# -- end of a hand and scoring ---------------------------------------------------------------

OUT_HANDS = {0: ["0-1"], 1: ["2-3", "4-4"], 2: ["5-5"], 3: ["6-6", "1-2"]}  # left: 13, 10, 15 pips


@pytest.mark.parametrize("scoring,points", [
    ("opponents", 28),  # seed 3.5: "se suman los puntos de las fichas de la pareja perdedora"
    ("all", 38),  # the package: the pips of all three other hands, the partner's included
])
def test_going_out_wins_the_hand(scoring, points):
    """Seed 3: "resulta vencedora aquella pareja a la que pertenezca el jugador que se quedo sin
    fichas"; the winner opens the next hand."""
    state = position(OUT_HANDS, line=[(3, 1)], cur=0, opens=1, scoring=scoring)
    act(state, "0-1:right")
    rec = last_hand(state)
    assert (rec["end"], rec["pair"], rec["points"], rec["pips"]) == ("out", 0, points, [0, 13, 10, 15])
    assert state.scores() == (points, 0)
    assert state.is_chance() and state.to_json()["opener"] == 0
    assert state.observation(2)["past"][-1]["points"] == points


# The line before its last tile: every 5 but [4|5] is laid, ends 5 and 4. Laying [4|5] on the right
# leaves 5 at both ends and no 5 in any hand: the hand is blocked.
BLOCK_LINE = [(5, 0), (0, 0), (0, 1), (1, 5), (5, 5), (5, 2), (2, 2), (2, 3), (3, 5), (5, 6), (6, 6), (6, 4)]

# (what the row checks, seat laying [4|5], tiles left per seat, options,
#  (winning pair, points, next opener))
BLOCKED = [
    ("seed 3.5: the pair with fewer pips wins the losing pair's pips",
     1, [["0-2", "1-1"], ["0-3"], ["3-6", "4-4"], ["1-2", "2-6"]], {}, (1, 21, 1)),
    ("the package: blocked_scoring=both, both pairs' pips",
     1, [["0-2", "1-1"], ["0-3"], ["3-6", "4-4"], ["1-2", "2-6"]], {"blocked_scoring": "both"}, (1, 35, 1)),
    ("ours: the winner rule opens with the winning pair's lighter hand",
     0, [["0-2", "3-6"], ["2-6", "1-1"], ["4-4", "1-6"], ["0-3"]], {}, (1, 26, 3)),
    ("the package: last_tile, the blocker's pair lost, so the next seat opens",
     0, [["0-2", "3-6"], ["2-6", "1-1"], ["4-4", "1-6"], ["0-3"]], {"opener": "last_tile"}, (1, 26, 1)),
    ("pair_choice: the winner rule's seat chooses who opens",
     0, [["0-2", "3-6"], ["2-6", "1-1"], ["4-4", "1-6"], ["0-3"]], {"opener": "pair_choice"}, (1, 26, 3)),
    ("ours: partners with equal hands, the first in turn from the blocker opens",
     2, [["3-6"], ["0-4"], ["1-1"], ["1-3"]], {}, (1, 11, 3)),
    ("the package: a tie (12 to 12) is void, nobody scores, the same seat opens again",
     1, [["0-2", "0-4"], ["1-3"], ["3-3"], ["2-6"]], {}, (None, 0, 2)),
    ("blocked_tie=lowest_hand: the pair with the lightest single hand (4 against 6) wins",
     1, [["0-2", "0-4"], ["1-3"], ["3-3"], ["2-6"]], {"blocked_tie": "lowest_hand"}, (1, 12, 1)),
    ("blocked_tie=lowest_hand, lightest hands equal too: void",
     1, [["0-4"], ["1-3"], ["4-4"], ["2-6"]], {"blocked_tie": "lowest_hand"}, (None, 0, 2)),
    ("seed 3: going out on the blocking tile is going out (all three other hands: 32 pips)",
     1, [["0-2", "1-1"], [], ["3-6", "4-4"], ["1-2", "2-6"]], {"scoring": "all"}, (1, 32, 1)),
]


@pytest.mark.parametrize("rule,blocker,left,options,expected", BLOCKED, ids=[r[0] for r in BLOCKED])
def test_blocked_hands(rule, blocker, left, options, expected):
    hands = {s: list(tiles) + (["4-5"] if s == blocker else []) for s, tiles in enumerate(left)}
    state = position(hands, line=BLOCK_LINE, cur=blocker, opens=2, **options)
    assert state.legal_actions(blocker) == ["4-5:left", "4-5:right"]
    act(state, "4-5:right")
    rec = last_hand(state)
    assert rec["end"] == ("out" if not left[blocker] else "blocked")
    assert not (mask_of(n for t in left for n in t) & (NUM[5]))
    assert (rec["pair"], rec["points"], state.to_json()["opener"]) == expected
    assert state.scores() == tuple(expected[1] if expected[0] == w else 0 for w in (0, 1))
    state.apply_chance(deck(DEAL))
    if options.get("opener") == "pair_choice":
        assert state.current_players() == [expected[2]]
        assert state.legal_actions(expected[2])[0].startswith("open:")
    else:
        assert state.current_players() == [expected[2]]
        assert state.legal_actions(expected[2]) == DEAL[expected[2]]


def test_a_hand_is_not_blocked_while_someone_can_play():
    """A hand ends blocked only when nobody can lay a tile; otherwise the others pass in turn."""
    state = position({0: ["1-2", "2-2"], 1: ["3-3"], 2: ["4-4"], 3: ["5-5"]}, line=[(1, 6)], cur=0)
    act(state, "1-2:left")  # ends 2 and 6: only seat 0 holds a 2
    assert [state.current_players(), state.legal_actions(1)] == [[1], ["pass"]]
    for _ in range(3):
        act(state, "pass")
    assert state.legal_actions(0) == ["2-2:left"]


# -- the match -------------------------------------------------------------------------------

def test_match_ends_when_a_pair_reaches_the_target():
    """Seed 3.5: "El torneo lo gana aquella pareja que alcance primero los 100 puntos"."""
    near = position(OUT_HANDS, line=[(3, 1)], cur=0, scores=(72, 99))
    act(near, "0-1:right")  # 28 points: 100
    assert near.is_terminal() and near.current_players() == []
    out = near.outcome()
    assert out.returns == (1.0, 0.0, 1.0, 0.0) and out.winners == (0, 2)
    assert out.ranks == (1.0, 2.0, 1.0, 2.0) and out.teams == ((0, 2), (1, 3))
    assert out.extra["scores"] == [100, 99] and out.summary.startswith("pair 0&2 won 100 to 99")
    far = position(OUT_HANDS, line=[(3, 1)], cur=0, scores=(71, 99))
    act(far, "0-1:right")
    assert far.is_chance() and far.scores() == (99, 99)


def test_target_option():
    """target: the match ends at that many points (users ask for 100 or 200)."""
    state = position(OUT_HANDS, line=[(3, 1)], cur=0, scores=(150, 0), target=200)
    act(state, "0-1:right")
    assert not state.is_terminal()
    state = position(OUT_HANDS, line=[(3, 1)], cur=0, target=20)
    act(state, "0-1:right")
    assert state.is_terminal()


def test_max_hands_ends_the_match_with_the_leader_or_a_draw():
    """Ours: after max_hands hands the pair ahead wins; equal scores are a draw (0.5 each)."""
    tie = [["0-2", "0-4"], ["1-3", "4-5"], ["3-3"], ["2-6"]]
    state = position(dict(enumerate(tie)), line=BLOCK_LINE, cur=1, opens=2, hand=0, max_hands=1)
    act(state, "4-5:right")  # a void hand: 12 to 12
    out = state.outcome()
    assert state.is_terminal() and out.returns == (0.5,) * 4 and out.winners == ()
    assert out.ranks == (1.5,) * 4 and out.extra["end"] == "max_hands" and out.extra["void"] == 1
    state = position(dict(enumerate(tie)), line=BLOCK_LINE, cur=1, opens=2, hand=0, max_hands=1,
                     scores=(0, 5))
    act(state, "4-5:right")
    assert state.outcome().winners == (1, 3)


# -- chance and hidden information ---------------------------------------------------------

@pytest.mark.parametrize("outcome", [
    None, 7, "0-0", deck(DEAL)[:-1], deck(DEAL) + ["0-0"], ["0-0"] + deck(DEAL)[1:-1] + ["0-0"],
    [n.replace("6-6", "7-7") for n in deck(DEAL)], [INDEX[n] for n in deck(DEAL)],
])
def test_apply_chance_rejects_what_the_rules_cannot_deal(outcome):
    """A deal is a permutation of the 28 tiles of the double-six set."""
    state = GAME.new_initial_state()
    before = state.digest()
    with pytest.raises(IllegalAction):
        state.apply_chance(outcome)
    assert state.digest() == before
    state.apply_chance(deck(DEAL))
    with pytest.raises(IllegalAction):
        state.apply_chance(deck(DEAL))


def _deals(seed: int, pick, options=None, hands: int = 4) -> list[list[list[str]]]:
    """The first `hands` deals of a match whose chance draws come from Random(seed) only."""
    rng, play = random.Random(seed), random.Random(seed + 1)
    state, deals = GAME.new_initial_state(options), []
    for _ in bounded(GAME.max_steps):
        if state.is_terminal() or len(deals) >= hands:
            break
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            deals.append(state.to_json()["dealt"])
        else:
            legal = state.legal_actions(state.current_players()[0])
            act(state, pick(legal, play))
    return deals


def test_each_deal_is_a_function_of_the_seed_and_the_hand_index():
    """Ours: hand k's deal is the k-th shuffle of the referee's generator, whatever was played;
    with deal_rotation=1 the same seed deals each hand to the next seat (the pairs swapped)."""
    first = _deals(5, lambda legal, rng: legal[0], {"target": 1000})
    other = _deals(5, lambda legal, rng: rng.choice(legal), {"target": 1000})
    assert first == other and len(first) == 4
    dup = _deals(5, lambda legal, rng: legal[-1], {"target": 1000, "deal_rotation": 1})
    assert dup == [[deal[3], deal[0], deal[1], deal[2]] for deal in first]


def test_observation_hides_the_other_hands():
    """Hands are hidden: a seat sees its own tiles and the number of tiles of the others."""
    state = GAME.new_initial_state()
    state.apply_chance(deck(DEAL))
    for p in range(4):
        obs = state.observation(p)
        assert obs["hand"] == sorted(DEAL[p], key=INDEX.get) and obs["counts"] == [7] * 4
        others = {n for q in range(4) if q != p for n in DEAL[q]}
        assert not others & set(repr(obs).replace("'", " ").split())


def test_resample_keeps_sizes_and_known_lacks():
    """A resampled deal keeps the observer's hand, every hand's size and what passes showed."""
    state = GAME.new_initial_state()
    state.apply_chance(deck(DEAL))
    for action in ("6-6", "1-6:left", "2-6:right", "pass"):
        act(state, action)
    rng = random.Random(3)
    seen = set()
    for _ in range(200):
        other = state.resample_hidden(0, rng)
        hands = other.to_json()["hands"]
        assert hands[0] == state.to_json()["hands"][0]
        assert [len(h) for h in hands] == [7 - 1, 7 - 1, 7 - 1, 7]
        assert not mask_of(hands[3]) & (NUM[1] | NUM[2])
        assert other.observation(0) == state.observation(0)
        seen.add(tuple(hands[3]))
    assert len(seen) > 50


def test_sample_hands_finds_the_only_deal_and_refuses_impossible_ones():
    """Ours: the sampler never backtracks and always finds a deal when one exists."""
    pool = [INDEX[n] for n in ("0-0", "1-1", "2-2", "0-1")]
    lack_1, lack_0 = 1 << 1, 1 << 0
    # a lacks 1, b lacks 0 and 1: b holds 2-2, so a holds 0-0, and 1-1 and 0-1 go to c; a greedy
    # deal that gave 0-0 or 2-2 to c first would be stuck.
    for seed in range(20):
        hands = sample_hands(pool, [lack_1, lack_0 | lack_1, 0], [1, 1, 2], random.Random(seed))
        assert [sorted(NAMES[t] for t in tiles_of(h)) for h in hands] == [["0-0"], ["2-2"], ["0-1", "1-1"]]
    with pytest.raises(ValueError):
        sample_hands(pool, [lack_1, lack_1, lack_1], [1, 1, 2], random.Random(0))
    with pytest.raises(ValueError):
        sample_hands(pool, [lack_1 | lack_0, lack_1 | lack_0, 0], [1, 1, 2], random.Random(0))


def test_render_shows_the_line_and_the_hands():
    state = GAME.new_initial_state()
    state.apply_chance(deck(DEAL))
    act(state, "6-6")
    text = state.render()
    assert "line [6|6]   ends 6 and 6" in text and "p1 to play" in text
    assert "p1: 0-6 1-1 1-2 1-3 1-4 1-5 1-6" in text
