"""Werewolves rules (thesis section 5.2; published Asmodee game): scripted positions.

Each case quotes the rule it tests. Roles are placed with the deal's apply_chance and actions
are scripted; a current player not named in a script abstains.
"""

from __future__ import annotations

import json
import random

import pydantic
import pytest

from games.api import IllegalAction
from games.werewolves.rules import Werewolves, WerewolvesState
from games.werewolves.talk import WwAccept, WwAccuse, WwBid, WwClaim, WwPropose, WwRetract
from tests.bounds import bounded

GAME = Werewolves()
W, V, S, D = "werewolf", "villager", "seer", "doctor"
SEVEN = [W, W, S, D, V, V, V]  # wolves 0 1, seer 2, doctor 3, villagers 4 5 6
PUBLIC_TYPES = {"killed", "nobody_killed", "day_votes", "revote", "eliminated",
                "nobody_eliminated", "game_over"}


def deal(roles: list[str], **options) -> WerewolvesState:
    counts = {"werewolves": roles.count(W), "seers": roles.count(S), "doctors": roles.count(D)}
    state = GAME.new_initial_state(GAME.options({"players": len(roles), **counts, **options}))
    state.apply_chance(list(roles))
    return state


def act(state: WerewolvesState, script: dict[int, str]) -> None:
    state.apply_actions({p: script.get(p, "abstain") for p in state.current_players()})


def events(state: WerewolvesState, player: int, kind: str | None = None) -> list[dict]:
    return [e for e in state.observation(player)["events"] if kind is None or e["type"] == kind]


def alive(state: WerewolvesState) -> list[int]:
    return state.observation(0)["alive"]


# -- night -----------------------------------------------------------------------------------

NIGHT_VICTIM = [
    ("the wolves' unanimous target dies", {0: "attack:4", 1: "attack:4"}, 4),
    ("abstaining wolves are ignored: one vote decides", {0: "attack:5"}, 5),
    ("no attack vote: nobody is attacked", {}, None),
    ("the seer and doctor do not vote for the victim",
     {0: "attack:4", 1: "attack:4", 2: "inspect:5", 3: "protect:5"}, 4),
]


@pytest.mark.parametrize("rule,script,victim", NIGHT_VICTIM, ids=[c[0] for c in NIGHT_VICTIM])
def test_night_victim(rule, script, victim):
    state = deal(SEVEN)
    assert state.current_players() == [0, 1, 2, 3]  # villagers have no night action
    act(state, script)
    assert state.observation(4)["phase"] == "day" and not state.is_chance()
    if victim is None:
        assert alive(state) == list(range(7))
        assert events(state, 4, "nobody_killed")
    else:
        assert victim not in alive(state)
        assert events(state, 4, "killed") == [
            {"day": 1, "player": victim, "role": V, "type": "killed"}]


def test_protected_victim_survives_and_only_the_doctor_is_told():
    """A protected victim survives and the doctor privately learns 'saved <p>'."""
    state = deal(SEVEN)
    act(state, {0: "attack:4", 1: "attack:4", 3: "protect:4"})
    assert 4 in alive(state)
    assert events(state, 3, "saved") == [{"actor": 3, "day": 1, "player": 4, "type": "saved"}]
    for p in (0, 1, 2, 4, 5):
        assert not events(state, p, "saved") and not events(state, p, "protect")
    assert events(state, 0, "attacked") == [{"day": 1, "player": 4, "type": "attacked"}]
    assert events(state, 4, "nobody_killed") and not events(state, 4, "attacked")


def test_doctor_may_protect_itself():
    """The doctor protects any living player, self allowed."""
    state = deal(SEVEN)
    assert "protect:3" in state.legal_actions(3)
    act(state, {0: "attack:3", 1: "attack:3", 3: "protect:3"})
    assert 3 in alive(state)


def test_seer_learns_the_inspected_role_and_nobody_else_does():
    """The seer privately learns the inspected player's role, even if the seer dies that night."""
    state = deal(SEVEN)
    act(state, {0: "attack:2", 1: "attack:2", 2: "inspect:1"})
    assert 2 not in alive(state)
    assert state.observation(2)["known_roles"]["1"] == W
    for p in (3, 4, 5, 6):
        obs = state.observation(p)
        assert "1" not in obs["known_roles"] and not events(state, p, "inspect")
    assert not events(state, 0, "inspect")  # the wolves do not learn who was inspected


