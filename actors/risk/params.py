"""Named constants of the Risk agents, each with its source: "seed" is Keppler & Choi 2000
(/work/shared/seeds/003_01cbbe20d86fd9b8.txt), "TD-Gammon" is Tesauro 1995 (which the seed
cites as its model), "ours" is our choice, with the reason.

The seed gives the network's shape (48-10-1, sigmoid units), its inputs, the 60% attack
threshold, the machinery (claim by value, defence against a "fake player" of all enemies,
offence, attack best board first, fortify from "buddies") and the self-play scheme (the
winner's network seeds every player of the next game; 3 to 6 players; rewards for a won and a
lost board). It gives no number for the defence share, the learning rate, lambda, or the
size of its simulated battles: those are ours.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# -- the network (seed) -----------------------------------------------------------------------
INPUTS = 48  # seed: one cell per territory (owned 1/0) and one per continent (share owned)
HIDDEN = 10  # seed: "10 hidden nodes", sigmoid
INIT_SCALE = 0.5  # ours: initial weights uniform in [-0.5, 0.5] (the seed: "random weights")
VALUE_DIGITS = 9  # ours: a board's value is rounded here, so ties and order are the same on every libm
WEIGHT_DIGITS = 9  # ours: weights are rounded here after each training game (and so stored)


class TDParams(BaseModel):
    """The seed agent's machinery (its Strategy Office) and its TD learning."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Attack only where the battle is won at least this often (seed: "We chose 60% as a threshold").
    attack_threshold: float = Field(0.6, ge=0.0, le=1.0)
    # Seed: it stops attacking when no move "meet[s] the criteria for utility gain and likelihood
    # of a successful attack". True: an attack must also raise the board's value; False (our
    # reading, the default): the attack with the best board is taken whatever its gain, so only
    # the odds stop it. Every game of the seed's tests has a winner (40 + 29 + 31 of 100; 48% +
    # 52%); with True almost no game ends within 60 rounds: the net rates some conquests below
    # the board as it is, and the agent then holds 37 territories and 900 armies against 4.
    need_gain: bool = False
    # Seed: "a certain percentage of our armies as defense"; no number given. Ours: half.
    defence_share: float = Field(0.5, ge=0.0, le=1.0)
    # Seed: a "simulated battle" with the most dice, averaged over "a certain number" of runs;
    # `exact` (ours): the exact conquest probability instead.
    odds: Literal["simulated", "exact"] = "simulated"
    # Ours: battles per simulated matchup (one sample per matchup, drawn from a fixed seed).
    battles: int = Field(200, ge=1)
    # Ours: the share of a buddy's spare armies it sends when it borders enemies itself (all
    # of them when it borders none). The seed only says it moves "the armies".
    buddy_share: float = Field(0.5, ge=0.0, le=1.0)


class LearnParams(BaseModel):
    """TD(lambda) self-play (seed's scheme; every number here is ours, see each line)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    alpha: float = Field(0.1, gt=0.0)  # learning rate; ours: TD-Gammon's 0.1 (the seed: "a slow learning rate")
    lam: float = Field(0.7, ge=0.0, le=1.0)  # trace decay; ours: TD-Gammon's 0.7
    loss: float = 0.0  # seed: -1 for "a losing board position (no territories owned)"; ours: 0, the sigmoid's bottom
    # Seed: +1 for "a winning position (all territories owned)". A game the turn cap stops ends
    # (ours) with each survivor's share of the 42 territories as its target, so 1 for all and
    # 0 for none as in the seed, and between them the board's standing ("even": 1/k each).
    draw: Literal["share", "even"] = "share"
    # Seed: "a variety of three, four, five, and six player games": ours, the count cycles 3..6.
    players: tuple[int, ...] = (3, 4, 5, 6)
    max_rounds: int = Field(60, ge=1)  # ours: a training game's turn cap (then a draw, see `draw`)
    # Ours, for parallel play: the games of a batch all start from the batch's network, and the
    # next batch from it plus every game's change to it (actors.risk.train); 1 is the seed's
    # game-by-game scheme. 10 keeps a batch's games close to sequential ones (each changes the
    # weights little) and divides the checkpoint counts (50, 500).
    batch: int = Field(10, ge=1)
    # Seed: "the winner's neural network is saved and used as the basis for the next game"
    # ("winner"). "all" (ours, the default): the mean of every player's change, so the losers'
    # boards count too. Measured (seed 1, 60-round cap, against two random-weight nets, three
    # players): the seed's scheme only ever learns from boards that end in a win, so its value
    # drifts towards 1 everywhere (0.95 for a board with no territory after 2,000 games) and its
    # net wins 0.33 at 5,000 games, no better than chance; "all" wins 0.50 after 500.
    passed_on: Literal["winner", "all"] = "all"
    # "misupdate" (ours, for the seed's "incorrectly-trained" agent): the hidden layer's
    # gradient with the wrong sign, a classic back-propagation bug; "td" is the correct update.
    update: Literal["td", "misupdate"] = "td"


class HeuristicParams(BaseModel):
    """The `heuristic` agent (ours throughout): exact odds, continents and borders."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    attack_threshold: float = Field(0.5, ge=0.0, le=1.0)  # ours: attack when the exact odds are at least even
    defence_share: float = Field(0.4, ge=0.0, le=1.0)  # ours: at most this share of a turn's armies on defence
    complete_bonus: float = 2.0  # ours: a conquest completing a continent is worth 2x its bonus
    break_bonus: float = 1.0  # ours: breaking an enemy's continent is worth 1x its bonus
    eliminate_bonus: float = 10.0  # ours: taking a player's last territory
    focus_bonus: float = 1.0  # ours: a territory of the continent we are working on
    neutral_penalty: float = 0.5  # ours: the neutral never attacks, so its land is worth less
