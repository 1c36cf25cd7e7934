"""Deep Barca's named constants (McCulloch et al., MAICS 2017, section 3), each an agent option.

The paper gives the model (3.2-3.6) and few numbers: the top four formations per side (3.2), an
empty flag at 50% (3.2a), the troop deck split evenly between the players (3.4), a tactic played to
save a flag when it lifts the flag above 50% (3.6), at most a second tactic drawn (3.6). Every other
number is ours; the comment on each says why.

"measured": Deep Barca's score against naive without tactics, with that one constant changed
(direct games, sides alternated on one deal; n = 200 unless said; the defaults of the time scored
0.67-0.71 in the same runs, so differences below ~0.06 are noise). Those figures were taken before
bsfa_goal, game and five_weight_power got their present defaults (then "strongest", "average" and
1); the three were chosen on 400 games (200 deals, the same for every setting: seeds 1000-1199):
0.695 with the old three, 0.718 with game="symmetric" alone, 0.723 with bsfa_goal="any_reply"
alone, 0.752 with both, 0.762 / 0.775 / 0.770 with both and five_weight_power 0.5 / 0.33 / 0.2;
then, with symmetric and 0.33, strongest 0.738, best_reply (the default) 0.748, any_reply 0.775.
Rerun one with `python -m ops.bench.battleline_agents --pairings naive --tactics off --param
NAME=VALUE` (a string value in JSON quotes: --param game='"average"').
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.battleline.cards import CAVALRY, REDEPLOY, SCOUT, SHIELD, TACTIC_NAMES

INITIAL_TROOP_DECK = 60 - 2 * 7  # 1.1 "Set-up": 60 troops, seven dealt to each player


class DeepBarcaParams(BaseModel):
    """Constants of Deep Barca's Strategy Office and (ours) Intelligence Office."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # -- 3.2 the probabilistic model ----------------------------------------------------------
    top_formations: int = Field(4, ge=1)  # 3.2: "the top four formations" (5: "for efficiency"); 6 -> 0.65
    empty_flag: float = Field(0.5, ge=0.0, le=1.0)  # 3.2a: "we simply say ... 50%"
    # 3.2c: "a mix of the MFA ... and the BSFA" on a flag where one side has played; the weight
    # is not given. Ours: an even mix, as the paper blames the two for opposite biases (3.3).
    mfa_weight: float = Field(0.5, ge=0.0, le=1.0)  # measured: 0.25 -> 0.61, 0.75 -> 0.66
    # 3.3: the BSFA plays the played side's top four against "the single best possible formation
    # for the player with no cards"; "best" is not defined. "strongest": its strongest formation,
    # with the chance of making it. Ours, "best_reply": of its formations that beat or tie the
    # played side's best formation, the one that leaves its top four the least chance (3.3: "the
    # potential goal of the opponent who sees a card played and is trying to beat what our agent
    # is trying to do"). The strongest goal is one wedge 10-9-8, made ~20% of the time, so against
    # it a host holds 80% as well as a wedge does, and a card that spoils a one-sided flag costs
    # the model nothing; against the best reply a host meets a straight made nearly surely. Where
    # the played side still aims at a wedge 10-9-8 the two agree (so an 8 is still preferred to a
    # 10 on an empty flag, 4.2). "any_reply": the goal may beat or tie any of the four, so a
    # phalanx of 8s met by one of 10s counts too; it scored higher but prefers the 10 to the 8.
    # Measured with symmetric and five_weight_power 0.33 (n = 400): strongest 0.738, best_reply
    # 0.748, any_reply 0.775; best_reply with mfa_weight 0.35 / 0.65: 0.733 / 0.728.
    bsfa_goal: Literal["strongest", "best_reply", "any_reply"] = "best_reply"
    bsfa_search: int = Field(1500, ge=1)  # ours: empty-side formations the best reply looks at
    # 3.2: the game-win probability is "the weighted average of the probabilities of winning via
    # each of these two conditions as a function of the number of cards left in the Troop Deck",
    # five flags early, three adjacent late. Ours: the weight of "any five" is the share of the
    # troop deck left, (troops in deck) / 46, to the power five_weight_power: 1 falls linearly from
    # 1 at the deal to 0; 1/3 stays near 1 for most of the game and falls late (half at 6 troops
    # left), as the paper has three adjacent matter "near the end". Measured with any_reply and
    # symmetric: 1 -> 0.752, 0.5 -> 0.762, 0.33 -> 0.775, 0.2 -> 0.770 (n = 400).
    # Ours: the weight never falls below five_weight_floor, 0.3, about its value with one troop
    # left ((1/46) ** 0.33 = 0.28): without a floor it is 0 once the deck is empty, and in the last
    # turns the agent played for three adjacent alone, as if five flags no longer won. Measured
    # (n = 400, seeds 1000-1199, paired with no floor): 0.765 against 0.748, a paired difference of
    # +0.018 (s.e. 0.007); 0.5 gave the same games.
    five_weight_floor: float = Field(0.3, ge=0.0, le=1.0)
    five_weight_power: float = Field(0.33, gt=0.0)
    # Ours, "symmetric": the three-adjacent term becomes (1 + ours - theirs) / 2, so a move that
    # stops the opponent's breakthrough counts as much as one that makes ours (the paper weighs
    # only its own two conditions: "average").
    # Measured: symmetric 0.72 (n=600) vs 0.69; 0.718 vs 0.695 (n=400), both with the old defaults.
    # Ours, "outcomes": no weights: the chance that the nine flags, each won by one side
    # independently, meet a win condition for us and not for the opponent (both: one half).
    # Measured (n = 400, paired with symmetric, no floor): 0.740 against 0.748 (-0.007, s.e. 0.021).
    game: Literal["average", "symmetric", "outcomes"] = "symmetric"

    # -- 3.3 MFA and BSFA -------------------------------------------------------------------
    # 3.3: a flag's chance is "the union of the probabilities of winning via each of its top
    # formations" (independent events). Ours, "best": a side keeps only the best formation it
    # makes, so a formation counts only when none above it is made (exclusive events).
    combine: Literal["union", "best"] = "union"  # measured: best 0.68
    # Ours: a tie of two incomplete formations goes to whoever completes first, unknown ahead;
    # an equal opponent formation counts as beating ours half the time.
    tie_share: float = Field(0.5, ge=0.0, le=1.0)  # measured: 0 -> 0.69
    # Ours, for speed: the opponent's formations above one of ours are enumerated best first and
    # combined as a union (1 - prod(1 - p)); the enumeration stops once the chance that none
    # beats ours falls below this (it would change the flag by less).
    beaten_cutoff: float = Field(1e-4, gt=0.0, lt=1.0)

    # -- 3.4 card probabilities ---------------------------------------------------------------
    # 3.4: "The cards in the Troop deck are assumed to be split evenly among both players": the
    # agent's share of the deck is deck_share; a card it has not seen is its own with probability
    # deck_share * deck / (deck + troops in the opponent's hand), the opponent's otherwise.
    deck_share: float = Field(0.5, ge=0.0, le=1.0)

    # -- 3.5 wishlists -------------------------------------------------------------------------
    # 3.5: a card wanted by the top formations of several flags is less likely to be available
    # on each. Ours: a hand card in the top formations of n flags counts 1/n on each of them.
    split_conflicts: bool = True  # measured: off -> 0.40, the largest effect of any constant here
    conflict_power: float = Field(1.0, ge=0.0)  # ours: the split is 1 / n ** power; 2 -> 0.60, 0.5 -> 0.70
    discard_on_lost: bool = True  # 3.5: "it attempts to find a card to discard"; off -> 0.68 (n=400)
    # Ours: the same split for every troop either side hopes for on several of its flags, unseen
    # ones too (the paper splits nothing but the agent's own cards).
    split_unseen: bool = False  # measured: on -> 0.50

    # -- 3.6 tactics ---------------------------------------------------------------------------
    save_threshold: float = Field(0.5, ge=0.0, le=1.0)  # 3.6: "raises ... to over 50%"
    max_tactics_held: int = Field(2, ge=0, le=7)  # 3.6: draws one, then "a second" at most
    # 3.6: a second tactic is drawn "if the one tactic card the agent possesses is one of the
    # 'less useful' ones"; the paper names none. Ours: the cards that cannot break a formation
    # the opponent completed on its own side (Scout, Redeploy) and the weak wilds (Shield
    # Bearers, Cavalry), and a Leader once the agent has played one (it is dead in hand).
    less_useful: tuple[str, ...] = tuple(TACTIC_NAMES[c - 60] for c in (CAVALRY, SHIELD, SCOUT, REDEPLOY))
    # 3.6 "except for very specific situations relating to specific cards": ours, one situation:
    # a morale card (Leader, Cavalry, Shield Bearers) that completes a formation proved at once.
    morale_proves: bool = True
    # Ours: with no troop to play and the opponent's last turn a pass, a second pass would end the
    # game drawn (rules option double_pass); ahead, the agent plays any tactics card instead.
    avoid_double_pass: bool = True
    # Ours: holding no tactics card and with this many free slots or fewer left on its side, the
    # agent draws one, so that it is not left with nothing but a pass (0: never).
    endgame_slots: int = Field(3, ge=0, le=36)

    # -- ours: the President's choice and the Intelligence Office ---------------------------------
    suggestions: int = Field(5, ge=1)  # moves handed to the President, best first
    # Intelligence Office (ours, off by default): each time the opponent left a flag one card
    # short of its best formation and played elsewhere, the odds that it holds a card completing
    # that formation are multiplied by this (a rational player completes strong formations).
    miss_factor: float = Field(0.6, gt=0.0, le=1.0)
