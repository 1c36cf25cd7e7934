"""Battle Line's rules, mechanics only, as plain text (the language-model agent's system prompt and
the game's reference page). Written for detente from the rules of R. Knizia's Battle Line (GMT Games,
2000) as the seed paper (McCulloch et al., MAICS 2017) and detente's reference notes describe them,
and games/battleline/rules.py, which is the truth for the variant and its options."""

TEXT = """\
Battle Line (2 players)

Cards. 60 troop cards in six colours, red (R), orange (O), yellow (Y), green (G), blue (B) and
purple (P), valued 1 to 10 (named like R10, B3), and 10 tactics cards, one of each (below).
Troops and tactics form two decks. Each player starts with 7 troop cards in hand.

The line. Nine flags, numbered 0 to 8, lie between the players. Each player builds a
formation of 3 cards on its side of a flag (4 under Mud); a side cannot take more cards once
complete.

Formations, strongest first (within a type the higher sum of values wins):
1. Wedge: three consecutive values of one colour (e.g. R8 R9 R10).
2. Phalanx: three of one value (e.g. G7 B7 P7).
3. Battalion: three of one colour.
4. Skirmish line: three consecutive values of any colours.
5. Host: anything else.
Equal formations: the flag goes to the side completed first.

A turn, in order:
1. Claims (default claim_timing=start_of_turn; with after_play they come after step 2): claim
   any flag (claim:N) where your formation is complete and can be proved unbeatable: no cards
   still unseen by you could complete the opponent's side to beat it (or the opponent's side is
   complete and weaker). When only claims remain, done ends them.
2. Play one card from your hand: a troop or morale tactic to your side of an unclaimed flag
   (play:CARD:N), or another tactics card. If you cannot play a troop card, you may pass (pass).
3. Draw one card from either deck (draw:troops or draw:tactics); no draw after a pass. When
   only one deck has cards the draw is automatic.

Tactics cards. You may not play a tactics card while you have played more tactics cards than
the opponent.
- Alexander, Darius (leaders): a wild troop of any colour and value; each player may play only
  one leader.
- Companion Cavalry: a troop of value 8, any colour. Shield Bearers: value 1, 2 or 3, any colour.
- Fog (play:fog:N): formations at flag N do not count; only the sum of values does.
- Mud (play:mud:N): formations at flag N need four cards. If Mud later leaves a flag, a side
  with four cards discards one (discard:CARD; by the owner's choice with the default option).
- Scout (play:scout): draw three cards in any mix of decks, one at a time, then put two cards
  from your hand back on top of their decks (return:CARD); no normal draw that turn.
- Redeploy (play:redeploy:CARD:N or :discard): move one of your cards on an unclaimed flag to
  another of your sides, or discard it.
- Deserter (play:deserter:CARD): discard any one opponent card on an unclaimed flag.
- Traitor (play:traitor:CARD:N): take an opponent's troop card from an unclaimed flag and place
  it on your side of flag N.
Guile cards (Scout, Redeploy, Deserter, Traitor) go face up to their player's discard pile.

Winning. The first player to claim three adjacent flags (a breakthrough) or any five flags (an
envelopment) wins the game. If two turns in a row each end with a pass and no claim, the game ends
(double_pass=draw: drawn; most_flags: the side with more flags wins). In a series of games, a
game's winner scores 5 points and the loser the number of flags it won; the first move
alternates between games, and the match goes to the higher total.
"""
