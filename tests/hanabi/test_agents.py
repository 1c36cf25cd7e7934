"""Hanabi agents: Osawa's rules in small positions, the self-estimation's reading, the hint
protocol, whole games through the stack (logs verify, no seat is ever sent its own cards) and
short score smoke tests (the full measurements are ops/bench/hanabi_scores.py)."""

from __future__ import annotations

import random
import statistics

import pytest

from actors.hanabi import osawa
from actors.hanabi.estimate import estimate
from actors.hanabi.policies import POLICIES, play_direct
from actors.hanabi.protocol import PLAY, SAVE, fold
from actors.hanabi.view import View
from actors.registry import AgentSpec, AgentSpecError, build_player
from bus.log import parse_log
from games.hanabi.cards import CARD_OF
from games.hanabi.rules import Hanabi
from replay.verify import verify_game
from replay.walk import walk
from tests.hanabi.test_rules import act, dealt
from tests.play import play_bytes

HANDS = [["R1", "R2", "G1", "G2", "R3"], ["Y1", "Y2", "B2", "W5", "G3"]]


def view_of(state, p):
    return View(state.observation(p))


def test_rational_plays_what_it_knows_and_hints_what_is_new():
    """Osawa 4.3 steps 1 and 3: play a card known playable; else hint a partner's playable card
    with a colour or number it does not know yet."""
    state = dealt(HANDS)
    act(state, "hint:1:rank:1")  # p1 learns slot 0 is a 1: with no fireworks, playable
    view = view_of(state, 1)
    assert osawa.rational(view, state.legal_actions(1), random.Random(0)) == "play:0"
    state = dealt(HANDS)
    for seed in range(20):
        hint = osawa.rational(view_of(state, 0), state.legal_actions(0), random.Random(seed))
        assert hint in ("hint:1:colour:Y", "hint:1:rank:1"), hint  # Y1 is p1's only playable card


def test_rational_discards_known_useless_and_random_at_zero_tokens():
    """Step 2: a card known useless is discarded; step 5: no tokens, a random discard."""
    state = dealt(HANDS)
    act(state, "hint:1:rank:5")
    data = state.to_json()
    data["fireworks"] = [0, 3, 0, 0, 0]  # yellow stands at 3 ...
    data["knowledge"][1][1] = (1 << 1) | (1 << (5 + 1))  # ... and p1 knows its slot 1 is Y2
    state = Hanabi().state_from_json(data)
    assert osawa.rational(view_of(state, 1), state.legal_actions(1), random.Random(0)) == "discard:1"
    data["knowledge"][1][1] = 1023
    data["hints"] = 0
    state = Hanabi().state_from_json(data)
    assert osawa.rational(view_of(state, 1), state.legal_actions(1), random.Random(0)).startswith("discard:")


def test_full_information_order():
    """Osawa 4.1: play; else hint (a pass) when the partner can play; else discard useless, then
    a card with another copy left, then the highest number."""
    state = dealt(HANDS, reveal_own_cards=True)
    assert osawa.full_information(view_of(state, 0), state.legal_actions(0), random.Random(0)) == "play:0"
    state = dealt([["Y3", "B4", "W3", "G4", "R5"], ["Y1", "Y2", "B2", "W5", "G3"]], reveal_own_cards=True)
    assert osawa.full_information(view_of(state, 0), state.legal_actions(0), random.Random(0)).startswith("hint:1:")
    state = dealt([["Y3", "B4", "W4", "G4", "R5"], ["Y3", "Y2", "B2", "W5", "G3"]], reveal_own_cards=True)
    act(state, "hint:1:rank:5")
    # p1 holds no playable card and neither does p0: discard, a twin first (Y3, B2 have twins)
    action = osawa.full_information(view_of(state, 1), state.legal_actions(1), random.Random(0))
    assert action in ("discard:0", "discard:2")
    with pytest.raises(ValueError, match="reveal_own_cards"):
        osawa.full_information(view_of(dealt(HANDS), 0), [], random.Random(0))


def test_random_strategy_proportions():
    """Osawa 4.2: 30 % hint, 40 % discard, 30 % play (when all three are legal)."""
    state = dealt(HANDS)
    act(state, "hint:1:rank:5")
    view, legal = view_of(state, 1), state.legal_actions(1)
    rng = random.Random(1)
    kinds = [osawa.random_strategy(view, legal, rng)[0] for _ in range(4000)]
    shares = {k: kinds.count(k) / len(kinds) for k in "hdp"}
    assert abs(shares["h"] - 0.3) < 0.03 and abs(shares["d"] - 0.4) < 0.03 and abs(shares["p"] - 0.3) < 0.03


def test_self_estimation_reads_a_colour_hint_as_the_playable_one():
    """Osawa 4.4's example: no fireworks, the partner points at one green card: it is most likely
    G1 (a rational partner hints playable cards), so the player believes G1."""
    state = dealt([["R3", "Y4", "G1", "B3", "W4"], ["Y3", "B4", "W4", "R4", "B5"]])
    act(state, "hint:1:rank:4")
    act(state, "hint:0:colour:G")
    beliefs = estimate(view_of(state, 0))
    assert beliefs.get(2) == CARD_OF["G1"]
    assert POLICIES["self-estimation"](state.observation(0), state.legal_actions(0), random.Random(0), {}) == "play:2"
    # the rational player cannot tell: it does not play the green card
    assert POLICIES["rational"](state.observation(0), state.legal_actions(0), random.Random(0), {}) != "play:2"


