"""Dominoes agents on hand-made positions: each test quotes the rule it checks.

Sources: the seed (Martinez Carranza & Munoz Melendez 2005; section numbers are its own) for the
individualist, the glutton and the blocker (3.3) and the roles (3.4); "ours" where the seed is
silent (actors/dominoes/seed.py says what we chose) and for the Alpha pair (actors/dominoes/search.py).
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time

import pytest

from actors.dominoes import search, seed
from actors.dominoes.offices import AlphaStrategyOffice, PairIntelligenceOffice, SeedStrategyOffice, SignalForeignOffice
from actors.dominoes.table import Table
from actors.registry import AgentSpec, AgentSpecError, build_player
from bus.messages import REFEREE, Act, ActRequest, OfficeRequest
from games.dominoes.rules import Dominoes, DominoesState
from games.dominoes.tiles import INDEX, NAMES, mask_of, tiles_of
from tests.bounds import bounded

GAME = Dominoes()


def position(hands: dict[int, list[str]], line: list[tuple[int, int]], cur: int, events=(), lacks=None,
             opener: int = 0, hand: int = 1, phase: str = "play", **options) -> DominoesState:
    """A hand in play: seat -> tiles, the line left to right, seat to act, this hand's events."""
    data = GAME.new_initial_state(options).to_json()
    seats = [sorted(hands.get(s, []), key=INDEX.get) for s in range(4)]
    data.update(phase=phase, hand=hand, hands=seats, dealt=seats, line=[list(x) for x in line],
                ends=[line[0][0], line[-1][1]] if line else None, current=cur, opener=opener,
                last=(cur - 1) % 4, events=[list(e) for e in events],
                lacks=[sorted((lacks or {}).get(s, [])) for s in range(4)])
    return GAME.state_from_json(data)


def table_at(state: DominoesState, seat: int | None = None) -> tuple[Table, list[str]]:
    seat = state.current_players()[0] if seat is None else seat
    return Table.of(state.observation(seat)), state.legal_actions(seat)


FILLER = {1: ["0-0"], 2: ["0-1"], 3: ["0-2"]}  # hands of the other seats where they do not matter


# -- the individualist (seed 3.3, "Estrategia no cooperativa") ------------------------------------

def test_individualist_plays_the_heaviest_double_that_fits():
    """3.3: "revisa en su juego si tiene una o mas mulas que coincidan con alguno de los dos valores,
    si las hay, entonces se elige la de mayor puntaje"; 6-6 does not fit and is not a candidate."""
    state = position({0: ["2-2", "5-5", "5-6", "6-6", "2-3"], **FILLER}, [(2, 5)], 0)
    assert seed.individualist(*table_at(state)).action == "5-5:right"


def test_individualist_without_a_double_plays_the_other_end_most_repeated():
    """3.3: "se elegira aquella ficha cuyo extremo contrario tenga un mayor numero de repeticiones
    en las fichas restantes del jugador": 4-6 leaves 6, on two of the remaining tiles."""
    state = position({0: ["1-3", "4-6", "2-6", "5-6", "0-1", "6-6"], **FILLER}, [(3, 4)], 0)
    assert seed.individualist(*table_at(state)).action == "4-6:right"


def test_individualist_ties_go_to_the_first_candidate_found():
    """3.3: "Si hubiera un empate en las fichas candidatas, entonces se elige la primera candidata
    que surgio en la busqueda" (ours: tiles in ascending order, the left end first)."""
    state = position({0: ["1-3", "1-4", "0-5"], **FILLER}, [(3, 4)], 0)
    assert seed.individualist(*table_at(state)).action == "1-3:left"


def test_individualist_weighs_each_end_of_a_tile_that_fits_both():
    """Ours: a tile that fits both ends is two candidates, each with its own other end: 2-5 laid on
    the 5 leaves a 2, held twice more."""
    state = position({0: ["2-5", "1-2", "2-3"], **FILLER}, [(2, 5)], 0)
    assert seed.individualist(*table_at(state)).action == "2-5:right"