def test_wolf_vote_tie_goes_to_a_chance_node():
    """A tie among the wolves' top targets is settled by chance among the tied."""
    state = deal(SEVEN)
    act(state, {0: "attack:4", 1: "attack:5", 3: "protect:5"})
    assert state.is_chance() and state.current_players() == []
    assert state.observation(6)["phase"] == "night"  # villagers do not learn of the tie
    assert state.sample_chance(random.Random(1)) in (4, 5)
    before = state.digest()
    for bad in (6, "4", True, [4]):
        with pytest.raises(IllegalAction, match="not one of the tied"):
            state.apply_chance(bad)
    assert state.digest() == before
    state.apply_chance(5)  # the doctor's protection still holds after the draw
    assert alive(state) == list(range(7)) and events(state, 3, "saved")


def test_wolves_cannot_attack_wolves_and_seer_cannot_inspect_itself():
    state = deal(SEVEN)
    assert state.legal_actions(0) == ["abstain", "attack:2", "attack:3", "attack:4", "attack:5",
                                      "attack:6"]
    assert "inspect:2" not in state.legal_actions(2) and "inspect:0" in state.legal_actions(2)
    assert state.legal_actions(4) == []


# -- day -------------------------------------------------------------------------------------

def night_without_death(state: WerewolvesState) -> None:
    act(state, {})
    assert state.observation(0)["phase"] == "day"


def test_day_plurality_eliminates():
    """By day the player with most votes is eliminated; votes are public, by voter."""
    state = deal(SEVEN)
    night_without_death(state)
    act(state, {2: "vote:0", 3: "vote:0", 4: "vote:0", 0: "vote:4", 1: "vote:4"})
    assert 0 not in alive(state)
    votes = events(state, 5, "day_votes")[0]["votes"]
    assert votes == [[0, 4], [1, 4], [2, 0], [3, 0], [4, 0], [5, None], [6, None]]
    assert events(state, 6, "eliminated")[0] == {
        "day": 1, "lot": False, "player": 0, "role": W, "type": "eliminated"}
    obs = state.observation(5)
    assert (obs["phase"], obs["day"], obs["known_roles"]["0"]) == ("night", 2, W)


DAY_NO_ELIMINATION = [
    ("a tie eliminates nobody by default", {0: "vote:4", 4: "vote:0"}),
    ("if everyone abstains nobody is eliminated", {}),
]


@pytest.mark.parametrize("rule,script", DAY_NO_ELIMINATION, ids=[c[0] for c in DAY_NO_ELIMINATION])
def test_day_without_elimination(rule, script):
    state = deal(SEVEN)
    night_without_death(state)
    act(state, script)
    assert alive(state) == list(range(7)) and events(state, 2, "nobody_eliminated")
    assert state.observation(2)["phase"] == "night" and state.observation(2)["day"] == 2


def test_revote_then_random():
    """tie_rule=revote_then_random: one revote among the tied, then chance among the still tied."""
    state = deal(SEVEN, tie_rule="revote_then_random")
    night_without_death(state)
    act(state, {0: "vote:4", 1: "vote:5", 2: "vote:6", 3: "vote:6", 4: "vote:5", 5: "vote:4"})
    assert state.observation(0)["phase"] == "revote"
    assert state.observation(0)["candidates"] == [4, 5, 6]
    assert state.legal_actions(4) == ["abstain", "vote:5", "vote:6"]
    assert state.legal_actions(0) == ["abstain", "vote:4", "vote:5", "vote:6"]
    with pytest.raises(IllegalAction, match="player 0: illegal action 'vote:1'"):
        act(state, {0: "vote:1"})

    unique = state.clone()
    act(unique, {0: "vote:6", 1: "vote:6", 2: "vote:4"})
    assert 6 not in alive(unique) and not unique.is_chance()

    still_tied = state.clone()
    act(still_tied, {0: "vote:6", 1: "vote:4"})
    assert still_tied.is_chance() and still_tied.observation(3)["phase"] == "day_tie"
    with pytest.raises(IllegalAction):
        still_tied.apply_chance(5)  # 5 is no longer among the tied
    still_tied.apply_chance(4)
    assert 4 not in alive(still_tied)
    assert events(still_tied, 0, "eliminated")[0]["lot"] is True

    all_abstain = state.clone()
    act(all_abstain, {})
    assert all_abstain.is_chance()
    assert sorted({all_abstain.sample_chance(random.Random(s)) for s in range(40)}) == [4, 5, 6]


