"""Diplomacy rules: bad input rejected with reasons, the per-unit State API, defaults, phases,
outcome, determinism across processes."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from pydantic import ValidationError

from games.api import IllegalAction
from games.diplomacy.adjudicator import resolve
from games.diplomacy.board import Board, OrderError, movement_orders, parse_order
from games.diplomacy.rules import Diplomacy
from games.diplomacy.script import Script
from tests.bounds import bounded

GAME = Diplomacy()


# -- bad input: rejected with a clear reason ------------------------------------------------

@pytest.mark.parametrize("power, order, reason", [
    ("FRANCE", "A XYZ - BUR", "unknown province 'XYZ'"),
    ("FRANCE", "A PAR - XYZ", "unknown province 'XYZ'"),
    ("FRANCE", "A BUR - PAR", "no unit in BUR"),
    ("FRANCE", "F PAR - BUR", "the unit in PAR is an army"),
    ("GERMANY", "A PAR - BUR", "A PAR belongs to FRANCE, not GERMANY"),
    ("FRANCE", "A PAR - MAR", "A PAR cannot reach MAR"),
    ("FRANCE", "F BRE - PAR", "F BRE cannot reach PAR"),
    ("FRANCE", "A PAR S A MAR - BUR - GAS", "expected S <A|F> <province>"),
    ("FRANCE", "A PAR X", "unknown order 'X'"),
    ("FRANCE", "F BRE C A PAR - LON", "only fleets at sea convoy"),
    ("ITALY", "F NAP - ROM VIA", "only armies move by convoy"),
])
def test_bad_movement_orders_are_rejected_with_a_reason(power, order, reason):
    board = Board.initial()
    with pytest.raises(OrderError) as exc:
        parse_order(board, power, order)
    assert reason in str(exc.value)


@pytest.mark.parametrize("order, reason", [
    ("A WAR B", "WAR is not a home centre of GERMANY"),
    ("A BER B", "BER is occupied"),
    ("A KIE B", "GERMANY does not own KIE"),
    ("F MUN B", "MUN is inland"),
])
def test_bad_builds_are_rejected_with_a_reason(order, reason):
    s = Script("W1901A").centres("G", "BER", "MUN", "DEN", "WAR").units("G", "A BER")
    s.centres("R", "KIE")
    with pytest.raises(OrderError) as exc:
        parse_order(s.board, "GERMANY", order)
    assert reason in str(exc.value)


def test_a_rejected_order_leaves_the_unit_holding_and_the_game_goes_on():
    s = Script().units("F", "A PAR", "A MAR").units("G", "A MUN")
    s.orders("F", "A PAR - XYZ", "A MAR - BUR").orders("G", "A MUN - BUR", "A PAR - PIC")
    s.process()
    assert [r[2] for r in s.rejected] == ["unknown province 'XYZ'", "A PAR belongs to FRANCE, not GERMANY"]
    assert s.results("A PAR") == ["void"]
    assert s.owner("A PAR") == "FRANCE" and s.owner("A MAR") == "FRANCE"
    assert s.results("A MAR") == ["bounce"] and s.phase == "F1901M"


def test_state_explains_illegal_actions_and_rejects_them():
    state = GAME.new_initial_state()
    france = 2
    assert state.next_unit(france) == "F BRE"
    assert "unknown province" in state.why_illegal(france, "F BRE - XYZ")
    assert "unit by unit" in state.why_illegal(france, "A PAR - BUR")
    assert "belongs to GERMANY" in state.why_illegal(france, "A MUN - BUR")
    acts = {p: state.default_action(p) for p in state.current_players()}
    acts[france] = "A PAR - BUR"
    before = state.digest()
    with pytest.raises(IllegalAction, match="unit by unit"):
        state.apply_actions(acts)
    assert state.digest() == before


# -- the per-unit API --------------------------------------------------------------------------

def test_movement_is_ordered_unit_by_unit_and_resolves_when_all_are_ordered():
    state = GAME.new_initial_state()
    assert state.current_players() == list(range(7))
    legal = state.legal_actions(0)
    assert legal == sorted(set(legal)) and "A BUD H" in legal and "A BUD - SER" in legal
    rounds = 0
    for _ in bounded(GAME.max_steps):
        if state.board.phase != "S1901M":
            break
        state.apply_actions({p: state.default_action(p) for p in state.current_players()})
        rounds += 1
    assert rounds == 4  # Russia has four units, the others three
    assert state.board.phase == "F1901M"
    obs = state.observation(5)
    assert obs["last"]["phase"] == "S1901M" and "F STP/SC H" in obs["last"]["orders"]["RUSSIA"]


def test_others_pending_orders_are_hidden_and_resampled():
    state = GAME.new_initial_state()
    acts = {p: state.legal_actions(p)[1] for p in state.current_players()}
    state.apply_actions(acts)
    obs = state.observation(0)
    assert obs["my_orders"] == [acts[0]]
    assert acts[1] not in json.dumps(obs)
    other = state.resample_hidden(0, random.Random(1))
    assert other.observation(0) == obs


def test_civil_disorder_defaults():
    s = Script("W1901A").centres("R", "MOS").units("R", "A LVN", "A SWE")
    state = GAME.new_initial_state()
    state._board = s.board  # a hand-set winter: Russia owes one removal
    state._slots, state._legal = None, {}
    assert state.current_players() == [5]
    assert state.default_action(5) == "A SWE D"  # furthest from home (DATC 6.J.3)
    state.apply_actions({5: state.default_action(5)})
    assert state.board.phase == "S1902M" and state.board.units_of("RUSSIA") == ["A LVN"]


def test_game_stops_after_winter_of_the_last_year_with_centre_share_returns():
    state = GAME.new_initial_state({"max_year": 1902})
    rng = random.Random(4)
    for _ in bounded(GAME.max_steps):
        if state.is_terminal():
            break
        state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.current_players()})
    assert state.board.year == 1903
    out = state.outcome()
    assert out.winners == () and abs(sum(out.returns) - 1.0) < 1e-9
    survivors = GAME.new_initial_state({"max_year": 1901, "draw": "survivors"})
    for _ in bounded(GAME.max_steps):
        if survivors.is_terminal():
            break
        survivors.apply_actions({p: survivors.default_action(p) for p in survivors.current_players()})
    assert survivors.outcome().returns == (1 / 7,) * 7


def test_solo_victory_ends_the_game():
    state = GAME.new_initial_state({"victory_centres": 4})
    for _ in range(8):  # spring: everyone holds, fall: Russia (4 homes) is counted in winter
        if state.is_terminal():
            break
        state.apply_actions({p: state.default_action(p) for p in state.current_players()})
    assert state.is_terminal() and state.outcome().winners == (5,)
    assert state.outcome().returns[5] == 1.0


def test_options_are_validated():
    with pytest.raises(ValidationError, match="max_yr"):
        GAME.options({"max_yr": 1910})
    with pytest.raises(ValidationError, match="datc"):
        GAME.options({"datc": "1.0"})


def test_legal_orders_are_sorted_unique_and_all_parse():
    rng = random.Random(2)
    board = Board.initial()
    for _ in range(12):
        if board.phase_kind != "M":
            break
        orders = {}
        for p in sorted(board.units):
            legal = movement_orders(board, p)
            assert legal == sorted(set(legal))
            power = board.units[p][0]
            for text in legal:
                assert parse_order(board, power, text).text() == text
            orders.setdefault(power, []).append(parse_order(board, power, rng.choice(legal)))
        board = resolve(board, orders).after


def test_clone_is_independent():
    state = GAME.new_initial_state()
    copy = state.clone()
    copy.apply_actions({p: copy.default_action(p) for p in copy.current_players()})
    assert state.to_json()["pending"] == [[] for _ in range(7)]


def test_same_seed_same_log_across_processes(tmp_path):
    logs = []
    for hash_seed in ("0", "77"):
        path = tmp_path / f"{hash_seed}.log"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run([sys.executable, "-m", "ops.cli", "play", "diplomacy", "--seed", "3", "--agents", "random",
                        "--log", str(path), "--option", "max_year=1903"],
                       check=True, env=env, capture_output=True)
        logs.append(path.read_bytes())
    assert logs[0] == logs[1] and len(logs[0]) > 10_000