def test_individualist_opens_a_later_hand_by_the_same_rule():
    """Ours (the seed is silent on the empty line): the heaviest double, else the tile whose
    numbers repeat most in the rest of the hand."""
    state = position({0: ["1-1", "3-3", "0-4", "4-5", "4-6"], **FILLER}, [], 0)
    assert seed.individualist(*table_at(state)).action == "3-3"
    state = position({0: ["0-1", "0-4", "4-5", "4-6", "2-3"], **FILLER}, [], 0)
    assert seed.individualist(*table_at(state)).action == "0-4"  # 4 is on two more tiles


def test_a_player_passes_only_when_nothing_fits():
    """3.3: "Cualquier otra situacion conducira a pasar el turno"."""
    state = position({0: ["0-0", "1-1"], **FILLER}, [(5, 6)], 0)
    table, legal = table_at(state)
    assert legal == ["pass"]
    for choice in (seed.individualist(table, legal), seed.glutton(table, legal), seed.blocker(table, legal, (0,) * 4)):
        assert choice.action == "pass"


# -- the glutton and the blocker (seed 3.3, "Estrategia de pareja") --------------------------------

def test_glutton_plays_the_heaviest_tile_that_fits():
    """3.3: the glutton "busca entre sus fichas aquellas candidatas, y elige la que sume el mayor
    numero de puntos"; equal pips: the first found."""
    state = position({0: ["2-6", "3-5", "6-6", "1-2", "0-2"], **FILLER}, [(2, 5)], 0)
    assert seed.glutton(*table_at(state)).action == "2-6:left"  # 8 pips, before 3-5 (8)
    state = position({0: ["3-4", "0-1"], **FILLER}, [(3, 4)], 0)
    assert seed.glutton(*table_at(state)).action == "3-4:left"


LACKS = {1: [4], 2: [6], 3: [1, 6]}  # p1 lacks 4, p3 lacks 1 and 6, the partner p2 lacks 6


def test_blocker_keeps_tiles_leaving_a_number_the_opponents_lack_and_the_partner_may_hold():
    """3.3: "seleccionara un conjunto de fichas cuyo valor contrario no tienen los jugadores", then
    "elimina todas aquellas fichas cuyo valor contrario no tenga su pareja para evitar bloquearlo.
    Finalmente, del conjunto restante se elige la ficha de mayor puntaje": 2-4 (leaves 4, p1 lacks
    it) and 1-2 (leaves 1, p3 lacks it) are kept, 2-6 (leaves 6: the partner lacks it) is dropped,
    the heavier 2-5 leaves 5 which nobody lacks."""
    state = position({0: ["1-2", "2-4", "2-6", "2-5"], **FILLER}, [(2, 3)], 0, lacks=LACKS)
    table, legal = table_at(state)
    choice = seed.blocker(table, legal, table.lacks)
    assert choice.action == "2-4:left" and "partner may hold" in choice.rule


def test_blocker_falls_back_to_the_set_that_blocks_the_partner_too():
    """3.3: "Si el conjunto restante fuese vacio, entonces del conjunto anterior se eligiria a la
    ficha de mayor puntaje": only 2-6 leaves a number an opponent lacks (6), and the partner lacks it."""
    state = position({0: ["2-6", "2-5", "0-2"], **FILLER}, [(2, 3)], 0, lacks=LACKS)
    table, legal = table_at(state)
    choice = seed.blocker(table, legal, table.lacks)
    assert choice.action == "2-6:left" and "partner lacks it too" in choice.rule


def test_blocker_falls_back_to_the_heaviest_candidate():
    """3.3: "Si desde la primer seleccion, el conjunto quedara vacio, entonces se seleccionaria la
    ficha de mayor puntaje en el conjunto de fichas candidatas original"."""
    state = position({0: ["2-5", "0-2", "3-3"], **FILLER}, [(2, 3)], 0, lacks=LACKS)
    table, legal = table_at(state)
    choice = seed.blocker(table, legal, table.lacks)
    assert choice.action == "2-5:left" and "no tile blocks" in choice.rule  # 2-5 (7 pips) over 3-3 (6)