# -- end of the game --------------------------------------------------------------------------

def test_village_wins_when_no_werewolf_is_alive():
    state = deal([W, S, D, V, V])
    night_without_death(state)
    act(state, {1: "vote:0", 2: "vote:0", 3: "vote:0"})
    assert state.is_terminal() and state.current_players() == [] and state.legal_actions(1) == []
    out = state.outcome()
    assert out.returns == (0.0, 1.0, 1.0, 1.0, 1.0) and out.winners == (1, 2, 3, 4)
    assert out.summary == "village wins on day 1"


def test_werewolves_win_when_no_village_player_is_alive():
    state = deal([W, V, V])
    act(state, {0: "attack:1"})
    act(state, {0: "vote:2", 2: "vote:0"})  # a tie: nobody eliminated
    act(state, {0: "attack:2"})
    out = state.outcome()
    assert out.returns == (1.0, 0.0, 0.0) and out.winners == (0,)
    assert out.summary == "werewolves win on night 2"


def test_end_at_parity():
    """end_at_parity: the werewolves win as soon as they are at least as many as the village."""
    plain, parity = deal([W, V, V]), deal([W, V, V], end_at_parity=True)
    for state in (plain, parity):
        act(state, {0: "attack:1"})
    assert not plain.is_terminal()
    assert parity.is_terminal() and parity.outcome().winners == (0,)


def test_max_days_draw():
    """After day max_days without a winner the game is a draw: all returns 0, no winners."""
    state = deal(SEVEN, max_days=2)
    for _ in range(2):
        act(state, {})  # night
        act(state, {})  # day
    out = state.outcome()
    assert out.returns == (0.0,) * 7 and out.winners == () and out.summary == "draw after day 2"


def test_first_phase_day():
    """first_phase=day: day 1 comes first and the night after it is night 2."""
    state = deal(SEVEN, first_phase="day")
    assert state.observation(0)["phase"] == "day" and state.current_players() == list(range(7))
    act(state, {})
    assert (state.observation(0)["phase"], state.observation(0)["day"]) == ("night", 2)


def test_outcome_before_the_end_is_an_error():
    with pytest.raises(ValueError):
        deal(SEVEN).outcome()


# -- information -----------------------------------------------------------------------------

def test_reveal_roles_false_hides_dead_roles():
    state = deal(SEVEN, reveal_roles=False)
    act(state, {0: "attack:2", 1: "attack:2"})
    assert events(state, 4, "killed") == [{"day": 1, "player": 2, "type": "killed"}]
    assert state.observation(4)["known_roles"] == {"4": V}
    assert state.observation(0)["known_roles"] == {"0": W, "1": W}


def test_werewolves_know_each_other_and_see_the_attack_votes():
    state = deal(SEVEN)
    act(state, {0: "attack:4", 1: "attack:5"})
    assert state.observation(1)["known_roles"] == {"0": W, "1": W}
    assert events(state, 1, "wolf_votes")[0]["votes"] == [[0, 4], [1, 5]]
    assert not any(events(state, p, "wolf_votes") for p in (2, 3, 4))


@pytest.mark.parametrize("options", [{}, {"reveal_roles": False, "tie_rule": "revote_then_random"}])
def test_villager_observation_contains_no_hidden_role(options):
    """A villager's observation holds no other player's role unless the rules revealed it."""
    rng = random.Random(7)
    for _ in range(30):
        state = GAME.new_initial_state(GAME.options(options))
        state.apply_chance(state.sample_chance(rng))
        roles = state.to_json()["roles"]
        for _ in bounded(GAME.max_steps):
            if state.is_terminal():
                break
            for p in (q for q in range(10) if roles[q] == V):
                obs = state.observation(p)
                revealed = {str(e["player"]) for e in obs["events"] if "role" in e}
                assert set(obs["known_roles"]) <= {str(p)} | revealed
                assert {e["type"] for e in obs["events"]} <= PUBLIC_TYPES
                if not options.get("reveal_roles", True):
                    assert not revealed
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                act(state, {p: rng.choice(state.legal_actions(p)) for p in state.current_players()})


