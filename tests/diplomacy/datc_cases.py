"""DATC v2.4 (L. Kruijswijk, Diplomacy Adjudicator Test Cases) sections 6.A to 6.J as tables.

Each case names its DATC id; the expected outcome is the DATC's preferred one (the 2000 rulebook,
the 1982/2000 rule for convoys to adjacent places, the Szykman rule for convoy paradoxes). An order
the rules cannot give is rejected ("void") and its unit holds. Syntax: see `datc_runner.py`.
VARIANT_CASES holds the cases where the explicit-adjacent-convoy variant (option datc="3.0")
differs: an adjacent move then uses a convoy only when ordered VIA.
"""

CASES = """
== 6.A.1 moving to an area that is not a neighbour
E: F NTH - PIC
=> F NTH void; F NTH @E
== 6.A.2 move army to sea
E: A LVP - IRI
=> A LVP void; A LVP @E
== 6.A.3 move fleet to land
G: F KIE - MUN
=> F KIE void; F KIE @G
== 6.A.4 move to own sector
G: F KIE - KIE
=> F KIE void; F KIE @G
== 6.A.5 move to own sector with convoy
E: F NTH C A YOR - YOR; A YOR - YOR; A LVP S A YOR - YOR
G: F LON - YOR; A WAL S F LON - YOR
=> A YOR void; A YOR dislodged; A LVP void; F YOR @G; F LON ok
== 6.A.6 ordering a unit of another country
units E: F LON
G: F LON - NTH
=> F LON void; F LON @E
== 6.A.7 only armies can be convoyed
E: F LON - BEL; F NTH C A LON - BEL
=> F LON void; F NTH void; F LON @E
== 6.A.8 support to hold yourself is not possible
I: A VEN - TRI; A TYR S A VEN - TRI
A: F TRI S F TRI
=> F TRI void; F TRI dislodged; A TRI @I
== 6.A.9 fleets must follow coast if not on sea
I: F ROM - VEN
=> F ROM void; F ROM @I
== 6.A.10 support on unreachable destination not possible
A: A VEN H
I: F ROM S A APU - VEN; A APU - VEN
=> F ROM void; A APU bounce; A VEN @A
== 6.A.11 simple bounce
A: A VIE - TYR
I: A VEN - TYR
=> A VIE bounce; A VEN bounce; A VIE @A; A VEN @I
== 6.A.12 bounce of three units
A: A VIE - TYR
G: A MUN - TYR
I: A VEN - TYR
=> A VIE bounce; A MUN bounce; A VEN bounce; A TYR @-

== 6.B.1 moving with unspecified coast when coast is necessary
F: F POR - SPA
=> F POR void; F POR @F
== 6.B.2 moving with unspecified coast when coast is not necessary
F: F GAS - SPA
=> F SPA/NC @F
== 6.B.3 moving with wrong coast when coast is not necessary
F: F GAS - SPA/SC
=> F GAS void; F GAS @F
== 6.B.4 support to unreachable coast allowed
F: F GAS - SPA/NC; F MAR S F GAS - SPA/NC
I: F WES - SPA/SC
=> F MAR ok; F SPA/NC @F; F WES bounce
== 6.B.5 support from unreachable coast not allowed
F: F MAR - LYO; F SPA/NC S F MAR - LYO
I: F LYO H
=> F SPA void; F MAR bounce; F LYO @I
== 6.B.6 support can be cut with other coast
E: F IRI S F NAO - MAO; F NAO - MAO
F: F SPA/NC S F MAO; F MAO H
I: F LYO - SPA/SC
=> F SPA cut; F MAO dislodged; F MAO @E
== 6.B.7 supporting with unspecified coast
F: F POR S F MAO - SPA; F MAO - SPA/NC
I: F LYO S F WES - SPA/SC; F WES - SPA/SC
=> F POR ok; F MAO bounce; F WES bounce; F MAO @F; F WES @I
== 6.B.8 supporting with unspecified coast when only one coast is possible
F: F POR S F GAS - SPA; F GAS - SPA/NC
I: F LYO S F WES - SPA/SC; F WES - SPA/SC
=> F POR ok; F GAS bounce; F WES bounce; F GAS @F; F WES @I
== 6.B.9 supporting with wrong coast
F: F POR S F MAO - SPA/NC; F MAO - SPA/SC
I: F LYO S F WES - SPA/SC; F WES - SPA/SC
=> F POR void; F MAO bounce; F SPA/SC @I
== 6.B.10 unit ordered with wrong coast
units F: F SPA/SC
F: F SPA/NC - LYO
=> F LYO @F
== 6.B.11 coast can not be ordered to change
units F: F SPA/NC
F: F SPA/SC - LYO
=> F SPA void; F SPA/NC @F
== 6.B.12 army movement with coastal specification
F: A GAS - SPA/NC
=> A SPA @F
== 6.B.13 coastal crawl not allowed
T: F BUL/SC - CON; F CON - BUL/EC
=> F BUL bounce; F CON bounce; F BUL/SC @T; F CON @T
== 6.B.14 building with unspecified coast
phase W1901A
centres R: MOS SEV STP WAR
units R: A MOS, F SEV, A WAR
R: F STP B
=> F STP void; F STP/NC @-; F STP/SC @-; count R 3

== 6.C.1 three army circular movement
T: F ANK - CON; A CON - SMY; A SMY - ANK
=> F CON @T; A SMY @T; A ANK @T
== 6.C.2 three army circular movement with support
T: F ANK - CON; A CON - SMY; A SMY - ANK; A BUL S F ANK - CON
=> F CON @T; A SMY @T; A ANK @T
== 6.C.3 a disrupted three army circular movement
T: F ANK - CON; A CON - SMY; A SMY - ANK; A BUL - CON
=> F ANK @T; A CON @T; A SMY @T; A BUL @T
== 6.C.4 a circular movement with attacked convoy
A: A TRI - SER; A SER - BUL
T: A BUL - TRI; F AEG C A BUL - TRI; F ION C A BUL - TRI; F ADR C A BUL - TRI
I: F NAP - ION
=> A SER @A; A BUL @A; A TRI @T; F ION @T
== 6.C.5 a disrupted circular movement due to dislodged convoy
A: A TRI - SER; A SER - BUL
T: A BUL - TRI; F AEG C A BUL - TRI; F ION C A BUL - TRI; F ADR C A BUL - TRI
I: F NAP - ION; F TUN S F NAP - ION
=> A TRI @A; A SER @A; A BUL @T; F ION @I; F ION dislodged
== 6.C.6 two armies with two convoys
E: F NTH C A LON - BEL; A LON - BEL
F: F ENG C A BEL - LON; A BEL - LON
=> A BEL @E; A LON @F
== 6.C.7 disrupted unit swap
E: F NTH C A LON - BEL; A LON - BEL
F: F ENG C A BEL - LON; A BEL - LON; A BUR - BEL
=> A LON @E; A BEL @F; A BUR @F

== 6.D.1 supported hold can prevent dislodgement
A: F ADR S A TRI - VEN; A TRI - VEN
I: A VEN H; A TYR S A VEN
=> A VEN @I; A TRI @A; A TRI bounce
== 6.D.2 a move cuts support on hold
A: F ADR S A TRI - VEN; A TRI - VEN; A VIE - TYR
I: A VEN H; A TYR S A VEN
=> A TYR cut; A VEN dislodged; A VEN @A
== 6.D.3 a move cuts support on move
A: F ADR S A TRI - VEN; A TRI - VEN
I: A VEN H; F ION - ADR
=> F ADR cut; A VEN @I; A TRI @A
== 6.D.4 support to hold on unit supporting a hold allowed
G: A BER S F KIE; F KIE S A BER
R: F BAL S A PRU - BER; A PRU - BER
=> A PRU bounce; A BER @G
== 6.D.5 support to hold on unit supporting a move allowed
G: A BER S A MUN - SIL; F KIE S A BER; A MUN - SIL
R: F BAL S A PRU - BER; A PRU - BER
=> A PRU bounce; A BER @G; A SIL @G
== 6.D.6 support to hold on convoying unit allowed
G: A BER - SWE; F BAL C A BER - SWE; F PRU S F BAL
R: F LVN - BAL; F BOT S F LVN - BAL
=> F LVN bounce; F BAL @G; A SWE @G
== 6.D.7 support to hold on moving unit not allowed
G: F BAL - SWE; F PRU S F BAL
R: F LVN - BAL; F BOT S F LVN - BAL; A FIN - SWE
=> F PRU void; F BAL dislodged; F BAL @R
== 6.D.8 failed convoy can not receive hold support
A: F ION H; A SER S A ALB - GRE; A ALB - GRE
T: A GRE - NAP; A BUL S A GRE
=> A BUL void; A GRE dislodged; A GRE @A
== 6.D.9 support to move on holding unit not allowed
I: A VEN - TRI; A TYR S A VEN - TRI
A: A ALB S A TRI - SER; A TRI H
=> A ALB void; A TRI dislodged; A TRI @I
== 6.D.10 self dislodgment prohibited
G: A BER H; F KIE - BER; A MUN S F KIE - BER
=> F KIE bounce; A BER @G; F KIE @G
== 6.D.11 no self dislodgment of returning unit
G: A BER - PRU; F KIE - BER; A MUN S F KIE - BER
R: A WAR - PRU
=> A BER bounce; A BER @G; F KIE @G
== 6.D.12 supporting a foreign unit to dislodge own unit prohibited
A: F TRI H; A VIE S A VEN - TRI
I: A VEN - TRI
=> F TRI @A; A VEN bounce
== 6.D.13 supporting a foreign unit to dislodge a returning own unit prohibited
A: F TRI - ADR; A VIE S A VEN - TRI
I: A VEN - TRI; F APU - ADR
=> F TRI @A; A VEN bounce
== 6.D.14 supporting a foreign unit is not enough to prevent dislodgement
A: F TRI H; A VIE S A VEN - TRI
I: A VEN - TRI; A TYR S A VEN - TRI; F ADR S A VEN - TRI
=> F TRI dislodged; A TRI @I
== 6.D.15 defender can not cut support for attack on itself
R: F CON S F BLA - ANK; F BLA - ANK
T: F ANK - CON
=> F CON ok; F ANK dislodged; F ANK @R
== 6.D.16 convoying a unit dislodging a unit of same power is allowed
E: A LON H; F NTH C A BEL - LON
F: F ENG S A BEL - LON; A BEL - LON
=> A LON dislodged; A LON @F
== 6.D.17 dislodgement cuts supports
R: F CON S F BLA - ANK; F BLA - ANK
T: F ANK - CON; A SMY S F ANK - CON; A ARM - ANK
=> F CON dislodged; F CON @T; F BLA bounce; F BLA @R; A ARM bounce
== 6.D.18 a surviving unit will sustain support
R: F CON S F BLA - ANK; F BLA - ANK; A BUL S F CON
T: F ANK - CON; A SMY S F ANK - CON; A ARM - ANK
=> F ANK dislodged; F ANK @R; F CON @R
== 6.D.19 even when surviving is in alternative way
R: F CON S F BLA - ANK; F BLA - ANK; A SMY S F ANK - CON
T: F ANK - CON
=> F ANK dislodged; F ANK @R; F CON @R
== 6.D.20 unit can not cut support of its own country
E: F LON S F NTH - ENG; F NTH - ENG; A YOR - LON
F: F ENG H
=> F LON ok; F ENG dislodged; F ENG @E
== 6.D.21 dislodging does not cancel a support cut
A: F TRI H
I: A VEN - TRI; A TYR S A VEN - TRI
G: A MUN - TYR
R: A SIL - MUN; A BER S A SIL - MUN
=> A TYR cut; F TRI @A; A MUN @R; A MUN dislodged
== 6.D.22 impossible fleet move can not be supported
G: F KIE - MUN; A BUR S F KIE - MUN
R: A MUN - KIE; A BER S A MUN - KIE
=> F KIE void; A BUR void; F KIE dislodged; A KIE @R
== 6.D.23 impossible coast move can not be supported
I: F LYO - SPA/SC; F WES S F LYO - SPA/SC
F: F SPA/NC - LYO; F MAR S F SPA/NC - LYO
=> F MAR void; F SPA dislodged; F SPA/SC @I
== 6.D.24 impossible army move can not be supported
F: A MAR - LYO; F SPA/SC S A MAR - LYO
I: F LYO H
T: F TYS S F WES - LYO; F WES - LYO
=> A MAR void; F SPA void; F LYO dislodged; F LYO @T
== 6.D.25 failing hold support can be supported
G: A BER S A PRU; F KIE S A BER
R: F BAL S A PRU - BER; A PRU - BER
=> A BER void; A PRU bounce; A BER @G
== 6.D.26 failing move support can be supported
G: A BER S A PRU - SIL; F KIE S A BER
R: F BAL S A PRU - BER; A PRU - BER
=> A BER void; A PRU bounce; A BER @G
== 6.D.27 failing convoy can be supported
E: F SWE - BAL; F DEN S F SWE - BAL
G: A BER H
R: F BAL C A BER - LVN; F PRU S F BAL
=> F BAL void; F SWE bounce; F BAL @R
== 6.D.28 impossible move and support
A: A BUD S F RUM
R: F RUM - HOL
T: F BLA - RUM; A BUL S F BLA - RUM
=> F RUM void; F BLA bounce; F RUM @R
== 6.D.29 move to impossible coast and support
A: A BUD S F RUM
R: F RUM - BUL/SC
T: F BLA - RUM; A BUL S F BLA - RUM
=> F RUM void; F BLA bounce; F RUM @R
== 6.D.30 move without coast and support
I: F AEG S F CON
R: F CON - BUL
T: F BLA - CON; A BUL S F BLA - CON
=> F CON void; F BLA bounce; F CON @R
== 6.D.31 a tricky impossible support
A: A RUM - ARM
T: F BLA S A RUM - ARM
=> F BLA void; A RUM no convoy; A RUM @A
== 6.D.32 a missing fleet
E: F EDI S A LVP - YOR; A LVP - YOR
F: F LON S A YOR
G: A YOR - HOL
=> A YOR void; A LVP bounce; A YOR @G
== 6.D.33 unwanted support allowed
A: A SER - BUD; A VIE - BUD
R: A GAL S A SER - BUD
T: A BUL - SER
=> A BUD @A; A SER @T; A VIE @A; A VIE bounce
== 6.D.34 support targeting own area not allowed
G: A BER - PRU; A SIL S A BER - PRU; F BAL S A BER - PRU
I: A PRU S A LVN - PRU
R: A WAR S A LVN - PRU; A LVN - PRU
=> A PRU void; A PRU dislodged; A PRU @G; A LVN bounce

== 6.E.1 dislodged unit has no effect on attackers area
G: A BER - PRU; F KIE - BER; A SIL S A BER - PRU
R: A PRU - BER
=> A PRU @G; F BER @G; A PRU dislodged
== 6.E.2 no self dislodgement in head to head battle
G: A BER - KIE; F KIE - BER; A MUN S A BER - KIE
=> A BER bounce; F KIE bounce; A BER @G; F KIE @G
== 6.E.3 no help in dislodging own unit
G: A BER - KIE; A MUN S F KIE - BER
E: F KIE - BER
=> A BER @G; F KIE @E
== 6.E.4 non-dislodged loser has still effect
G: F HOL - NTH; F HEL S F HOL - NTH; F SKA S F HOL - NTH
F: F NTH - HOL; F BEL S F NTH - HOL
E: F EDI S F NWG - NTH; F YOR S F NWG - NTH; F NWG - NTH
A: A KIE S A RUH - HOL; A RUH - HOL
=> F NTH @F; F HOL @G; A RUH @A; F NWG @E
== 6.E.5 loser dislodged by another army has still effect
G: F HOL - NTH; F HEL S F HOL - NTH; F SKA S F HOL - NTH
F: F NTH - HOL; F BEL S F NTH - HOL
E: F EDI S F NWG - NTH; F YOR S F NWG - NTH; F NWG - NTH; F LON S F NWG - NTH
A: A KIE S A RUH - HOL; A RUH - HOL
=> F NTH dislodged; F NTH @E; F HOL @G; A RUH @A
== 6.E.6 not dislodge because of own support has still effect
G: F HOL - NTH; F HEL S F HOL - NTH
F: F NTH - HOL; F BEL S F NTH - HOL; F ENG S F HOL - NTH
A: A KIE S A RUH - HOL; A RUH - HOL
=> F NTH @F; F HOL @G; A RUH @A
== 6.E.7 no self dislodgement with beleaguered garrison
E: F NTH H; F YOR S F NWY - NTH
G: F HOL S F HEL - NTH; F HEL - NTH
R: F SKA S F NWY - NTH; F NWY - NTH
=> F NTH @E; F NWY @R; F HEL @G
== 6.E.8 no self dislodgement with beleaguered garrison and head to head battle
E: F NTH - NWY; F YOR S F NWY - NTH
G: F HOL S F HEL - NTH; F HEL - NTH
R: F SKA S F NWY - NTH; F NWY - NTH
=> F NTH @E; F NWY @R; F HEL @G
== 6.E.9 almost self dislodgement with beleaguered garrison
E: F NTH - NWG; F YOR S F NWY - NTH
G: F HOL S F HEL - NTH; F HEL - NTH
R: F SKA S F NWY - NTH; F NWY - NTH
=> F NWG @E; F NTH @R; F HEL @G
== 6.E.10 almost circular movement with no self dislodgement with beleaguered garrison
E: F NTH - DEN; F YOR S F NWY - NTH
G: F HOL S F HEL - NTH; F HEL - NTH; F DEN - HEL
R: F SKA S F NWY - NTH; F NWY - NTH
=> F NTH @E; F DEN @G; F HEL @G; F NWY @R
== 6.E.11 no self dislodgement with beleaguered garrison, unit swap with adjacent convoying and two coasts
F: A SPA - POR VIA; F MAO C A SPA - POR; F LYO S F POR - SPA/NC
G: A MAR S A GAS - SPA; A GAS - SPA
I: F POR - SPA/NC; F WES S F POR - SPA/NC
=> A POR @F; F SPA/NC @I; A GAS @G
== 6.E.12 support on attack on own unit can be used for other means
A: A BUD - RUM; A SER S A VIE - BUD
I: A VIE - BUD
R: A GAL - BUD; A RUM S A GAL - BUD
=> A BUD @A; A VIE @I; A GAL @R; A RUM @R
== 6.E.13 three way beleaguered garrison
E: F EDI S F YOR - NTH; F YOR - NTH
F: F BEL - NTH; F ENG S F BEL - NTH
G: F NTH H
R: F NWG - NTH; F NWY S F NWG - NTH
=> F NTH @G; F YOR @E; F BEL @F; F NWG @R
== 6.E.14 illegal head to head battle can still defend
E: A LVP - EDI
R: F EDI - LVP
=> F EDI void; A LVP bounce; A LVP @E; F EDI @R
== 6.E.15 the friendly head to head battle
E: F HOL S A RUH - KIE; A RUH - KIE
F: A KIE - BER; A MUN S A KIE - BER; A SIL S A KIE - BER
G: A BER - KIE; F DEN S A BER - KIE; F HEL S A BER - KIE
R: F BAL S A PRU - BER; A PRU - BER
=> A KIE @F; A BER @G; A RUH @E; A PRU @R

== 6.F.1 no convoy in coastal areas
T: A GRE - SEV; F AEG C A GRE - SEV; F CON C A GRE - SEV; F BLA C A GRE - SEV
=> F CON void; A GRE @T; A SEV @-
== 6.F.2 an army being convoyed can bounce as normal
E: F ENG C A LON - BRE; A LON - BRE
F: A PAR - BRE
=> A LON bounce; A PAR bounce; A LON @E; A PAR @F
== 6.F.3 an army being convoyed can receive support
E: F ENG C A LON - BRE; A LON - BRE; F MAO S A LON - BRE
F: A PAR - BRE
=> A BRE @E; A PAR @F
== 6.F.4 an attacked convoy is not disrupted
E: F NTH C A LON - HOL; A LON - HOL
G: F SKA - NTH
=> A HOL @E
== 6.F.5 a beleaguered convoy is not disrupted
E: F NTH C A LON - HOL; A LON - HOL
F: F ENG - NTH; F BEL S F ENG - NTH
G: F SKA - NTH; F DEN S F SKA - NTH
=> A HOL @E; F NTH @E
== 6.F.6 dislodged convoy does not cut support
E: F NTH C A LON - HOL; A LON - HOL
G: A HOL S A BEL; A BEL S A HOL; F HEL S F SKA - NTH; F SKA - NTH
F: A PIC - BEL; A BUR S A PIC - BEL
=> A LON no convoy; A BEL @G; A HOL @G; A LON @E; F NTH @G
== 6.F.7 dislodged convoy does not cause contested area
E: F NTH C A LON - HOL; A LON - HOL
G: F HEL S F SKA - NTH; F SKA - NTH
=> F NTH dislodged; retreat F NTH: HOL
E: F NTH R HOL
=> F HOL @E
== 6.F.8 dislodged convoy does not cause a bounce
E: F NTH C A LON - HOL; A LON - HOL
G: F HEL S F SKA - NTH; F SKA - NTH; A BEL - HOL
=> A HOL @G; A LON @E
== 6.F.9 dislodge of multi-route convoy
E: F ENG C A LON - BEL; F NTH C A LON - BEL; A LON - BEL
F: F BRE S F MAO - ENG; F MAO - ENG
=> A BEL @E; F ENG @F
== 6.F.10 dislodge of multi-route convoy with foreign fleet
E: F NTH C A LON - BEL; A LON - BEL
G: F ENG C A LON - BEL
F: F BRE S F MAO - ENG; F MAO - ENG
=> A BEL @E; F ENG @F
== 6.F.11 dislodge of multi-route convoy with only foreign fleets
E: A LON - BEL
G: F ENG C A LON - BEL
R: F NTH C A LON - BEL
F: F BRE S F MAO - ENG; F MAO - ENG
=> A BEL @E; F ENG @F
== 6.F.12 dislodged convoying fleet not on route
E: F ENG C A LON - BEL; A LON - BEL; F IRI C A LON - BEL
F: F NAO S F MAO - IRI; F MAO - IRI
=> A BEL @E; F IRI @F
== 6.F.13 the unwanted alternative
E: A LON - BEL; F NTH C A LON - BEL
F: F ENG C A LON - BEL
G: F HOL S F DEN - NTH; F DEN - NTH
=> A BEL @E; F NTH @G
== 6.F.14 simple convoy paradox
E: F LON S F WAL - ENG; F WAL - ENG
F: A BRE - LON; F ENG C A BRE - LON
=> F LON ok; F ENG dislodged; F ENG @E; A BRE @F; F LON @E
== 6.F.15 simple convoy paradox with additional convoy
E: F LON S F WAL - ENG; F WAL - ENG
F: A BRE - LON; F ENG C A BRE - LON
I: F IRI C A NAF - WAL; F MAO C A NAF - WAL; A NAF - WAL
=> F ENG @E; A WAL @I; A BRE @F; F LON @E
== 6.F.16 pandin's paradox
E: F LON S F WAL - ENG; F WAL - ENG
F: A BRE - LON; F ENG C A BRE - LON
G: F NTH S F BEL - ENG; F BEL - ENG
=> F LON ok; F ENG @F; F WAL @E; F BEL @G; A BRE @F; F LON @E
== 6.F.17 pandin's extended paradox
E: F LON S F WAL - ENG; F WAL - ENG
F: A BRE - LON; F ENG C A BRE - LON; F YOR S A BRE - LON
G: F NTH S F BEL - ENG; F BEL - ENG
=> F LON @E; F ENG @F; A BRE @F; F WAL @E; F BEL @G
== 6.F.18 betrayal paradox
E: F NTH C A LON - BEL; A LON - BEL; F ENG S A LON - BEL
F: F BEL S F NTH
G: F HEL S F SKA - NTH; F SKA - NTH
=> F NTH @E; A LON @E; F BEL @F; F SKA @G
== 6.F.19 multi-route convoy disruption paradox
F: A TUN - NAP; F TYS C A TUN - NAP; F ION C A TUN - NAP
I: F NAP S F ROM - TYS; F ROM - TYS
=> F NAP cut; F TYS @F; F ROM @I; A TUN @F; F NAP @I
== 6.F.20 unwanted multi-route convoy paradox
F: A TUN - NAP; F TYS C A TUN - NAP
I: F NAP S F ION; F ION C A TUN - NAP
T: F AEG S F EAS - ION; F EAS - ION
=> F NAP cut; F ION dislodged; F ION @T; A TUN @F
== 6.F.21 dad's army convoy
R: A EDI S A NWY - CLY; F NWG C A NWY - CLY; A NWY - CLY
F: F IRI S F MAO - NAO; F MAO - NAO
E: A LVP - CLY VIA; F NAO C A LVP - CLY; F CLY S F NAO
=> F CLY cut; F NAO dislodged; F NAO @F; A CLY @R
== 6.F.22 second order paradox with two resolutions
E: F EDI - NTH; F LON S F EDI - NTH
F: A BRE - LON; F ENG C A BRE - LON
G: F BEL S F PIC - ENG; F PIC - ENG
R: A NWY - BEL; F NTH C A NWY - BEL
=> F NTH @E; F ENG @G; A BRE @F; A NWY @R; F LON @E; F BEL @G
== 6.F.23 second order paradox with two exclusive convoys
E: F EDI - NTH; F YOR S F EDI - NTH
F: A BRE - LON; F ENG C A BRE - LON
G: F BEL S F ENG; F LON S F NTH
I: F MAO - ENG; F IRI S F MAO - ENG
R: A NWY - BEL; F NTH C A NWY - BEL
=> F EDI @E; F NTH @R; F ENG @F; F MAO @I; A BRE @F; A NWY @R
== 6.F.24 second order paradox with no resolution
E: F EDI - NTH; F LON S F EDI - NTH; F IRI - ENG; F MAO S F IRI - ENG
F: A BRE - LON; F ENG C A BRE - LON; F BEL S F ENG
R: A NWY - BEL; F NTH C A NWY - BEL
=> F NTH @E; F ENG @F; A BRE @F; A NWY @R; F IRI @E

== 6.G.1 two units can swap places by convoy
E: A NWY - SWE; F SKA C A NWY - SWE
R: A SWE - NWY
=> A SWE @E; A NWY @R
== 6.G.2 kidnapping an army
E: A NWY - SWE
R: F SWE - NWY
G: F SKA C A NWY - SWE
=> A NWY @E; F SWE @R
== 6.G.3 kidnapping with a disrupted convoy
F: F BRE - ENG; A PIC - BEL; A BUR S A PIC - BEL; F MAO S F BRE - ENG
E: F ENG C A PIC - BEL
=> A BEL @F; F ENG @F; F ENG dislodged
== 6.G.4 kidnapping with a disrupted convoy and opposite move
F: F BRE - ENG; A PIC - BEL; A BUR S A PIC - BEL; F MAO S F BRE - ENG
E: F ENG C A PIC - BEL; A BEL - PIC
=> A BEL @F; A BEL dislodged; F ENG @F
== 6.G.5 swapping with intent
I: A ROM - APU; F TYS C A APU - ROM
T: A APU - ROM; F ION C A APU - ROM
=> A ROM @T; A APU @I
== 6.G.6 swapping with unintended intent
E: A LVP - EDI; F ENG C A LVP - EDI
G: A EDI - LVP
F: F IRI H; F NTH H
R: F NWG C A LVP - EDI; F NAO C A LVP - EDI
=> A EDI @E; A LVP @G
== 6.G.7 swapping with illegal intent
E: F SKA C A SWE - NWY; F NWY - SWE
R: A SWE - NWY; F BOT C A SWE - NWY
=> F BOT void; F NWY @E; A SWE @R
== 6.G.8 explicit convoy that isn't there
F: A BEL - HOL VIA
E: F NTH - HEL; A HOL - KIE
=> A HOL @F; F HEL @E; A KIE @E
== 6.G.9 swapped or dislodged?
E: A NWY - SWE; F SKA C A NWY - SWE; F FIN S A NWY - SWE
R: A SWE - NWY
=> A SWE @E; A NWY @R
== 6.G.10 swapped or an head to head battle?
E: A NWY - SWE VIA; F DEN S A NWY - SWE; F FIN S A NWY - SWE
G: F SKA C A NWY - SWE
R: A SWE - NWY; F BAR S A SWE - NWY
F: F NWG - NWY; F NTH S F NWG - NWY
=> A SWE @E; A SWE dislodged; F NWG @F; F NWG bounce; A NWY @-; F NWY @-
== 6.G.11 a convoy to an adjacent place with a paradox
E: F NWY S F NTH - SKA; F NTH - SKA
R: A SWE - NWY; F SKA C A SWE - NWY; F BAR S A SWE - NWY
=> F SKA dislodged; F SKA @E; A SWE @R; F NWY @E
== 6.G.12 swapping two units with two convoys
E: A LVP - EDI VIA; F NAO C A LVP - EDI; F NWG C A LVP - EDI
G: A EDI - LVP VIA; F NTH C A EDI - LVP; F ENG C A EDI - LVP; F IRI C A EDI - LVP
=> A EDI @E; A LVP @G
== 6.G.13 support cut on attack on itself via convoy
A: F ADR C A TRI - VEN; A TRI - VEN VIA
I: A VEN S F ALB - TRI; F ALB - TRI
=> A VEN ok; A TRI dislodged; F TRI @I; A VEN @I
== 6.G.14 bounce by convoy to adjacent place
E: A NWY - SWE; F DEN S A NWY - SWE; F FIN S A NWY - SWE
F: F NWG - NWY; F NTH S F NWG - NWY
G: F SKA C A SWE - NWY
R: A SWE - NWY VIA; F BAR S A SWE - NWY
=> A SWE @E; A SWE dislodged; F NWG bounce; F NWG @F; A NWY @-
== 6.G.15 bounce and dislodge with double convoy
E: F NTH C A LON - BEL; A HOL S A LON - BEL; A YOR - LON; A LON - BEL VIA
F: F ENG C A BEL - LON; A BEL - LON VIA
=> A BEL @E; A BEL dislodged; A YOR @E; A YOR bounce; A LON @-
== 6.G.16 the two unit in one area bug, moving by convoy
E: A NWY - SWE; A DEN S A NWY - SWE; F BAL S A NWY - SWE; F NTH - NWY
R: A SWE - NWY VIA; F SKA C A SWE - NWY; F NWG S A SWE - NWY
=> A SWE @E; A NWY @R; F NTH @E; F NTH bounce
== 6.G.17 the two unit in one area bug, moving over land
E: A NWY - SWE VIA; A DEN S A NWY - SWE; F BAL S A NWY - SWE; F SKA C A NWY - SWE; F NTH - NWY
R: A SWE - NWY; F NWG S A SWE - NWY
=> A SWE @E; A NWY @R; F NTH @E; F NTH bounce
== 6.G.18 the two unit in one area bug, with double convoy
E: F NTH C A LON - BEL; A HOL S A LON - BEL; A YOR - LON; A LON - BEL; A RUH S A LON - BEL
F: F ENG C A BEL - LON; A BEL - LON; A WAL S A BEL - LON
=> A BEL @E; A LON @F; A YOR @E; A YOR bounce

== 6.H.1 no supports during retreat
A: F TRI H; A SER H
T: F GRE H
I: A VEN S A TYR - TRI; A TYR - TRI; F ION - GRE; F AEG S F ION - GRE
=> F TRI dislodged; F GRE dislodged
A: F TRI R ALB; A SER S F TRI - ALB
T: F GRE R ALB
=> A SER void; F TRI bounce; F GRE bounce; F ALB @-
== 6.H.2 no supports from retreating unit
E: A LVP - EDI; F YOR S A LVP - EDI; F NWY H
G: A KIE S A RUH - HOL; A RUH - HOL
R: F EDI H; A SWE S A FIN - NWY; A FIN - NWY; F HOL H
=> F NWY dislodged; F EDI dislodged; F HOL dislodged
E: F NWY R NTH
R: F EDI R NTH; F HOL S F EDI - NTH
=> F HOL void; F NWY bounce; F EDI bounce; F NTH @-; count R 2; count E 2
== 6.H.3 no convoy during retreat
E: F NTH H; A HOL H
G: F KIE S A RUH - HOL; A RUH - HOL
=> A HOL dislodged
E: A HOL R YOR; F NTH C A HOL - YOR
=> A HOL void; F NTH void; A YOR @-; A HOL @G; count E 1
== 6.H.4 no other moves during retreat
E: F NTH H; A HOL H
G: F KIE S A RUH - HOL; A RUH - HOL
=> A HOL dislodged
E: A HOL R BEL; F NTH - NWG
=> F NTH void; A BEL @E; F NTH @E; F NWG @-
== 6.H.5 a unit may not retreat to the area from which it is attacked
R: F CON S F BLA - ANK; F BLA - ANK
T: F ANK H
=> F ANK dislodged; noretreat F ANK: BLA; retreat F ANK: ARM
== 6.H.6 unit may not retreat to a contested area
A: A BUD S A TRI - VIE; A TRI - VIE
G: A MUN - BOH; A SIL - BOH
I: A VIE H
=> A VIE dislodged; noretreat A VIE: BOH; retreat A VIE: GAL
== 6.H.7 multiple retreat to same area will disband units
A: A BUD S A TRI - VIE; A TRI - VIE
G: A MUN S A SIL - BOH; A SIL - BOH
I: A VIE H; A BOH H
=> A VIE dislodged; A BOH dislodged
I: A BOH R TYR; A VIE R TYR
=> A BOH bounce; A VIE disband; A TYR @-; count I 0
== 6.H.8 triple retreat to same area will disband units
E: A LVP - EDI; F YOR S A LVP - EDI; F NWY H
G: A KIE S A RUH - HOL; A RUH - HOL
R: F EDI H; A SWE S A FIN - NWY; A FIN - NWY; F HOL H
=> F NWY dislodged; F EDI dislodged; F HOL dislodged
E: F NWY R NTH
R: F EDI R NTH; F HOL R NTH
=> F NWY disband; F EDI disband; F HOL disband; F NTH @-
== 6.H.9 dislodged unit will not make attackers area contested
E: F HEL - KIE; F DEN S F HEL - KIE
G: A BER - PRU; F KIE H; A SIL S A BER - PRU
R: A PRU - BER
=> F KIE dislodged; retreat F KIE: BER
== 6.H.10 not retreating to attacker does not mean contested
E: A KIE H
G: A BER - KIE; A MUN S A BER - KIE; A PRU H
R: A WAR - PRU; A SIL S A WAR - PRU
=> A KIE dislodged; A PRU dislodged; noretreat A KIE: BER; retreat A PRU: BER
E: A KIE R BER
G: A PRU R BER
=> A KIE void; A BER @G
== 6.H.11 retreat when dislodged by adjacent convoy
F: A GAS - MAR VIA; A BUR S A GAS - MAR; F MAO C A GAS - MAR; F WES C A GAS - MAR; F LYO C A GAS - MAR
I: A MAR H
=> A MAR dislodged; A MAR @F; retreat A MAR: GAS
== 6.H.12 retreat when dislodged by adjacent convoy while trying to do the same
E: A LVP - EDI VIA; F IRI C A LVP - EDI; F ENG C A LVP - EDI; F NTH C A LVP - EDI
F: F BRE - ENG; F MAO S F BRE - ENG
R: A EDI - LVP VIA; F NWG C A EDI - LVP; F NAO C A EDI - LVP; A CLY S A EDI - LVP
=> A LVP no convoy; A LVP dislodged; A LVP @R; A EDI @-; retreat A LVP: EDI
== 6.H.13 no retreat with convoy in main phase
E: A PIC H; F ENG C A PIC - LON
F: A PAR - PIC; A BRE S A PAR - PIC
=> A PIC dislodged; noretreat A PIC: LON
== 6.H.14 no retreat with support in main phase
E: A PIC H; F ENG S A PIC - BEL
F: A PAR - PIC; A BRE S A PAR - PIC; A BUR H
G: A MUN S A MAR - BUR; A MAR - BUR
=> A PIC dislodged; A BUR dislodged
E: A PIC R BEL
F: A BUR R BEL
=> A PIC disband; A BUR disband; A BEL @-
== 6.H.15 no coastal crawl in retreat
E: F POR H
F: F SPA/SC - POR; F MAO S F SPA/SC - POR
=> F POR dislodged; F POR disband; retreats F POR: -; F POR @F
== 6.H.16 contested for both coasts
F: F MAO - SPA/NC; F GAS - SPA/NC; F WES H
I: F TUN S F TYS - WES; F TYS - WES
=> F WES dislodged; noretreat F WES: SPA/SC

== 6.I.1 too many build orders
phase W1901A
centres G: BER KIE MUN DEN
units G: A BER, F DEN, A SIL
G: A WAR B; A KIE B; A MUN B
=> A WAR void; A MUN void; A KIE @G; A MUN @-; A WAR @-; count G 4
== 6.I.2 fleets can not be build in land areas
phase W1901A
centres R: MOS SEV STP WAR
units R: A WAR, F SEV, F STP/SC
R: F MOS B
=> F MOS void; F MOS @-; A MOS @-; count R 3
== 6.I.3 supply center must be empty for building
phase W1901A
centres G: BER KIE MUN
units G: A BER
G: A BER B
=> A BER void; count G 1
== 6.I.4 both coasts must be empty for building
phase W1901A
centres R: MOS SEV STP WAR
units R: F STP/SC
R: A STP/NC B
=> A STP void; F STP/SC @R; count R 1
== 6.I.5 building in home supply center that is not owned
phase W1901A
centres G: KIE MUN
centres R: BER MOS
G: A BER B
=> A BER void; A BER @-; count G 0
== 6.I.6 building in owned supply center that is not a home supply center
phase W1901A
centres G: BER KIE MUN WAR
units G: A BER, A KIE, A MUN
G: A WAR B
=> A WAR void; A WAR @-; count G 3
== 6.I.7 only one build in a home supply center
phase W1901A
centres R: MOS SEV STP WAR
units R: A WAR, F SEV
R: A MOS B; A MOS B
=> A MOS @R; count R 3

== 6.J.1 too many remove orders
phase W1901A
centres F: PAR
units F: A PAR, A PIC
F: F LYO D; A PIC D; A PAR D
=> F LYO void; A PAR void; A PIC @-; A PAR @F
== 6.J.2 removing the same unit twice
phase W1901A
centres F: PAR
units F: A PAR, A PIC, A BUR
F: A PAR D; A PAR D
=> A PAR @-; A BUR @-; A PIC @F; count F 1
== 6.J.3 civil disorder two armies with different distance
phase W1901A
centres R: MOS
units R: A LVN, A SWE
=> A SWE @-; A LVN @R
== 6.J.4 civil disorder two armies with equal distance
phase W1901A
centres R: MOS
units R: A LVN, A UKR
=> A LVN @-; A UKR @R
== 6.J.5 civil disorder two fleets with different distance
phase W1901A
centres R: MOS
units R: F SKA, F BER
=> F BER @-; F SKA @R
== 6.J.6 civil disorder two fleets with equal distance
phase W1901A
centres R: MOS
units R: F BER, F HEL
=> F BER @-; F HEL @R
== 6.J.7 civil disorder two fleets and army with equal distance
phase W1901A
centres R: MOS MUN
units R: A BOH, F SKA, F NTH
=> F NTH @-; F SKA @R; A BOH @R
== 6.J.8 civil disorder a fleet with shorter distance then the army
phase W1901A
centres R: MOS
units R: A TYR, F BAL
=> A TYR @-; F BAL @R
== 6.J.9 civil disorder must be counted from both coasts
phase W1901A
centres R: MOS
units R: A TYR, F SKA
=> A TYR @-; F SKA @R
== 6.J.10 civil disorder counting convoying distance
phase W1901A
centres I: NAP ROM
units I: F ION, A GRE, A SIL
=> A SIL @-; A GRE @I; F ION @I
== 6.J.11 civil disorder counting distance without convoying fleet
phase W1901A
centres I: NAP
units I: A GRE, A SIL
=> A SIL @-; A GRE @I
"""

# Explicit adjacent convoying (DATC issue 4.A.3, choice e): an adjacent move is by convoy only
# when ordered VIA. Offered as the `datc="3.0"` option; only these cases change.
VARIANT_CASES = """
== 6.G.1 two units can swap places by convoy (explicit adjacent convoying: head to head)
E: A NWY - SWE; F SKA C A NWY - SWE
R: A SWE - NWY
=> A NWY @E; A SWE @R; A NWY bounce
== 6.G.5 swapping with intent (explicit adjacent convoying: head to head)
I: A ROM - APU; F TYS C A APU - ROM
T: A APU - ROM; F ION C A APU - ROM
=> A ROM @I; A APU @T
== 6.G.9 swapped or dislodged? (explicit adjacent convoying: the land route)
E: A NWY - SWE; F SKA C A NWY - SWE; F FIN S A NWY - SWE
R: A SWE - NWY
=> A SWE @E; A SWE dislodged; A NWY @-
"""
