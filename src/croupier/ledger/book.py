"""The book: what a movement of money is, and its posting to the accounts (R7, R9).

A posting is a list of legs (account id, signed integer minor units) that sums to zero,
derived from what happened at a table (``bet_legs``, ``settlement_legs``), never written ad
hoc; ``post`` writes it to the accounts atomically, in the caller's transaction (R10).

A debit is one ``UPDATE ... WHERE balance + amount >= 0`` (unless the account may go
negative): two concurrent bets that one balance covers cannot both pass, whatever the
database's isolation. Legs are applied in account order so that two transactions never
wait on each other's rows in opposite orders (no deadlock on PostgreSQL).

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
from typing import Any, Protocol, cast

from sqlalchemy import Table, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.errors import AmountError, InsufficientFunds, LedgerError
from croupier.ledger.models import Account, LedgerEntry, LedgerTransaction

# --- amounts, references and legs: what a posting is ----------------------------------
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


# --- the accounts, and posting to them ---------------------------------------------------
HOUSE = ("house", "house")
CASHIER = ("cashier", "cashier")
"""Money from and to the outside world: its balance is minus all money inside."""


def wallet(user_id: int) -> tuple[str, str]:
    """The ``(kind, owner)`` of a player's wallet account."""
    return ("wallet", str(user_id))


ACCOUNTS = cast(Table, Account.__table__)
TRANSACTIONS = cast(Table, LedgerTransaction.__table__)
ENTRIES = cast(Table, LedgerEntry.__table__)

# The statements of every posting, built once: building one (and SQLAlchemy deriving its
# cache key) cost about three times what running it did (issue 28, item 8).
NEW_TRANSACTION = insert(TRANSACTIONS)
CREDIT = (
    update(ACCOUNTS)
    .where(ACCOUNTS.c.id == bindparam("account"))
    .values(balance=ACCOUNTS.c.balance + bindparam("amount"))
    .returning(ACCOUNTS.c.balance)
)
DEBIT = CREDIT.where(
    or_(ACCOUNTS.c.may_go_negative.is_(True), ACCOUNTS.c.balance >= bindparam("covered"))
)
"""A debit (``amount`` < 0): only where the account covers it (``covered`` = -``amount``)."""
NEW_ENTRIES = insert(ENTRIES)


class Ledger(Protocol):
    """Where the accounts and their postings are kept, as the service writes through them
    (``Money.ledger``, ``wallets.move``): the database's book (this module's functions are
    this protocol's SQL implementation), or a test's dictionary (``tests/service/fakes.py``:
    ``FakeLedger``)."""

    def find_account(self, session: Any, kind: str, owner: str) -> int | None:
        """The id of the account ``(kind, owner)``, or ``None`` if there is none yet."""

    def open_account(
        self, session: Any, kind: str, owner: str, *, may_go_negative: bool = False
    ) -> int:
        """The id of the account ``(kind, owner)``, opened if there is none yet."""

    def post(
        self, session: Any, kind: str, reference: str, legs: tuple[Leg, ...] | list[Leg], now: float
    ) -> int:
        """One balanced transaction, its id; ``InsufficientFunds`` and nothing posted if a
        debit would take an account that may not go negative below zero (R7, R9)."""

    def balance(self, session: Any, account_id: int) -> int:
        """The account's balance in minor units."""


def find_account(session: Session, kind: str, owner: str) -> int | None:
    """The id of the account ``(kind, owner)``, or ``None`` if there is none yet."""
    accounts = ACCOUNTS.c
    found = (
        session.connection()
        .execute(select(accounts.id).where(accounts.kind == kind, accounts.owner == owner))
        .scalar()
    )
    return None if found is None else int(found)


