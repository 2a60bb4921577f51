"""The ledger's tables: accounts, and the balanced transactions posted to them (R9).

Money is integer minor units (``BigInteger``): SQLite stores ``Numeric`` as REAL and loses
digits (STACK.md).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from croupier.storage import Base


class Account(Base):
    """A ledger account: a wallet, a table's escrow, the house, the jackpot, the cashier."""

    __tablename__ = "accounts"
    __table_args__ = (UniqueConstraint("kind", "owner"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    owner: Mapped[str] = mapped_column(String(64))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    may_go_negative: Mapped[bool] = mapped_column(Boolean, default=False)
    """Only the house and the cashier (money from and to the outside) may."""


class LedgerTransaction(Base):
    __tablename__ = "ledger_transactions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    reference: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[float] = mapped_column(Float)


class LedgerEntry(Base):
    __tablename__ = "ledger_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("ledger_transactions.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    balance_before: Mapped[int] = mapped_column(BigInteger)
    balance_after: Mapped[int] = mapped_column(BigInteger)
