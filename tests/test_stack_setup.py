"""What a game's setup and a tournament runner keep from one game to the next, held to what they
stand for: a packed writer's records (kept by its list's own append) make each game's frame alone;
a lineup's validated parts, made once a process, are those of each header and never shared actors;
the bridge's game for the last options object is that object's; ranks are the ranks' definition; the
benchmark's log written by hand is the stack's."""

from __future__ import annotations

import io
import random

import pytest

from actors.lineup import build_actors
from actors.match import make_header, play, record
from actors.registry import parse_lineup
from bus.log import LogWriter, PackedLogWriter, parse_log
from ops.tournament.runner import ranks_of


def _lineup(spec: str, n: int):
    return parse_lineup(spec, n)


@pytest.mark.parametrize("method", ["zstd", "zlib"])
def test_a_packed_writer_packs_each_game_alone_and_as_a_plain_writer_frames_it(method):
    headers = [make_header("dominoes", seed, _lineup("random", 4), {"target": 1}) for seed in (1, 2)]
    packed, plain = io.BytesIO(), io.BytesIO()
    writer = PackedLogWriter(packed, method=method)
    for header in headers:  # two games in a row through one writer
        writer.header(header)
        play(header, writer)
        writer.end_game()
    for header in headers:
        plain.write(record(header)[len(b"DETENTE-LOG\n"):] if plain.tell() else record(header))
    got, want = parse_log(packed.getvalue()).games, parse_log(plain.getvalue()).games
    assert [g.header["seed"] for g in got] == [1, 2]
    assert [g.payloads for g in got] == [g.payloads for g in want]


def test_a_plain_writer_after_a_packed_one_is_unchanged():
    header = make_header("hanabi", 3, _lineup("random", 2), {"players": 2})
    buf = io.BytesIO()
    writer = LogWriter(buf)
    writer.header(header)
    play(header, writer)
    writer.end_game()
    assert buf.getvalue() == record(header)


def test_a_lineup_is_validated_per_header_and_its_actors_are_new_each_game():
    narrow = make_header("dominoes", 5, _lineup("random:width=1", 4), {"target": 1})
    wide = make_header("dominoes", 5, _lineup("random:width=2", 4), {"target": 1})
    a, b, c = build_actors(narrow), build_actors(wide), build_actors(narrow)
    assert a["p0/so"].width == 1 and b["p0/so"].width == 2 and c["p0/so"].width == 1
    assert all(a[address] is not c[address] for address in a)  # fresh actors, whatever is shared
    assert a["p0"].kb is not c["p0"].kb
    # the referee's options follow the header's, and games with them differ
    long = make_header("dominoes", 5, _lineup("random", 4), {"target": 100})
    assert build_actors(long)["referee"].options.target == 100
    assert build_actors(narrow)["referee"].options.target == 1
    assert record(narrow) != record(wide)


def test_the_bridge_answers_each_options_object_with_its_own_game():
    pytest.importorskip("pyspiel")
    from games.registry import get_game

    game = get_game("openspiel-kuhn_poker")
    two, three = game.options({}), game.options({"players": 3})
    for options, players in ((two, 2), (three, 3), (two, 2), (three, 3)):
        assert game.num_players(options) == players
    assert game.max_steps_for(three) > game.max_steps_for(two)


def _ranks_by_definition(scores):
    return [sum(1 for t in scores if t > s) + (sum(1 for t in scores if t == s) + 1) / 2 for s in scores]


def test_ranks_are_their_definition():
    rng = random.Random(46)
    for _ in range(2000):
        scores = [rng.choice([0, 1, 1.0, 0.5, -1, 2]) if rng.random() < 0.7 else rng.random()
                  for _ in range(rng.randint(1, 10))]
        assert ranks_of(scores) == _ranks_by_definition(scores)
    assert ranks_of([1.0, 0.0, 1.0, 0.0]) == [1.5, 3.5, 1.5, 3.5]


@pytest.mark.parametrize("name", ["battleline", "risk", "dominoes", "hanabi", "werewolves", "kuhn"])
def test_the_benchmarks_log_by_hand_is_the_stacks_byte_for_byte(name):
    """ops.bench.decision_cost's floor (`hand_game`: the log written by one loop, no stack) does the
    work the stack's log needs and no less: the same bytes for the same header."""
    from actors.match import game_options
    from games.registry import get_game
    from ops.bench.decision_cost import _header, _kuhn_header, hand_game

    if name == "kuhn":
        pytest.importorskip("pyspiel")
    for seed in (1, 2):
        header = _kuhn_header(seed) if name == "kuhn" else _header(name, seed, 4)
        game = get_game(header["game"])
        options = game_options(header["game"], header["options"])
        assert hand_game(game, options, header, game.num_players(options)) == record(header)