def open_account(session: Session, kind: str, owner: str, *, may_go_negative: bool = False) -> int:
    """The id of the account ``(kind, owner)``, created if it does not exist yet."""
    found = find_account(session, kind, owner)
    if found is not None:
        return found
    try:
        with session.begin_nested():
            account = Account(kind=kind, owner=owner, balance=0, may_go_negative=may_go_negative)
            session.add(account)
            session.flush()
            return account.id
    except IntegrityError:
        found = session.scalar(
            select(Account.id).where(Account.kind == kind, Account.owner == owner)
        )
        if found is None:
            raise
        return found


def post(
    session: Session, kind: str, reference: str, legs: tuple[Leg, ...] | list[Leg], now: float
) -> int:
    """Record one balanced transaction; raise ``InsufficientFunds`` and change nothing if a
    debit would take an account below zero. Returns the transaction id."""
    check_balanced(legs)
    merged: dict[int, int] = {}
    for leg in legs:
        merged[leg.account] = merged.get(leg.account, 0) + leg.amount
    # Core statements on the session's connection (same transaction, R10): the ORM's unit of
    # work per row (flush, identity map, fetching the new keys) cost more than the SQL itself.
    connection = session.connection()
    new_key = connection.execute(
        NEW_TRANSACTION, {"kind": kind, "reference": reference, "created_at": now}
    ).inserted_primary_key
    assert new_key is not None
    transaction_id = int(new_key[0])
    entries: list[dict[str, int]] = []
    for account_id in sorted(merged):
        amount = merged[account_id]
        if amount == 0:
            continue
        moved = {"account": account_id, "amount": amount}
        if amount < 0:
            after = connection.execute(DEBIT, {**moved, "covered": -amount}).scalar_one_or_none()
        else:
            after = connection.execute(CREDIT, moved).scalar_one_or_none()
        if after is None:
            raise InsufficientFunds(
                f"account {account_id} does not cover {-amount} minor units ({kind})",
                code="balance_too_low",
                account=account_id,
                amount_minor=-amount,
                kind=kind,
            )
        entries.append(
            {
                "transaction_id": transaction_id,
                "account_id": account_id,
                "amount": amount,
                "balance_before": after - amount,
                "balance_after": after,
            }
        )
    if entries:
        connection.execute(NEW_ENTRIES, entries)
    return transaction_id


def balance(session: Session, account_id: int) -> int:
    value = session.scalar(select(Account.balance).where(Account.id == account_id))
    if value is None:
        raise LedgerError(f"no account {account_id}")
    return value


def audit(session: Session) -> list[str]:
    """Every breach of double entry (R9); an empty list when the books are sound.

    The balances sum to zero; each transaction's legs sum to zero; each balance equals the
    sum of its entries; each entry's balance before is the previous entry's balance after.
    """
    problems: list[str] = []
    total = session.scalar(select(func.coalesce(func.sum(Account.balance), 0)))
    if total != 0:
        problems.append(f"balances sum to {total}, not 0")
    unbalanced = session.execute(
        select(LedgerEntry.transaction_id, func.sum(LedgerEntry.amount))
        .group_by(LedgerEntry.transaction_id)
        .having(func.sum(LedgerEntry.amount) != 0)
    ).all()
    problems += [f"transaction {tid} legs sum to {s}" for tid, s in unbalanced]
    sums: dict[int, int] = dict(
        session.execute(
            select(LedgerEntry.account_id, func.sum(LedgerEntry.amount)).group_by(
                LedgerEntry.account_id
            )
        ).all()
    )
    for account_id, value in session.execute(select(Account.id, Account.balance)).all():
        if int(sums.get(account_id, 0)) != value:
            problems.append(
                f"account {account_id}: balance {value} but entries sum to {sums.get(account_id, 0)}"
            )
    previous: dict[int, int] = {}
    for entry in session.scalars(select(LedgerEntry).order_by(LedgerEntry.id)):
        if entry.balance_after - entry.balance_before != entry.amount:
            problems.append(f"entry {entry.id}: before/after differ by other than its amount")
        if previous.get(entry.account_id, 0) != entry.balance_before:
            problems.append(f"entry {entry.id}: balance before does not follow the last entry")
        previous[entry.account_id] = entry.balance_after
    return problems
