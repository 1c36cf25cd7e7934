"""A game-independent deal: commitments of players over their own actions at named decision points.

A pact is a list of commitments "at decision `turn`, seat `player` plays `action`", where `turn`
is the referee's decision counter (the `turn` of every act request, talk turn and step record) and
`action` one of the game's action strings. It travels as the core's free-text talk item (`say`),
whose text is `pact ` and a JSON object, so every game that opens talk carries it, the rules never
read it, and nothing has to be registered:

    pact {"id": "1-7-0", "stage": "propose", "commitments": [[1, 7, "heads"], [0, 7, "tails"]]}

Stages: `propose` (by the speaker, who is one of the parties), `accept` and `reject` (by another
party, naming the proposal's id; a reject by the proposer retracts it). A pact binds the proposer
and the parties that accepted: a party's rejection takes its commitments out (in a pact of two,
the whole pact), and what is left is confirmed once every remaining party but the proposer
accepted and one of them is left (`binding`). Kept or broken is read off the log without knowing
the game: the step record of decision `turn` holds every seat's action (`mark`).

A proposal may carry `claims`: the proposer's estimate of each other party's gain from the pact
(its own search's), which a party weighs by its trust in the proposer against its own estimate:

    pact {"claims": {"0": 0.05}, "commitments": [[0, 7, "tails"], [1, 7, "heads"]], "id": "1-7-0", ...}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

PREFIX = "pact "
STAGES = ("propose", "accept", "reject")


@dataclass(frozen=True)
class Pact:
    """One pact message: its id, stage and commitments (player, turn, action), sorted."""

    id: str
    stage: str
    commitments: tuple[tuple[int, int, str], ...]
    claims: tuple[tuple[int, float], ...] = ()  # (party, the proposer's estimate of its gain), sorted

    def text(self) -> str:
        """The `say` text carrying this pact."""
        body: dict[str, Any] = {"id": self.id, "stage": self.stage, "commitments": [list(c) for c in self.commitments]}
        if self.claims:
            body["claims"] = {str(p): g for p, g in self.claims}
        return PREFIX + json.dumps(body, separators=(",", ":"), sort_keys=True)

    def parties(self) -> tuple[int, ...]:
        return tuple(sorted({c[0] for c in self.commitments}))

    def action_of(self, player: int, turn: int) -> str | None:
        for p, t, a in self.commitments:
            if p == player and t == turn:
                return a
        return None


def parse(text: Any) -> Pact | None:
    """The pact in a `say` text, or None (other free text, or a malformed pact: ignored)."""
    if not isinstance(text, str) or not text.startswith(PREFIX):
        return None
    try:
        body = json.loads(text[len(PREFIX):])
        stage, pid = body["stage"], body["id"]
        commitments = tuple(sorted((int(p), int(t), str(a)) for p, t, a in body["commitments"]))
        claims = tuple(sorted((int(p), float(g)) for p, g in (body.get("claims") or {}).items()))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if stage not in STAGES or not isinstance(pid, str) or not commitments:
        return None
    return Pact(pid, stage, commitments, claims)


def heard_pacts(lines: Iterable[dict[str, Any]]) -> list[tuple[int, int, int, Pact]]:
    """(turn, round, speaker, pact) of every pact in inbox entries (President.heard_lines' shape)."""
    out = []
    for line in lines:
        for item in line.get("says", ()):
            if isinstance(item, dict) and item.get("kind") == "say":
                pact = parse(item.get("text"))
                if pact is not None:
                    out.append((int(line["turn"]), int(line["round"]), int(line["speaker"]), pact))
    return out


def mark(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every confirmed pact of a logged game with each commitment marked kept or broken.

    Reads only core records: the `heard` talk (as heard by its first recipient: every member hears
    the same lines) and the `step` records' actions; a commitment whose turn never came is "open"."""
    proposals: dict[str, tuple[int, Pact]] = {}
    accepted: dict[str, set[int]] = {}
    rejected: dict[str, set[int]] = {}
    steps: dict[int, dict[str, str]] = {}
    seen: set[tuple[int, str, int]] = set()
    for record in records:
        msg = record["msg"]
        if msg["kind"] == "heard":
            key = (msg["turn"], msg["channel"], msg["round"])
            if key in seen:
                continue
            seen.add(key)
            for line in msg["lines"]:
                for item in line["says"]:
                    pact = parse(item.get("text")) if item.get("kind") == "say" else None
                    if pact is None:
                        continue
                    if pact.stage == "propose" and line["speaker"] in pact.parties():
                        proposals.setdefault(pact.id, (line["speaker"], pact))
                    elif pact.stage == "accept":
                        accepted.setdefault(pact.id, set()).add(line["speaker"])
                    elif pact.stage == "reject":
                        rejected.setdefault(pact.id, set()).add(line["speaker"])
        elif msg["kind"] == "step":
            steps[msg["turn"]] = msg["actions"]
    out = []
    for pid, (proposer, pact) in sorted(proposals.items()):
        bound = binding(pact, proposer, accepted.get(pid, set()), rejected.get(pid, set()))
        if bound is None:
            continue
        verdicts = []
        for player, turn, action in bound:
            played = steps.get(turn, {}).get(str(player))
            verdicts.append({"player": player, "turn": turn, "action": action, "played": played,
                             "verdict": "open" if played is None else "kept" if played == action else "broken"})
        out.append({"id": pid, "proposer": proposer, "commitments": verdicts})
    return out


def binding(pact: Pact, proposer: int, accepted: set[int], rejected: set[int]) -> tuple | None:
    """The commitments a proposal binds once its parties answered: the proposer's and the accepting
    parties' (a rejecting party's drop out), or None while a remaining party has not accepted, when
    no party but the proposer is left, or when the proposer retracted it (its own reject)."""
    if proposer in rejected:
        return None  # retracted
    left = set(pact.parties()) - rejected
    if left == {proposer} or (left - {proposer}) - accepted:
        return None
    return tuple(c for c in pact.commitments if c[0] in left)


def debugger_events(step: Any, memo: dict[str, Any]) -> list[dict[str, Any]]:
    """Pact events of one record of the replay walk, in the shape of a game's debugger `deals` hook
    (ops/debugger/game.py `hooks`): proposed, accepted and rejected when first heard; kept or broken
    per committed seat at the step of its turn. Each is seen by the pact's parties."""
    msg = step.msg
    out: list[dict[str, Any]] = []
    if msg["kind"] == "heard":
        for line in msg["lines"]:
            for item in line["says"]:
                pact = parse(item.get("text")) if item.get("kind") == "say" else None
                if pact is None or (pact.id, pact.stage, line["speaker"]) in memo.setdefault("heard", set()):
                    continue
                memo["heard"].add((pact.id, pact.stage, line["speaker"]))
                parties = list(pact.parties())
                if pact.stage == "propose":
                    memo.setdefault("open", {})[pact.id] = (line["speaker"], pact, set(), set())
                elif pact.stage in ("accept", "reject") and pact.id in memo.get("open", {}):
                    memo["open"][pact.id][2 if pact.stage == "accept" else 3].add(line["speaker"])
                out.append({"deal": pact.id, "type": {"propose": "proposed", "accept": "accepted",
                                                       "reject": "rejected"}[pact.stage],
                            "by": f"p{line['speaker']}", "parties": [f"p{p}" for p in parties],
                            "detail": ", ".join(f"p{p} plays {a} at turn {t}" for p, t, a in pact.commitments),
                            "seen_by": parties})
    elif msg["kind"] == "step":
        for pid, (proposer, pact, accepted, rejected) in sorted(memo.get("open", {}).items()):
            bound = binding(pact, proposer, accepted, rejected)
            if bound is None:
                continue
            for player, turn, action in bound:
                if turn != msg["turn"]:
                    continue
                played = msg["actions"].get(str(player))
                out.append({"deal": pid, "type": "kept" if played == action else "broken", "by": f"p{player}",
                            "parties": [f"p{p}" for p in pact.parties()],
                            "detail": f"p{player} committed {action}, played {played}",
                            "seen_by": list(pact.parties())})
    return out
