"""Exact money in the engines.

A wager is a whole number of table units (docs/rules.md §6: a negative or fractional-unit amount
is refused; 0 is no wager). Payouts are exact ``Fraction``s of the stake, because the rules
pay 3:2, 1:2 and 5:1; they are written to JSON as a number that is exact for the halves the
shipped paytables make (7.5). Ratios in profiles are written ``"3:2"``.

>>> parse_amount(10, "main")
10
>>> parse_amount(-5, "main")
Traceback (most recent call last):
...
croupier.errors.AmountError: main: amount -5 is negative
>>> Ratio.parse("3:2").payout(Fraction(10))
Fraction(25, 1)
>>> json_number(Fraction(15, 2))
7.5
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from croupier.errors import AmountError, BetError, NotationError

Money = Fraction
"""An exact amount of table units."""

ASCII_NUMBER = re.compile(r"[0-9]{1,15}")
"""What a number in notation is: ASCII digits only (``str.isdigit`` also takes '²' and '５',
which ``int`` then refuses or reads), at most 15 of them (issue 10, item 8)."""


def is_ascii_number(text: str) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits.

    >>> is_ascii_number("12"), is_ascii_number("²"), is_ascii_number("５"), is_ascii_number("")
    (True, False, False, False)
    """
    return ASCII_NUMBER.fullmatch(text) is not None


MAX_UNITS = 10**11
"""The most units one wager may be (100 billion; 10**13 minor units, the ledger's cap): far
below 2**63, so no amount that passes reaches a database integer's limit (issue 10, item 7)."""


def parse_amount(value: object, what: str) -> int:
    """A whole, non-negative number of units from JSON or user input, or ``AmountError``.

    Only an integer is an amount (R13): a float is refused even when whole (``5.0``, ``1e2``,
    ``1.0000000000000001``, which JSON gives as the float 1.0), as are booleans, text and
    anything above ``MAX_UNITS`` (a ``BetError``, as a table limit refuses).
    """
    if isinstance(value, float):
        if not math.isfinite(value):
            raise AmountError(
                f"{what}: amount {value!r} is not a finite number",
                code="amount_not_a_number",
                amount=repr(value),
            )
        if value != int(value):
            raise AmountError(
                f"{what}: amount {value!r} is not a whole number of units",
                code="amount_not_whole",
                amount=repr(value),
            )
        raise AmountError(
            f"{what}: amount {value!r} is a float: only an integer is an amount",
            code="amount_not_whole",
            amount=repr(value),
        )
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise AmountError(
            f"{what}: amount {value!r} is not a number",
            code="amount_not_a_number",
            amount=repr(value),
        )
    if value < 0:
        raise AmountError(
            f"{what}: amount {value!r} is negative", code="amount_negative", amount=str(value)
        )
    if value != int(value):
        raise AmountError(
            f"{what}: amount {value!r} is not a whole number of units",
            code="amount_not_whole",
            amount=str(value),
        )
    if value > MAX_UNITS:  # above every table's limit: the refusal a limit gives (BetError)
        raise BetError(
            f"{what}: amount {value!r} is above the maximum of {MAX_UNITS} units",
            code="amount_too_large",
            amount=str(value),
            maximum=MAX_UNITS,
        )
    return int(value)


def json_number(amount: Fraction | int) -> int | float:
    """An amount as a JSON number: an int when whole, else a float (7.5)."""
    amount = Fraction(amount)
    if amount.denominator == 1:
        return amount.numerator
    return float(amount)


@dataclass(frozen=True, slots=True)
class Ratio:
    """A payout ratio ``win:stake`` such as 3:2; ``payout`` returns stake plus winnings."""

    win: int
    stake: int

    @classmethod
    def parse(cls, text: str) -> Ratio:
        parts = text.replace(" ", "").split(":") if isinstance(text, str) else []
        if (
            len(parts) != 2
            or not all(is_ascii_number(part) for part in parts)
            or int(parts[1]) == 0
        ):
            raise NotationError(f"unknown payout ratio {text!r}: expected 'win:stake', e.g. '3:2'")
        return cls(int(parts[0]), int(parts[1]))

    @property
    def multiplier(self) -> Fraction:
        return Fraction(self.win, self.stake)

    def winnings(self, stake: Fraction | int) -> Fraction:
        return Fraction(stake) * self.multiplier

    def payout(self, stake: Fraction | int) -> Fraction:
        """All that a winning wager returns, its stake included."""
        return Fraction(stake) + self.winnings(stake)

    def __str__(self) -> str:
        return f"{self.win}:{self.stake}"