def test_blocker_without_memory_plays_like_the_glutton():
    """The Strategy Office without its Intelligence Office remembers no pass (ours): the blocker's
    first set is empty, so it plays the heaviest tile."""
    state = position({0: ["1-2", "2-4", "2-5"], **FILLER}, [(2, 3)], 0, lacks=LACKS)
    table, legal = table_at(state)
    assert seed.blocker(table, legal, (0,) * 4).action == "2-5:left"


# -- roles (seed 3.4) ----------------------------------------------------------------------------

def test_the_holder_of_double_six_opens_as_glutton():
    """3.4: "se busca entre los jugadores colaborativos si alguno tiene la mula de 6. Si alguno la
    tiene, entonces ese jugador iniciara el juego y tomara el papel de gloton mientras el otro toma
    el papel de bloqueador"; both partners read it so."""
    state = position({0: ["6-6", "1-2"], 1: ["0-0"], 2: ["3-3", "0-3"], 3: ["4-4"]}, [], 0, hand=0)
    for seat in (0, 2):
        r = seed.roles(Table.of(state.observation(seat)), None)
        assert (r.glutton, r.blocker, r.swapped) == (0, 2, False) and "6-6" in r.why


def test_roles_by_the_signal_when_the_pair_does_not_open():
    """3.4: "Aquel jugador que tenga mas de dos mulas se convierte automaticamente en gloton";
    "Si ambos jugadores tienen el mismo numero de mulas ... aquel jugador que tenga la mayor
    frecuencia de un valor determinado, adquiere el papel de gloton"; ours where silent: two
    doubles against one is more doubles; all equal, the lower seat."""
    hands = {0: ["1-1", "2-2", "3-3", "0-4", "4-5"], 1: ["6-6"], 2: ["0-1"], 3: ["0-2"]}
    state = position(hands, [(6, 6)], 0, opener=1, events=[(1, "6-6")])
    table = Table.of(state.observation(0))
    assert seed.hand_key(table.dealt()) == (3, 2)
    assert seed.roles(table, (1, 5)).glutton == 0  # more than two doubles, whatever the partner's frequency
    assert seed.roles(table, (4, 1)).glutton == 2  # the partner has more doubles still (ours)
    assert seed.roles(table, (3, 3)).glutton == 2  # as many doubles: the higher frequency
    assert seed.roles(table, (3, 2)).glutton == 0  # all equal: the lower seat (ours)
    two = Table.of(position({0: ["1-1", "2-2", "0-4"], **FILLER}, [(6, 6)], 0, opener=1).observation(0))
    assert seed.roles(two, (1, 6)).glutton == 0  # two doubles against one (ours: more doubles)


def test_roles_from_ones_own_hand_without_a_signal():
    """Ours: without a signal, the glutton is a hand with more than two doubles or a number on four
    tiles; otherwise the partner is taken for the glutton."""
    strong = position({0: ["1-4", "2-4", "3-4", "4-5", "0-6"], **FILLER}, [(6, 6)], 0, opener=1)
    weak = position({0: ["1-4", "2-4", "3-5", "0-6", "1-1"], **FILLER}, [(6, 6)], 0, opener=1)
    assert seed.roles(Table.of(strong.observation(0)), None).glutton == 0
    r = seed.roles(Table.of(weak.observation(0)), None)
    assert (r.glutton, r.blocker) == (2, 0) and "no signal" in r.why


