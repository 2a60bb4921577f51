"""Amounts grouped by thousands as each language writes them (issue 13, item 6: "numbers with
thousands separators"). CLDR's Spanish groups only from five digits, so ``Intl`` writes
1000,00 where a Spanish page must show 1.000,00: the pages' ``money`` groups every amount
of four digits or more, in Chromium as the players' browsers run it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import Person

pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]

SHOWN = """async () => {
  const common = await import("/web/static/js/common.js");
  return [common.money(1000), common.money("1000.5"), common.money(999), common.money(-1234),
          common.money("12345678"), common.moneyMinor(100000), common.moneyMinor(-123456),
          common.moneyMinor(99999), common.moneyUnits(1500), common.moneyUnits("7.5"),
          common.moneyUnits("0.475"), common.moneyUnits(-2)];
}"""


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (
            "es-ES",
            [
                *("1.000", "1.000,5", "999", "-1.234", "12.345.678"),
                *("1.000,00", "-1.234,56", "999,99"),
                *("1.500,00", "7,50", "0,475", "-2,00"),
            ],
        ),
        (
            "en-US",
            [
                *("1,000", "1,000.5", "999", "-1,234", "12,345,678"),
                *("1,000.00", "-1,234.56", "999.99"),
                *("1,500.00", "7.50", "0.475", "-2.00"),
            ],
        ),
    ],
)
def test_four_digit_amounts_are_grouped_in_spanish_as_in_english(
    person: Callable[..., Person], locale: str, expected: list[str]
) -> None:
    someone = person(f"numbers-{locale}", locale=locale)
    someone.go("/sign-in")
    shown: list[Any] = someone.page.evaluate(SHOWN)
    assert shown == expected
