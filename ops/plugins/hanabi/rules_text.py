"""Hanabi's rules, mechanics only, as plain text (the language-model agent's system prompt and the
game's reference page). Written for detente from the rulebook (A. Bauza, Hanabi, 2010), Osawa
(2015) section 3.1 and games/hanabi/rules.py, which is the truth for the variant and its options."""

TEXT = """\
Hanabi (2 to 5 players, cooperative)

Goal. All players are one team. Together you build five fireworks, one per colour: red (R),
yellow (Y), green (G), white (W) and blue (B). Each firework must be built in order 1, 2, 3, 4, 5.
The score is the sum of the fireworks' heights, 0 to 25; every player gets the same score.

Cards. 50 cards: in each colour three 1s, two 2s, two 3s, two 4s and one 5. Each player holds 5
cards (4 with 4 or 5 players; the hand_size option may change this). You see every other
player's cards but never your own (except in the open-hands variant, reveal_own_cards).
Slots in a hand are numbered from 0, oldest card first: when a card leaves a hand, the later
cards move down one slot and the newly drawn card goes into the last slot.

Tokens. The team starts with 8 hint tokens and 3 lives.

A turn. The player to act does exactly one of:
- Hint (hint:T:colour:C or hint:T:rank:R): tell seat T about ALL the cards in its hand of one
  colour C (R, Y, G, W, B) or of one rank R (1 to 5). The hint must touch at least one card.
  It costs a hint token and is not allowed with 0 tokens. The hinted player learns which slots
  have that colour or rank and, implicitly, that the other slots do not.
- Discard (discard:I): discard the card in your slot I face up and regain a hint token. Not
  allowed while the team holds all 8 tokens.
- Play (play:I): play the card in your slot I. If it is the next card of its colour's firework
  (a 1 on an empty firework, a 3 on a 2, ...), it is added to the firework. Otherwise it is
  discarded and the team loses a life. Completing a firework with its 5 returns a hint token
  (unless tokens are full), when completion_bonus is on (the default).
After a play or a discard the player draws a card into the last slot, while the deck lasts.

End. The game ends at once when the last life is lost or all five fireworks are complete.
Otherwise, once the deck is empty, every player (the one who drew the last card included) has
one more turn, and then the game ends. The score is the sum of the fireworks; with the
bomb_out_scores_zero option a game that lost its last life scores 0.

What you know. Everyone sees the fireworks, the discard pile, the tokens, the deck size and all
past moves. For each card, every player knows which colours and ranks the hints so far still
allow for it (a card hinted "red" is red; a card not touched by a "red" hint is not red).
"""
