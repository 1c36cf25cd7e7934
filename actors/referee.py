"""The referee: owns one game's rules and drives it through the bus.

At each node it draws chance outcomes (logged), opens talk rounds where the rules allow talk,
asks the players to act, and applies their joint action (logged with the state digest). A player
that raises, answers illegally or stays silent gets an error event and the rules' default; the
game always completes. So does one whose answer the bus refused (a `breach` of the game's limits or
of the wiring) and one the bus retired (a `retire`: its time or a per-game budget ran out): a retired
seat is never asked again, its moves are the rules' default, and it hears no more talk.
"""

from __future__ import annotations

import random
from typing import Any

from actors.actor import Actor
from actors.address import player_address, seat_of
from bus.messages import (
    LOG,
    REFEREE,
    Act,
    ActRequest,
    Breach,
    ChanceEvent,
    ErrorCategory,
    ErrorEvent,
    Fault,
    GameEnd,
    Heard,
    Line,
    Message,
    Quiet,
    Retire,
    Sample,
    SampleRequest,
    Start,
    StepEvent,
    Talk,
    TalkEvent,
    TalkTurn,
    built,
)
from games.api import CHEAP_TALK, TALK_STATE, Game, IllegalAction, Options, State


_KEYS = tuple(str(p) for p in range(64))  # a step record's keys: the seats as strings
_PLAYERS = tuple(player_address(p) for p in range(64))  # the seats' President addresses


