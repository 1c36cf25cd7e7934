"""AlphaWolf's President (thesis 5.2.1): the generic Alpha President with Werewolves' hooks.

- Its offices depend on the role it is dealt: `configs` holds one office set for the village
  side and one for the wolves; the first observation picks one (so an experiment can seat, say,
  PR+SO villagers against full AlphaWolf werewolves while roles are dealt by chance).
- Talk turn: at the start of a phase (round 0) the IO updates and the SO suggests for the
  decision ahead; in every round the SO scores the proposals heard and not yet scored
  (algorithm 4), then the FO negotiates. Without a Foreign Office the player stays silent.
- Decision: IO update, SO suggestions, then the FO turns the deals it is bound to into this
  turn's commitment; the President keeps a deal with probability `honesty` and always keeps the
  wolves' sealed-bid outcome (a wolf does not betray its pack); otherwise it draws among the
  suggestions with probability growing with utility.
- Heard talk goes to the inbox stamped with the day and phase it was heard in.
"""

from __future__ import annotations

from typing import Any

from actors.alpha.president import DEFAULT_VIEWS, President, Step, heard_lines
from actors.alpha.traits import Traits
from actors.werewolves.deals import deal_key
from actors.werewolves.knowledge import prospective_legal
from bus.messages import ActRequest, Heard, Suggestion, TalkTurn

VIEWS: dict[str, tuple[str, ...]] = {
    "io": ("beliefs", "inbox", "io", "observation", "seat", "traits", "trust"),
    "so": ("beliefs", "legal", "observation", "seat", "traits", "trust"),
    "fo": ("beliefs", "deals", "inbox", "observation", "seat", "suggestions", "talk", "traits", "trust"),
}
# What each office reads of the observation's events and of the inbox (the rest stays home, so
# a request is small): the IO replays day votes and public proposals; the SO and the FO reason
# about the current phase only.
IO_EVENTS = frozenset({"day_votes"})
IO_TALK = frozenset({"ww_accept", "ww_accuse", "ww_claim", "ww_propose", "ww_result", "ww_retract"})
CLAIM_EVENTS = frozenset({"eliminated"})  # what the SO reads to plan a false medium claim
WOLF_TEAM = ("possessed", "werewolf")
FO_OPENING = ("beliefs", "suggestions", "trust")  # read when proposing or bidding (round 0) only
SIDES = ("village", "wolves")


