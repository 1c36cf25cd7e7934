"""The address convention (actors/address.py): built and parsed in one place."""

from __future__ import annotations

import pytest

from actors.address import office_address, office_of, player_address, player_of, seat_of


def test_built_addresses_parse_back():
    assert player_address(3) == "p3" and office_address(3, "fo") == "p3/fo"
    for seat in (0, 7, 12):
        for address in (player_address(seat), office_address(seat, "so"), office_address(seat, "rso")):
            assert seat_of(address) == seat and player_of(address) == player_address(seat)
    assert office_of("p3/rso") == "rso" and office_of("p3") is None


@pytest.mark.parametrize("address", ["referee", "log", "bus", "runner", "p", "px/fo", "player3"])
def test_other_addresses_belong_to_no_seat(address):
    assert seat_of(address) is None and office_of(address) is None
