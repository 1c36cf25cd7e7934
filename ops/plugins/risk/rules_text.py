"""The rules of detente's Risk in plain text: the mechanics only, about a page (the plugin's
`rules_text`: a language-model agent's system prompt, the game's reference page)."""

TEXT = """\
RISK (the classic world map, as detente plays it; the mechanics only)

Board. 42 territories in 6 continents, named by three-letter codes (ALA Alaska, KAM Kamchatka...),
with the continent bonuses North America 5, South America 2, Europe 5, Africa 3, Asia 7, Australia
2. Territories next to each other (some across the sea, e.g. Alaska-Kamchatka) are adjacent. Every
territory always holds at least one army of its owner.

Players. 2 to 6 (p0, p1, ...), each starting with 40, 35, 30, 25 or 20 armies (for 2..6 players).
With 2 players a neutral (N) also holds territories: 14 at the start and 40 armies; it never attacks
or reinforces, always defends with the most dice, and need not be eliminated.

Set-up. Either the players claim the territories one at a time from p0 in seat order until all
are taken (drafted, the default), or they are dealt at random. Then the players place their other
armies one at a time, in turn, on their own territories (with 2 players each set-up turn places two
own armies and one neutral army on a neutral territory).

A turn (p0 first, then in seat order) has three phases:
1. Reinforce: receive max(3, territories held / 3, rounded down) armies, plus the bonus of every
   continent held entirely, and place them on your territories (`place:T:n`, n a power of two or
   all that is left, so any split takes a few steps).
2. Attack, as often as you like: from a territory with at least 2 armies against an adjacent enemy
   territory (`attack:F,T,d`), rolling d dice, 1 to 3 and at most the attacking armies minus one.
   The defender rolls 2 dice if it has 2 or more armies, else 1 (or, in the variant where the
   defender chooses, `defend:1` or `defend:2`). The highest dice are compared pair by pair; each
   pair's lower die loses one army, and the defender wins ties. When the territory has no army
   left it is conquered: move in at least as many armies as the dice rolled (`move:n`), leaving at
   least one behind. `end` stops attacking.
3. Fortify, once: move armies from one of your territories to an adjacent one of yours
   (`fortify:F,T`, then `move:n`, leaving at least one behind), or `end` to skip. In the variant
   `connected`, the target may be any of your territories linked through your own territories.
A decision with only one possible answer is made by the rules without asking.

Cards (variant, off by default). 44 cards: one per territory, each showing infantry, cavalry or
artillery, and 2 wilds. A turn with at least one conquest ends with drawing a card. Three cards of
one symbol, one of each symbol, or any two with a wild make a set, traded in the reinforce phase
(`trade:X,Y,Z`) for 4, 6, 8, 10, 12, 15 armies, then 5 more each time (counted over all players).
The first set traded in a turn that shows a territory you hold puts 2 extra armies there. With 5 or
more cards you must trade. Eliminating a player takes its cards; reaching 6 or more that way, you
trade at once down to 4 or fewer and place those armies before attacking on. Hands are secret;
their sizes, the discards and the draw pile's size are public.

End. A player who holds no territory is eliminated. The last player standing wins (score 1, the
others 0). After max_rounds rounds (default 200; a round is one turn of every living player) the
game is a draw shared equally by the survivors.
"""
