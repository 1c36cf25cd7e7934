"""Partnership Dominoes' rules, mechanics only, as plain text (the language-model agent's system
prompt and the game's reference page). Written for detente from the seed (Martinez Carranza and
Munoz Melendez, INAOE 2005, sections 3 and 3.5) and games/dominoes/rules.py, which is the truth for
the variant and its options."""

TEXT = """\
Partnership Dominoes (double-six, four players in two pairs)

Tiles. The double-six set: 28 tiles, each with two numbers from 0 to 6 (0-0, 0-1, ..., 6-6);
a tile with equal numbers is a double. A tile's pips are the sum of its numbers.

Seats and pairs. Four seats, 0 to 3. Seats 0 and 2 are partners against seats 1 and 3. Turns
go 0, 1, 2, 3, 0, ... Each hand, every seat is dealt 7 tiles; there is no boneyard. You see only
your own tiles and how many each other seat holds.

A hand. The first hand of the match is opened by the holder of 6-6, who lays it. Later hands are
opened by the pair that won the previous hand (with the default opener=winner: the player who
went out, or in a blocked hand the winning pair's player with fewer pips; with
opener=pair_choice that player names which of the pair opens, action open:S; after a void hand
the same seat opens again). The opener lays any tile of its hand (the action is the tile's name,
e.g. 3-5). Then each player in turn lays one tile on either end of the line: the tile must show
the number at that end (action a-b:left or a-b:right), and its other number becomes the new end.
When both ends show the same number a tile goes on the left only. A player passes (pass) only
when no tile of its hand fits either end; passing shows everyone that it holds neither number.

End of a hand. A hand ends when a player lays its last tile (it goes out) or when nobody can lay
a tile (the line is blocked).
- Out: the pair of the player who went out scores the pips left in the other pair's hands
  (scoring=all: in all three other hands).
- Blocked: the pair with fewer pips in hand wins and scores the other pair's pips
  (blocked_scoring=both: both pairs' pips). Equal pips: nobody scores, the hand is void
  (blocked_tie=lowest_hand: the pair holding the single lightest hand wins).

The match. Hands are played until a pair reaches the target (default 100 points) or max_hands
hands were played (then the pair ahead wins; equal scores are a draw). Winners' seats get 1,
losers' 0, a draw 0.5 each.

Optional partner signal (signal=true): before the first decision of each hand, each seat may
send its partner one private code from 0 to 63, whose meaning the pair agrees on beforehand.
"""
