"""Convoys of several fleets, broken at each link in turn: hand-written cases in the DATC table syntax
(tests/diplomacy/datc_runner.py), so that they run without the reference engine.

Rule (2000 rulebook, "Convoying"): "A fleet in a body of water can convoy an army from a coastal
province to another coastal province adjacent to that body of water... Fleets in several
adjacent bodies of water can convoy an army across all of them, if each fleet is ordered to
convoy it." And: "If a convoying fleet is dislodged, the army it was convoying... remains in its
original province" (the chain is broken). So a convoy needs an unbroken chain: every sea on the
way holds a fleet ordered to convoy exactly this move, none of them dislodged, the first next to
the army's province and the last next to the destination. A chain one fleet short carries nothing.

The chains: A LON - TUN through ENG, MAO, WES (three fleets); A EDI - TUN through NTH, ENG, MAO,
WES (four); A LVP - NAF through IRI, MAO (two). Each link is broken four ways: no fleet there,
a fleet there holding, a fleet there convoying another move, a fleet there dislodged. With no fleet there no chain
exists, so the move and the convoys are orders the rules cannot give (void, as in DATC 6.A); in
the other three the move is given and fails for want of its convoy (words as in
test_rules_convoy_words.py).
"""

from __future__ import annotations

import pytest

from tests.diplomacy.datc_runner import Case, parse_cases, run_case

CHAINS = {
    "LON-TUN": ("LON", "TUN", ("ENG", "MAO", "WES")),
    "EDI-TUN": ("EDI", "TUN", ("NTH", "ENG", "MAO", "WES")),
    "LVP-NAF": ("LVP", "NAF", ("IRI", "MAO")),
}
# a French attack that dislodges the fleet at each sea: (attacker, supporter), both adjacent to it
ATTACKS = {
    "ENG": ("F BRE", "F PIC"), "MAO": ("F POR", "F SPA/NC"), "WES": ("F LYO", "F TYS"),
    "NTH": ("F HOL", "F BEL"), "IRI": ("F NAO", "F WAL"),
}


def _table() -> str:
    """The cases, generated from CHAINS into the runner's syntax (one block per case)."""
    lines: list[str] = []
    for name, (start, dest, seas) in CHAINS.items():
        move = f"A {start} - {dest}"
        convoys = [f"F {sea} C {move}" for sea in seas]
        lines += [f"== {name}.whole the whole chain carries the army",
                  f"E: {move}; " + "; ".join(convoys),
                  f"=> A {start} ok; A {dest} @E; A {start} @-"]
        for i, sea in enumerate(seas):
            others = "; ".join(c for j, c in enumerate(convoys) if j != i)
            rest = "; ".join(f"F {s} no convoy" for j, s in enumerate(seas) if j != i)
            # no chain of fleets exists at all: the move cannot be given, nor the convoys (void)
            unused = "; ".join(f"F {s} void" for j, s in enumerate(seas) if j != i)
            lines += [f"== {name}.{sea}-missing no fleet at {sea}: one fleet short",
                      f"E: {move}; {others}",
                      f"=> A {start} void; {unused}; A {start} @E; A {dest} @-; F {sea} @-"]
            lines += [f"== {name}.{sea}-holds the fleet at {sea} holds",
                      f"E: {move}; {others}; F {sea} H",
                      f"=> A {start} no convoy; {rest}; A {start} @E; A {dest} @-; F {sea} @E"]
            other = f"A {start} - {'NAF' if dest != 'NAF' else 'TUN'}"
            lines += [f"== {name}.{sea}-elsewhere the fleet at {sea} convoys another move",
                      f"E: {move}; {others}; F {sea} C {other}",
                      f"=> A {start} no convoy; A {start} @E; A {dest} @-; F {sea} @E"]
            attacker, supporter = ATTACKS[sea]
            lines += [f"== {name}.{sea}-dislodged the fleet at {sea} is dislodged",
                      f"E: {move}; " + "; ".join(convoys),
                      f"F: {attacker} - {sea}; {supporter} S {attacker} - {sea}",
                      f"=> A {start} no convoy; {rest}; F {sea} dislodged; A {start} @E; A {dest} @-; F {sea} @F"]
    return "\n".join(lines)


CASES = parse_cases(_table())


def test_every_link_of_every_chain_is_broken_four_ways():
    per_chain = {name: sum(c.id.startswith(name + ".") for c in CASES) for name in CHAINS}
    assert per_chain == {name: 1 + 4 * len(seas) for name, (_, _, seas) in CHAINS.items()}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_convoy_chain(case: Case):
    run_case(case)


def test_a_chain_needs_no_fleet_beyond_its_last_link():
    """A fleet beyond the destination's sea (TYS, convoying too) is not needed: the chain stands."""
    run_case(parse_cases("\n".join([
        "== extra.fleet a convoying fleet off the chain",
        "E: A LON - TUN; F ENG C A LON - TUN; F MAO C A LON - TUN; F WES C A LON - TUN; F ION C A LON - TUN",
        "=> A TUN @E",
    ]))[0])
