"""The three placements give byte-identical logs (starts a real local Ray once for the module)."""

from __future__ import annotations


import pytest

from replay.conformance import play_to_bytes

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module", autouse=True)
def _ray(local_ray):
    return local_ray


@pytest.mark.parametrize("seed", [7, 8])
def test_placements_give_identical_bytes(seed):
    inline = play_to_bytes("werewolves", seed)
    assert play_to_bytes("werewolves", seed, runtime="ray-players") == inline
    assert play_to_bytes("werewolves", seed, runtime="ray-modules") == inline


def test_ray_modules_hosts_are_reset_not_recreated():
    import io

    from actors.match import make_header, play
    from actors.ray_placement import RayPlacement
    from actors.registry import AgentSpec
    from bus.log import LogWriter

    placement = RayPlacement("ray-modules")
    try:
        logs, hosts = [], []
        for seed in (3, 3):
            header = make_header("werewolves", seed, [AgentSpec(name="random")] * 10)
            buf = io.BytesIO()
            writer = LogWriter(buf)
            writer.header(header)
            play(header, writer, runtime="ray-modules", placement=placement)
            logs.append(buf.getvalue())
            hosts.append(dict(placement.hosts))
        assert logs[0] == logs[1] == play_to_bytes("werewolves", 3)
        assert hosts[0] == hosts[1] and len(hosts[0]) == 20  # 10 Presidents + 10 offices, same handles
    finally:
        placement.close()


def test_an_external_agent_gives_the_same_bytes_on_every_placement():
    """Its process is started where its seat's actors run (a Ray worker for ray-players)."""
    from actors.match import make_header, record
    from actors.registry import parse_lineup

    lineup = parse_lineup('exec:cmd=["python3","tests/external/talker.py"],random', 2)
    inline = record(make_header("hanabi", 5, lineup))
    assert record(make_header("hanabi", 5, lineup), runtime="ray-players") == inline
    assert b"talker" in inline


def test_format_4_a_mixed_lineup_gives_the_same_bytes_on_every_placement_and_verifies():
    """A seat that reads observations (AlphaWolf) beside seats that read none (random): the referee
    built beside the bus sends each what it reads, and the log is the same wherever the seats run."""
    from actors.match import make_header, record
    from actors.registry import parse_lineup
    from bus.log import parse_log
    from replay.verify import verify_game

    header = make_header("werewolves", 3, parse_lineup("alphawolf,random,random,alphawolf,random,random,random", 7),
                         {"players": 7})
    inline = record(header)
    assert record(header, runtime="ray-players") == inline
    assert record(header, runtime="ray-modules") == inline
    game = parse_log(inline).games[0]
    assert game.header["format"] == 4
    verdict = verify_game(game)
    assert verdict.ok, verdict.message