def test_protocol_focus_play_and_save():
    """The hint protocol: focus on a new non-chop card = play; focus on the chop = save."""
    state = dealt(HANDS)
    act(state, "hint:1:colour:Y")  # touches slots 0 (chop) and 1: focus = chop -> save
    act(state, "hint:0:colour:G")  # touches slots 2 and 3 of p0; chop is 0: focus = newest, 3
    cards = fold(state.observation(0))
    assert cards[1][0].mark == SAVE and cards[1][1].mark is None
    assert cards[0][3].mark == PLAY and cards[0][2].mark is None


def test_alpha_gives_a_play_hint_the_partner_reads_right():
    state = dealt([["R3", "Y4", "G3", "B3", "W4"], ["Y3", "B4", "R1", "R4", "B5"]])
    action = POLICIES["alpha"](state.observation(0), state.legal_actions(0), random.Random(0), {})
    act(state, action)
    reply = POLICIES["alpha"](state.observation(1), state.legal_actions(1), random.Random(0), {})
    assert reply == "play:2", (action, reply)


def _log(agent: str, seed: int, options: dict) -> bytes:
    return play_bytes("hanabi", seed, agent, options)


@pytest.mark.parametrize("agent,options", [
    ("osawa-random", {}), ("rational", {"players": 3}), ("self-estimation", {"completion_bonus": False}),
    ("full-information", {"reveal_own_cards": True, "players": 4}), ("alpha", {"players": 2}),
])
def test_agents_through_the_stack(agent, options):
    """Each agent plays a whole game through referee and bus; the log verifies; no seat is ever
    sent its own cards (outside the open-hands variant)."""
    game = parse_log(_log(agent, 3, options)).games[0]
    assert game.complete and verify_game(game).ok
    open_hands = options.get("reveal_own_cards", False)
    for step in walk(game):  # the requests with their observations (a format-4 log holds none)
        msg = step.msg
        if msg["kind"] == "act_request":
            own = msg["observation"]["hands"][msg["player"]]
            assert all(c is not None for c in own) if open_hands else all(c is None for c in own)


def test_stack_and_direct_play_agree():
    """The offices run the same functions as the direct loop: same deck, same game (alpha and
    full-information use no randomness in these games)."""
    for agent, options in (("alpha", {}), ("full-information", {"reveal_own_cards": True})):
        for seed in range(2):
            game = parse_log(_log(agent, seed, options)).games[0]
            deck = next(r["msg"]["outcome"] for r in game.records if r["msg"]["kind"] == "chance")
            end = game.records[-1]["msg"]
            direct = play_direct(POLICIES[agent], options, seed, deck=deck)
            assert direct.outcome().returns[0] == end["returns"][0], (agent, seed)


def test_agent_options_are_checked():
    with pytest.raises(AgentSpecError):
        build_player(AgentSpec(name="rational", options={"offices": "so+fo"}), "hanabi", 0, 1)
    with pytest.raises(AgentSpecError):
        build_player(AgentSpec(name="alpha"), "werewolves", 0, 1)


@pytest.mark.parametrize("agent,low,high", [("rational", 12.5, 16.5), ("alpha", 18.0, 25.0),
                                            ("full-information", 23.5, 25.0)])
def test_scores_in_range(agent, low, high):
    """Short smoke runs (Osawa's setting); the measured means are in README.md, section Hanabi."""
    options = {"completion_bonus": False, "reveal_own_cards": agent == "full-information"}
    scores = [play_direct(POLICIES[agent], options, seed).score() for seed in range(30)]
    assert low <= statistics.fmean(scores) <= high


def test_alpha_strategy_constants_are_options_played_alike_in_the_stack_and_direct():
    """Each utility of the Alpha SO is an option (params.*): through the stack it plays what the
    direct loop plays with the same constants, a changed constant changes some games, and a value
    outside its bounds is refused."""
    from actors.hanabi.alpha import AlphaParams
    from tests.play import play_log

    tuned = {"play_hint_gain": 0.0, "chop_risk": 30.0, "late_deck": 3}
    spec = "alpha:" + ";".join(f"params.{k}={v}" for k, v in tuned.items())
    changed = 0
    for seed in range(6):
        game = play_log("hanabi", seed, [spec, spec])
        assert game.complete and verify_game(game).ok
        deck = next(r["msg"]["outcome"] for r in game.records if r["msg"]["kind"] == "chance")
        end = game.records[-1]["msg"]
        direct = play_direct(POLICIES["alpha"], {}, seed, deck=deck, agent_options={"params": AlphaParams(**tuned)})
        assert direct.outcome().returns[0] == end["returns"][0], seed
        hand_set = play_direct(POLICIES["alpha"], {}, seed, deck=deck)
        changed += hand_set._history != direct._history
    assert changed >= 3  # the constants reach the moves
    with pytest.raises(AgentSpecError):
        build_player(AgentSpec(name="alpha", options={"params": {"late_lives": 4}}), "hanabi", 0, 1)
