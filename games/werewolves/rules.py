"""Werewolves of Miller's Hollow as pure rules: the thesis version (Marinheiro 2016, section 5.2).

Roles are werewolf, villager, seer and doctor. Nights and days alternate; night k precedes day k.
At night the werewolves choose a victim by vote, the seer inspects one player's role and the doctor
protects one player; by day all living players vote one player out. Chance nodes are the deal and
the random tie-breaks, so a log holds every draw.

Options add the roles of the AIWolf contests (regulation of the International AIWolf Competition,
protocol 3.6, `GameSetting`/`Role` of aiwolf/AIWolfCommon), each off by default so that games
without them keep their bytes:
- possessed: a human on the werewolves' team; it has no night action, does not know the wolves
  (nor they it), counts as a human for parity and appears human to the seer (so it needs
  `inspect_result = "species"`, AIWolf's DIVINED result: HUMAN or WEREWOLF);
- bodyguard: AIWolf's guard. It differs from the thesis' doctor in two rules, so it is its own
  role: it may not guard itself (the AIWolf NLP server's rule) and it is not told that its guard
  saved anyone (AIWolf tells no one; the doctor here is told);
- medium: when a player is voted out, each living medium learns its species (AIWolf's IDENTIFIED,
  told the next morning there; here at once, which changes nothing as the medium has no night act).
`preset` names the AIWolf role sets (5, 13 and 15 players) with their rules: no reveal on death,
one revote then a draw on a tied day vote, werewolves win at parity, no attack (nor guard) on the
first night, where only the seer divines (AIWolf's day 0).

Events are the memory of the game: each is a dict with sorted keys and a `to` field naming who
may see it ("all", "wolves" or one seat). Observations filter events by `to`; nothing private is
stored anywhere else except the pending night choices while a wolf-vote tie waits for its draw.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Literal

import msgpack
from pydantic import Field, model_serializer, model_validator

from games.api import (
    ABSTAIN,
    ACTION_ENCODING,
    CHANCE,
    OBSERVATION_STATE,
    PRIVATE_INFORMATION,
    SIMULTANEOUS,
    TALK,
    VIEWS,
    Game,
    IllegalAction,
    Options,
    Outcome,
    State,
    TalkItem,
    TalkSpec,
)
from games.werewolves.talk import TALK_MODELS, WwAccept, WwAccuse, WwBid, WwPropose, WwReject, WwResult

WEREWOLF, VILLAGER, SEER, DOCTOR = "werewolf", "villager", "seer", "doctor"
POSSESSED, BODYGUARD, MEDIUM = "possessed", "bodyguard", "medium"
ROLES = (DOCTOR, SEER, VILLAGER, WEREWOLF)  # the thesis' roles
ALL_ROLES = (BODYGUARD, DOCTOR, MEDIUM, POSSESSED, SEER, VILLAGER, WEREWOLF)  # sorted
WOLF_TEAM = frozenset({WEREWOLF, POSSESSED})  # who wins with the werewolves
HUMAN, WOLF_SPECIES = "human", "werewolf"  # AIWolf's Species, what a seer or medium learns
VILLAGE, WEREWOLVES, DRAW = "village", "werewolves", "draw"

# Internal phases; "night_tie" is shown to players as "night" (only wolves know of the tie).
DEAL, NIGHT, NIGHT_TIE, DAY, REVOTE, DAY_TIE, END = (
    "deal", "night", "night_tie", "day", "revote", "day_tie", "end")
_DECISIONS = (NIGHT, DAY, REVOTE)
_CHANCES = (DEAL, NIGHT_TIE, DAY_TIE)
_PUBLIC_PHASE = {NIGHT_TIE: NIGHT}
_NIGHT_VERB = {WEREWOLF: "attack:", SEER: "inspect:", DOCTOR: "protect:", BODYGUARD: "guard:"}
_GUARDS = (DOCTOR, BODYGUARD)
_SEAT_KEYS = ("actor", "player", "target", "to")


# The AIWolf role sets: regulation of the 4th/5th International AIWolf Competition (5 and 15
# players) and the NLP division's 13-player village (aiwolf-nlp-server config); the rules below
# are those of the regulation and of AIWolfServer's AIWolfGame.java (module docstring).
AIWOLF_RULES: dict[str, Any] = {"reveal_roles": False, "tie_rule": "revote_then_random", "end_at_parity": True,
                                "first_phase": "night", "first_night_kill": False, "inspect_result": "species"}
PRESETS: dict[str, dict[str, Any]] = {
    "aiwolf5": {"players": 5, "werewolves": 1, "seers": 1, "doctors": 0, "possessed": 1, "bodyguards": 0,
                "mediums": 0, **AIWOLF_RULES},
    "aiwolf13": {"players": 13, "werewolves": 3, "seers": 1, "doctors": 0, "possessed": 1, "bodyguards": 1,
                 "mediums": 1, **AIWOLF_RULES},
    "aiwolf15": {"players": 15, "werewolves": 3, "seers": 1, "doctors": 0, "possessed": 1, "bodyguards": 1,
                 "mediums": 1, **AIWOLF_RULES},
}
# Options that games without them leave out of their dump, so those games keep their bytes.
_LATER = {"possessed": 0, "bodyguards": 0, "mediums": 0, "inspect_result": "role", "first_night_kill": True,
          "preset": None}


class WerewolvesOptions(Options):
    """Variant options; villagers are the seats left after the other roles."""

    players: int = Field(10, ge=3)  # at most 64 seats, as in every game (ops.tournament.spec.MAX_SEATS, bus.header)
    werewolves: int = Field(2, ge=1)
    seers: int = Field(1, ge=0)
    doctors: int = Field(1, ge=0)
    reveal_roles: bool = True  # published game: a dead player's card is turned face up
    tie_rule: Literal["none", "revote_then_random"] = "none"
    end_at_parity: bool = False
    discussion_rounds: int = Field(3, ge=0, le=50)  # ours: AIWolf talks ~10 rounds a day at most
    first_phase: Literal["night", "day"] = "night"
    max_days: int = Field(30, ge=1, le=1000)  # ours
    possessed: int = Field(0, ge=0)
    bodyguards: int = Field(0, ge=0)
    mediums: int = Field(0, ge=0)
    # What a seer learns: the role (the thesis) or the species, human or werewolf (AIWolf).
    inspect_result: Literal["role", "species"] = "role"
    first_night_kill: bool = True  # False: on night 1 only seers act (AIWolf's day 0)
    preset: Literal["aiwolf5", "aiwolf13", "aiwolf15"] | None = None

    @model_validator(mode="before")
    @classmethod
    def _apply_preset(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("preset") is None:
            return data
        name = data["preset"]
        fixed = PRESETS.get(name)
        if fixed is None:
            return data  # the Literal reports the unknown name
        clash = sorted(k for k in fixed if k in data and data[k] != fixed[k])
        if clash:
            raise ValueError(f"preset {name!r} fixes {', '.join(f'{k}={fixed[k]!r}' for k in clash)}")
        return {**data, **fixed}

    @model_serializer(mode="wrap")
    def _dump(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        for key, default in _LATER.items():
            if data.get(key, default) == default:
                data.pop(key, None)
        return data

    @model_validator(mode="after")
    def _check_roles(self) -> "WerewolvesOptions":
        special = (self.werewolves + self.seers + self.doctors + self.possessed + self.bodyguards
                   + self.mediums)
        if special > self.players:
            names = "werewolves + seers + doctors" + (" + possessed + bodyguards + mediums" if special > (
                self.werewolves + self.seers + self.doctors) else "")
            raise ValueError(f"{names} = {special} exceeds players = {self.players}")
        if self.possessed and self.inspect_result == "role":
            raise ValueError("the possessed appears human to the seer: it needs inspect_result = 'species'")
        if self.werewolves >= self.players - self.werewolves:
            raise ValueError(
                f"the village side must start strictly larger than the werewolves: "
                f"werewolves={self.werewolves} needs players > {2 * self.werewolves} "
                f"(got players={self.players})")
        return self

    @property
    def villagers(self) -> int:
        return (self.players - self.werewolves - self.seers - self.doctors - self.possessed - self.bodyguards
                - self.mediums)

    def role_multiset(self) -> list[str]:
        """The roles to deal, in a fixed order (the deal shuffles them)."""
        return ([WEREWOLF] * self.werewolves + [SEER] * self.seers + [DOCTOR] * self.doctors
                + [VILLAGER] * self.villagers + [POSSESSED] * self.possessed + [BODYGUARD] * self.bodyguards
                + [MEDIUM] * self.mediums)

    def role_counts(self) -> dict[str, int]:
        """How many of each role are dealt (public, as the game's setting), roles sorted."""
        counts: dict[str, int] = {}
        for r in self.role_multiset():
            counts[r] = counts.get(r, 0) + 1
        return {r: counts[r] for r in sorted(counts)}

    @property
    def extended(self) -> bool:
        """Uses a role or rule beyond the thesis' game (observations then show the role counts)."""
        return any(getattr(self, k) != v for k, v in _LATER.items())


class WerewolvesState(State):
    """A Werewolves position; plain lists and dicts, events immutable once appended."""

    def __init__(self, options: WerewolvesOptions):
        self._o = options
        self._odump = options.model_dump(mode="json")
        self._n = options.players
        self._roles: list[str] | None = None
        self._alive = [True] * self._n
        self._phase = DEAL
        self._day = 1
        self._events: list[dict[str, Any]] = []
        self._tied: list[int] | None = None  # candidates of a pending random tie-break
        self._protects: list[list[int | None]] | None = None  # [doctor, target] during night_tie
        self._candidates: list[int] | None = None  # the tied players of a day revote
        self._winner: str | None = None
        self._cur: list[int] | None = None
        self._legal: dict[int, list[str]] = {}

    # -- node kind -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._phase == END

    def is_chance(self) -> bool:
        return self._phase in _CHANCES

    def current_players(self) -> list[int]:
        return list(self._current())

    def _current(self) -> list[int]:
        if self._cur is None:
            ph, alive = self._phase, self._alive
            if ph == NIGHT:
                roles = self._roles
                if self._quiet_night():
                    self._cur = [p for p in range(self._n) if alive[p] and roles[p] == SEER]
                else:
                    self._cur = [p for p in range(self._n) if alive[p] and roles[p] in _NIGHT_VERB]
            elif ph == DAY or ph == REVOTE:
                self._cur = [p for p in range(self._n) if alive[p]]
            else:
                self._cur = []
        return self._cur

    # -- chance ----------------------------------------------------------------------------
    def sample_chance(self, rng: random.Random) -> Any:
        if self._phase == DEAL:
            roles = self._o.role_multiset()
            rng.shuffle(roles)
            return roles
        if self._phase in (NIGHT_TIE, DAY_TIE):
            return rng.choice(self._tied)
        raise IllegalAction(f"not a chance node (phase {self._phase})")

    def apply_chance(self, outcome: Any) -> None:
        ph = self._phase
        if ph == DEAL:
            if (not isinstance(outcome, list) or len(outcome) != self._n
                    or not all(isinstance(r, str) for r in outcome)
                    or sorted(outcome) != sorted(self._o.role_multiset())):
                raise IllegalAction(
                    f"deal {outcome!r} is not a permutation of the roles "
                    f"{sorted(self._o.role_multiset())}")
            self._roles = list(outcome)
            if self._o.first_phase == "night":
                self._enter_night()
            else:
                self._phase = DAY
        elif ph == NIGHT_TIE or ph == DAY_TIE:
            if type(outcome) is not int or outcome not in self._tied:
                raise IllegalAction(f"tie-break {outcome!r} is not one of the tied {self._tied}")
            self._tied = None
            if ph == NIGHT_TIE:
                self._resolve_night(outcome)
            else:
                self._eliminate(outcome, lot=True)
        else:
            raise IllegalAction(f"not a chance node (phase {ph})")
        self._changed()

    # -- decisions -------------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[str]:
        return list(self._legal_for(player))

    def default_action(self, player: int) -> str:
        return ABSTAIN

    def _legal_for(self, p: int) -> list[str]:
        legal = self._legal.get(p)
        if legal is None:
            legal = self._legal[p] = self._compute_legal(p) if p in self._current() else []
        return legal

    def _compute_legal(self, p: int) -> list[str]:
        # "abstain" sorts before every "<verb>:<seat>" here, and seats are walked in string order.
        alive, out = self._alive, [ABSTAIN]
        if self._phase == NIGHT:
            roles = self._roles
            role = roles[p]
            verb = _NIGHT_VERB[role]
            for q in _str_order(self._n):
                if alive[q] and (role == DOCTOR or ((role == SEER or role == BODYGUARD) and q != p)
                                 or (role == WEREWOLF and roles[q] != WEREWOLF)):
                    out.append(verb + str(q))
        elif self._phase == DAY:
            out += ["vote:" + str(q) for q in _str_order(self._n) if alive[q] and q != p]
        else:
            cands = self._candidates
            out += ["vote:" + str(q) for q in _str_order(self._n) if q in cands and q != p]
        return out

    def apply_actions(self, actions: dict[int, str]) -> None:
        if self._phase not in _DECISIONS:
            raise IllegalAction(f"no decision to make at this node (phase {self._phase})")
        cur = self._current()
        if not isinstance(actions, dict):
            raise IllegalAction(f"actions must be a dict player -> action, got {actions!r}")
        for p in cur:
            if p not in actions:
                raise IllegalAction(
                    f"player {p} did not act (expected one action from each of {cur})")
        if len(actions) != len(cur):
            extra = sorted((p for p in actions if p not in cur), key=repr)
            raise IllegalAction(f"player {extra[0]!r} is not to act (current players {cur})")
        for p in cur:
            if actions[p] not in self._legal_for(p):
                raise IllegalAction(
                    f"player {p}: illegal action {actions[p]!r} in phase {self._phase} "
                    f"of day {self._day}")
        choices = [(p, _target(actions[p])) for p in cur]
        if self._phase == NIGHT:
            self._apply_night(choices)
        else:
            self._apply_vote(choices)
        self._changed()

    def _apply_night(self, choices: list[tuple[int, int | None]]) -> None:
        roles, day = self._roles, self._day
        wolf_votes, protects = [], []
        for p, t in choices:
            role = roles[p]
            if role == WEREWOLF:
                wolf_votes.append([p, t])
            elif role == SEER:
                # Thesis 5.2: the seer learns the role at once, even if killed this night.
                if t is not None:
                    if self._o.inspect_result == "species":
                        self._log(to=p, type="inspect", day=day, actor=p, target=t, species=_species(roles[t]))
                    else:
                        self._log(to=p, type="inspect", day=day, actor=p, target=t, role=roles[t])
            else:
                protects.append([p, t])
                self._log(to=p, type="protect" if role == DOCTOR else "guard", day=day, actor=p, target=t)
        if not self._quiet_night():
            self._log(to="wolves", type="wolf_votes", day=day, votes=wolf_votes)
        top = _top(t for _, t in wolf_votes if t is not None)
        self._protects = protects
        if len(top) > 1:
            self._tied = top
            self._phase = NIGHT_TIE
        else:
            self._resolve_night(top[0] if top else None)

    def _resolve_night(self, victim: int | None) -> None:
        day, protects = self._day, self._protects or []
        self._protects = None
        if victim is not None:
            self._log(to="wolves", type="attacked", day=day, player=victim)
            savers = [d for d, t in protects if t == victim]
            if savers:
                # The doctor's protection cancels the attack; only the doctor is told (AIWolf tells
                # no one that a bodyguard's guard held).
                for d in savers:
                    if self._roles[d] == DOCTOR:
                        self._log(to=d, type="saved", day=day, actor=d, player=victim)
            else:
                self._alive[victim] = False
                self._log_death("killed", victim, lot=None)
                if self._check_end():
                    return
                self._phase = DAY
                return
        self._log(to="all", type="nobody_killed", day=day)
        self._phase = DAY

    def _apply_vote(self, choices: list[tuple[int, int | None]]) -> None:
        revote = self._phase == REVOTE
        self._log(to="all", type="day_votes", day=self._day, round=2 if revote else 1,
                  votes=[[p, t] for p, t in choices])
        top = _top(t for _, t in choices if t is not None)
        if len(top) == 1:
            self._candidates = None
            self._eliminate(top[0], lot=False)
        elif revote:
            # Still tied (or everyone abstained): a draw among the revote's top candidates.
            self._tied = top or self._candidates
            self._candidates = None
            self._phase = DAY_TIE
        elif top and self._o.tie_rule == "revote_then_random":
            self._candidates = top
            self._log(to="all", type="revote", day=self._day, candidates=top)
            self._phase = REVOTE
        else:
            self._log(to="all", type="nobody_eliminated", day=self._day)
            self._end_day()

    def _eliminate(self, p: int, lot: bool) -> None:
        self._alive[p] = False
        self._log_death("eliminated", p, lot=lot)
        if self._o.mediums:
            for m in range(self._n):
                if self._roles[m] == MEDIUM and self._alive[m]:
                    self._log(to=m, type="identified", day=self._day, actor=m, player=p,
                              species=_species(self._roles[p]))
        if not self._check_end():
            self._end_day()

    def _end_day(self) -> None:
        if self._day >= self._o.max_days:
            self._finish(DRAW)
        else:
            self._day += 1
            self._enter_night()

    def _quiet_night(self) -> bool:
        """The first night of a game without a first-night attack: only seers act (AIWolf's day 0)."""
        return not self._o.first_night_kill and self._day == 1 and self._phase == NIGHT

    def _enter_night(self) -> None:
        self._phase = NIGHT
        self._changed()
        if not self._current():  # a quiet first night without a living seer: straight to day
            self._protects = []
            self._resolve_night(None)

    def _log_death(self, kind: str, p: int, lot: bool | None) -> None:
        fields: dict[str, Any] = {"to": "all", "type": kind, "day": self._day, "player": p}
        if lot is not None:
            fields["lot"] = lot
        if self._o.reveal_roles:
            fields["role"] = self._roles[p]
        self._log(**fields)

    def _check_end(self) -> bool:
        roles, alive = self._roles, self._alive
        wolves = sum(1 for p in range(self._n) if alive[p] and roles[p] == WEREWOLF)
        village = sum(alive) - wolves
        if wolves == 0:
            self._finish(VILLAGE)
        elif village == 0 or (self._o.end_at_parity and wolves >= village):
            self._finish(WEREWOLVES)
        else:
            return False
        return True

    def _finish(self, winner: str) -> None:
        half = NIGHT if self._phase in (NIGHT, NIGHT_TIE) else DAY
        self._log(to="all", type="game_over", day=self._day, phase=half, winner=winner)
        self._winner = winner
        self._phase = END

    def _log(self, **fields: Any) -> None:
        self._events.append({k: fields[k] for k in sorted(fields)})

    def _changed(self) -> None:
        self._cur = None
        self._legal = {}

    # -- talk ------------------------------------------------------------------------------
    def talk(self) -> TalkSpec | None:
        rounds, ph = self._o.discussion_rounds, self._phase
        if rounds == 0 or ph not in _DECISIONS:
            return None
        if ph == NIGHT:
            wolves = tuple(p for p in self._current() if self._roles[p] == WEREWOLF)
            return TalkSpec({"wolves": wolves}, rounds) if len(wolves) >= 2 else None
        # Day and revote: the village debates in public (in the published game the tied defend).
        return TalkSpec({"public": tuple(self._current())}, rounds)

    def validate_talk(self, player: int, channel: str, item: TalkItem) -> str | None:
        """Why `item` said by `player` on `channel` makes no sense here, or None if it does."""
        if not isinstance(item, TALK_MODELS):
            return f"{type(item).__name__} is not a werewolves talk item"
        spec = self.talk()
        if spec is None or channel not in spec.channels:
            return f"channel {channel!r} is not open"
        if player not in spec.channels[channel]:
            return f"player {player!r} is not a member of channel {channel!r}"
        for key in ("target", "proposer"):
            seat = getattr(item, key, None)
            if seat is not None and seat >= self._n:
                return f"{key} {seat} is not a seat (players 0..{self._n - 1})"
        if isinstance(item, (WwAccuse, WwPropose, WwBid)) and not self._alive[item.target]:
            return f"target {item.target} is dead"
        if isinstance(item, WwAccuse) and item.target == player:
            return "a player cannot accuse itself"
        if isinstance(item, WwResult) and item.target == player:
            return "a player cannot report a result on itself"
        if isinstance(item, (WwAccept, WwReject)):
            if item.proposer == player:
                return "a player cannot answer its own proposal"
            if item.proposer not in spec.channels[channel]:
                return f"proposer {item.proposer} is not on channel {channel!r}"
        if isinstance(item, WwBid):
            if channel != "wolves":
                return "a bid is sealed: only on the wolves channel"
            if self._roles[item.target] == WEREWOLF:
                return f"target {item.target} is a werewolf"
        return None

    # -- information -----------------------------------------------------------------------
    def _visible(self, event: dict[str, Any], p: int) -> bool:
        to = event["to"]
        return to == "all" or to == p or (to == "wolves" and self._roles[p] == WEREWOLF)

    def _known(self, p: int) -> dict[int, str]:
        """Seat -> role for every role `p` knows: own, fellow wolves, inspections, revealed dead."""
        roles = self._roles
        if roles is None:
            return {}
        known = {p: roles[p]}
        if roles[p] == WEREWOLF:
            known.update((q, WEREWOLF) for q in range(self._n) if roles[q] == WEREWOLF)
        for e in self._visible_views(p):
            if "role" in e:
                known[e["target"] if e["type"] == "inspect" else e["player"]] = e["role"]
        return known

    def _visible_views(self, p: int) -> list[dict[str, Any]]:
        """The events `p` may see, as players see them (no "to"), built incrementally.

        Events are only ever appended to `_events`; a clone or a resample gets a new list, which
        starts a new cache. Each event's view is made once and shared by every observation
        (observations are read-only by contract)."""
        events = self._events
        cache = self.__dict__.get("_seen")
        if cache is None or cache[0] is not events:
            cache = self._seen = (events, [], {})
        _, views, mine = cache
        if len(views) < len(events):
            views.extend(_copy_event(e, drop="to") for e in events[len(views) :])
        done, visible = mine.get(p, (0, []))
        if done < len(events):
            visible = visible + [views[i] for i in range(done, len(events)) if self._visible(events[i], p)]
            mine[p] = (len(events), visible)
        return visible

    def observation(self, player: int) -> dict[str, Any]:
        if self._roles is not None:
            return self._observation_dealt(player)
        p = player
        known = {}
        events = []
        obs = {
            "me": p,
            "role": self._roles[p] if self._roles is not None else None,
            "phase": _public_phase(self._phase),
            "day": self._day,
            "num_players": self._n,
            "alive": [q for q in range(self._n) if self._alive[q]],
            "candidates": list(self._candidates or []),
            "known_roles": {str(q): known[q] for q in sorted(known)},
            "events": events,
            "winner": self._winner,
        }
        if self._o.extended:
            obs["role_counts"] = self._o.role_counts()  # public: AIWolf sends its GameSetting
        return obs

    def _observation_dealt(self, p: int) -> dict[str, Any]:
        """`observation` once roles are dealt, from caches: what it always was, made incrementally.

        The events list and the known-roles map are the seat's cached ones (a new list or map when
        they grow, never changed in place), and the living and candidate seats are made once per
        node for every seat: shared, like the event views (observations are read-only by contract),
        so a bus that diffs one observation against the last finds the unchanged parts at once."""
        visible = self._visible_views(p)
        roles = self._roles
        cache = self.__dict__.get("_known_cache")
        if cache is None or cache[0] is not self._seen:
            cache = self._known_cache = (self._seen, {})
        # seat -> (events taken in, the roles known from them as `_known` finds them, as shown)
        done, known, shown = cache[1].get(p, (0, None, None))
        if known is None:
            known = {p: roles[p]}
            if roles[p] == WEREWOLF:
                known.update((q, WEREWOLF) for q in range(self._n) if roles[q] == WEREWOLF)
        for e in visible[done:]:
            if "role" in e:
                q = e["target"] if e["type"] == "inspect" else e["player"]
                if known.get(q) != e["role"]:
                    known[q] = e["role"]  # `known` is this cache's own: only `shown` is handed out
                    shown = None
        if shown is None:
            shown = {str(q): known[q] for q in sorted(known)}
        cache[1][p] = (len(visible), known, shown)
        node = self.__dict__.get("_node_cache")
        if node is None or node[0] is not self._legal:  # `_legal` is replaced whenever the node changes
            alive = self._alive
            node = self._node_cache = (self._legal, _public_phase(self._phase), [q for q in range(self._n) if alive[q]],
                                       list(self._candidates or []))
        obs = {
            "me": p,
            "role": roles[p],
            "phase": node[1],
            "day": self._day,
            "num_players": self._n,
            "alive": node[2],
            "candidates": node[3],
            "known_roles": shown,
            "events": visible,
            "winner": self._winner,
        }
        if self._o.extended:
            obs["role_counts"] = self._o.role_counts()  # public: AIWolf sends its GameSetting
        return obs

    def resample_hidden(self, player: int, rng: random.Random) -> "WerewolvesState":
        """Permute the roles `player` does not know (living among living, dead among dead).

        Records hidden from `player` are relabelled with the same permutation, so every hidden
        choice stays consistent with the new roles (wolves still attacked non-wolves, a seer's
        result still matches); records `player` sees are kept as they are.
        """
        new = self.clone()
        if self._roles is None:
            return new
        p, known = player, self._known(player)
        species = {}  # seat -> species p learnt (species rule, medium): kept, so results still match
        for e in self._visible_views(p):
            if "species" in e:
                species[e["target"] if e["type"] == "inspect" else e["player"]] = e["species"]
        sigma = list(range(self._n))
        for living in (True, False):
            for kind in sorted({species.get(q, "") for q in range(self._n)}):
                group = [q for q in range(self._n)
                         if q not in known and self._alive[q] == living and species.get(q, "") == kind]
                drawn = group[:]
                rng.shuffle(drawn)
                for a, b in zip(group, drawn):
                    sigma[a] = b
        roles = [""] * self._n
        for q in range(self._n):
            roles[sigma[q]] = self._roles[q]
        new._roles = roles
        new._events = [e if self._visible(e, p) else _relabel(e, sigma) for e in self._events]
        if self._phase == NIGHT_TIE and self._roles[p] != WEREWOLF:
            new._tied = sorted(sigma[t] for t in self._tied)
        if self._protects:
            new._protects = sorted(
                pr if pr[0] == p else [sigma[pr[0]], None if pr[1] is None else sigma[pr[1]]]
                for pr in self._protects)
        return new

    def outcome(self) -> Outcome:
        if self._phase != END:
            raise ValueError("the game is not over")
        win = self._winner
        side = [None if win == DRAW else ((r in WOLF_TEAM) == (win == WEREWOLVES))
                for r in self._roles]
        when = f"{self._events[-1]['phase']} {self._day}"
        verb = "wins" if win == VILLAGE else "win"
        summary = f"draw after day {self._day}" if win == DRAW else f"{win} {verb} on {when}"
        return Outcome(
            returns=tuple(1.0 if s else 0.0 for s in side),
            winners=tuple(q for q in range(self._n) if side[q]),
            summary=summary,
            extra={"winner": win, "day": self._day},
            roles=tuple(self._roles),
            teams=_sides(self._roles),
        )

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Full state; the event dicts inside are the state's own: read them, never mutate."""
        return {
            "options": dict(self._odump),
            "roles": None if self._roles is None else list(self._roles),
            "alive": list(self._alive),
            "phase": self._phase,
            "day": self._day,
            "tied": None if self._tied is None else list(self._tied),
            "protects": None if self._protects is None else [list(x) for x in self._protects],
            "candidates": None if self._candidates is None else list(self._candidates),
            "winner": self._winner,
            "events": list(self._events),  # events are never mutated once logged
        }

    def digest(self) -> str:
        """`State.digest` (the same bytes hashed), each event packed once: events are only appended."""
        events = self._events
        cache = self.__dict__.get("_packed")
        if cache is None or cache[0] is not events:
            cache = self._packed = (events, [])
        packed = cache[1]
        if len(packed) < len(events):
            packed.extend(map(_pack, events[len(packed):]))
        # to_json's map with its last value, the events list, left for the hash to take in pieces
        head = _pack({
            "options": self._odump, "roles": self._roles, "alive": self._alive, "phase": self._phase, "day": self._day,
            "tied": self._tied, "protects": self._protects, "candidates": self._candidates, "winner": self._winner,
            "events": None,
        })
        n = len(events)
        h = hashlib.blake2b(head[:-1], digest_size=8)  # less the packed None standing in for the events
        h.update(bytes((0x90 | n,)) if n < 16 else (b"\xdc" + n.to_bytes(2, "big") if n < 0x10000 else b"\xdd" + n.to_bytes(4, "big")))
        h.update(b"".join(packed))
        return h.hexdigest()

    def clone(self) -> "WerewolvesState":
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._alive = list(self._alive)
        new._events = list(self._events)
        new.__dict__.pop("_seen", None)  # observation cache: rebuilt for the clone's own event list
        new._cur, new._legal = None, {}
        return new  # roles, tied, protects and candidates are replaced, never mutated

    def render(self) -> str:
        head = f"Werewolves: day {self._day}, {_public_phase(self._phase)}"
        if self._winner:
            head += f", over ({self._winner})"
        lines = [head]
        for q in range(self._n):
            role = self._roles[q] if self._roles else "?"
            lines.append(f"  seat {q:2d}  {role:<9} {'alive' if self._alive[q] else 'dead'}")
        if self._candidates:
            lines.append(f"  revote between {self._candidates}")
        for e in self._events[-8:]:
            rest = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("type", "to", "day"))
            lines.append(f"  [day {e['day']}] {e['type']} ({rest}) to {e['to']}")
        return "\n".join(lines)


