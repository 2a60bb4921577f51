"""The audit chain's tables: its entries, its head, and which entry covers each audited row
(R15). They are the audit's own, below the service that writes through them, as the ledger's
are (``ledger/models.py``), on the one declarative base (``croupier.storage``)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Float, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from croupier.storage import Base


class AuditEntry(Base):
    """One link of the hash chain: an audited row as it now is (its table, key and digest, and
    the digest it had before), or an event recorded in its own right (``detail``). ``hash``
    covers every other field and the previous entry's hash (``croupier.audit.chain``)."""

    __tablename__ = "audit_chain"
    __table_args__ = (Index("ix_audit_chain_row", "table_name", "row_key"),)

    seq: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    at: Mapped[float] = mapped_column(Float)
    actor: Mapped[str] = mapped_column(String(96))
    kind: Mapped[str] = mapped_column(String(48))
    table_name: Mapped[str | None] = mapped_column(String(48), nullable=True)
    row_key: Mapped[str | None] = mapped_column(String(256), nullable=True)
    """The row's primary key as canonical JSON (``[17]``, ``[17, 2, 5]``)."""
    before: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The row's digest as the previous entry covering it recorded it; ``None``: new."""
    after: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The row's digest now; ``None``: the row was deleted."""
    detail: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Canonical JSON of an event recorded in its own right (a decision, its before and after)."""
    previous_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))


class AuditHead(Base):
    """The chain's last entry, in one row: appending locks it, so two transactions never
    append after the same entry (PostgreSQL; SQLite has one writer at a time anyway)."""

    __tablename__ = "audit_head"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seq: Mapped[int] = mapped_column(BigInteger)
    hash: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)


class AuditCover(Base):
    """Which entry covers each audited row now, and the digest it recorded: where the next
    change's ``before`` comes from. Derived from the chain; ``audit verify`` rebuilds it and
    compares."""

    __tablename__ = "audit_cover"

    table_name: Mapped[str] = mapped_column(String(48), primary_key=True)
    row_key: Mapped[str] = mapped_column(String(256), primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