def test_roles_swap_after_the_gluttons_second_pass():
    """3.4: "estos agentes pueden intercambiar funciones cuando el agente gloton ha sumado dos
    pasos, que pueden ser no consecutivos"."""
    hands = {0: ["6-6", "1-2", "1-3"], **FILLER}
    one = [(0, "6-6"), (1, "pass"), (2, "0-6:left"), (3, "pass"), (0, "pass")]
    two = one + [(1, "pass"), (2, "0-4:left"), (3, "pass"), (0, "pass")]
    r = seed.roles(Table.of(position(hands, [(0, 6), (6, 6)], 2, events=one, hand=0).observation(2)), None)
    assert (r.glutton, r.swapped) == (0, False)
    r = seed.roles(Table.of(position(hands, [(4, 0), (0, 6), (6, 6)], 1, events=two, hand=0).observation(2)), None)
    assert (r.glutton, r.blocker, r.swapped) == (2, 0, True) and "second pass" in r.why


def test_the_pair_choosing_its_opener_names_the_glutton():
    """Seed 3.5: the winning pair has "la libertad de elegir al jugador ... que tirara la ficha
    inicial" (option opener=pair_choice); ours: the signal's better hand, without it the chooser."""
    data = GAME.new_initial_state({"opener": "pair_choice"}).to_json()
    data.update(phase="choose", hand=1, hands=[["1-2", "3-4"], ["0-0"], ["0-1"], ["0-2"]],
                dealt=[["1-2", "3-4"], ["0-0"], ["0-1"], ["0-2"]], current=0, opener=0)
    state = GAME.state_from_json(data)
    table, legal = table_at(state)
    assert legal == ["open:0", "open:2"]
    assert seed.glutton_blocker(table, legal, (4, 4), (0,) * 4)[0].action == "open:2"
    assert seed.glutton_blocker(table, legal, None, (0,) * 4)[0].action == "open:0"
    assert seed.individualist(table, legal).action == "open:0"
    assert search.alpha_move(table, legal, random.Random(0), None, {})[0][1] == "open:0"


def test_signal_codes_carry_the_seeds_two_criteria():
    """3.4: the signal tells the partner (doubles, top frequency); ours: code = doubles * 8 + top."""
    mask = mask_of(["0-0", "1-1", "0-3", "0-4", "0-5", "0-6", "3-3"])
    assert seed.hand_key(mask) == (3, 5)
    assert seed.read_signal(seed.signal_code(mask)) == (3, 5)


# -- the offices ----------------------------------------------------------------------------------

def _request(task: str, obs: dict, legal=(), **view) -> OfficeRequest:
    return OfficeRequest(sender="p0", to="p0/x", task=task, turn=0, view={"observation": obs, **view},
                         legal=tuple(legal))


def test_intelligence_office_reads_this_hands_signal_only():
    """The partner signal is for one hand: an older hand's code is not read again."""
    state = position({0: ["1-2", "3-4"], **FILLER}, [(6, 6)], 0, opener=1, hand=2)
    obs = state.observation(0)
    io = PairIntelligenceOffice("p0/io", 1)
    old = [{"speaker": 2, "says": [{"kind": "dom_signal", "hand": 1, "code": 7 * 8 + 7}]}]
    beliefs = io.update(_request("update", obs, inbox=old)).updates[0].value
    assert "signal" not in beliefs and beliefs["roles"]["glutton"] == 2  # own hand weak: partner
    now = old + [{"speaker": 2, "says": [{"kind": "dom_signal", "hand": 2, "code": 0}]}]
    beliefs = io.update(_request("update", obs, inbox=now)).updates[0].value
    assert beliefs["signal"] == {"p2": [0, 0]} and beliefs["roles"]["glutton"] == 0
    assert io.update(_request("update", obs, inbox=now, beliefs=beliefs)).updates == []  # unchanged: no event


def test_foreign_office_signals_the_dealt_hand():
    """The signal describes the hand as dealt, the tiles already laid included."""
    state = position({0: ["1-1", "2-2"], **FILLER}, [(3, 3)], 1, events=[(0, "3-3")], opener=0)
    said = SignalForeignOffice("p0/fo", 1).negotiate(_request("negotiate", state.observation(0))).says
    assert [(s.hand, seed.read_signal(s.code)) for s in said] == [(1, (3, 1))]