class Referee(Actor):
    """Drives a game: chance, talk rounds, decisions, errors, game end."""

    def __init__(self, game: Game, options: Options, seed: int, talkers: frozenset[int] | None = None,
                 chance_seed: str | None = None, digest_every: int = 1, observers: frozenset[int] | None = None):
        super().__init__(REFEREE, seed)
        # seats sent the rules' observation with each request; None: every seat. A seat whose agent
        # declares it reads none (actors.lineup.observers, log format 4 on) is sent None instead,
        # and the rules compute nothing for it.
        self.observers = observers
        # the state digest is logged every `digest_every` steps ("" between; game_end always has it):
        # 1 in logs of format 2, bus.codec.CHECKPOINT from format 3 on (the header's format decides)
        self.digest_every = digest_every
        if chance_seed is not None:  # the header names the dice (bus.header: chance_seed)
            self.rng = random.Random(chance_seed)
        self.game = game
        self.options = options
        # seats that can speak (a player speaks through its Foreign Office); None: every seat.
        # The others are never asked to talk, but hear what is said on their channels.
        self.talkers = talkers
        self.state: State | None = None
        self.step = 0  # chance outcomes and joint actions applied
        self.turn = 0  # decisions applied
        self.waiting: dict[int, tuple[str, ...]] = {}  # seat -> legal actions, for the open decision
        self.actions: dict[int, str] = {}
        self.talk_done = False  # talk already held before the current turn's decision
        self.talk_spec: Any = None
        self.talk_round = 0
        self.talk_waiting: set[tuple[int, str]] = set()  # (seat, channel) owing a reply this round
        self.talk_lines: dict[str, list[Line]] = {}
        self._seen: dict[int, dict[str, Any]] = {}  # observations of the current node, by seat
        self.retired: set[int] = set()  # seats the bus retired: the rules' default, never asked

    def _observation(self, seat: int) -> dict[str, Any] | None:
        """The rules' observation, computed once per node and seat (talk and act share it); None for
        a seat that reads none (`observers`)."""
        if self.observers is not None and seat not in self.observers:
            return None
        obs = self._seen.get(seat)
        if obs is None:
            obs = self._seen[seat] = self.state.observation(seat)
        return obs

    # -- dispatch ---------------------------------------------------------------------------

    def handle(self, message: Message) -> list[Message]:
        if isinstance(message, Act):
            return self._on_act(message)
        if isinstance(message, Start):
            self.state = self.game.new_initial_state(self.options)
            return self._advance()
        if isinstance(message, Talk):
            return self._on_talk(message)
        if isinstance(message, Fault):
            seat = seat_of(message.actor)
            return self._fail(seat, message.actor, f"raised {message.error}", "raised")
        if isinstance(message, Breach):
            return self._fail(seat_of(message.actor), message.actor, message.reason, message.category)
        if isinstance(message, Retire):
            return self._on_retire(message)
        if isinstance(message, SampleRequest):
            return self._on_sample(message)
        if isinstance(message, Quiet):
            out: list[Message] = []
            for seat in sorted({seat for seat, _ in self.talk_waiting} | set(self.waiting)):
                out += self._fail(seat, player_address(seat), "no reply", "silent")
            return out
        return [self._error(message.sender, f"unexpected message kind {message.kind!r}", "ignored", "unexpected")]

    # -- the game loop ----------------------------------------------------------------------

    max_steps: int | None = None  # the game's step bound: a function of the options, asked once

    def _advance(self) -> list[Message]:
        state = self.state
        out: list[Message] = []
        if self.max_steps is None:
            self.max_steps = self.game.max_steps_for(self.options)
        while True:
            if state.is_terminal():
                result = state.outcome()
                out.append(
                    GameEnd(
                        sender=REFEREE,
                        to=LOG,
                        returns=result.returns,
                        winners=result.winners,
                        summary=result.summary,
                        steps=self.step,
                        digest=state.digest(),
                        extra=result.extra,
                        ranks=result.ranks,
                        roles=result.roles,
                        teams=result.teams if result.teams is not None else self.game.teams(self.options),
                    )
                )
                return out
            if self.step >= self.max_steps:
                raise RuntimeError(f"{self.game.name}: no end after {self.step} steps")
            if state.is_chance():
                outcome = state.sample_chance(self.rng)
                state.apply_chance(outcome)
                self._seen = {}
                self.step += 1
                out.append(built(ChanceEvent, {"sender": REFEREE, "to": LOG, "kind": "chance", "step": self.step,
                                               "outcome": outcome, "digest": self._digest()}))
                continue
            if not self.talk_done:
                self.talk_done = True
                talkers = self.talkers
                # no seat speaks (an empty `talkers`): no round can open, so the rules are not asked
                spec = state.talk() if talkers is None or talkers else None
                if spec is not None and spec.max_rounds > 0 and self._speakers(spec):
                    self.talk_spec, self.talk_round = spec, 0
                    return out + self._open_round()
            players = state.current_players()
            if len(players) == 1:
                seat = players[0]
                self.waiting = waiting = {seat: tuple(state.legal_actions(seat))}
            else:
                legal_actions = state.legal_actions
                self.waiting = waiting = {p: tuple(legal_actions(p)) for p in players}
            self.actions = {}
            if self.retired:
                for seat in sorted(self.retired & set(waiting)):
                    self.actions[seat] = self._default(seat, waiting.pop(seat))
                if not waiting:  # every seat to move is retired: apply and go on
                    out.append(self._apply())
                    continue
            turn = self.turn
            observers = self.observers
            for seat, legal in waiting.items():
                observation = None if observers is not None and seat not in observers else self._observation(seat)
                to = _PLAYERS[seat] if seat < 64 else player_address(seat)
                out.append(built(ActRequest, {"sender": REFEREE, "to": to, "kind": "act_request",
                                              "turn": turn, "player": seat, "legal": legal,
                                              "observation": observation}))
            return out

    def _on_act(self, message: Act) -> list[Message]:
        sender = message.sender
        seat = seat_of(sender)
        waiting = self.waiting
        if seat not in waiting or message.turn != self.turn or sender != (_PLAYERS[seat] if seat < 64 else player_address(seat)):
            return [self._error(sender, f"unexpected act for turn {message.turn}", "ignored", "unexpected")]
        legal = waiting.pop(seat)
        action = message.action
        if action not in legal:
            default = self.state.default_action(seat)
            why = self.state.why_illegal(seat, action)
            reason = f"illegal action {action!r}" + (f": {why}" if why else "")
            self.actions[seat] = default
            return [self._error(sender, reason, default, "illegal_action")] + self._maybe_apply()
        self.actions[seat] = action
        if waiting:
            return []
        step = self._apply()  # `_maybe_apply`, written out: one call and one list fewer a decision
        out = self._advance()
        out.insert(0, step)
        return out

    def _maybe_apply(self) -> list[Message]:
        if self.waiting:
            return []
        return [self._apply()] + self._advance()

    def _apply(self) -> StepEvent:
        """Apply the decision's joint action (all of it is in): its step record."""
        actions = self.actions
        keys = _KEYS
        if len(actions) == 1:
            ((seat, action),) = actions.items()
            named = {keys[seat] if seat < 64 else str(seat): action}
        else:
            actions = dict(sorted(actions.items()))
            named = {keys[p] if p < 64 else str(p): a for p, a in actions.items()}
        try:
            self.state.apply_actions(actions)
            self._seen = {}
        except IllegalAction as exc:  # rules and legal_actions disagree: a bug in the game
            raise RuntimeError(f"{self.game.name}: rules rejected their own legal actions: {exc}") from exc
        self.step = step = self.step + 1
        record = built(StepEvent, {"sender": REFEREE, "to": LOG, "kind": "step", "step": step, "turn": self.turn,
                                   "actions": named, "digest": self.state.digest() if step % self.digest_every == 0 else ""})
        self.turn += 1
        self.talk_done = False
        return record

    def _digest(self) -> str:
        """The state's digest where a checkpoint falls (step a multiple of `digest_every`), else ""."""
        return self.state.digest() if self.step % self.digest_every == 0 else ""

    def _default(self, seat: int, legal: tuple[str, ...]) -> str:
        default = self.state.default_action(seat)
        return default if default in legal else legal[0]

    def _fail(self, seat: int | None, actor: str, reason: str, category: ErrorCategory,
              otherwise: str = "ignored") -> list[Message]:
        """A player (or one of its modules) failed: apply the default where it was awaited."""
        if seat in self.waiting:
            self.actions[seat] = self._default(seat, self.waiting.pop(seat))
            return [self._error(actor, reason, self.actions[seat], category)] + self._maybe_apply()
        owed = {key for key in self.talk_waiting if key[0] == seat}
        if owed:
            self.talk_waiting -= owed
            return [self._error(actor, reason, "silence", category)] + self._maybe_close_round()
        return [self._error(actor, reason, otherwise, category)]

    def _on_retire(self, message: Retire) -> list[Message]:
        """The bus retired a seat: its default where it owed a move, and from now on."""
        seat = message.seat
        if seat in self.retired or self.state is None:
            return []
        self.retired.add(seat)
        return self._fail(seat, player_address(seat), f"retired: {message.reason}", message.category, "retired")

    def _error(self, actor: str, reason: str, applied: str, category: ErrorCategory) -> ErrorEvent:
        return ErrorEvent(sender=REFEREE, to=LOG, actor=actor, turn=self.turn, reason=reason, applied=applied,
                          category=category)

    # -- determinisations ---------------------------------------------------------------------

    samples_served = 0  # sample requests answered in this game (each one's generator is seeded by it)

    def _on_sample(self, message: SampleRequest) -> list[Message]:
        """A determinisation of the asking seat's information set: `resample_hidden(seat, rng)` of the
        true state, which the rules' conformance holds to what the seat observed, so the asking actor
        never holds the true state. The generator is seeded from the game's seed and the requests
        answered so far (an order the bus fixes): the same bytes in every placement, and verify
        re-runs this referee on the recorded requests to the same samples."""
        seat = seat_of(message.sender)
        if seat is None or seat in self.retired:
            return [self._error(message.sender, "sample request from no seat", "ignored", "unexpected")]
        self.samples_served += 1
        rng = random.Random(f"detente/{self.seed}/sample/{seat}/{self.samples_served}")
        state = None if self.state is None or self.state.is_terminal() else self.state.resample_hidden(seat, rng).to_json()
        return [built(Sample, {"sender": REFEREE, "to": message.sender, "kind": "sample", "turn": self.turn,
                               "state": state})]

    # -- talk rounds ------------------------------------------------------------------------

    def _speakers(self, spec: Any) -> bool:
        if self.retired:
            return any(self._asked_to_talk(seat) for members in spec.channels.values() for seat in members)
        if self.talkers is None:
            return bool(spec.channels)
        return any(seat in self.talkers for members in spec.channels.values() for seat in members)

    def _asked_to_talk(self, seat: int) -> bool:
        return (self.talkers is None or seat in self.talkers) and seat not in self.retired

    def _open_round(self) -> list[Message]:
        spec = self.talk_spec
        out: list[Message] = []
        self.talk_lines = {channel: [] for channel in sorted(spec.channels)}
        self.talk_waiting = set()
        for channel in sorted(spec.channels):
            members = spec.channels[channel]
            for seat in members:
                if (self.talkers is not None or self.retired) and not self._asked_to_talk(seat):
                    continue
                self.talk_waiting.add((seat, channel))
                out.append(built(TalkTurn, {"sender": REFEREE, "to": player_address(seat), "kind": "talk_turn",
                                            "turn": self.turn, "channel": channel, "round": self.talk_round,
                                            "max_rounds": spec.max_rounds, "members": tuple(members),
                                            "observation": self._observation(seat)}))
        if not self.talk_waiting:  # every speaker retired since the last round: it closes unspoken
            return out + self._maybe_close_round()
        return out

    def _on_talk(self, message: Talk) -> list[Message]:
        seat = seat_of(message.sender)
        spec = self.talk_spec
        if (
            (seat, message.channel) not in self.talk_waiting
            or message.sender != player_address(seat)
            or message.turn != self.turn
            or message.round != self.talk_round
            or message.channel not in spec.channels
            or seat not in spec.channels[message.channel]
        ):
            return [self._error(message.sender, f"unexpected talk on {message.channel!r}", "ignored", "unexpected")]
        self.talk_waiting.discard((seat, message.channel))
        out: list[Message] = []
        kept = []
        for item in message.says:
            # free text (`say`) is the core's cheap talk: its model bounds it, no rules read it
            reason = None if item.kind in CHEAP_TALK else self.state.validate_talk(seat, message.channel, item)
            if reason:
                out.append(self._error(message.sender, f"invalid talk {item.kind}: {reason}", "dropped", "invalid_talk"))
            else:
                kept.append(item)
        if kept:
            self.talk_lines[message.channel].append(Line(speaker=seat, says=tuple(kept)))
        return out + self._maybe_close_round()

    def _maybe_close_round(self) -> list[Message]:
        if self.talk_waiting:
            return []
        spec = self.talk_spec
        state = self.state
        stateful = self.game.has(TALK_STATE)
        out: list[Message] = []
        spoke = False
        for channel, lines in self.talk_lines.items():
            if not lines:
                continue
            spoke = True
            lines_sorted = tuple(sorted(lines, key=lambda line: line.speaker))
            if stateful:  # the rules take in the round's talk (e.g. confirm deals), logged for replay
                for line in lines_sorted:
                    for item in line.says:
                        if item.kind not in CHEAP_TALK:
                            state.apply_talk(line.speaker, channel, item)
                self.step += 1
                self._seen = {}
                out.append(built(TalkEvent, {"sender": REFEREE, "to": LOG, "kind": "talk_round", "step": self.step,
                                             "turn": self.turn, "channel": channel, "round": self.talk_round,
                                             "lines": lines_sorted, "digest": self._digest()}))
            for seat in spec.channels[channel]:
                if seat in self.retired:
                    continue
                heard = self._heard_by(seat, channel, lines_sorted)
                if heard:
                    out.append(built(Heard, {"sender": REFEREE, "to": player_address(seat), "kind": "heard",
                                             "turn": self.turn, "channel": channel, "round": self.talk_round,
                                             "lines": heard}))
        self.talk_round += 1
        if spoke and self.talk_round < spec.max_rounds:
            return out + self._open_round()
        self.talk_spec = None
        return out + self._advance()

    def _heard_by(self, seat: int, channel: str, lines: tuple[Line, ...]) -> tuple[Line, ...]:
        """The lines `seat` hears: all of them, less private items addressed to others."""
        out = []
        for line in lines:
            if line.speaker == seat:
                out.append(line)
                continue
            says = tuple(
                item for item in line.says
                if item.kind in CHEAP_TALK
                or (aud := self.state.talk_audience(line.speaker, channel, item)) is None or seat in aud
            )
            if len(says) == len(line.says):
                out.append(line)
            elif says:
                out.append(Line(speaker=line.speaker, says=says))
        return tuple(out)
