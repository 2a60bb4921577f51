"""Postings derived from what happened at a table, never written ad hoc.

A posting is a list of legs (account id, signed minor units) that sums to zero (R9).

>>> to_minor(Fraction(15, 2))
750
>>> bet_legs(wallet=1, escrow=2, minor=500)
(Leg(account=1, amount=-500), Leg(account=2, amount=500))
>>> parse_minor_amount(1.5, "amount")
Traceback (most recent call last):
...
croupier.errors.AmountError: amount: 1.5 is not a whole number of minor units (an integer)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from croupier.errors import AmountError, LedgerError

MINOR_PER_UNIT = 100
"""One table unit is 100 minor units (a unit of 1.00 is 100 cents)."""

MAX_MINOR_AMOUNT = 10**13
"""The most a single credit, debit or bet may move (100 billion units): refuses 'huge' (R13)."""

ROUND_REFERENCE = re.compile(r"^round:(\d+)(?::|$)")
"""A ledger transaction of a round names it first: ``round:12``, ``round:12:bet``."""


def round_reference(round_id: int, *detail: object) -> str:
    """The reference of a round's ledger transaction: ``round:12`` for its settlement or void,
    ``round:12:<detail>`` for a stake or a back bet (``round_of_reference`` reads it back).

    >>> round_reference(12), round_reference(12, "back", 3)
    ('round:12', 'round:12:back:3')
    """
    return ":".join(("round", str(round_id), *map(str, detail)))


def round_of_reference(reference: str) -> int | None:
    """The round a ledger transaction belongs to, or ``None`` (a credit, a debit).

    >>> round_of_reference("round:12:back:3"), round_of_reference("user:4")
    (12, None)
    """
    match = ROUND_REFERENCE.match(reference)
    return int(match.group(1)) if match else None


@dataclass(frozen=True, slots=True)
class Leg:
    account: int
    amount: int


def parse_minor_amount(value: object, what: str, maximum: int = MAX_MINOR_AMOUNT) -> int:
    """A positive whole number of minor units as JSON gives it, or ``AmountError`` (R13).

    Only a JSON integer is an amount: a float (even 5.0), a string, a boolean, NaN, zero, a
    negative or a value above ``maximum`` is refused, naming the value.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float):
            raise AmountError(
                f"{what}: {value!r} is not a whole number of minor units (an integer)"
            )
        raise AmountError(f"{what}: {value!r} is not an integer number of minor units")
    if value <= 0:
        raise AmountError(f"{what}: {value} must be positive")
    if value > maximum:
        raise AmountError(f"{what}: {value} is above the most allowed, {maximum}")
    return value


def to_minor(units: Fraction | int) -> int:
    """Exact minor units of an amount of table units; refuses a fraction of a minor unit."""
    minor = Fraction(units) * MINOR_PER_UNIT
    if minor.denominator != 1:
        raise LedgerError(f"{units} units is not a whole number of minor units")
    return minor.numerator


def bet_legs(*, wallet: int, escrow: int, minor: int) -> tuple[Leg, ...]:
    """A stake leaves the wallet for the table's escrow (negative: it comes back)."""
    return (Leg(wallet, -minor), Leg(escrow, minor))


def settlement_legs(
    *, escrow: int, house: int, held: int, payouts: Mapping[int, int]
) -> tuple[Leg, ...]:
    """A round's escrow empties: each wallet gets its payouts, the house the rest (or pays)."""
    legs = [Leg(escrow, -held)] if held else []
    paid = 0
    for wallet, amount in sorted(payouts.items()):
        if amount:
            legs.append(Leg(wallet, amount))
            paid += amount
    if held - paid:
        legs.append(Leg(house, held - paid))
    return tuple(legs)


def check_balanced(legs: tuple[Leg, ...] | list[Leg]) -> None:
    total = sum(leg.amount for leg in legs)
    if total != 0:
        raise LedgerError(f"legs sum to {total}, not 0: {legs}")
