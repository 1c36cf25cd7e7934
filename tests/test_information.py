"""Information hiding through the whole stack: what a villager is sent never names a hidden role."""

from __future__ import annotations

from bus.log import parse_log
from replay.conformance import play_to_bytes

ROLES = {"werewolf", "villager", "seer", "doctor"}


def _roles_in(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _roles_in(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _roles_in(v, path + (i,))
    elif value in ROLES:
        yield path, value


def test_villager_messages_name_only_own_or_revealed_roles():
    checked = 0
    for seed in range(6):
        game = parse_log(play_to_bytes("werewolves", seed)).games[0]
        roles = next(r["msg"]["outcome"] for r in game.records if r["msg"]["kind"] == "chance")
        for record in _requests_walked(game):  # format 4 logs requests without observations: the walk's
            msg = record["msg"]
            if msg["kind"] not in ("act_request", "talk_turn") or not msg["to"].startswith("p"):
                continue
            seat = int(msg["to"][1:])
            if roles[seat] != "villager":
                continue
            obs = msg["observation"]
            dead = set(range(len(roles))) - set(obs["alive"])
            known = {int(k) for k in obs["known_roles"]}
            assert known <= {seat} | dead, f"seed {seed} seq {record['seq']}: villager {seat} knows {known}"
            for path, role in _roles_in(obs):
                if path[:1] == ("role",) or path[:1] == ("known_roles",):
                    continue
                event = obs["events"][path[1]]
                assert event["type"] in ("killed", "eliminated", "game_over"), (seed, record["seq"], event)
            checked += 1
    assert checked > 50


def test_hiding_follows_reveal_option():
    game = parse_log(play_to_bytes("werewolves", 1, {"reveal_roles": False})).games[0]
    roles = next(r["msg"]["outcome"] for r in game.records if r["msg"]["kind"] == "chance")
    for record in _requests_walked(game):
        msg = record["msg"]
        if msg["kind"] == "act_request" and roles[int(msg["to"][1:])] == "villager":
            seat = int(msg["to"][1:])
            assert set(msg["observation"]["known_roles"]) == {str(seat)}


def _requests_walked(game):
    """The game's records, each request with the observation the rules make for its seat (the walk
    puts back what a format-4 log leaves out)."""
    from replay.walk import walk

    return [step.record for step in walk(game)]
