"""The operator's credits and debits, balances, and the audit of the books."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from croupier.gaming_day import GamingDay
from croupier.ledger import book
from croupier.ledger.book import Ledger, Leg, parse_minor_amount, round_of_reference
from croupier.service import protection
from croupier.service.accounts import USERNAME, wallet_of
from croupier.service.errors import NotFound
from croupier.service.models import Account, LedgerEntry, LedgerTransaction, User
from croupier.service.staff_models import DisputeRecord, PayoutCorrectionRecord


def user_id_of(session: Session, username: str) -> int:
    if not USERNAME.fullmatch(username):  # no such account; and a NUL byte is PostgreSQL's 500
        raise NotFound(f"no player {username!r}")
    found = session.scalar(select(User.id).where(User.username == username, User.role == "player"))
    if found is None:
        raise NotFound(f"no player {username!r}")
    return found


def move(  # noqa: PLR0917 - the movement's every part
    session: Session,
    ledger: Ledger,
    username: str,
    amount: object,
    direction: str,
    now: float,
    *,
    gaming_day: GamingDay | None = None,
) -> dict[str, Any]:
    """Credit (cashier -> wallet) or debit (wallet -> cashier) whole minor units (R13), in
    ``ledger`` (the handler's ``book.Ledger``: the database's book, or a test's).

    A credit to a player on a break or self-excluded (``on_break``, ``self_excluded``), or
    one that would take them past a deposit limit (``deposit_limit_reached``), is refused
    before anything moves, whichever route asked for it; a debit (the cashier paying the
    balance out) never is. ``gaming_day`` cuts the limit's periods (``None``: the default
    day, 06:00 local)."""
    minor = parse_minor_amount(amount, "amount")
    user_id = user_id_of(session, username)
    if direction == "credit":
        protection.verify_deposit(session, user_id, minor, now, gaming_day or GamingDay())
    wallet = ledger.open_account(session, *book.wallet(user_id))
    cashier = ledger.open_account(session, *book.CASHIER, may_go_negative=True)
    sign = 1 if direction == "credit" else -1
    legs = [Leg(wallet, sign * minor), Leg(cashier, -sign * minor)]
    transaction = ledger.post(session, direction, f"user:{user_id}", legs, now)
    return {
        "transaction": transaction,
        "username": username,
        "amount": minor,
        "balance": ledger.balance(session, wallet),
    }


def post_corrections(
    session: Session,
    kind: str,
    reference: str,
    corrections: Sequence[tuple[int, int]],
    now: float,
) -> int:
    """Post corrections of what a round paid as ONE compensating transaction: each
    ``(user id, minor units)`` to the player's wallet (negative: taken back) against the
    house. The round's own entries stay as they are. An upheld dispute
    (``disputes.decide``) and a confirmed payout correction (``payout_corrections.decide``)
    both post through here; a wallet that cannot give back what is taken is
    ``InsufficientFunds``, and nothing moves."""
    house = book.open_account(session, *book.HOUSE, may_go_negative=True)
    legs: list[Leg] = []
    for user_id, amount in corrections:
        legs += [Leg(wallet_of(session, user_id), amount), Leg(house, -amount)]
    return book.post(session, kind, reference, legs, now)


def players(session: Session) -> list[dict[str, Any]]:
    """Every player by name, with their wallet's balance (minor units; 0 before a wallet)."""
    wallets = dict(
        session.execute(
            select(Account.owner, Account.balance).where(Account.kind == "wallet")
        ).all()
    )
    users = session.execute(
        select(User.id, User.username).where(User.role == "player").order_by(User.username)
    ).all()
    return [
        {"id": user_id, "username": username, "balance": wallets.get(str(user_id), 0)}
        for user_id, username in users
    ]


def balance_of(session: Session, user_id: int) -> int:
    """The wallet's balance in minor units; 0 before the wallet is opened (staff have none).
    A read: it finds the wallet and never opens one (``UnitOfWork.read`` cannot write)."""
    wallet = book.find_account(session, *book.wallet(user_id))
    return 0 if wallet is None else book.balance(session, wallet)


def entries_of(session: Session, user_id: int, limit: int, offset: int = 0) -> list[dict[str, Any]]:
    """The wallet's statement, newest first (``offset`` pages back): each movement, when
    (``at``, epoch seconds), its kind, the round it belongs to (or ``None``), and the
    balance before and after it, in minor units."""
    wallet = book.find_account(session, *book.wallet(user_id))
    if wallet is None:
        return []  # no wallet yet, no movement: a read opens nothing
    rows = session.execute(
        select(LedgerEntry, LedgerTransaction)
        .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
        .where(LedgerEntry.account_id == wallet)
        .order_by(LedgerEntry.id.desc())
        .limit(limit)
        .offset(offset)
    ).all()
    corrections = _corrections_of(session, {t.id for _e, t in rows})
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
            **({"correction": corrections[t.id]} if t.id in corrections else {}),
        }
        for e, t in rows
    ]


def _corrections_of(session: Session, transaction_ids: set[int]) -> dict[int, dict[str, Any]]:
    """Transaction id -> the payout correction or the upheld dispute it posted, with its
    reason: the statement says why a correction moved the wallet (issue 14, item 3)."""
    if not transaction_ids:
        return {}
    rows = session.scalars(
        select(PayoutCorrectionRecord).where(
            PayoutCorrectionRecord.transaction_id.in_(transaction_ids)
        )
    )
    found = {
        int(row.transaction_id): {"correction": row.id, "reason": row.reason}
        for row in rows
        if row.transaction_id is not None
    }
    # An upheld dispute's corrections: the decision's reason.
    for dispute_id, transaction, reason in session.execute(
        select(DisputeRecord.id, DisputeRecord.transaction_id, DisputeRecord.reason).where(
            DisputeRecord.transaction_id.in_(transaction_ids)
        )
    ):
        if transaction is not None:
            found[int(transaction)] = {"dispute": int(dispute_id), "reason": reason or ""}
    return found


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
