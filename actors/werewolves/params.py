"""AlphaWolf's named constants (Marinheiro 2016, section 5.2), each an option of the agent.

The thesis gives the formulas (eq. 5.2, algorithms 4, 5 and 6) and three values: the Strategy
Office suggests the top 3 moves, role certainties sum to 100%, and trust is a positive real with
1 neutral and 0 none. Every other number here is our choice; the comment on each says why.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

DOCTOR, SEER, VILLAGER, WEREWOLF = "doctor", "seer", "villager", "werewolf"
POSSESSED, BODYGUARD, MEDIUM = "possessed", "bodyguard", "medium"
ROLES = (DOCTOR, SEER, VILLAGER, WEREWOLF)  # sorted: every loop over roles runs in this order
WOLF_TEAM = frozenset({WEREWOLF, POSSESSED})  # who plays for the werewolves

_Weights = dict[str, float]


class WolfParams(BaseModel):
    """Constants of the AlphaWolf offices; defaults are the thesis' values or documented choices."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # -- game knowledge: public in the published game, absent from the observation -------------
    # Role counts of the thesis' table 6.3 game (10 players: 2 wolves, 1 seer, 1 doctor, 6 villagers).
    role_counts: dict[str, int] = Field(default_factory=lambda: {WEREWOLF: 2, SEER: 1, DOCTOR: 1})

    # -- Strategy Office (thesis 5.2.2) -----------------------------------------------------------
    # Base threat B_i of each role to a village-side player. The thesis orders them (informed or
    # protective roles are less threatening) without numbers; ours: wolf 1, then 0.4 / 0.2 / 0.1.
    village_threat: _Weights = Field(
        default_factory=lambda: {WEREWOLF: 1.0, VILLAGER: 0.4, DOCTOR: 0.2, SEER: 0.1,
                                 # the AIWolf roles (ours): the possessed lies for the wolves but
                                 # does not kill; bodyguard and medium rank with doctor and seer
                                 POSSESSED: 0.7, BODYGUARD: 0.2, MEDIUM: 0.15})
    # Base threat to a werewolf: roles that gather information or hinder the wolves threaten most;
    # a fellow wolf is no threat, kept above 0 so that 1/T (healing, algorithm 4) stays finite.
    wolf_threat: _Weights = Field(
        default_factory=lambda: {SEER: 1.0, DOCTOR: 0.7, VILLAGER: 0.4, WEREWOLF: 0.02,
                                 POSSESSED: 0.05, BODYGUARD: 0.7, MEDIUM: 0.8})  # ours, as above
    suggestions: int = Field(3, ge=1)  # thesis: "the top 3 results are selected and suggested"

    # -- President (thesis 5.2.1) ----------------------------------------------------------------
    # Without a deal it draws among the suggestions "with players with higher utility being more
    # likely to be picked": probability proportional to utility ** choice_sharpness (1: plain
    # proportional, our reading; larger values favour the best suggestion more).
    choice_sharpness: float = Field(1.0, ge=0.0)

    # -- Foreign Office (thesis 5.2.3, algorithm 5) ------------------------------------------------
    # Concession factor of evaluation round k (k = 1 at the first round after proposing):
    # concession_start * concession_decay ** (k - 1). The thesis says only that it decreases.
    # The referee ends talk after a silent round, so the first evaluation must be able to accept:
    # a villager values its own proposal ~T(me)/T(other) ~ 0.84 times a stranger's with the
    # same kind of target, hence a start below that.
    concession_start: float = Field(0.8, gt=0.0)
    concession_decay: float = Field(0.8, gt=0.0, le=1.0)
    # Trust below which the FO asks for an investigation of the least trusted player and a heal
    # of itself (thesis: "if its trust value in a player is too low"); 1 is neutral trust.
    low_trust: float = Field(0.8, ge=0.0)

    # -- Intelligence Office (thesis 5.2.4, algorithm 6) --------------------------------------------
    # Age factor of an action taken `age` days ago: age_decay ** age (older rounds weigh less).
    age_decay: float = Field(0.75, gt=0.0, le=1.0)
    # Role scaling factor for an action of damage d: exp(gain[role] * d). d > 0 is an action that
    # helps the viewer's faction (its target was threatening). Gains grow with the information a
    # role holds (seer > doctor > villager, thesis); the opposite faction's role gets a negative
    # gain. Magnitudes are ours, sized so one clear vote moves a certainty by a factor ~2.
    village_gain: _Weights = Field(
        default_factory=lambda: {SEER: 3.0, DOCTOR: 2.0, VILLAGER: 1.0, WEREWOLF: -3.0,
                                 POSSESSED: -2.0, BODYGUARD: 2.0, MEDIUM: 2.5})
    wolf_gain: _Weights = Field(
        default_factory=lambda: {SEER: -3.0, DOCTOR: -2.0, VILLAGER: -1.0, WEREWOLF: 0.0,
                                 POSSESSED: 0.0, BODYGUARD: -2.0, MEDIUM: -2.5})
    # Improved variant only (claims.py): weight of a lone seer claim that nothing contradicts.
    claim_belief: float = Field(0.9, ge=0.0, le=1.0)
    # Improved variant only: one wolf claims to be the seer each day and accuses its highest
    # threat (foreign.py, `reveal`). Off by default; on, it tests the village's bluff detection.
    bluff: bool = False
    # Trust: thesis "decreased by a certain amount ... otherwise its trust value increases".
    trust_penalty: float = Field(0.3, ge=0.0)  # per broken agreement or vote against the viewer
    trust_gain: float = Field(0.05, ge=0.0)  # per day without either
    trust_max: float = Field(2.0, gt=0.0)  # our cap, so trust cannot swamp deal utility

    # -- bluffing (the thesis' future work, 7.2): false seer and medium claims -------------------
    # Honesty of claims, a trait in [0, 1]: a werewolf or possessed whose Strategy Office finds a
    # false claim worth making makes it when a draw in [0, 1) is at least this. 1 never bluffs
    # (the default: games keep their bytes); 0 bluffs whenever the claim is worth it.
    claim_honesty: float = Field(1.0, ge=0.0, le=1.0)
    # Value of a false claim (SO): claim_gain * T(the player it accuses) - caught_cost * P(a real
    # holder of the role is alive to counter-claim). Ours, sized so that a lone claim against a
    # likely seer is worth it and a claim into a village with a surely living seer is not (a
    # counter-claim in defence of an accused wolf is).
    claim_gain: float = Field(1.0, ge=0.0)
    caught_cost: float = Field(0.6, ge=0.0)
    claim_day: int = Field(1, ge=1)  # FO: the first day a bluffer claims unprovoked (ours)
    # Village IO (off by default): learn from claims proven false. Each proven-false claim seen
    # multiplies the weight given to claims by claim_distrust; a proven liar's trust drops to 0;
    # k rival claimants of one role share (k - 1) / k of wolf-team certainty.
    learn_claims: bool = False
    claim_distrust: float = Field(0.5, ge=0.0, le=1.0)
    # Of two rival claimants, the one who claimed after the other called it a werewolf is the
    # likelier liar: it takes this share of the liar's certainty, the other the rest (ours).
    counter_tell: float = Field(0.8, ge=0.0, le=1.0)

    @property
    def bluffs(self) -> bool:
        return self.claim_honesty < 1.0

    def base_threat(self, role: str) -> _Weights:
        """B_i for a player holding `role` (its faction decides the table)."""
        return self.wolf_threat if role in WOLF_TEAM else self.village_threat

    def role_gain(self, role: str) -> _Weights:
        return self.wolf_gain if role in WOLF_TEAM else self.village_gain