def test_strategy_office_logs_the_rule_it_followed():
    state = position({0: ["2-2", "5-5"], **FILLER}, [(2, 5)], 0)
    so = SeedStrategyOffice("p0/so", 1, "individualist")
    answer = so.suggest(_request("suggest", state.observation(0), state.legal_actions(0)))
    assert answer.suggestions[0].action == "5-5:right"
    assert answer.updates[0].value == {"rule": "3.3: the heaviest double that fits"}


# -- the Alpha pair (ours) ------------------------------------------------------------------------

def test_convention_opens_with_the_double_of_the_longest_number():
    """Ours: the double of the most repeated number (ties: the higher), else its heaviest tile."""
    assert NAMES[search.convention_opening(mask_of(["5-5", "1-5", "2-5", "0-1", "1-2"]))] == "5-5"
    assert NAMES[search.convention_opening(mask_of(["0-5", "1-5", "2-5", "0-1", "6-6"]))] == "2-5"
    assert NAMES[search.convention_opening(mask_of(["0-1", "1-2", "3-4", "4-5"]))] == "4-5"  # 1 and 4 tie: 4


def test_convention_is_read_from_the_partners_free_opening_only():
    """A partner's opening after the first hand means its longest number; 6-6 in hand 0 means nothing."""
    later = position({0: ["1-2"], **FILLER}, [(5, 5)], 1, events=[(2, "5-5")], opener=2)
    assert search.convention_reading(Table.of(later.observation(0))) == {"2": "5-5"}
    assert search.convention_reading(Table.of(later.observation(1))) == {}  # an opponent's opening
    first = position({0: ["1-2"], **FILLER}, [(6, 6)], 3, events=[(2, "6-6")], opener=2, hand=0)
    assert search.convention_reading(Table.of(first.observation(0))) == {}


def late_table(mine: list[str], counts: tuple[int, int, int, int], held: list[str], ends: tuple[int, int],
               lacks: dict[int, list[int]] | None = None, events=()) -> Table:
    """Seat 0's view late in a hand: its tiles, the hand sizes, the tiles still held by the others
    (`held`); every other tile is on the line (laid by p1 in these positions, unless `events` say)."""
    listed = {a.split(":")[0] for _, a in events}
    events = tuple(events) + tuple((1, f"{n}:left") for n in NAMES if n not in {*mine, *held, *listed})
    return Table(me=0, phase="play", hand_no=1, opener=1, hand=mask_of(mine), ends=ends, events=events,
                 lacks=tuple(sum(1 << n for n in (lacks or {}).get(s, ())) for s in range(4)), counts=counts,
                 scores=(0, 0), rules=GAME.options().model_dump(mode="json"))


HEAVY = ["5-5", "4-5", "4-4", "3-5", "3-4", "2-5", "2-4", "1-5", "3-3", "1-4", "2-3"]  # no 6, 65+ pips in any 10


def test_sampled_deals_keep_hand_sizes_and_what_passes_showed():
    """Counting: the hidden hands are the unseen tiles, in the right sizes, none showing a number
    its holder passed on. The partner, who opened 5-5, holds one tile: with 5-5 beside any one tile
    the convention opens 5-5, so every deal follows it and weighs 1 (a partner holding five, in
    test_the_search_constants_are_options_that_reach_the_moves, draws deals that break it)."""
    events = [(2, "5-5"), (3, "pass")]
    table = late_table(["1-3", "3-6"], (2, 5, 1, 5), [n for n in HEAVY if n != "5-5"] + ["0-0"], (6, 3),
                       lacks={3: [5]}, events=events)
    table = dataclasses.replace(table, opener=2)
    reading = search.convention_reading(table)
    assert reading == {"2": "5-5"}
    deals = search.sample_deals(table, random.Random(3), 50, table.lacks, reading)
    for hands_, weight in deals:
        assert hands_[0] == table.hand and hands_[1] | hands_[2] | hands_[3] == table.unseen()
        assert [h.bit_count() for h in hands_] == [2, 5, 1, 5]
        assert not any("5" in NAMES[t] for t in tiles_of(hands_[3]))
        assert search.convention_opening(hands_[2] | mask_of(["5-5"])) == INDEX["5-5"] and weight == 1.0
    beliefs = search.tile_beliefs(table, random.Random(3), table.lacks, reading)
    assert set(beliefs) == {"p1", "p2", "p3"} and not any("5" in t for t in beliefs["p3"])