class Werewolves(Game):
    """Werewolves of Miller's Hollow with werewolves, villagers, seers and doctors."""

    name = "werewolves"
    options_model = WerewolvesOptions
    capabilities = frozenset({SIMULTANEOUS, CHANCE, PRIVATE_INFORMATION, TALK, OBSERVATION_STATE, ACTION_ENCODING,
                              VIEWS})
    talk_models = TALK_MODELS
    min_return = 0.0
    max_return = 1.0

    def num_players(self, options: WerewolvesOptions) -> int:
        return options.players

    # Views (games.werewolves.views, imported when first asked: it imports this module).
    def describe_action(self, options: WerewolvesOptions, action: str) -> str:
        from games.werewolves import views
        return views.describe_action(options, action)

    def observation_text(self, options: WerewolvesOptions, seat: int, observation: dict[str, Any]) -> str:
        from games.werewolves import views
        return views.observation_text(options, seat, observation)

    def observation_shape(self, options: WerewolvesOptions) -> tuple[int, ...]:
        from games.werewolves import views
        return views.observation_shape(options)

    def observation_tensor(self, options: WerewolvesOptions, seat: int, observation: dict[str, Any]) -> Any:
        from games.werewolves import views
        return views.observation_tensor(options, seat, observation)

    def action_vocabulary(self, options: WerewolvesOptions) -> tuple[str, ...]:
        """Abstain, then each night verb and the vote at every seat, sorted."""
        verbs = sorted(set(_NIGHT_VERB.values())) + ["vote:"]
        return tuple(sorted([ABSTAIN] + [verb + str(q) for verb in verbs for q in range(options.players)]))

    def new_initial_state(self, options: WerewolvesOptions | dict | None = None) -> WerewolvesState:
        if not isinstance(options, WerewolvesOptions):
            options = self.options(options)
        return WerewolvesState(options)

    def state_from_observation(self, player: int, observation: dict[str, Any]) -> WerewolvesState:
        """The position `player` sees. An observation shows the seats but not the other options: they
        take their defaults, with at least as many of each role as `player` knows of. Roles it does not
        know are dealt from what is left (`resample_hidden` permutes them); the events it saw are the
        state's events, each addressed to it."""
        obs, n = observation, int(observation["num_players"])
        known = {int(q): r for q, r in obs["known_roles"].items()}
        if obs.get("role_counts"):  # a game beyond the thesis' shows its role counts
            return self._state_from_counts(player, obs, known)
        counts = {r: sum(1 for x in known.values() if x == r) for r in ROLES}
        defaults = WerewolvesOptions.model_fields
        wolves = max(counts[WEREWOLF], defaults["werewolves"].default, 1)
        wolves = min(wolves, max(counts[WEREWOLF], (n - 1) // 2))
        seers = min(max(counts[SEER], defaults["seers"].default), n - wolves)
        doctors = min(max(counts[DOCTOR], defaults["doctors"].default), n - wolves - seers)
        options = self.options({"players": n, "werewolves": wolves, "seers": seers, "doctors": doctors})
        return _seen_position(WerewolvesState(options), player, obs, known)

    def _state_from_counts(self, player: int, obs: dict[str, Any], known: dict[int, str]) -> WerewolvesState:
        counts, n = obs["role_counts"], int(obs["num_players"])
        state = WerewolvesState(self.options({
            "players": n, "werewolves": counts.get(WEREWOLF, 0), "seers": counts.get(SEER, 0),
            "doctors": counts.get(DOCTOR, 0), "possessed": counts.get(POSSESSED, 0),
            "bodyguards": counts.get(BODYGUARD, 0), "mediums": counts.get(MEDIUM, 0),
            "inspect_result": "species" if counts.get(POSSESSED, 0) else "role", "first_night_kill": False,
            "reveal_roles": False, "end_at_parity": True, "tie_rule": "revote_then_random"}))
        return _seen_position(state, player, obs, known)

    def actions_seen(self, player: int, observation: dict[str, Any]) -> dict[int, str]:
        """The votes of the last step where `player` saw them: the day vote before a night or a revote,
        the wolves' night votes (to a wolf) before a day."""
        obs = observation
        want = "wolf_votes" if obs["phase"] == DAY else "day_votes"
        votes = [e for e in obs["events"] if e["type"] in ("wolf_votes", "day_votes")]
        if not votes or votes[-1]["type"] != want:
            return {}
        verb = "attack:" if want == "wolf_votes" else "vote:"
        return {int(p): ABSTAIN if t is None else verb + str(t) for p, t in votes[-1]["votes"]}

    def state_from_json(self, data: dict[str, Any]) -> WerewolvesState:
        state = WerewolvesState(self.options(data["options"]))
        state._roles = None if data["roles"] is None else [str(r) for r in data["roles"]]
        state._alive = [bool(a) for a in data["alive"]]
        if len(state._alive) != state._n or (state._roles and len(state._roles) != state._n):
            raise ValueError("roles/alive do not match the number of players")
        state._phase = data["phase"]
        if state._phase not in _DECISIONS + _CHANCES + (END,):
            raise ValueError(f"unknown phase {state._phase!r}")
        state._day = int(data["day"])
        state._tied = None if data["tied"] is None else list(data["tied"])
        state._protects = None if data["protects"] is None else [list(x) for x in data["protects"]]
        state._candidates = None if data["candidates"] is None else list(data["candidates"])
        state._winner = data["winner"]
        state._events = [_copy_event(e) for e in data["events"]]
        return state


_pack = msgpack.Packer().pack  # as msgpack.packb packs (State.digest), one Packer reused


_STR_ORDER: dict[int, list[int]] = {}


def _str_order(n: int) -> list[int]:
    """Seats 0..n-1 in the order their decimal strings sort (so action lists come out sorted)."""
    order = _STR_ORDER.get(n)
    if order is None:
        order = _STR_ORDER[n] = sorted(range(n), key=str)
    return order


def _target(action: str) -> int | None:
    return None if action == ABSTAIN else int(action[action.index(":") + 1:])


def _top(targets: Any) -> list[int]:
    """The sorted targets with the most votes (plurality); empty when nobody voted."""
    counts: dict[int, int] = {}
    for t in targets:
        counts[t] = counts.get(t, 0) + 1
    if not counts:
        return []
    best = max(counts.values())
    return sorted(t for t, c in counts.items() if c == best)


def _public_phase(phase: str) -> str:
    return _PUBLIC_PHASE.get(phase, phase)


def _relabel(event: dict[str, Any], sigma: list[int]) -> dict[str, Any]:
    out = dict(event)
    for key in _SEAT_KEYS:
        v = out.get(key)
        if type(v) is int:
            out[key] = sigma[v]
    if "votes" in out:
        out["votes"] = sorted([sigma[a], None if b is None else sigma[b]] for a, b in out["votes"])
    if "candidates" in out:
        out["candidates"] = sorted(sigma[c] for c in out["candidates"])
    return out


def _copy_event(event: dict[str, Any], drop: str = "") -> dict[str, Any]:
    """A copy with sorted keys and fresh nested lists (vote pairs, candidates)."""
    out = {}
    for k in sorted(event):
        if k == drop:
            continue
        v = event[k]
        out[k] = [list(x) if isinstance(x, (list, tuple)) else x for x in v] \
            if isinstance(v, (list, tuple)) else v
    return out


def _species(role: str) -> str:
    """What a seer (species rule) or a medium learns: the possessed is human (AIWolf's Role.POSSESSED)."""
    return WOLF_SPECIES if role == WEREWOLF else HUMAN


def _sides(roles: list[str]) -> tuple[tuple[int, ...], ...]:
    """The teams as dealt: the werewolves' team (with the possessed) and the village's, ordered by first seat."""
    wolves = tuple(q for q, r in enumerate(roles) if r in WOLF_TEAM)
    village = tuple(q for q, r in enumerate(roles) if r not in WOLF_TEAM)
    return tuple(sorted(t for t in (wolves, village) if t))


def _seen_position(state: "WerewolvesState", player: int, obs: dict[str, Any], known: dict[int, str]) -> "WerewolvesState":
    """`state` (a fresh one of the options the observation implies) set to what `player` sees:
    the roles it knows (the others dealt from what is left), who is alive, the phase, its events."""
    n = state._o.players
    if obs["role"] is not None:
        left = state._o.role_multiset()
        for r in known.values():
            left.remove(r)
        state._roles = [known[q] if q in known else left.pop() for q in range(n)]
    alive = set(obs["alive"])
    state._alive = [q in alive for q in range(n)]
    state._phase = END if obs["winner"] is not None else DEAL if obs["role"] is None else obs["phase"]
    state._day = int(obs["day"])
    state._candidates = list(obs["candidates"]) or None
    state._winner = obs["winner"]
    state._events = [{k: e[k] for k in sorted(e)} for e in ({**e, "to": player} for e in obs["events"])]
    return state
