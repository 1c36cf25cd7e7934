"""Werewolves views: each action in words, a seat's observation as text and as a float32 tensor.

Pure functions of (options, seat, observation): nothing here reads a state, so a view shows only
what the seat's observation holds (its role, who is alive, the events it saw: votes, the pack's
votes for a werewolf, a seer's results, a doctor's saves).

The tensor's size depends on the number of seats n (`options.players`); `tensor_fields(options)`
gives its layout for any options and `TENSOR_FIELDS` is that layout for the default 10 seats.
Seats are absolute (column q is seat q, as in the actions `vote:q`); the observing seat is marked
in `me`. Blocks of several columns per seat are row-major: entry q * k + j is seat q's j-th.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy

from games.api import ABSTAIN, IllegalAction, field_table
from games.werewolves.rules import ALL_ROLES, HUMAN, WOLF_SPECIES, WerewolvesOptions

PHASES = ("deal", "night", "day", "revote", "day_tie", "end")  # the phases an observation shows
WINNERS = ("village", "werewolves", "draw")
SPECIES = (HUMAN, WOLF_SPECIES)
_ROLE_INDEX = {r: i for i, r in enumerate(ALL_ROLES)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_WINNER_INDEX = {w: i for i, w in enumerate(WINNERS)}
_SPECIES_INDEX = {s: i for i, s in enumerate(SPECIES)}
_NIGHT_EVENTS = frozenset({"inspect", "protect", "guard", "wolf_votes", "attacked", "saved", "killed",
                           "nobody_killed"})

_R = len(ALL_ROLES)


def _layout(n: int) -> list[tuple[str, int, int, str]]:
    """(name, start, stop, meaning) of every field for n seats, in order."""
    spec = [
        ("me", n, "one-hot: the observing seat"),
        ("role", _R, f"one-hot: own role, columns {', '.join(ALL_ROLES)} (all 0 before the deal)"),
        ("phase", len(PHASES), f"one-hot: the phase shown, columns {', '.join(PHASES)}"),
        ("day", 1, "the day number / max_days (night k comes before day k)"),
        ("alive", n, "1 for each living seat"),
        ("candidates", n, "1 for each seat in the current revote"),
        ("known_role", n * _R, f"seat q's role one-hot at q*{_R}.. (columns as in role), where the seat knows it: "
                                "its own, fellow werewolves, a seer's role results, roles revealed at death"),
        ("known_species", n * 2, "seat q's species at q*2..: human, werewolf, where a seer's species result or a "
                                 "medium's result told it"),
        ("killed_at_night", n, "1 for each seat killed by the werewolves"),
        ("voted_out", n, "1 for each seat voted out by day"),
        ("day_vote_tally", n, "votes received by each seat in the latest day vote seen / n"),
        ("day_votes", n * n, "latest day vote seen: 1 at voter*n + target"),
        ("day_vote_today", 1, "1 when that latest day vote was cast on the current day"),
        ("wolf_vote_tally", n, "votes for each seat in the latest werewolf vote seen (werewolves only) / n"),
        ("wolf_votes", n * n, "latest werewolf vote seen: 1 at voter*n + target"),
        ("winner", len(WINNERS), f"one-hot: the winning side, columns {', '.join(WINNERS)} (all 0 while playing)"),
        ("role_counts", _R, "roles dealt in this game / n (columns as in role), where the observation shows them "
                            "(games with a role or rule beyond the thesis'; else 0)"),
    ]
    return field_table(spec)


@lru_cache(maxsize=64)
def _starts(n: int) -> tuple[dict[str, int], int]:
    fields = _layout(n)
    return {name: start for name, start, _, _ in fields}, fields[-1][2]


def tensor_fields(options: WerewolvesOptions) -> list[tuple[str, int, int, str]]:
    """The tensor layout for these options: (name, start, stop, meaning) per field."""
    return _layout(options.players)


TENSOR_FIELDS = _layout(WerewolvesOptions().players)


# -- actions ------------------------------------------------------------------------------------

def describe_action(options: WerewolvesOptions, action: str) -> str:
    if action == ABSTAIN:
        return "abstain: no vote and no night action this time"
    verb, _, seat = action.partition(":")
    if not seat.isdigit() or int(seat) >= options.players:
        raise IllegalAction(f"{action!r} is not a Werewolves action")
    q = int(seat)
    if verb == "vote":
        return f"vote to eliminate player {q}"
    if verb == "attack":
        return f"vote to attack player {q} tonight (the werewolves' most-voted target is attacked)"
    if verb == "inspect":
        learn = "its role" if options.inspect_result == "role" else "its species, human or werewolf"
        return f"inspect player {q} tonight (learn {learn})"
    if verb == "protect":
        return f"protect player {q} from tonight's attack"
    if verb == "guard":
        return f"guard player {q} from tonight's attack"
    raise IllegalAction(f"{action!r} is not a Werewolves action")


# -- text ---------------------------------------------------------------------------------------

def _seats(seats: Any) -> str:
    return ", ".join(str(q) for q in seats) if seats else "none"


def _votes(votes: list[list[Any]]) -> str:
    return ", ".join(f"{a}->{'abstain' if b is None else b}" for a, b in votes) or "none"


def _who(q: Any, me: int) -> str:
    return "you" if q == me else f"player {q}"


def _event_line(e: dict[str, Any], me: int) -> str:
    t, d = e["type"], e.get("day")
    when = f"night {d}" if t in _NIGHT_EVENTS else f"day {d}"
    if t == "inspect":
        result = e.get("role", e.get("species"))
        return f"{when}: {_who(e['actor'], me)} inspected player {e['target']}: {result}"
    if t in ("protect", "guard"):
        return f"{when}: {_who(e['actor'], me)} {'protected' if t == 'protect' else 'guarded'} player {e['target']}"
    if t == "wolf_votes":
        return f"{when}: werewolf votes (voter->target): {_votes(e['votes'])}"
    if t == "attacked":
        return f"{when}: the werewolves attacked player {e['player']}"
    if t == "saved":
        return f"{when}: {_who(e['actor'], me)} saved player {e['player']} from the attack"
    if t == "killed":
        role = f" (a {e['role']})" if "role" in e else ""
        return f"{when}: {_who(e['player'], me)} killed by the werewolves{role}"
    if t == "nobody_killed":
        return f"{when}: nobody was killed"
    if t == "day_votes":
        kind = "revote" if e.get("round") == 2 else "vote"
        return f"{when}: {kind} (voter->target): {_votes(e['votes'])}"
    if t == "revote":
        return f"{when}: tied vote, revote between players {_seats(e['candidates'])}"
    if t == "nobody_eliminated":
        return f"{when}: nobody was voted out"
    if t == "eliminated":
        lot = " (drawn by lot among the tied)" if e.get("lot") else ""
        role = f" (a {e['role']})" if "role" in e else ""
        return f"{when}: {_who(e['player'], me)} voted out{lot}{role}"
    if t == "identified":
        return f"{when}: {_who(e['actor'], me)} learnt that player {e['player']}, voted out, was {e['species']}"
    if t == "game_over":
        return f"{e.get('phase', 'day')} {d}: game over, {e['winner']} {'is a draw' if e['winner'] == 'draw' else 'won'}"
    rest = ", ".join(f"{k}={e[k]}" for k in sorted(e) if k not in ("type", "day"))
    return f"{when}: {t} ({rest})"


_NOW = {
    "deal": "the roles are being dealt",
    "night": "night {day}: the night roles act (werewolves attack, seer inspects, doctor protects)",
    "day": "day {day}: every living player votes one player out",
    "revote": "day {day}: revote between the tied players {candidates}",
    "day_tie": "day {day}: the tied vote is being drawn by lot",
    "end": "the game is over (day {day})",
}


def observation_text(options: WerewolvesOptions, seat: int, obs: dict[str, Any]) -> str:
    me, n, role = obs["me"], obs["num_players"], obs["role"]
    lines = [f"You are player {me} of {n} (players 0-{n - 1}); your role: {role or 'not dealt yet'}."]
    now = _NOW.get(obs["phase"], "phase {phase}, day {day}")
    lines.append("Now: " + now.format(day=obs["day"], phase=obs["phase"], candidates=_seats(obs["candidates"])) + ".")
    if obs.get("winner") is not None:
        lines.append(f"Winner: {obs['winner']}.")
    alive = obs["alive"]
    living = set(alive)
    dead = [q for q in range(n) if q not in living]
    lines.append(f"Alive ({len(alive)}): {_seats(alive)}. Dead: {_seats(dead)}.")
    if obs["candidates"] and obs["phase"] != "revote":
        lines.append(f"Revote candidates: {_seats(obs['candidates'])}.")
    known = obs["known_roles"]
    if known:
        parts = [f"{q} {r}{' (you)' if int(q) == me else ''}" for q, r in sorted(known.items(), key=lambda kv: int(kv[0]))]
        lines.append("Roles you know (player role): " + ", ".join(parts) + ".")
    if role == "werewolf":
        pack = [int(q) for q, r in known.items() if r == "werewolf" and int(q) != me]
        lines.append(f"Your fellow werewolves: {_seats(sorted(pack))}.")
    counts = obs.get("role_counts")
    if counts:
        lines.append("Roles dealt in this game: " + ", ".join(f"{c} {r}" for r, c in sorted(counts.items())) + ".")
    events = obs["events"]
    if events:
        lines.append(f"What you have seen ({len(events)} events):")
        lines.extend("- " + _event_line(e, me) for e in events)
    else:
        lines.append("What you have seen: nothing yet.")
    return "\n".join(lines)


# -- tensor -------------------------------------------------------------------------------------

def observation_shape(options: WerewolvesOptions) -> tuple[int, ...]:
    return (_starts(options.players)[1],)


def observation_tensor(options: WerewolvesOptions, seat: int, obs: dict[str, Any]) -> numpy.ndarray:
    n = options.players
    at, size = _starts(n)
    x = numpy.zeros(size, dtype=numpy.float32)
    me = obs["me"]
    if 0 <= me < n:
        x[at["me"] + me] = 1.0
    role = obs["role"]
    if role is not None:
        x[at["role"] + _ROLE_INDEX[role]] = 1.0
    phase = _PHASE_INDEX.get(obs["phase"])
    if phase is not None:
        x[at["phase"] + phase] = 1.0
    day = obs["day"]
    x[at["day"]] = day / options.max_days
    base = at["alive"]
    for q in obs["alive"]:
        x[base + q] = 1.0
    base = at["candidates"]
    for q in obs["candidates"]:
        x[base + q] = 1.0
    base = at["known_role"]
    for q, r in obs["known_roles"].items():
        x[base + int(q) * _R + _ROLE_INDEX[r]] = 1.0
    day_votes = wolf_votes = None
    vote_day = None
    killed, voted_out, species = at["killed_at_night"], at["voted_out"], at["known_species"]
    for e in obs["events"]:
        t = e["type"]
        if t == "day_votes":
            day_votes, vote_day = e["votes"], e["day"]
        elif t == "wolf_votes":
            wolf_votes = e["votes"]
        elif t == "killed":
            x[killed + e["player"]] = 1.0
        elif t == "eliminated":
            x[voted_out + e["player"]] = 1.0
        if "species" in e:
            q = e["target"] if t == "inspect" else e["player"]
            x[species + 2 * q + _SPECIES_INDEX[e["species"]]] = 1.0
    inv = 1.0 / n
    if day_votes is not None:
        tally, matrix = at["day_vote_tally"], at["day_votes"]
        for a, b in day_votes:
            if b is not None:
                x[tally + b] += inv
                x[matrix + a * n + b] = 1.0
        x[at["day_vote_today"]] = 1.0 if vote_day == day else 0.0
    if wolf_votes is not None:
        tally, matrix = at["wolf_vote_tally"], at["wolf_votes"]
        for a, b in wolf_votes:
            if b is not None:
                x[tally + b] += inv
                x[matrix + a * n + b] = 1.0
    winner = obs.get("winner")
    if winner is not None:
        x[at["winner"] + _WINNER_INDEX[winner]] = 1.0
    counts = obs.get("role_counts")
    if counts:
        base = at["role_counts"]
        for r, c in counts.items():
            x[base + _ROLE_INDEX[r]] = c * inv
    return x