class WerewolvesPresident(President):
    """A President whose office set is chosen by its dealt role; see the module docstring."""

    def __init__(
        self,
        address: str,
        seed: int,
        seat: int,
        configs: dict[str, dict[str, str]],
        traits: Traits,
        views: dict[str, dict[str, tuple[str, ...]]] | None = None,
        sharpness: float = 1.0,
        bluffs: bool = False,
    ):
        # The role is dealt later, so a seat that would talk on either side is asked to talk.
        speaks = any("fo" in configs[side] for side in SIDES)
        super().__init__(address, seed, seat, {}, traits, speaks=speaks)
        self.configs = {side: dict(sorted(configs[side].items())) for side in SIDES}
        self.side_views = views or {}
        self.side: str | None = None
        self.sharpness = sharpness
        self.bluffs = bluffs

    def observe(self, request: ActRequest | TalkTurn) -> None:
        """The first request picks the office set; a new turn opens a new negotiation."""
        if self.side is None:
            self._activate(request.observation)
        self._start_turn(request.turn)
        super().observe(request)
        if isinstance(request, ActRequest):
            self.kb.set(("talk",), {"closing": True})
        elif request.round == 0 and "fo" in self.offices:
            self.kb.set(("legal",), prospective_legal(request.observation))

    def plan_act(self, request: ActRequest) -> list[Step]:
        """IO update and SO suggestions, then the FO turns bound deals into a commitment."""
        return [Step("io", "update"), Step("so", "suggest"), Step("fo", "negotiate")]

    def plan_talk(self, turn: TalkTurn) -> list[Step]:
        """Round 0: IO update and SO suggestions; unscored proposals to the SO; then the FO."""
        if "fo" not in self.offices:
            return []  # no Foreign Office: silent
        steps = [Step("io", "update"), Step("so", "suggest")] if turn.round == 0 else []
        if self._unscored(turn.turn):
            steps.append(Step("so", "deal_utility"))
        return steps + [Step("fo", "negotiate")]

    def on_heard(self, message: Heard) -> None:
        """Heard talk is stamped with the day and phase it was heard in."""
        obs = self.kb.get("observation", default={}) or {}
        heard = heard_lines(message, day=obs.get("day"), phase=obs.get("phase"))
        self.kb.set(("inbox",), self.kb.get("inbox", default=[]) + heard)

    def _activate(self, observation: dict[str, Any]) -> None:
        self.side = "wolves" if observation.get("role") in WOLF_TEAM else "village"
        self.offices = self.configs[self.side]
        self.views = {**DEFAULT_VIEWS, **VIEWS, **self.side_views.get(self.side, {})}
        self.kb.set(("side",), self.side)

    def _start_turn(self, turn: int) -> None:
        """A new decision: the last one's negotiation is over (a pending night deal stays)."""
        if self.kb.get("deals", "current", "turn") != turn:
            self.kb.set(("deals", "current"), {"turn": turn})

    def _unscored(self, turn: int) -> bool:
        """Has a proposal been heard this turn that the SO has not scored yet?"""
        me = self.kb.get("seat")
        scored = self.kb.get("deals", "current", "received", default={}) or {}
        for line in self.kb.get("inbox", default=[]):
            if line["turn"] != turn or line["speaker"] == me:
                continue
            for s in line["says"]:
                if s.get("kind") == "ww_propose" and deal_key(line["speaker"], s.get("proposal_id", -1)) not in scored:
                    return True
        return False

    def view(self, step: Step, request: ActRequest | TalkTurn) -> dict[str, Any]:
        """The KB sections the step's office reads, trimmed to the events and talk it uses (see IO_EVENTS)."""
        role, task, turn = step.role, step.task, request.turn
        names = self.views[role]
        if role == "so" and task == "deal_utility":
            names = names + ("deals", "inbox")
        # a bluffer's SO values a false claim with its first suggestions of the day (bluff.py)
        claim = (role == "so" and task == "suggest" and self.bluffs and self.side == "wolves"
                 and isinstance(request, TalkTurn) and request.round == 0 and request.observation.get("phase") == "day")
        if claim:
            names = names + ("claims", "inbox")
        if role == "fo" and self.bluffs:
            names = names + ("claims",)
        if role == "fo" and ((self.kb.get("talk", "round") or 0) > 0 or self.kb.get("talk", "closing")):
            names = tuple(n for n in names if n not in FO_OPENING)
        view = self.kb.view(names)
        obs = view.get("observation")
        if obs is not None and "events" in obs:
            # results by species (AIWolf's rules) travel to every office; no thesis game has them
            if role == "io":
                view["observation"] = {**obs, "events": [e for e in obs["events"] if e["type"] in IO_EVENTS or "species" in e]}
            else:
                view["observation"] = {k: v for k, v in obs.items() if k != "events"}
                kept = [e for e in obs["events"] if "species" in e or (claim and e["type"] in CLAIM_EVENTS)]
                if kept:
                    view["observation"]["events"] = kept
        if "inbox" in view:
            if role == "io":
                view["inbox"] = _io_talk(view["inbox"])
            else:
                view["inbox"] = [x for x in view["inbox"] if x["turn"] == turn]
        if claim:
            view["claim"] = True
        return view

    def choose(self, request: ActRequest, suggestions: list[Suggestion]) -> str:
        """A wolf keeps the pack's night bid; a deal is kept with probability honesty; else a
        suggestion of positive utility drawn with weight utility ** sharpness; else any legal."""
        committed = self.kb.get("commitments", str(request.turn))
        legal = request.legal
        if committed in legal:
            if self.side == "wolves" and request.observation.get("phase") == "night":
                return committed  # the pack's sealed-bid victim
            if self.rng.random() < self.traits.honesty:
                return committed
        usable = [s for s in suggestions if s.action in legal and s.utility > 0.0]
        if usable:  # thesis 5.2.1: "players with higher utility being more likely to be picked"
            weights = [s.utility ** self.sharpness for s in usable]
            return self.rng.choices([s.action for s in usable], weights=weights)[0]
        return legal[self.rng.randrange(len(legal))] if legal else "abstain"


def _io_talk(inbox: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public lines the IO reads (joint votes, their answers, claims, accusations)."""
    out = []
    for line in inbox:
        if line["channel"] != "public":
            continue
        says = [s for s in line["says"] if s["kind"] in IO_TALK and s.get("deal", "joint_vote") == "joint_vote"]
        if says:
            out.append(line if len(says) == len(line["says"]) else {**line, "says": says})
    return out
