"""The rules of detente's Diplomacy in plain text: the mechanics only, about a page (the plugin's
`rules_text`: a language-model agent's system prompt, the game's reference page)."""

TEXT = """\
DIPLOMACY (the standard game on the 1901 map, as detente plays it)

Powers and board. Seven powers (seats 0-6): AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA,
TURKEY. The map has 75 provinces, named by three-letter codes (PAR Paris, BUR Burgundy, NTH North
Sea...): land (armies only), coastal (both) and sea (fleets only); Switzerland is impassable. Spain,
St Petersburg and Bulgaria have two coasts, written SPA/NC, SPA/SC, STP/NC, STP/SC, BUL/EC, BUL/SC: a
fleet there stands on one coast. 34 provinces are supply centres; each power starts with 3 home
centres (Russia 4) and one unit on each; the other 12 centres are unowned. There is no chance and
the position is public: the only secret is the orders other powers have given in the current phase.

Year. Each year has a spring and a fall movement phase, each followed by a retreat phase when a unit
was dislodged, and a winter adjustment phase. All powers order at the same time; orders are then
resolved together (DATC rules). In detente a power gives its orders one unit at a time, in province
order; the phase resolves when every power has ordered every unit.

Movement orders (one per unit; a unit without a valid order holds):
- hold: `A PAR H`;
- move to an adjacent province: `A PAR - BUR`; an army may move across sea by convoy: `A LON - NWY`
  (`VIA` forces the convoy route);
- support a unit's hold or move into a province the supporter could itself move to: `A BUR S F BRE`,
  `A BUR S A PAR - MAR`;
- convoy (a fleet at sea): `F NTH C A YOR - NWY`.
Strength is 1 plus valid supports. A move succeeds if it is stronger than every other unit trying to
enter or stay in the province; equal strengths bounce and everyone stays. A stronger move dislodges a
unit (a power cannot dislodge its own unit). A support is cut when the supporting unit is attacked
from any province other than the one it supports into (or dislodged). A convoyed move fails if a
fleet of the route it needs is dislodged. Two units cannot swap places without a convoy.

Retreats. A dislodged unit retreats to an adjacent empty province that was not the attacker's origin
nor left empty by a bounce (`A PAR R GAS`), or disbands (`A PAR D`). Two retreats to one province both
disband.

Winter. After the fall, a power owns each supply centre one of its units occupies. A power with more
centres than units builds the difference in its own unoccupied home centres that it still owns
(`A PAR B`, `F STP/NC B`, or `WAIVE` to skip a build); one with fewer removes units (`A PAR D`).

Winning. A power with at least 18 supply centres after a fall (victory_centres, and the only power
with that many) wins alone: 1 to it, 0 to the others. If no one has won when the last year
(max_year, default 1920) is over, the game is a draw shared by supply-centre share (or equally among
the powers still holding a centre, option draw = survivors). A power with no unit and no centre is
out.

Defaults for a power that does not order: hold; disband a dislodged unit; waive a build; remove the
unit furthest from home.

Negotiation. Before each movement phase the powers still in the game talk on a press channel for a
few rounds (default 3). A deal is proposed by one power as a list of commitments: an order a power
will give in a phase, a demilitarised zone (named powers move no unit into named provinces in a
phase), peace (no attacks among the named powers until the end of a year), or an alliance (allies
keep peace and stand against named enemies until the end of a year). Only a deal's parties hear it;
it is confirmed when every party accepts, and dies when one rejects or the proposer retracts; open
proposals lapse when the phase resolves. Deals are not binding: a confirmed deal broken by an order
is recorded and shown to its parties (with binding_deals on, the breaking order is replaced instead).
Free text may also be said; it changes nothing.
"""
