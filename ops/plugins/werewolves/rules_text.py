"""The rules of detente's Werewolves in plain text: the mechanics only, about a page (the plugin's
`rules_text`: a language-model agent's system prompt, the game's reference page)."""

TEXT = """\
WEREWOLVES (Werewolves of Miller's Hollow, as detente plays it)

Players and sides. N players (seats 0..N-1; default 10: 2 werewolves, 1 seer, 1 doctor, 6 villagers).
Roles are dealt at random and kept secret. The werewolves know each other; nobody else knows anyone's
role but their own. Two sides: the werewolves' (the werewolves, and the possessed where the game has
one) and the village (everyone else).

Turns. Night and day alternate; night k comes before day k (the game starts with night 1 unless set
to start by day). A game ends at the latest after day max_days (default 30) as a draw.

Night. Each living player with a night role acts at the same time, in secret:
- werewolf: votes a victim among the living non-werewolves (`attack:q`); the most-voted target is
  attacked, a tie is drawn by lot, and if every werewolf abstains nobody is attacked. Werewolves
  see one another's night votes.
- seer: inspects another living player (`inspect:q`) and learns at once its role (or, in the AIWolf
  rules, its species: human or werewolf).
- doctor: protects any living player, itself included (`protect:q`); if the attacked player is
  protected the attack fails and the doctor is told it saved them.
- bodyguard (optional role): guards another living player (`guard:q`) the same way, but is never
  told whether the guard held.
Anyone may abstain. In the morning everyone learns who was killed, or that nobody was.

Day. Every living player votes at the same time to eliminate one other living player (`vote:q`), or
abstains; all votes are then shown to everyone. The player with the most votes is eliminated. On a
tie nobody is eliminated (default), or, under the AIWolf rules, the tied players are voted on once
more and a second tie is drawn by lot.

Talk. Before each decision the living players may talk in a few rounds (default 3): by day in
public; at night the werewolves talk among themselves. Talk is claims of a role, reported results,
accusations, proposals of joint votes, and free text; any of it may be a lie. Talk changes nothing
by itself: only actions do.

Deaths. A dead player no longer acts or talks. By default its role is turned face up when it dies;
under the AIWolf rules it stays hidden.

Winning. The village wins when no werewolf is alive. The werewolves' side wins when no other player
is alive (or, under the AIWolf rules, as soon as the living werewolves are at least as many as the
living others). Each player on the winning side scores 1, the others 0; a draw scores 0 for all.

Optional roles (the AIWolf contests). Possessed: on the werewolves' side but a human with no night
action; it does not know the werewolves, nor they it, and a seer sees it as human. Medium: learns
privately the species of each player voted out. AIWolf villages also have no attack on the first
night (only the seer acts).

Actions: `abstain`, `vote:q`, `attack:q`, `inspect:q`, `protect:q`, `guard:q` (q a seat number).
"""
