"""Events keep exact amounts through JSON (R14): a float where it is exact, "n/d" where not."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.games.casino_holdem import MeterOpened
from croupier.games.events import Event


@pytest.mark.parametrize(
    ("meter", "written"),
    [
        (Fraction(5000), 5000),
        (Fraction(10001, 2), 5000.5),
        (Fraction(18009, 20), 900.45),
        (Fraction(1, 3), "1/3"),
        (Fraction(5000) * Fraction(9, 10) ** 25 + Fraction(1, 2), None),
    ],
)
def test_a_meter_round_trips_exactly(meter: Fraction, written: object) -> None:
    document = MeterOpened(meter=meter).to_json()
    if written is not None:
        assert document["meter"] == written
    assert Event.from_json(document) == MeterOpened(meter=meter)
