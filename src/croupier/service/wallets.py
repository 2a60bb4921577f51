"""The operator's credits and debits, balances, and the audit of the books."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from croupier.ledger import book
from croupier.ledger.postings import Leg, parse_minor_amount, round_of_reference
from croupier.service.accounts import USERNAME, wallet_of
from croupier.service.errors import NotFound
from croupier.service.models import Account, LedgerEntry, LedgerTransaction, User


def user_id_of(session: Session, username: str) -> int:
    if not USERNAME.fullmatch(username):  # no such account; and a NUL byte is PostgreSQL's 500
        raise NotFound(f"no player {username!r}")
    found = session.scalar(select(User.id).where(User.username == username, User.role == "player"))
    if found is None:
        raise NotFound(f"no player {username!r}")
    return found


def move(
    session: Session, username: str, amount: object, direction: str, now: float
) -> dict[str, Any]:
    """Credit (cashier -> wallet) or debit (wallet -> cashier) whole minor units (R13)."""
    minor = parse_minor_amount(amount, "amount")
    user_id = user_id_of(session, username)
    wallet = wallet_of(session, user_id)
    cashier = book.open_account(session, *book.CASHIER, may_go_negative=True)
    sign = 1 if direction == "credit" else -1
    legs = [Leg(wallet, sign * minor), Leg(cashier, -sign * minor)]
    transaction = book.post(session, direction, f"user:{user_id}", legs, now)
    return {
        "transaction": transaction,
        "username": username,
        "amount": minor,
        "balance": book.balance(session, wallet),
    }


def balance_of(session: Session, user_id: int) -> int:
    return book.balance(session, wallet_of(session, user_id))


def entries_of(session: Session, user_id: int, limit: int, offset: int = 0) -> list[dict[str, Any]]:
    """The wallet's statement, newest first (``offset`` pages back): each movement, when
    (``at``, epoch seconds), its kind, the round it belongs to (or ``None``), and the
    balance before and after it, in minor units."""
    wallet = wallet_of(session, user_id)
    rows = session.execute(
        select(LedgerEntry, LedgerTransaction)
        .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
        .where(LedgerEntry.account_id == wallet)
        .order_by(LedgerEntry.id.desc())
        .limit(limit)
        .offset(offset)
    ).all()
    return [
        {
            "entry": e.id,
            "transaction": t.id,
            "kind": t.kind,
            "reference": t.reference,
            "round": round_of_reference(t.reference),
            "at": t.created_at,
            "amount": e.amount,
            "balance_before": e.balance_before,
            "balance_after": e.balance_after,
        }
        for e, t in rows
    ]


def audit_report(session: Session) -> dict[str, Any]:
    accounts = {
        f"{kind}:{owner}": balance
        for kind, owner, balance in session.execute(
            select(Account.kind, Account.owner, Account.balance)
        )
    }
    return {
        "problems": book.audit(session),
        "sum": int(session.scalar(select(func.coalesce(func.sum(Account.balance), 0))) or 0),
        "accounts": accounts,
    }