@pytest.mark.slow  # in the default suite (CI), not the quick subset
def test_resample_hidden_keeps_hidden_choices_consistent():
    """Resampled states stay playable: relabelled wolf votes are by wolves against non-wolves."""
    rng = random.Random(3)
    for _ in range(40):
        state = GAME.new_initial_state(GAME.options({"tie_rule": "revote_then_random"}))
        for _ in bounded(GAME.max_steps):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                act(state, {p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
            if state.to_json()["roles"] is None:
                continue
            for p in range(10):
                other = state.resample_hidden(p, rng)
                assert other.observation(p) == state.observation(p)
                roles = other.to_json()["roles"]
                assert sorted(roles) == sorted(state.to_json()["roles"])
                for e in other.to_json()["events"]:
                    if e["type"] == "wolf_votes":
                        assert all(roles[w] == W and (t is None or roles[t] != W)
                                   for w, t in e["votes"])
                    if e["type"] == "inspect":
                        assert roles[e["actor"]] == S and roles[e["target"]] == e["role"]
                for _ in bounded(GAME.max_steps):  # the resampled state plays on to the end
                    if other.is_terminal():
                        break
                    if other.is_chance():
                        other.apply_chance(other.sample_chance(rng))
                    else:
                        act(other, {})


# -- legality and errors ----------------------------------------------------------------------

ILLEGAL = [
    ("a wolf cannot attack a fellow wolf", {0: "attack:1"}, r"player 0: illegal action 'attack:1'"),
    ("the seer cannot inspect itself", {2: "inspect:2"}, r"player 2: illegal action 'inspect:2'"),
    ("a role acts only with its own verb", {3: "attack:4"}, r"player 3: illegal action 'attack:4'"),
    ("a made-up action", {0: "eat everyone"}, r"player 0: illegal action 'eat everyone'"),
    ("a villager has no night action", {4: "abstain"}, r"player 4 is not to act"),
]


@pytest.mark.parametrize("rule,script,message", ILLEGAL, ids=[c[0] for c in ILLEGAL])
def test_illegal_night_actions_are_rejected(rule, script, message):
    state = deal(SEVEN)
    before = state.digest()
    with pytest.raises(IllegalAction, match=message):
        state.apply_actions({**{p: "abstain" for p in state.current_players()}, **script})
    assert state.digest() == before


def test_every_current_player_must_act_and_dead_players_cannot_vote():
    state = deal(SEVEN)
    with pytest.raises(IllegalAction, match="player 3 did not act"):
        state.apply_actions({0: "abstain", 1: "abstain", 2: "abstain"})
    act(state, {0: "attack:4", 1: "attack:4"})
    with pytest.raises(IllegalAction, match="player 3: illegal action 'vote:3'"):
        act(state, {3: "vote:3"})
    with pytest.raises(IllegalAction, match="player 4 is not to act"):
        state.apply_actions({p: "abstain" for p in range(7)})
    assert state.legal_actions(4) == [] and "vote:4" not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="not a chance node"):
        state.apply_chance(4)


def test_deal_must_be_a_permutation_of_the_roles():
    with pytest.raises(pydantic.ValidationError):
        GAME.options({"players": 4})
    state = GAME.new_initial_state(GAME.options({"players": 6}))
    with pytest.raises(IllegalAction, match="not a permutation"):
        state.apply_chance([W, W, W, S, D, V])
    with pytest.raises(IllegalAction, match="no decision"):
        state.apply_actions({})
    state.apply_chance([V, W, S, W, D, V])
    assert state.observation(1)["known_roles"] == {"1": W, "3": W}


def test_legal_actions_sort_as_strings():
    state = deal([W, W, W, S, D] + [V] * 7, first_phase="day")
    legal = state.legal_actions(5)
    assert legal == sorted(legal) and legal[:3] == ["abstain", "vote:0", "vote:1"]
    assert legal[3:5] == ["vote:10", "vote:11"]


OPTION_ERRORS = [
    ("at least one werewolf", {"werewolves": 0}, "werewolves"),
    ("the village side starts strictly larger", {"werewolves": 5}, "strictly larger"),
    ("the roles must fit the seats", {"players": 5, "werewolves": 2, "seers": 2, "doctors": 2},
     "exceeds players"),
    ("unknown keys are rejected", {"wolves": 2}, "wolves"),
    ("tie_rule is one of none, revote_then_random", {"tie_rule": "coin"}, "tie_rule"),
    ("max_days at least 1", {"max_days": 0}, "max_days"),
    ("discussion_rounds >= 0", {"discussion_rounds": -1}, "discussion_rounds"),
]


@pytest.mark.parametrize("rule,raw,message", OPTION_ERRORS, ids=[c[0] for c in OPTION_ERRORS])
def test_options_validation(rule, raw, message):
    with pytest.raises(pydantic.ValidationError, match=message):
        GAME.options(raw)


# -- talk ------------------------------------------------------------------------------------

def test_talk_channels():
    """Wolves talk at night if at least two are alive; the village talks in public by day."""
    state = deal(SEVEN)
    spec = state.talk()
    assert spec.channels == {"wolves": (0, 1)} and spec.max_rounds == 3
    act(state, {0: "attack:4", 1: "attack:4"})
    assert state.talk().channels == {"public": (0, 1, 2, 3, 5, 6)}
    act(state, {2: "vote:1", 3: "vote:1", 5: "vote:1"})
    assert state.talk() is None  # one wolf left: no wolves channel
    assert deal(SEVEN, discussion_rounds=0).talk() is None


TALK_CASES = [
    (1, "wolves", WwClaim(role="seer"), None),
    (0, "public", WwClaim(role="seer"), "not open"),
    (2, "wolves", WwAccuse(target=1), "not a member"),
    (0, "wolves", WwBid(target=4, preference=0.5), None),
    (0, "wolves", WwBid(target=1, preference=0.5), "is a werewolf"),
    (0, "wolves", WwBid(target=9, preference=0.5), "not a seat"),
    (0, "wolves", WwPropose(proposal_id=1, deal="joint_vote", target=4), None),
    (1, "wolves", WwAccept(proposal_id=1, proposer=0), None),
    (1, "wolves", WwAccept(proposal_id=1, proposer=1), "own proposal"),
    (1, "wolves", WwAccept(proposal_id=1, proposer=4), "not on channel"),
    (0, "wolves", WwRetract(proposal_id=1), None),
]


@pytest.mark.parametrize("player,channel,item,reason", TALK_CASES)
def test_validate_talk_at_night(player, channel, item, reason):
    result = deal(SEVEN).validate_talk(player, channel, item)
    assert result is None if reason is None else reason in result


def test_validate_talk_by_day():
    state = deal(SEVEN)
    act(state, {0: "attack:4", 1: "attack:4"})
    assert state.validate_talk(2, "public", WwAccuse(target=0)) is None
    assert "dead" in state.validate_talk(2, "public", WwAccuse(target=4))
    assert "itself" in state.validate_talk(2, "public", WwAccuse(target=2))
    assert "wolves channel" in state.validate_talk(0, "public", WwBid(target=2, preference=1.0))


def test_talk_items_are_validated():
    assert {m.model_fields["kind"].default for m in GAME.talk_models} == {
        "ww_claim", "ww_accuse", "ww_propose", "ww_accept", "ww_reject", "ww_retract", "ww_bid", "ww_result"}
    for bad in ({"kind": "ww_claim", "role": "mayor"}, {"kind": "ww_bid", "target": 1,
                                                        "preference": -1.0},
                {"kind": "ww_accuse", "target": "3"}, {"kind": "ww_accuse", "target": -1}):
        model = next(m for m in GAME.talk_models if m.model_fields["kind"].default == bad["kind"])
        with pytest.raises(pydantic.ValidationError):
            model.model_validate(bad)


# -- serialisation ---------------------------------------------------------------------------

def test_state_survives_json_mid_tie():
    state = deal(SEVEN)
    act(state, {0: "attack:4", 1: "attack:5", 3: "protect:4"})
    data = json.loads(json.dumps(state.to_json()))
    back = GAME.state_from_json(data)
    assert back.digest() == state.digest() and back.is_chance()
    back.apply_chance(4)
    state.apply_chance(4)
    assert back.to_json() == state.to_json() and 4 in alive(back)
    assert "seat  0  werewolf  alive" in back.render()