def test_alpha_lays_the_tile_that_blocks_the_line_when_the_block_wins_most():
    """Every six but 3-6 is on the line: 3-6 on the 3 closes both ends on six, and the pair (4 pips
    and one partner tile) holds far fewer pips than the opponents' ten tiles: the block wins every
    sampled deal with all their pips. Laying 1-3 first wins too (3-6 goes out next turn), but only
    after the opponents have shed tiles: fewer points, a lower utility."""
    table = late_table(["1-3", "3-6"], (2, 5, 1, 5), HEAVY, (6, 3))
    ranked = search.score_moves(table, ["1-3:right", "3-6:left", "3-6:right"], random.Random(0), table.lacks, {})
    assert ranked[0][1] == "3-6:right"
    assert all(u > 1.0 for u, _ in ranked)  # won in every deal


def test_playouts_score_hands_as_the_rules_do():
    """The Strategy Office's playouts end and score a hand as the rules do, for every scoring option."""
    rng = random.Random(2)
    for options in ({}, {"scoring": "all", "blocked_scoring": "both", "blocked_tie": "lowest_hand"}):
        state = GAME.new_initial_state({"target": 300, **options})
        rules = GAME.options(options).model_dump(mode="json")
        for _ in bounded(GAME.max_steps):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            p = state.current_players()[0]
            state.apply_actions({p: rng.choice(state.legal_actions(p))})
        for hand in state.to_json()["past"]:
            laid = [{a.split(":")[0] for s, a in hand["events"] if s == q and a != "pass"} for q in range(4)]
            left = [mask_of([t for t in hand["deal"][q] if t not in laid[q]]) for q in range(4)]
            assert search.hand_result(hand["end"], hand["last"], left, rules) == (hand["pair"], hand["points"])


def test_alpha_decides_within_twenty_milliseconds():
    """Issue 15: median decision <= 20 ms (beliefs and scores, the offices' own work)."""
    rng, times = random.Random(5), []
    so = AlphaStrategyOffice("p0/so", 1)
    for game_seed in range(4):
        state = GAME.new_initial_state({"target": 30})
        for _ in bounded(GAME.max_steps):
            if state.is_terminal() or len(times) >= 60:
                break
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            p = state.current_players()[0]
            legal = state.legal_actions(p)
            if len(legal) > 1:
                obs = state.observation(p)
                t0 = time.perf_counter()
                table = Table.of(obs)
                search.tile_beliefs(table, rng, table.lacks, search.convention_reading(table))
                so.suggest(_request("suggest", obs, legal))
                times.append(time.perf_counter() - t0)
            state.apply_actions({p: rng.choice(legal)})
    assert statistics.median(times) <= 0.020


# -- information hiding, for every agent ------------------------------------------------------------

def _decide(agent: str, state: DominoesState, seat: int, game_seed: int) -> str:
    """The action a freshly built `agent` in `seat` sends for this position (its actors routed inline)."""
    actors = {a.address: a for a in build_player(AgentSpec(name=agent), "dominoes", seat, game_seed)}
    queue = [ActRequest(sender=REFEREE, to=f"p{seat}", turn=0, player=seat, legal=tuple(state.legal_actions(seat)),
                        observation=state.observation(seat))]
    for _ in bounded(10_000):
        if not queue:
            break
        message = queue.pop(0)
        if isinstance(message, Act):
            return message.action
        if message.to in actors:
            queue += actors[message.to].handle(message)
    raise AssertionError(f"{agent} sent no act")


