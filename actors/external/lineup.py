"""External agents in lineups: the `exec` and `ws` agents, office specs inside an Alpha agent's
options (`alphawolf:fo=exec:cmd=[...]`), and the header's record of each external agent.

A header made here starts (or reuses) every external agent of its lineup and records, by address,
what it said of itself in its handshake (`external`), and its spec as the header keeps it
(connection.for_header: no token, no path outside the project). Headers of lineups without an
external agent are exactly what they were before external agents existed.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from actors.address import office_address, player_address
from actors.external.actor import OFFICES, TRANSPORTS, external_actor, prepare
from actors.external.connection import OPTIONS


def office_specs(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The offices an agent's options hand to external agents: role -> {"name", "options"}."""
    return {role: value for role in OFFICES
            if isinstance(value := options.get(role), dict) and value.get("name") in TRANSPORTS}


def is_external(spec: dict[str, Any]) -> bool:
    """Whether a seat's spec (as the header holds it) involves an external agent."""
    return spec["name"] in TRANSPORTS or bool(office_specs(spec.get("options") or {}))


def header_lineup(agents: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The header's agents (external specs as the header keeps them) and its `external` map
    (address -> handshake entry); the agents are started on the way."""
    kept_agents: list[dict[str, Any]] = []
    entries: dict[str, dict[str, Any]] = {}
    for seat, spec in enumerate(agents):
        name, options = spec["name"], dict(spec.get("options") or {})
        if name in TRANSPORTS:
            _check(name, options, f"agent {name!r}")
            address = player_address(seat)
            options, entries[address] = prepare(name, options, address)
        else:
            for role, inner in sorted(office_specs(options).items()):
                _check(inner["name"], inner.get("options") or {}, f"agent {name!r} office {role}")
                address = office_address(seat, role)
                kept, entries[address] = prepare(inner["name"], dict(inner.get("options") or {}), address)
                options[role] = {"name": inner["name"], "options": kept}
        kept_agents.append({"name": name, "options": options})
    return kept_agents, dict(sorted(entries.items()))


def _check(kind: str, options: dict[str, Any], what: str) -> None:
    from actors.registry import AgentSpecError

    try:
        OPTIONS[kind].model_validate(options)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "options"
        raise AgentSpecError(f"{what}: {where}: {first['msg']}") from None


def build_seat(kind: str, seat: int, seed: int, options: dict[str, Any], part: str = "all") -> list[Any]:
    """The one actor of a seat an external agent plays."""
    return [external_actor(kind, options, player_address(seat), seed, part=part)]


def replace_offices(actors: list[Any], seat: int, seed: int, offices: dict[str, dict[str, Any]], agent: str,
                    part: str = "all") -> list[Any]:
    """An Alpha agent's actors with the offices `offices` names played by external agents."""
    from actors.registry import AgentSpecError

    by_address = {a.address: i for i, a in enumerate(actors)}
    out = list(actors)
    for role, inner in sorted(offices.items()):
        address = office_address(seat, role)
        if address not in by_address:
            raise AgentSpecError(f"agent {agent!r} has no {role} office switched on to hand to an external agent "
                                 f"(add it to offices=)")
        out[by_address[address]] = external_actor(inner["name"], dict(inner.get("options") or {}), address, seed,
                                                  part=part)
    return out


def seat_labels(header: dict[str, Any]) -> list[str]:
    """Each seat's agent as a reader names it: its spec's name, and what each external agent of the
    seat said it is in its handshake (`exec [random-js 1.0.0]`, `alphawolf [fo: random-js 1.0.0]`)."""
    from actors.address import office_of, seat_of

    external = header.get("external") or {}
    out = []
    for seat, spec in enumerate(header.get("agents") or ()):
        name = str(spec.get("name")) if isinstance(spec, dict) else str(spec)
        said = []
        for address, entry in sorted(external.items()):
            if seat_of(address) != seat or not isinstance(entry, dict):
                continue
            who = f"{entry.get('name')} {entry.get('version') or ''}".strip() if entry.get("name") else "never started"
            role = office_of(address)
            said.append(f"{role}: {who}" if role else who)
        out.append(f"{name} [{', '.join(said)}]" if said else name)
    return out


def default_label(kind: str, options: dict[str, Any]) -> str:
    """How a tournament names an external agent it was given no label for: `exec:RandomAgent`
    (the program's last named argument), `ws:host:port`."""
    from pathlib import PurePath

    from actors.external.connection import safe_url

    if kind == "exec":
        named = [PurePath(str(a)).stem for a in options.get("cmd") or () if not str(a).startswith("-")]
        return f"exec:{named[-1] if named else '?'}"[:100]
    return f"ws:{safe_url(str(options.get('url', ''))).split('://', 1)[-1].split('/', 1)[0]}"[:100]
