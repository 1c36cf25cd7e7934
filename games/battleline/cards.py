"""Battle Line cards as ints: troops 0..59 (colour * 10 + value - 1), tactics 60..69.

Components (reference notes 1.1, "Components"): 60 troops in six colours valued 1-10, and ten
tactics cards, one of each. Names are what actions and observations show: a troop is its colour
letter and value ("R10", "B3"); a tactics card is a lower-case word ("alexander", "mud").
"""

from __future__ import annotations

COLOURS = "ROYGBP"  # red, orange, yellow, green, blue, purple
N_TROOPS = 60

ALEXANDER, DARIUS, CAVALRY, SHIELD, FOG, MUD, SCOUT, REDEPLOY, DESERTER, TRAITOR = range(60, 70)
TACTIC_NAMES = ("alexander", "darius", "cavalry", "shield", "fog", "mud",
                "scout", "redeploy", "deserter", "traitor")
TROOPS = tuple(range(N_TROOPS))
TACTICS = tuple(range(N_TROOPS, N_TROOPS + 10))
LEADERS = frozenset({ALEXANDER, DARIUS})  # morale: wild, any colour and value; one per player
MORALE = frozenset({ALEXANDER, DARIUS, CAVALRY, SHIELD})  # played into a formation slot
ENVIRONMENT = frozenset({FOG, MUD})  # played on a flag, no slot
GUILE = frozenset({SCOUT, REDEPLOY, DESERTER, TRAITOR})  # immediate effect, then discarded

NAMES: tuple[str, ...] = tuple(
    [f"{COLOURS[c // 10]}{c % 10 + 1}" for c in TROOPS] + list(TACTIC_NAMES))
CARD_OF: dict[str, int] = {name: i for i, name in enumerate(NAMES)}

TROOP_DECK, TACTICS_DECK = 0, 1
DECK_NAMES = ("troops", "tactics")


def colour(card: int) -> int:
    return card // 10


def value(card: int) -> int:
    return card % 10 + 1


def is_troop(card: int) -> bool:
    return card < N_TROOPS


def deck_of(card: int) -> int:
    """The deck a card belongs to (troop or tactics), where Scout returns it."""
    return TROOP_DECK if card < N_TROOPS else TACTICS_DECK