@pytest.mark.parametrize("agent", ["individualist", "glutton-blocker", "alpha-pair"])
def test_decisions_do_not_depend_on_the_hidden_hands(agent):
    """Issue 15: a seat's decision is unchanged when the other hands are resampled consistently
    with what it saw (passes, tiles played)."""
    rng = random.Random(11)
    checked = 0
    for game_seed in range(3):
        state = GAME.new_initial_state({"target": 30})
        for _ in range(400):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            p = state.current_players()[0]
            legal = state.legal_actions(p)
            if len(legal) > 1 and rng.random() < 0.3:
                other = state.resample_hidden(p, rng)
                assert _decide(agent, state, p, game_seed) == _decide(agent, other, p, game_seed)
                checked += 1
            state.apply_actions({p: rng.choice(legal)})
    assert checked >= 10


# -- duplicate matches (the experiments) -------------------------------------------------------------

def test_a_duplicate_match_deals_the_same_tiles_with_the_pairs_swapped():
    """ops/bench/dominoes_agents plays each deal seed twice, the pairs swapped: every hand's deal
    is the same in both (the rules derive it from the match seed and the hand index)."""
    from actors.match import make_header, record
    from actors.registry import parse_lineup
    from bus.log import parse_log
    from ops.bench.dominoes_agents import play_deal, summarise

    def deals(lineup: str) -> list:
        log = parse_log(record(make_header("dominoes", 9, parse_lineup(lineup, 4), {"target": 20}))).games[0]
        return [r["msg"]["outcome"] for r in log.records if r["msg"]["kind"] == "chance"]

    first = deals("glutton-blocker,individualist,glutton-blocker,individualist")
    second = deals("individualist,glutton-blocker,individualist,glutton-blocker")
    common = min(len(first), len(second))
    assert common >= 1 and first[:common] == second[:common]
    matches = play_deal("glutton-blocker", "individualist", {"target": 20}, 9)
    assert [m["side"] for m in matches] == [0, 1]
    r = summarise("gb-ind", "glutton-blocker", "individualist", {"target": 20}, matches, 1.0)
    assert r["matches"] == 2 and r["deals"] == 1 and r["hands_a"] + r["hands_b"] <= r["hands"]


def test_the_search_constants_are_options_that_reach_the_moves():
    """`margin_weight` and `convention_miss` (alpha-pair options) are the constants the Strategy
    Office scores with and samples with: with no margin weight a won hand is worth 1 whatever its
    points, and a deal breaking the convention weighs what the option says; out of bounds is refused."""
    table = late_table(["1-3", "3-6"], (2, 5, 1, 5), HEAVY, (6, 3))
    legal = ["1-3:right", "3-6:left", "3-6:right"]
    flat = search.score_moves(table, legal, random.Random(0), table.lacks, {}, margin=0.0)
    assert all(u == 1.0 for u, _ in flat)  # both tiles win every deal: only the margin told them apart
    events = [(2, "5-5"), (3, "pass")]
    late = late_table(["1-3", "3-6"], (2, 3, 5, 3), [n for n in HEAVY if n != "5-5"] + ["0-0"], (6, 3),
                      lacks={3: [5]}, events=events)  # the partner (seat 2), who opened 5-5, holds five
    late = dataclasses.replace(late, opener=2)
    deals = search.sample_deals(late, random.Random(3), 400, late.lacks, search.convention_reading(late), miss=0.5)
    follows = [search.convention_opening(hands_[2] | mask_of(["5-5"])) == INDEX["5-5"] for hands_, _ in deals]
    assert [w for _, w in deals] == [1.0 if f else 0.5 for f in follows] and not all(follows)
    with pytest.raises(AgentSpecError):
        build_player(AgentSpec(name="alpha-pair", options={"margin_weight": 0.5}), "dominoes", 0, 1)
